/**
 * The Stillinger–Weber potential for silicon: F. H. Stillinger and T. A. Weber, "Computer simulation of local
 * order in condensed phases of silicon", Phys. Rev. B 31, 5262 (1985), with the parameters of its paper
 * (the same as LAMMPS's potentials/Si.sw). Pair and three-body terms, energy in eV, forces in eV/Å and the
 * virial ∂E/∂ε (eV) as potential.ts defines them. Pure.
 *
 *   E = Σ_{i<j} φ2(r_ij) + Σ_i Σ_{j<k} φ3(r_ij, r_ik, θ_jik)
 *   φ2(r) = A ε [B (σ/r)^p − (σ/r)^q] exp(σ / (r − aσ))
 *   φ3 = λ ε (cos θ_jik − cos θ0)² exp(γσ / (r_ij − aσ)) exp(γσ / (r_ik − aσ)),  both zero from r = aσ.
 */
import type { Cell, Vec3 } from './cell';
import { neighborList } from './neighbors';
import type { Evaluation } from './potential';

/** Stillinger and Weber (1985), Table I and eqs. 2.3–2.5; cos θ0 = −1/3, the tetrahedral angle. */
export const SW_SI = {
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
} as const;

export const SW_METHOD = 'Stillinger–Weber potential for Si, Phys. Rev. B 31, 5262 (1985)';

export function swCovers(symbols: readonly string[]): boolean {
  return symbols.length > 0 && symbols.every((s) => s === 'Si');
}

const P = SW_SI;
const CUTOFF = P.a * P.sigma;

/** φ2(r) and dφ2/dr. */
function pair(r: number): [number, number] {
  if (r >= CUTOFF) return [0, 0];
  const s = P.sigma / r;
  const sp = s ** P.p;
  const sq = s ** P.q;
  const g = P.sigma / (r - CUTOFF);
  const e = Math.exp(g);
  const radial = P.B * sp - sq;
  const dRadial = (-P.p * P.B * sp + P.q * sq) / r;
  const dExp = (-g / (r - CUTOFF)) * e;
  return [P.A * P.epsilon * radial * e, P.A * P.epsilon * (dRadial * e + radial * dExp)];
}

/** exp(γσ/(r − aσ)) and its derivative over r. */
function decay(r: number): [number, number] {
  if (r >= CUTOFF) return [0, 0];
  const g = (P.gamma * P.sigma) / (r - CUTOFF);
  const e = Math.exp(g);
  return [e, (-g / (r - CUTOFF)) * e];
}

interface Bond {
  j: number;
  d: Vec3;
  r: number;
}

/** Each atom's bonds within the cutoff, both directions (d from the atom to its neighbour). */
function bondsOf(cell: Cell): Bond[][] {
  const list = neighborList(cell.lattice, cell.positions, CUTOFF);
  const bonds: Bond[][] = cell.positions.map(() => []);
  for (let p = 0; p < list.count; p++) {
    const d: Vec3 = [list.d[3 * p], list.d[3 * p + 1], list.d[3 * p + 2]];
    bonds[list.i[p]].push({ j: list.j[p], d, r: list.r[p] });
    bonds[list.j[p]].push({ j: list.i[p], d: [-d[0], -d[1], -d[2]], r: list.r[p] });
  }
  return bonds;
}

/** Adds −g to the atom at the end of bond vector v, +g to its start, and g⊗v to the virial (Voigt, symmetrised). */
function accumulate(forces: Vec3[], virial: number[], from: number, to: number, g: Vec3, v: Vec3): void {
  for (let a = 0; a < 3; a++) {
    forces[to][a] -= g[a];
    forces[from][a] += g[a];
  }
  virial[0] += g[0] * v[0];
  virial[1] += g[1] * v[1];
  virial[2] += g[2] * v[2];
  virial[3] += (g[1] * v[2] + g[2] * v[1]) / 2;
  virial[4] += (g[0] * v[2] + g[2] * v[0]) / 2;
  virial[5] += (g[0] * v[1] + g[1] * v[0]) / 2;
}

export function evaluateSw(cell: Cell): Evaluation {
  const bonds = bondsOf(cell);
  const forces: Vec3[] = cell.positions.map(() => [0, 0, 0]);
  const virial = [0, 0, 0, 0, 0, 0];
  let energy = 0;
  bonds.forEach((list, i) => {
    for (const b of list) {
      if (b.j < i || (b.j === i && !positiveImage(b.d))) continue; // each pair once
      const [e, de] = pair(b.r);
      energy += e;
      accumulate(forces, virial, i, b.j, scaled(b.d, de / b.r), b.d);
    }
    energy += threeBody(i, list, forces, virial);
  });
  return { energy, forces, virial };
}

/** The angle terms centred on atom i: every pair of its bonds once. */
function threeBody(i: number, list: Bond[], forces: Vec3[], virial: number[]): number {
  let energy = 0;
  const lambda = P.lambda * P.epsilon;
  for (let x = 0; x < list.length; x++) {
    const bj = list[x];
    const [ej, dej] = decay(bj.r);
    for (let y = x + 1; y < list.length; y++) {
      const bk = list[y];
      const [ek, dek] = decay(bk.r);
      const cos = (bj.d[0] * bk.d[0] + bj.d[1] * bk.d[1] + bj.d[2] * bk.d[2]) / (bj.r * bk.r);
      const c = cos - P.cosTheta0;
      energy += lambda * c * c * ej * ek;
      // ∂E/∂d_ij and ∂E/∂d_ik, from the angle and from the two decays.
      const gj = gradient(bj, bk, cos, lambda * 2 * c * ej * ek, lambda * c * c * ek * dej);
      const gk = gradient(bk, bj, cos, lambda * 2 * c * ej * ek, lambda * c * c * ej * dek);
      accumulate(forces, virial, i, bj.j, gj, bj.d);
      accumulate(forces, virial, i, bk.j, gk, bk.d);
    }
  }
  return energy;
}

/** ∂E/∂d for bond `own`: angular · ∂cos/∂d + radial · d/r, with ∂cos/∂d = d_other/(r r_other) − cos · d/r². */
function gradient(own: Bond, other: Bond, cos: number, angular: number, radial: number): Vec3 {
  const g: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const dcos = other.d[a] / (own.r * other.r) - (cos * own.d[a]) / (own.r * own.r);
    g[a] = angular * dcos + (radial * own.d[a]) / own.r;
  }
  return g;
}

const scaled = (v: Vec3, k: number): Vec3 => [v[0] * k, v[1] * k, v[2] * k];

/** For an atom bonded to its own image: count the bond once, from the image with the positive vector. */
const positiveImage = (d: Vec3): boolean => d[0] > 0 || (d[0] === 0 && (d[1] > 0 || (d[1] === 0 && d[2] > 0)));
