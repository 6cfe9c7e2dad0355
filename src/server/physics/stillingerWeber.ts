/**
 * The Stillinger–Weber potential for diamond-structure silicon and germanium: F. H. Stillinger and T. A. Weber,
 * "Computer simulation of local order in condensed phases of silicon", Phys. Rev. B 31, 5262 (1985), and its
 * germanium parameters from K. Ding and H. C. Andersen, "Molecular-dynamics simulation of amorphous germanium",
 * Phys. Rev. B 34, 6987 (1986). Pair and three-body terms, energy in eV, forces in eV/Å and the virial ∂E/∂ε (eV)
 * as potential.ts defines them. One element per structure: neither paper gives Si–Ge cross terms. Pure.
 *
 *   E = Σ_{i<j} φ2(r_ij) + Σ_i Σ_{j<k} φ3(r_ij, r_ik, θ_jik)
 *   φ2(r) = A ε [B (σ/r)^p − (σ/r)^q] exp(σ / (r − aσ))
 *   φ3 = λ ε (cos θ_jik − cos θ0)² exp(γσ / (r_ij − aσ)) exp(γσ / (r_ik − aσ)),  both zero from r = aσ.
 */
import { accumulate, cosine, cosineGradient, fullNeighbors, type Bond } from './bonds';
import { InputError, type Cell, type Vec3 } from './cell';
import type { Evaluation } from './potential';

export interface SwParameters {
  /** eV */
  epsilon: number;
  /** Å */
  sigma: number;
  a: number;
  lambda: number;
  gamma: number;
  cosTheta0: number;
  A: number;
  B: number;
  p: number;
  q: number;
}

/** Stillinger and Weber (1985), Table I and eqs. 2.3–2.5, the same numbers as LAMMPS's potentials/Si.sw. */
export const SW_SI: SwParameters = {
  epsilon: 2.1683,
  sigma: 2.0951,
  a: 1.8,
  lambda: 21.0,
  gamma: 1.2,
  cosTheta0: -1 / 3,
  A: 7.049556277,
  B: 0.6022245584,
  p: 4,
  q: 0,
};

/**
 * Ding and Andersen (1986): Stillinger and Weber's functional form and A, B, p, q, a, γ, with ε, σ and a stiffer
 * λ for germanium. LAMMPS ships no Ge .sw file; these are the values codes quoting the paper use (ε = 1.93 eV,
 * σ = 2.181 Å, λ = 31), e.g. MCCCS Towhee's force field "Ding1986".
 */
export const SW_GE: SwParameters = { ...SW_SI, epsilon: 1.93, sigma: 2.181, lambda: 31.0 };

const PARAMETERS: Readonly<Record<string, SwParameters>> = { Si: SW_SI, Ge: SW_GE };

export const SW_METHOD =
  'Stillinger–Weber potential: Si from Stillinger and Weber, Phys. Rev. B 31, 5262 (1985); Ge from Ding and Andersen, Phys. Rev. B 34, 6987 (1986)';

/** Every atom Si, or every atom Ge. */
export function swCovers(symbols: readonly string[]): boolean {
  return symbols.length > 0 && symbols[0]! in PARAMETERS && symbols.every((s) => s === symbols[0]);
}

/** φ2(r) and dφ2/dr. */
function pair(P: SwParameters, r: number): [number, number] {
  const cutoff = P.a * P.sigma;
  if (r >= cutoff) return [0, 0];
  const s = P.sigma / r;
  const sp = s ** P.p;
  const sq = s ** P.q;
  const g = P.sigma / (r - cutoff);
  const e = Math.exp(g);
  const radial = P.B * sp - sq;
  const dRadial = (-P.p * P.B * sp + P.q * sq) / r;
  const dExp = (-g / (r - cutoff)) * e;
  return [P.A * P.epsilon * radial * e, P.A * P.epsilon * (dRadial * e + radial * dExp)];
}

/** exp(γσ/(r − aσ)) and its derivative over r. */
function decay(P: SwParameters, r: number): [number, number] {
  const cutoff = P.a * P.sigma;
  if (r >= cutoff) return [0, 0];
  const g = (P.gamma * P.sigma) / (r - cutoff);
  const e = Math.exp(g);
  return [e, (-g / (r - cutoff)) * e];
}

export function evaluateSw(cell: Cell): Evaluation {
  if (!swCovers(cell.symbols))
    throw new InputError('The Stillinger–Weber potential here covers pure Si or pure Ge only (no published Si–Ge cross terms).');
  const P = PARAMETERS[cell.symbols[0]!]!;
  const bonds = fullNeighbors(cell, P.a * P.sigma);
  const forces: Vec3[] = cell.positions.map(() => [0, 0, 0]);
  const virial = [0, 0, 0, 0, 0, 0];
  let energy = 0;
  bonds.forEach((list, i) => {
    for (const b of list) {
      if (b.j < i || (b.j === i && !positiveImage(b.d))) continue; // each pair once
      const [e, de] = pair(P, b.r);
      energy += e;
      accumulate(forces, virial, i, b.j, scaled(b.d, de / b.r), b.d);
    }
    energy += threeBody(P, i, list, forces, virial);
  });
  return { energy, forces, virial };
}

/** The angle terms centred on atom i: every pair of its bonds once. */
function threeBody(P: SwParameters, i: number, list: Bond[], forces: Vec3[], virial: number[]): number {
  let energy = 0;
  const lambda = P.lambda * P.epsilon;
  for (let x = 0; x < list.length; x++) {
    const bj = list[x]!;
    const [ej, dej] = decay(P, bj.r);
    for (let y = x + 1; y < list.length; y++) {
      const bk = list[y]!;
      const [ek, dek] = decay(P, bk.r);
      const cos = cosine(bj, bk);
      const c = cos - P.cosTheta0;
      energy += lambda * c * c * ej * ek;
      // ∂E/∂d_ij and ∂E/∂d_ik, from the angle and from the two decays.
      const angular = lambda * 2 * c * ej * ek;
      accumulate(forces, virial, i, bj.j, gradient(bj, bk, cos, angular, lambda * c * c * ek * dej), bj.d);
      accumulate(forces, virial, i, bk.j, gradient(bk, bj, cos, angular, lambda * c * c * ej * dek), bk.d);
    }
  }
  return energy;
}

/** ∂E/∂d for bond `own`: angular · ∂cos/∂d + radial · d/r. */
function gradient(own: Bond, other: Bond, cos: number, angular: number, radial: number): Vec3 {
  const dcos = cosineGradient(own, other, cos);
  const k = radial / own.r;
  return [angular * dcos[0] + k * own.d[0], angular * dcos[1] + k * own.d[1], angular * dcos[2] + k * own.d[2]];
}

const scaled = (v: Vec3, k: number): Vec3 => [v[0] * k, v[1] * k, v[2] * k];

/** For an atom bonded to its own image: count the bond once, from the image with the positive vector. */
const positiveImage = (d: Vec3): boolean => d[0] > 0 || (d[0] === 0 && (d[1] > 0 || (d[1] === 0 && d[2] > 0)));
