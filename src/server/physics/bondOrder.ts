/**
 * The Tersoff bond-order form as LAMMPS's pair_style tersoff computes it, with every parameter a property of a pair of
 * elements, for the compound potentials whose papers give them that way (abop.ts for GaAs, tersoffIIIV.ts for AlAs,
 * GaP, InP and InSb). Energy in eV, forces in eV/Å, the virial ∂E/∂ε (eV) as potential.ts defines it. Pure.
 *
 *   E = ½ Σ_i Σ_{j≠i} f_c(r_ij) [A e^(−λ1 r_ij) − b_ij B e^(−λ2 r_ij)]
 *   b_ij = (1 + (β ζ_ij)^n)^(−1/2n),   ζ_ij = Σ_{k≠i,j} f_c(r_ik) g_ik(θ_ijk) e^[(λ3 (r_ij − r_ik))^m]
 *   g(θ) = γ [1 + c²/d² − c²/(d² + (h − cos θ)²)]
 *   f_c(r) = 1 below R − D, ½ − ½ sin[π(r − R)/(2D)] within D of R, 0 beyond R + D
 * with the pair ij's parameters in the two exponentials, β, n and f_c(r_ij), and the pair ik's in g, λ3, m and f_c(r_ik)
 * (LAMMPS's i-j-j and i-j-k lines when, as in these papers, the i-j-k line depends on i and k only). A pair missing
 * from the table does not interact: it has no energy and no part in any ζ.
 */
import { accumulate, cosine, cosineGradient, fullNeighbors, type Bond } from './bonds';
import type { Cell, Vec3 } from './cell';
import type { Evaluation } from './potential';

export interface BondOrderPair {
  /** eV and Å⁻¹: the repulsive A e^(−λ1 r) and the attractive B e^(−λ2 r). */
  A: number;
  lambda1: number;
  B: number;
  lambda2: number;
  /** The angular term; h is LAMMPS's costheta0. */
  gamma: number;
  c: number;
  d: number;
  h: number;
  /** Å⁻¹, and the power m (1 or 3) of λ3 (r_ij − r_ik) in the exponent. */
  lambda3: number;
  m: number;
  beta: number;
  n: number;
  /** Å: the cutoff's middle and half width. */
  R: number;
  D: number;
}

/** Parameters by the pair's symbols in alphabetical order, "As-Ga". */
export type PairTable = Readonly<Record<string, BondOrderPair>>;

export const pairKey = (x: string, y: string): string => (x < y ? `${x}-${y}` : `${y}-${x}`);

/** A bond within its pair's R + D, with its parameters and the cutoff function and its slope at its length. */
interface PairBond extends Bond {
  p: BondOrderPair;
  fc: number;
  dfc: number;
}

function cutoffFunction(p: BondOrderPair, r: number): [number, number] {
  if (r <= p.R - p.D) return [1, 0];
  if (r >= p.R + p.D) return [0, 0];
  const x = (Math.PI / 2) * ((r - p.R) / p.D);
  return [0.5 - 0.5 * Math.sin(x), (-Math.PI / (4 * p.D)) * Math.cos(x)];
}

/** g(cos θ) and dg/dcos θ. */
function angular(p: BondOrderPair, cos: number): [number, number] {
  const c2 = p.c * p.c;
  const d2 = p.d * p.d;
  const u = p.h - cos;
  const den = d2 + u * u;
  return [p.gamma * (1 + c2 / d2 - c2 / den), (-2 * p.gamma * c2 * u) / (den * den)];
}

/** e^[(λ3 Δr)^m] and its derivative with respect to Δr = r_ij − r_ik. */
function decay(p: BondOrderPair, dr: number): [number, number] {
  const s = p.lambda3 * dr;
  const e = Math.exp(s ** p.m);
  return [e, p.m * p.lambda3 * s ** (p.m - 1) * e];
}

/** b(ζ) and db/dζ; at ζ = 0 there is no third atom, so nothing to differentiate. */
function bondOrder(p: BondOrderPair, zeta: number): [number, number] {
  if (zeta <= 0) return [1, 0];
  const t = (p.beta * zeta) ** p.n;
  const b = (1 + t) ** (-1 / (2 * p.n));
  return [b, (-0.5 * b * t) / ((1 + t) * zeta)];
}

function pairBonds(cell: Cell, table: PairTable): PairBond[][] {
  const kinds = [...new Set(cell.symbols)];
  const present = kinds.flatMap((x) => kinds.map((y) => table[pairKey(x, y)]).filter((p) => p !== undefined));
  const reach = Math.max(0, ...present.map((p) => p.R + p.D));
  return fullNeighbors(cell, reach).map((list, i) =>
    list.flatMap((b) => {
      const p = table[pairKey(cell.symbols[i]!, cell.symbols[b.j]!)];
      if (!p || b.r >= p.R + p.D) return [];
      const [fc, dfc] = cutoffFunction(p, b.r);
      return [{ ...b, p, fc, dfc }];
    }),
  );
}

export function evaluateBondOrder(cell: Cell, table: PairTable): Evaluation {
  const forces: Vec3[] = cell.positions.map(() => [0, 0, 0]);
  const virial = [0, 0, 0, 0, 0, 0];
  let energy = 0;
  pairBonds(cell, table).forEach((list, i) => {
    for (let x = 0; x < list.length; x++) energy += bondEnergy(i, list, x, forces, virial);
  });
  return { energy, forces, virial };
}

/** ½ V_ij for the bond list[x] of atom i, adding its gradient with respect to every bond of i to forces and virial. */
function bondEnergy(i: number, list: PairBond[], x: number, forces: Vec3[], virial: number[]): number {
  const bond = list[x]!;
  const { A, lambda1, B, lambda2 } = bond.p;
  const vr = A * Math.exp(-lambda1 * bond.r);
  const va = B * Math.exp(-lambda2 * bond.r);
  let zeta = 0;
  for (let y = 0; y < list.length; y++) {
    if (y === x) continue;
    const other = list[y]!;
    zeta += other.fc * angular(other.p, cosine(bond, other))[0] * decay(other.p, bond.r - other.r)[0];
  }
  const [b, db] = bondOrder(bond.p, zeta);
  const energy = 0.5 * bond.fc * (vr - b * va);
  // ∂E/∂ζ, then ζ through this bond's length, the angles and the other bonds' lengths.
  const through = -0.5 * bond.fc * va * db;
  let radial = 0.5 * (bond.dfc * (vr - b * va) - bond.fc * (lambda1 * vr - b * lambda2 * va));
  const g: Vec3 = [0, 0, 0];
  for (let y = 0; y < list.length; y++) {
    if (y === x) continue;
    const other = list[y]!;
    const cos = cosine(bond, other);
    const [gv, dg] = angular(other.p, cos);
    const [e, de] = decay(other.p, bond.r - other.r);
    radial += through * other.fc * gv * de;
    const k = through * other.fc * dg * e;
    const own = cosineGradient(bond, other, cos);
    const theirs = cosineGradient(other, bond, cos);
    for (let a = 0; a < 3; a++) g[a]! += k * own[a]!;
    const along = (through * gv * (other.dfc * e - other.fc * de)) / other.r;
    accumulate(forces, virial, i, other.j, [0, 1, 2].map((a) => k * theirs[a]! + along * other.d[a]!) as Vec3, other.d);
  }
  for (let a = 0; a < 3; a++) g[a]! += (radial / bond.r) * bond.d[a]!;
  accumulate(forces, virial, i, bond.j, g, bond.d);
  return energy;
}
