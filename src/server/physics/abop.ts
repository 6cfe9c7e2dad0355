/**
 * The analytic bond-order potential (Tersoff–Brenner form) of K. Albe, K. Nordlund, J. Nord and A. Kuronen, "Modeling
 * of compound semiconductors: Analytical bond-order potential for Ga, As, and GaAs", Phys. Rev. B 66, 035205 (2002),
 * for Ga, As and their compounds. Energy in eV, forces in eV/Å, the virial ∂E/∂ε (eV) as potential.ts defines it. Pure.
 *
 *   E = ½ Σ_i Σ_{j≠i} f_c(r_ij) [V_R(r_ij) − b_ij V_A(r_ij)]
 *   V_R = D0/(S − 1) e^(−β√(2S)(r − r0)),   V_A = S·D0/(S − 1) e^(−β√(2/S)(r − r0))
 *   b_ij = (1 + χ_ij)^(−½),   χ_ij = Σ_{k≠i,j} f_c(r_ik) g_ik(θ_ijk) e^(2μ_ik (r_ij − r_ik))
 *   g(θ) = γ [1 + c²/d² − c²/(d² + (h + cos θ)²)]
 *   f_c(r) = 1 below R − D, ½ − ½ sin[π(r − R)/(2D)] within D of R, 0 beyond R + D
 * with the parameters of the pair ij in V_R, V_A and f_c(r_ij), and of the pair ik in g, 2μ and f_c(r_ik) (as LAMMPS's
 * GaAs.tersoff transcription of the paper does). Albe's ½(b_ij + b_ji) on each pair is the same sum taken over i < j.
 */
import { accumulate, cosine, cosineGradient, fullNeighbors, type Bond } from './bonds';
import { InputError, type Cell, type Vec3 } from './cell';
import type { Evaluation } from './potential';

export interface AbopPair {
  gamma: number;
  S: number;
  /** Å⁻¹ */
  beta: number;
  /** eV */
  D0: number;
  /** Å */
  r0: number;
  c: number;
  d: number;
  h: number;
  /** Å⁻¹: 2μ */
  twoMu: number;
  /** Å: the cutoff's middle and half width. */
  R: number;
  D: number;
}

/** Albe et al. (2002), Table II, by the pair's symbols in alphabetical order. */
export const ALBE_2002: Readonly<Record<string, AbopPair>> = {
  'Ga-Ga': { gamma: 0.007874, S: 1.11, beta: 1.08, D0: 1.4, r0: 2.3235, c: 1.918, d: 0.75, h: 0.3013, twoMu: 1.846, R: 2.95, D: 0.15 },
  'As-As': { gamma: 0.455, S: 1.86, beta: 1.435, D0: 3.96, r0: 2.1, c: 0.1186, d: 0.1612, h: 0.07748, twoMu: 3.161, R: 3.4, D: 0.2 },
  'As-Ga': { gamma: 0.0166, S: 1.1417, beta: 1.5228, D0: 2.1, r0: 2.35, c: 1.29, d: 0.56, h: 0.237, twoMu: 0, R: 3.1, D: 0.2 },
};

export const ABOP_METHOD =
  'Analytic bond-order potential for Ga, As and GaAs of Albe, Nordlund, Nord and Kuronen, Phys. Rev. B 66, 035205 (2002), Table II';

const pairKey = (x: string, y: string): string => (x < y ? `${x}-${y}` : `${y}-${x}`);

export function abopCovers(symbols: readonly string[]): boolean {
  return symbols.length > 0 && symbols.every((s) => s === 'Ga' || s === 'As');
}

/** A bond within its pair's R + D, with its parameters and the cutoff function and its slope at its length. */
interface AbopBond extends Bond {
  p: AbopPair;
  fc: number;
  dfc: number;
}

function cutoffFunction(p: AbopPair, r: number): [number, number] {
  if (r <= p.R - p.D) return [1, 0];
  if (r >= p.R + p.D) return [0, 0];
  const x = (Math.PI / 2) * ((r - p.R) / p.D);
  return [0.5 - 0.5 * Math.sin(x), (-Math.PI / (4 * p.D)) * Math.cos(x)];
}

/** g(cos θ) and dg/dcos θ. */
function angular(p: AbopPair, cos: number): [number, number] {
  const c2 = p.c * p.c;
  const d2 = p.d * p.d;
  const u = p.h + cos;
  const den = d2 + u * u;
  return [p.gamma * (1 + c2 / d2 - c2 / den), (p.gamma * 2 * c2 * u) / (den * den)];
}

function abopBonds(cell: Cell): AbopBond[][] {
  const reach = Math.max(...Object.values(ALBE_2002).map((p) => p.R + p.D));
  return fullNeighbors(cell, reach).map((list, i) =>
    list.flatMap((b) => {
      const p = ALBE_2002[pairKey(cell.symbols[i], cell.symbols[b.j])];
      if (b.r >= p.R + p.D) return [];
      const [fc, dfc] = cutoffFunction(p, b.r);
      return [{ ...b, p, fc, dfc }];
    }),
  );
}

export function evaluateAbop(cell: Cell): Evaluation {
  if (!abopCovers(cell.symbols)) throw new InputError('The Albe et al. (2002) bond-order potential covers Ga, As and GaAs only.');
  const forces: Vec3[] = cell.positions.map(() => [0, 0, 0]);
  const virial = [0, 0, 0, 0, 0, 0];
  let energy = 0;
  abopBonds(cell).forEach((list, i) => {
    for (let x = 0; x < list.length; x++) energy += bondEnergy(i, list, x, forces, virial);
  });
  return { energy, forces, virial };
}

/** V_R and V_A of a pair at r, with their derivatives. */
function pairTerms(p: AbopPair, r: number): [number, number, number, number] {
  const kr = p.beta * Math.sqrt(2 * p.S);
  const ka = p.beta * Math.sqrt(2 / p.S);
  const repulsive = (p.D0 / (p.S - 1)) * Math.exp(-kr * (r - p.r0));
  const attractive = ((p.S * p.D0) / (p.S - 1)) * Math.exp(-ka * (r - p.r0));
  return [repulsive, -kr * repulsive, attractive, -ka * attractive];
}

/** ½ V_ij for the bond list[x] of atom i, adding its gradient with respect to every bond of i to forces and virial. */
function bondEnergy(i: number, list: AbopBond[], x: number, forces: Vec3[], virial: number[]): number {
  const bond = list[x];
  const [vr, dvr, va, dva] = pairTerms(bond.p, bond.r);
  let chi = 0;
  for (let y = 0; y < list.length; y++) {
    if (y === x) continue;
    const other = list[y];
    chi += other.fc * angular(other.p, cosine(bond, other))[0] * Math.exp(other.p.twoMu * (bond.r - other.r));
  }
  const b = 1 / Math.sqrt(1 + chi);
  const energy = 0.5 * bond.fc * (vr - b * va);
  // ∂E/∂χ, then ∂χ through this bond's length, the angles and the other bonds' lengths.
  const through = 0.5 * bond.fc * va * 0.5 * b ** 3;
  let radial = 0.5 * (bond.dfc * (vr - b * va) + bond.fc * (dvr - b * dva));
  const g: Vec3 = [0, 0, 0];
  for (let y = 0; y < list.length; y++) {
    if (y === x) continue;
    const other = list[y];
    const cos = cosine(bond, other);
    const [gv, dg] = angular(other.p, cos);
    const e = Math.exp(other.p.twoMu * (bond.r - other.r));
    radial += through * other.fc * gv * other.p.twoMu * e;
    const k = through * other.fc * dg * e;
    const own = cosineGradient(bond, other, cos);
    const theirs = cosineGradient(other, bond, cos);
    for (let a = 0; a < 3; a++) g[a] += k * own[a];
    const along = (through * gv * e * (other.dfc - other.fc * other.p.twoMu)) / other.r;
    accumulate(forces, virial, i, other.j, [0, 1, 2].map((a) => k * theirs[a] + along * other.d[a]) as Vec3, other.d);
  }
  for (let a = 0; a < 3; a++) g[a] += (radial / bond.r) * bond.d[a];
  accumulate(forces, virial, i, bond.j, g, bond.d);
  return energy;
}
