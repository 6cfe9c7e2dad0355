/**
 * The rough fallback force field: the Lennard-Jones 12-6 nonbond term of the Universal Force Field of A. K. Rappé,
 * C. J. Casewit, K. S. Colwell, W. A. Goddard III and W. M. Skiff, J. Am. Chem. Soc. 114, 10024 (1992), for every
 * element pair, with the paper's per-element parameters (uffParameters.ts) and its geometric combination rule,
 * and nothing else of UFF: no bond, angle, torsion or inversion terms and no charges (no Coulomb). Energy in eV,
 * forces in eV/Å, the virial ∂E/∂ε (eV) as potential.ts defines it. Pure.
 *
 *   E_ij = D_ij [(x_ij/r)¹² − 2(x_ij/r)⁶]·S(r),   x_ij = √(x_i x_j),   D_ij = √(D_i D_j)
 *
 * minimum −D_ij at r = x_ij. S is the quintic switch of species.ts from SWITCH_START·x_ij to CUTOFF·x_ij
 * (2.24σ to 2.81σ in σ = x/2^(1/6), around the usual 2.5σ), so energy, forces and their derivative are
 * continuous and MD sees no jump. The switch drops the tail beyond ~2x: on fcc it moves the nearest-neighbour
 * distance from the full lattice sum's 0.97123·x to 0.9739·x and makes the crystal 6 % less bound.
 */
import { InputError, type Cell, type Vec3 } from './cell';
import { neighborList } from './neighbors';
import { addPairTerm, type Evaluation } from './potential';
import { pairTable, smoothSwitch } from './species';
import { UFF_NONBOND } from './uffParameters';

/** eV per kcal/mol (4.184 kJ/mol over the Faraday constant). */
export const KCAL_PER_MOL_IN_EV = 0.0433641;
/** Multiples of the pair's x_ij where the switch starts and where the pair energy reaches zero. */
export const SWITCH_START = 2;
export const CUTOFF = 2.5;

export const UFF_METHOD =
  "Rough reference model (none of the reference server's solid-state potentials covers these elements; not for research): the Lennard-Jones 12-6 nonbond term of the Universal Force Field (UFF), Rappé, Casewit, Colwell, Goddard and Skiff, J. Am. Chem. Soc. 114, 10024 (1992), Table 1 parameters for every element pair, geometric combination of x and D, " +
  `switched smoothly to zero between ${SWITCH_START}·x_ij and ${CUTOFF}·x_ij; no Coulomb and no bonded terms (bonds, angles, torsions), so covalent and ionic solids are not held together as they should be`;

/** The pair's van der Waals distance x (Å) and well depth D (eV). */
export interface LjPair {
  x: number;
  depth: number;
}

function nonbond(symbol: string): readonly [number, number] {
  const p = Object.hasOwn(UFF_NONBOND, symbol) ? UFF_NONBOND[symbol] : undefined;
  if (!p) throw new InputError(`UFF (Rappé et al. 1992) has no nonbond parameters for ${symbol}; its table ends at Lr.`);
  return p;
}

export function uffPair(a: string, b: string): LjPair {
  const [xa, da] = nonbond(a);
  const [xb, db] = nonbond(b);
  return { x: Math.sqrt(xa * xb), depth: Math.sqrt(da * db) * KCAL_PER_MOL_IN_EV };
}

/** The switched E(r) and dE/dr of one pair. */
export function ljEnergy(p: LjPair, r: number): [number, number] {
  const [s, ds] = smoothSwitch(r, SWITCH_START * p.x, CUTOFF * p.x);
  if (s === 0) return [0, 0];
  const q6 = (p.x / r) ** 6;
  const phi = p.depth * (q6 * q6 - 2 * q6);
  const dphi = (12 * p.depth * (q6 - q6 * q6)) / r;
  return [phi * s, dphi * s + phi * ds];
}

export function evaluateUff(cell: Cell): Evaluation {
  const pair = pairTable(cell.symbols, uffPair);
  const reach = CUTOFF * Math.max(...[...new Set(cell.symbols)].map((s) => nonbond(s)[0]));
  const list = neighborList(cell.lattice, cell.positions, reach);
  const forces: Vec3[] = cell.positions.map(() => [0, 0, 0]);
  const virial = [0, 0, 0, 0, 0, 0];
  let energy = 0;
  for (let n = 0; n < list.count; n++) {
    const i = list.i[n]!;
    const j = list.j[n]!;
    const r = list.r[n]!;
    const [e, de] = ljEnergy(pair(i, j), r);
    energy += e;
    addPairTerm(forces, virial, list, n, de / r);
  }
  return { energy, forces, virial };
}
