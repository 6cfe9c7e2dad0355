/**
 * The Coulomb energy of point charges in a periodic, neutral cell, summed by Ewald's method (P. P. Ewald, Ann. Phys.
 * 369, 253 (1921)), with forces and the virial ∂E/∂ε (eV, Voigt order, as potential.ts defines it). Pure.
 *
 *   E = k Σ_{i<j,images} q_i q_j erfc(αr)/r  +  (2πk/V) Σ_{k≠0} e^(−k²/4α²)/k² |S(k)|²  −  kα/√π Σ q_i²
 *   S(k) = Σ_j q_j e^(ik·r_j)
 *
 * Accuracy: both neglected tails are bounded by e^(−p), p = −ln ACCURACY: the real sum stops at r_c = √p/α (erfc(αr_c)
 * < e^(−p)), the reciprocal one at k_c = 2α√p (e^(−k_c²/4α²) = e^(−p)). α balances the two costs (real pairs ∝ r_c³N/V,
 * k-vectors ∝ k_c³V), α = (2π³N/V²)^(1/6), unless the caller's neighbour list is shorter; the cost grows as N^1.5 and
 * is refused beyond MAX_EWALD_ATOMS or MAX_K_VECTORS before any sum starts. The real-space pairs are the caller's
 * (realTerm); this module sums the reciprocal part and the self term.
 */
import { InputError, perpendicularWidths, reciprocal, volume, type Cell, type Vec3 } from './cell';

/** eV·Å: e²/(4πε0). */
export const COULOMB = 14.399645;
/** The bound on each neglected tail, relative to a unit term. */
export const ACCURACY = 1e-8;
export const MAX_EWALD_ATOMS = 2000;
/** The most reciprocal vectors (half space) a sum may take: a 2,000-atom cell needs about 2,000. */
export const MAX_K_VECTORS = 50_000;

export interface Splitting {
  /** Å⁻¹ */
  alpha: number;
  /** Å: the real-space cutoff. */
  realCutoff: number;
  /** Å⁻¹: the reciprocal cutoff. */
  kCutoff: number;
}

const P = -Math.log(ACCURACY);

/**
 * The cut-offs for this cell at ACCURACY, with the balancing α unless one is given, raised where needed to keep the
 * real-space cutoff within `reach` (the caller's own neighbour-list cutoff, so the Ewald sum never lengthens the list).
 */
export function splitting(cell: Cell, alpha?: number, reach = Infinity): Splitting {
  const n = cell.positions.length;
  if (n > MAX_EWALD_ATOMS)
    throw new InputError(
      `The Ewald sum takes at most ${MAX_EWALD_ATOMS} point charges (ions, and their shells in a shell model); this cell has ${n}: use a smaller cell.`,
    );
  const v = volume(cell.lattice);
  const a = alpha ?? Math.max(((2 * Math.PI ** 3 * n) / (v * v)) ** (1 / 6), Math.sqrt(P) / reach);
  return { alpha: a, realCutoff: Math.sqrt(P) / a, kCutoff: 2 * a * Math.sqrt(P) };
}

/** k q_i q_j erfc(αr)/r and its derivative over r: the real-space term of one pair. */
export function realTerm(qq: number, r: number, alpha: number): [number, number] {
  const x = alpha * r;
  const gauss = Math.exp(-x * x);
  const e = (COULOMB * qq * erfcScaled(x) * gauss) / r;
  return [e, -e / r - ((COULOMB * qq * 2 * alpha) / Math.sqrt(Math.PI)) * (gauss / r)];
}

/** The reciprocal vectors with 0 < |k| ≤ k_c, one of each ±k pair. */
function halfSpace(cell: Cell, kCutoff: number): Vec3[] {
  const b = reciprocal(cell.lattice);
  // |n_i| ≤ k_c/|b_i|⊥, the spacing of the reciprocal planes being 2π/width_i.
  const most = perpendicularWidths(cell.lattice).map((w) => Math.floor((kCutoff * w) / (2 * Math.PI)));
  const count = most.reduce((p, m) => p * (2 * m + 1), 1) / 2;
  if (count > MAX_K_VECTORS)
    throw new InputError(
      `The Ewald sum would need about ${Math.round(count)} reciprocal vectors (at most ${MAX_K_VECTORS}): the cell is too large or too thin for it.`,
    );
  const ks: Vec3[] = [];
  for (let x = 0; x <= most[0]!; x++) {
    for (let y = x === 0 ? 0 : -most[1]!; y <= most[1]!; y++) {
      for (let z = x === 0 && y === 0 ? 1 : -most[2]!; z <= most[2]!; z++) {
        const k: Vec3 = [0, 1, 2].map((c) => x * b[0][c]! + y * b[1][c]! + z * b[2][c]!) as Vec3;
        if (k[0] * k[0] + k[1] * k[1] + k[2] * k[2] <= kCutoff * kCutoff) ks.push(k);
      }
    }
  }
  return ks;
}

/** Adds the reciprocal-space sum and the self term; returns their energy. */
export function addReciprocal(cell: Cell, charges: readonly number[], s: Splitting, forces: Vec3[], virial: number[]): number {
  const prefactor = (4 * Math.PI * COULOMB) / volume(cell.lattice);
  const n = charges.length;
  const cos = new Float64Array(n);
  const sin = new Float64Array(n);
  let energy = 0;
  for (const k of halfSpace(cell, s.kCutoff)) {
    const k2 = k[0] * k[0] + k[1] * k[1] + k[2] * k[2];
    const f = (prefactor * Math.exp(-k2 / (4 * s.alpha * s.alpha))) / k2;
    let re = 0;
    let im = 0;
    for (let i = 0; i < n; i++) {
      const p = cell.positions[i]!;
      const phase = k[0] * p[0] + k[1] * p[1] + k[2] * p[2];
      cos[i] = Math.cos(phase);
      sin[i] = Math.sin(phase);
      re += charges[i]! * cos[i]!;
      im += charges[i]! * sin[i]!;
    }
    const e = f * (re * re + im * im);
    energy += e;
    for (let i = 0; i < n; i++) {
      const g = 2 * f * charges[i]! * (sin[i]! * re - cos[i]! * im);
      forces[i]![0] += g * k[0];
      forces[i]![1] += g * k[1];
      forces[i]![2] += g * k[2];
    }
    const w = 2 * (1 / k2 + 1 / (4 * s.alpha * s.alpha));
    virial[0]! += e * (w * k[0] * k[0] - 1);
    virial[1]! += e * (w * k[1] * k[1] - 1);
    virial[2]! += e * (w * k[2] * k[2] - 1);
    virial[3]! += e * w * k[1] * k[2];
    virial[4]! += e * w * k[0] * k[2];
    virial[5]! += e * w * k[0] * k[1];
  }
  const self = (-COULOMB * s.alpha * charges.reduce((sum, q) => sum + q * q, 0)) / Math.sqrt(Math.PI);
  return energy + self;
}

/** Terms of erf's Taylor series below x = 2, levels of erfc's continued fraction above: both good to 1e-14. */
const SERIES_TERMS = 60;
const FRACTION_DEPTH = 80;

/**
 * erfc(x) for x ≥ 0: 1 − erf(x) from erf's Taylor series below 2; above, Laplace's continued fraction
 * erfc(x) = e^(−x²)/√π · 1/(x + ½/(x + 1/(x + (3/2)/(x + …)))) (Abramowitz and Stegun 7.1.14), evaluated from the tail.
 */
export function erfc(x: number): number {
  if (x < 2) {
    let term = x;
    let sum = x;
    for (let n = 1; n < SERIES_TERMS && Math.abs(term) > 1e-17; n++) {
      term *= (-x * x) / n;
      sum += term / (2 * n + 1);
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  let tail = x;
  for (let n = FRACTION_DEPTH; n >= 1; n--) tail = x + n / 2 / tail;
  return Math.exp(-x * x) / (Math.sqrt(Math.PI) * tail);
}

/** The table of erfcx(x) = e^(x²) erfc(x) and its slope 2x·erfcx − 2/√π, every STEP from 0 to TABLE_END. */
const STEP = 1 / 128;
const TABLE_END = 6;
const NODES = Array.from({ length: TABLE_END / STEP + 2 }, (_, k) => {
  const x = k * STEP;
  const value = erfc(x) * Math.exp(x * x);
  return [value, 2 * x * value - 2 / Math.sqrt(Math.PI)] as const;
});

/**
 * erfcx(x) = e^(x²) erfc(x), smooth and between 0.09 and 1 up to TABLE_END: cubic Hermite interpolation of the table
 * (error below h⁴/384·max|erfcx⁗| ≈ 10⁻¹⁰ relative), exact beyond. The real-space sum needs it at every pair.
 */
export function erfcScaled(x: number): number {
  if (x >= TABLE_END) return erfc(x) * Math.exp(x * x);
  const k = Math.floor(x / STEP);
  const t = x / STEP - k;
  const [g0, d0] = NODES[k]!;
  const [g1, d1] = NODES[k + 1]!;
  const t2 = t * t;
  const t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * g0 + (t3 - 2 * t2 + t) * STEP * d0 + (-2 * t3 + 3 * t2) * g1 + (t3 - t2) * STEP * d1;
}
