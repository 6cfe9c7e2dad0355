/**
 * The reference force field: a Morse pair potential for any pair of elements, switched smoothly to zero
 * at the cutoff, with energy, forces and stress. Pure.
 *
 * Morse rather than Lennard-Jones: its width is a parameter of its own (not tied to r0), and it stays finite
 * when two atoms overlap, so a badly built structure gives large forces instead of Infinity or NaN.
 */
import { volume, type Cell, type Vec3 } from './cell';
import { neighborList } from './neighbors';
import { bondLength, CUTOFF_FACTOR, maxCutoff, pairTable, SWITCH_ON, switching } from './species';

/** eV: the well depth of every pair. */
export const MORSE_DEPTH = 1;
/** a·r0, dimensionless: the well width scales with the bond length (a = 4/r0; Girifalco-Weizer Cu has 3.9). */
export const MORSE_STIFFNESS = 4;
/** What an answer computed with this potential says of it. */
export const MORSE_METHOD = `Rough reference model (no published potential covers these elements; not for research): a Morse pair potential for every element pair (D = ${MORSE_DEPTH} eV, r0 = r_cov(A) + r_cov(B), a = ${MORSE_STIFFNESS}/r0), switched smoothly to zero between ${SWITCH_ON}·r0 and ${CUTOFF_FACTOR}·r0`;

/** 1 eV/Å³ in GPa. */
export const EV_PER_A3_IN_GPA = 160.21766208;

export interface Evaluation {
  /** eV */
  energy: number;
  /** eV/Å, one per atom */
  forces: Vec3[];
  /** dE/dε (eV), the strain derivative, Voigt order xx yy zz yz xz xy; stress = virial / volume. */
  virial: number[];
}

/** The pair's Morse parameters: bond length r0 (Å) and inverse width a (1/Å). */
export interface MorsePair {
  r0: number;
  a: number;
}

export function morsePair(x: string, y: string): MorsePair {
  const r0 = bondLength(x, y);
  return { r0, a: MORSE_STIFFNESS / r0 };
}

/** E(r) = D[e^(−2a(r−r0)) − 2e^(−a(r−r0))]·S(r) with the switching function S, and dE/dr. */
export function pairEnergy(p: MorsePair, r: number): [number, number] {
  const [s, ds] = switching(r, p.r0);
  if (s === 0) return [0, 0];
  const e = Math.exp(-p.a * (r - p.r0));
  const phi = MORSE_DEPTH * (e * e - 2 * e);
  return [phi * s, 2 * p.a * MORSE_DEPTH * (e - e * e) * s + phi * ds];
}

export function evaluate(cell: Cell): Evaluation {
  const pair = pairTable(cell.symbols, morsePair);
  const list = neighborList(cell.lattice, cell.positions, maxCutoff(cell.symbols));
  const forces: Vec3[] = cell.positions.map(() => [0, 0, 0]);
  const virial = [0, 0, 0, 0, 0, 0];
  let energy = 0;
  for (let n = 0; n < list.count; n++) {
    const i = list.i[n];
    const j = list.j[n];
    const r = list.r[n];
    const [e, de] = pairEnergy(pair(i, j), r);
    energy += e;
    const dx = list.d[3 * n];
    const dy = list.d[3 * n + 1];
    const dz = list.d[3 * n + 2];
    const g = de / r;
    forces[i][0] += g * dx;
    forces[i][1] += g * dy;
    forces[i][2] += g * dz;
    forces[j][0] -= g * dx;
    forces[j][1] -= g * dy;
    forces[j][2] -= g * dz;
    virial[0] += g * dx * dx;
    virial[1] += g * dy * dy;
    virial[2] += g * dz * dz;
    virial[3] += g * dy * dz;
    virial[4] += g * dx * dz;
    virial[5] += g * dx * dy;
  }
  return { energy, forces, virial };
}

/** Stress in GPa, ASE's sign convention σ = (1/V)·∂E/∂ε: positive is tensile, negative compressive. */
export function stressGPa(virial: readonly number[], cell: Cell): number[] {
  const v = volume(cell.lattice);
  return virial.map((w) => (w / v) * EV_PER_A3_IN_GPA);
}
