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
 * This is a case of the Tersoff form of bondOrder.ts, which computes it (abopAsTersoff).
 */
import { evaluateBondOrder, type BondOrderPair, type PairTable } from './bondOrder';
import { InputError, type Cell } from './cell';
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

export function abopCovers(symbols: readonly string[]): boolean {
  return symbols.length > 0 && symbols.every((s) => s === 'Ga' || s === 'As');
}

/** Albe's pair in the LAMMPS form of bondOrder.ts: his χ is ζ with β = n = 1, his 2μ is λ3 with m = 1, his h is −h. */
function abopAsTersoff(p: AbopPair): BondOrderPair {
  const lambda1 = p.beta * Math.sqrt(2 * p.S);
  const lambda2 = p.beta * Math.sqrt(2 / p.S);
  return {
    A: (p.D0 / (p.S - 1)) * Math.exp(lambda1 * p.r0),
    lambda1,
    B: ((p.S * p.D0) / (p.S - 1)) * Math.exp(lambda2 * p.r0),
    lambda2,
    gamma: p.gamma,
    c: p.c,
    d: p.d,
    h: -p.h,
    lambda3: p.twoMu,
    m: 1,
    beta: 1,
    n: 1,
    R: p.R,
    D: p.D,
  };
}

const ALBE_TABLE: PairTable = Object.fromEntries(Object.entries(ALBE_2002).map(([key, p]) => [key, abopAsTersoff(p)]));

export function evaluateAbop(cell: Cell): Evaluation {
  if (!abopCovers(cell.symbols)) throw new InputError('The Albe et al. (2002) bond-order potential covers Ga, As and GaAs only.');
  return evaluateBondOrder(cell, ALBE_TABLE);
}
