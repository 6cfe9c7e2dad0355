/**
 * The Tersoff potential for C, Si, Ge and their mixtures SiC and SiGe: J. Tersoff, "Modeling solid-state
 * chemistry: Interatomic potentials for multicomponent systems", Phys. Rev. B 39, 5566 (1989), with its erratum
 * Phys. Rev. B 41, 3248 (1990). Energy in eV, forces in eV/Å, the virial ∂E/∂ε (eV) as potential.ts defines it. Pure.
 *
 *   E = ½ Σ_i Σ_{j≠i} f_C(r_ij) [A_ij e^(−λ_ij r_ij) − b_ij B_ij e^(−μ_ij r_ij)]
 *   b_ij = χ_ij (1 + β_i^n_i ζ_ij^n_i)^(−1/2n_i),   ζ_ij = Σ_{k≠i,j} f_C(r_ik) g_i(θ_ijk)
 *   g_i(θ) = 1 + c_i²/d_i² − c_i²/[d_i² + (h_i − cos θ)²]
 *   f_C(r) = 1 below R, ½ + ½ cos[π (r − R)/(S − R)] between R and S, 0 beyond S
 *   λ_ij, μ_ij arithmetic means; A_ij, B_ij, R_ij, S_ij geometric means of the elements' values.
 *
 * This is the form LAMMPS's pair_tersoff.cpp computes from potentials/SiCGe.tersoff (its m = 3, γ = 1, λ3 = 0
 * leave ζ as written here; its R ± D is Tersoff's R and S; it folds χ into B_ij), except that b_ij is evaluated
 * exactly rather than through LAMMPS's asymptotic expansions for very large or small βζ.
 */
import { accumulate, cosine, cosineGradient, fullNeighbors, type Bond } from './bonds';
import { InputError, type Cell, type Vec3 } from './cell';
import type { Evaluation } from './potential';

export interface TersoffElement {
  /** eV */
  A: number;
  /** eV */
  B: number;
  /** Å⁻¹ */
  lambda: number;
  /** Å⁻¹ */
  mu: number;
  beta: number;
  n: number;
  c: number;
  d: number;
  h: number;
  /** Å: the cutoff function starts to fall at R and reaches zero at S. */
  R: number;
  S: number;
}

/**
 * Tersoff (1989), Table I, as LAMMPS's potentials/SiCGe.tersoff holds them (C's d = 4.3484 after the erratum;
 * R = R_LAMMPS − D, S = R_LAMMPS + D).
 */
export const TERSOFF_1989: Readonly<Record<string, TersoffElement>> = {
  C: { A: 1393.6, B: 346.7, lambda: 3.4879, mu: 2.2119, beta: 1.5724e-7, n: 0.72751, c: 38049, d: 4.3484, h: -0.57058, R: 1.8, S: 2.1 },
  Si: { A: 1830.8, B: 471.18, lambda: 2.4799, mu: 1.7322, beta: 1.1e-6, n: 0.78734, c: 100390, d: 16.217, h: -0.59825, R: 2.7, S: 3.0 },
  Ge: { A: 1769.0, B: 419.23, lambda: 2.4451, mu: 1.7047, beta: 9.0166e-7, n: 0.75627, c: 106430, d: 15.652, h: -0.43884, R: 2.8, S: 3.1 },
};

/**
 * χ of Tersoff (1989), Table I: C–Si 0.9776, Si–Ge 1.00061 (LAMMPS's mixed B: 395.1223 = 0.9776 √(346.7 · 471.18)).
 * He gave none for C–Ge, so a structure with both is not covered.
 */
export const TERSOFF_CHI: Readonly<Record<string, number>> = { 'C-Si': 0.9776, 'Ge-Si': 1.00061 };

export const TERSOFF_METHOD =
  'Tersoff potential for C, Si, Ge, SiC and SiGe: J. Tersoff, Phys. Rev. B 39, 5566 (1989); erratum Phys. Rev. B 41, 3248 (1990)';

const chi = (x: string, y: string): number | undefined => (x === y ? 1 : TERSOFF_CHI[[x, y].sort().join('-')]);

export function tersoffCovers(symbols: readonly string[]): boolean {
  const kinds = [...new Set(symbols)];
  return kinds.length > 0 && kinds.every((x) => x in TERSOFF_1989 && kinds.every((y) => chi(x, y) !== undefined));
}

/** The parameters of a bond between two elements. */
interface PairParameters {
  A: number;
  B: number;
  lambda: number;
  mu: number;
  R: number;
  S: number;
}

function mixed(x: string, y: string): PairParameters {
  const p = TERSOFF_1989[x]!;
  const q = TERSOFF_1989[y]!;
  return {
    A: Math.sqrt(p.A * q.A),
    B: (chi(x, y) ?? 0) * Math.sqrt(p.B * q.B),
    lambda: (p.lambda + q.lambda) / 2,
    mu: (p.mu + q.mu) / 2,
    R: Math.sqrt(p.R * q.R),
    S: Math.sqrt(p.S * q.S),
  };
}

/** A bond within its pair's S, with the cutoff function and its slope at its length. */
interface TersoffBond extends Bond {
  pair: PairParameters;
  fc: number;
  dfc: number;
}

/** f_C(r) and df_C/dr. */
function cutoffFunction(p: PairParameters, r: number): [number, number] {
  if (r <= p.R) return [1, 0];
  if (r >= p.S) return [0, 0];
  const w = Math.PI / (p.S - p.R);
  const x = w * (r - p.R);
  return [0.5 + 0.5 * Math.cos(x), -0.5 * w * Math.sin(x)];
}

/** g(cos θ) and dg/dcos θ. */
function angular(e: TersoffElement, cos: number): [number, number] {
  const c2 = e.c * e.c;
  const d2 = e.d * e.d;
  const u = e.h - cos;
  const den = d2 + u * u;
  return [1 + c2 / d2 - c2 / den, (-2 * c2 * u) / (den * den)];
}

/** b(ζ) = (1 + (βζ)^n)^(−1/2n) and db/dζ; at ζ = 0 (no third atom) b = 1 and the slope is taken as 0. */
function bondOrder(e: TersoffElement, zeta: number): [number, number] {
  if (zeta <= 0) return [1, 0];
  const t = (e.beta * zeta) ** e.n;
  const b = (1 + t) ** (-1 / (2 * e.n));
  return [b, (-0.5 * b * t) / ((1 + t) * zeta)];
}

/** Each atom's bonds within its pair's S (the neighbour list reaches the largest S among these elements). */
function tersoffBonds(cell: Cell): TersoffBond[][] {
  const kinds = [...new Set(cell.symbols)];
  const table = new Map(kinds.flatMap((x) => kinds.map((y) => [`${x} ${y}`, mixed(x, y)] as const)));
  const reach = Math.max(...[...table.values()].map((p) => p.S));
  return fullNeighbors(cell, reach).map((list, i) =>
    list.flatMap((b) => {
      const pair = table.get(`${cell.symbols[i]} ${cell.symbols[b.j]}`)!;
      if (b.r >= pair.S) return [];
      const [fc, dfc] = cutoffFunction(pair, b.r);
      return [{ ...b, pair, fc, dfc }];
    }),
  );
}

export function evaluateTersoff(cell: Cell): Evaluation {
  if (!tersoffCovers(cell.symbols))
    throw new InputError('The Tersoff (1989) potential covers C, Si, Ge, SiC and SiGe; it has no C–Ge parameters and no other elements.');
  const bonds = tersoffBonds(cell);
  const forces: Vec3[] = cell.positions.map(() => [0, 0, 0]);
  const virial = [0, 0, 0, 0, 0, 0];
  let energy = 0;
  bonds.forEach((list, i) => {
    const element = TERSOFF_1989[cell.symbols[i]!]!;
    for (let x = 0; x < list.length; x++) energy += bondEnergy(element, i, list, x, forces, virial);
  });
  return { energy, forces, virial };
}

/** ½ V_ij for the bond list[x] of atom i, adding its gradient with respect to every bond of i to forces and virial. */
function bondEnergy(element: TersoffElement, i: number, list: TersoffBond[], x: number, forces: Vec3[], virial: number[]): number {
  const bond = list[x]!;
  const { A, B, lambda, mu } = bond.pair;
  const repulsive = A * Math.exp(-lambda * bond.r);
  const attractive = -B * Math.exp(-mu * bond.r);
  let zeta = 0;
  for (let y = 0; y < list.length; y++) if (y !== x) zeta += list[y]!.fc * angular(element, cosine(bond, list[y]!))[0];
  const [b, db] = bondOrder(element, zeta);
  const energy = 0.5 * bond.fc * (repulsive + b * attractive);
  // ∂(½V)/∂r_ij at fixed ζ, along the bond; then through ζ, on this bond's angle and on every other bond of i.
  const radial = (0.5 * (bond.dfc * (repulsive + b * attractive) - bond.fc * (lambda * repulsive + b * mu * attractive))) / bond.r;
  const g: Vec3 = [radial * bond.d[0], radial * bond.d[1], radial * bond.d[2]];
  const through = 0.5 * bond.fc * attractive * db;
  if (through !== 0) {
    for (let y = 0; y < list.length; y++) {
      if (y === x) continue;
      const other = list[y]!;
      const cos = cosine(bond, other);
      const [gv, dg] = angular(element, cos);
      const own = cosineGradient(bond, other, cos);
      const theirs = cosineGradient(other, bond, cos);
      const along = (through * other.dfc * gv) / other.r;
      const k = through * other.fc * dg;
      for (let a = 0; a < 3; a++) g[a]! += k * own[a]!;
      accumulate(
        forces,
        virial,
        i,
        other.j,
        [k * theirs[0] + along * other.d[0], k * theirs[1] + along * other.d[1], k * theirs[2] + along * other.d[2]],
        other.d,
      );
    }
  }
  accumulate(forces, virial, i, bond.j, g, bond.d);
  return energy;
}
