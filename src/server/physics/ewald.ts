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
import { InputError, perpendicularWidths, reciprocal, volume, type Cell, type Mat3, type Vec3 } from './cell';

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

/** e^(ik·r_j) for each vector and charge (Reciprocal.phases). */
export interface Phases {
  cos: Float64Array;
  sin: Float64Array;
}

/** S(k) = Σ_j q_j e^(ik·r_j) at each of a Reciprocal's vectors: real and imaginary parts. */
export interface Factors {
  re: Float64Array;
  im: Float64Array;
}

/**
 * The reciprocal-space sum of one cell at one splitting: its vectors (0 < |k| ≤ k_c, one of each ±k pair) and their
 * weights found once, then summed for any positions. e^(ik·r) is built as the product of e^(i n_c b_c·r) over the three
 * reciprocal basis vectors, each tabulated per charge, so a sum takes three cosines and sines per charge and axis
 * instead of one per charge and vector. Partial sums (a set of charges that does not move) can be kept and added.
 */
export class Reciprocal {
  /** Per vector: its Miller indices (n₁, n₂, n₃), Cartesian k, weight 4πk_e/V e^(−k²/4α²)/k², virial factor. */
  private readonly miller: Int32Array;
  private readonly k: Float64Array;
  private readonly weight: Float64Array;
  private readonly virialWeight: Float64Array;
  private readonly basis: Mat3;
  private readonly most: number[];
  readonly count: number;

  constructor(
    lattice: Mat3,
    private readonly s: Splitting,
  ) {
    this.basis = reciprocal(lattice);
    // |n_i| ≤ k_c/|b_i|⊥, the spacing of the reciprocal planes being 2π/width_i.
    this.most = perpendicularWidths(lattice).map((w) => Math.floor((s.kCutoff * w) / (2 * Math.PI)));
    const estimate = this.most.reduce((p, m) => p * (2 * m + 1), 1) / 2;
    if (estimate > MAX_K_VECTORS)
      throw new InputError(
        `The Ewald sum would need about ${Math.round(estimate)} reciprocal vectors (at most ${MAX_K_VECTORS}): the cell is too large or too thin for it.`,
      );
    const found = this.halfSpace();
    this.count = found.length / 3;
    this.miller = Int32Array.from(found);
    this.k = new Float64Array(3 * this.count);
    this.weight = new Float64Array(this.count);
    this.virialWeight = new Float64Array(this.count);
    const prefactor = (4 * Math.PI * COULOMB) / volume(lattice);
    for (let v = 0; v < this.count; v++) {
      const k = this.vector(found[3 * v]!, found[3 * v + 1]!, found[3 * v + 2]!);
      const k2 = k[0] * k[0] + k[1] * k[1] + k[2] * k[2];
      this.k.set(k, 3 * v);
      this.weight[v] = (prefactor * Math.exp(-k2 / (4 * s.alpha * s.alpha))) / k2;
      this.virialWeight[v] = 2 * (1 / k2 + 1 / (4 * s.alpha * s.alpha));
    }
  }

  private vector(x: number, y: number, z: number): Vec3 {
    const b = this.basis;
    return [0, 1, 2].map((c) => x * b[0][c]! + y * b[1][c]! + z * b[2][c]!) as Vec3;
  }

  /** The Miller indices of the vectors within k_c, flattened. */
  private halfSpace(): number[] {
    const [mx, my, mz] = this.most as [number, number, number];
    const limit = this.s.kCutoff * this.s.kCutoff;
    const found: number[] = [];
    for (let x = 0; x <= mx; x++) {
      for (let y = x === 0 ? 0 : -my; y <= my; y++) {
        for (let z = x === 0 && y === 0 ? 1 : -mz; z <= mz; z++) {
          const k = this.vector(x, y, z);
          if (k[0] * k[0] + k[1] * k[1] + k[2] * k[2] <= limit) found.push(x, y, z);
        }
      }
    }
    return found;
  }

  /**
   * e^(ik·r_j) for every vector and charge j (positions flattened): cos and sin at [vector × count + j], written over
   * `into` when it has that size (they take megabytes). Built from e^(i n b_c·r_j), tabulated for n from −most_c to
   * most_c at [(n + most_c) × count + j].
   */
  phases(positions: ArrayLike<number>, into?: Phases): Phases {
    const n = positions.length / 3;
    const [tx, ty, tz] = [this.axisTable(positions, n, 0), this.axisTable(positions, n, 1), this.axisTable(positions, n, 2)];
    const reuse = into?.cos.length === this.count * n;
    const cos = reuse ? into.cos : new Float64Array(this.count * n);
    const sin = reuse ? into.sin : new Float64Array(this.count * n);
    for (let v = 0; v < this.count; v++) {
      const ox = (this.miller[3 * v]! + this.most[0]!) * n;
      const oy = (this.miller[3 * v + 1]! + this.most[1]!) * n;
      const oz = (this.miller[3 * v + 2]! + this.most[2]!) * n;
      const at = v * n;
      for (let j = 0; j < n; j++) {
        const xyRe = tx[0][ox + j]! * ty[0][oy + j]! - tx[1][ox + j]! * ty[1][oy + j]!;
        const xyIm = tx[0][ox + j]! * ty[1][oy + j]! + tx[1][ox + j]! * ty[0][oy + j]!;
        cos[at + j] = xyRe * tz[0][oz + j]! - xyIm * tz[1][oz + j]!;
        sin[at + j] = xyRe * tz[1][oz + j]! + xyIm * tz[0][oz + j]!;
      }
    }
    return { cos, sin };
  }

  /** cos and sin of n b_c·r_j for n from −most_c to most_c. */
  private axisTable(positions: ArrayLike<number>, n: number, c: number): [Float64Array, Float64Array] {
    const most = this.most[c]!;
    const b = this.basis[c]!;
    const cos = new Float64Array((2 * most + 1) * n);
    const sin = new Float64Array((2 * most + 1) * n);
    for (let j = 0; j < n; j++) {
      const theta = b[0] * positions[3 * j]! + b[1] * positions[3 * j + 1]! + b[2] * positions[3 * j + 2]!;
      for (let m = -most; m <= most; m++) {
        cos[(m + most) * n + j] = Math.cos(m * theta);
        sin[(m + most) * n + j] = Math.sin(m * theta);
      }
    }
    return [cos, sin];
  }

  /** S(k) of these charges, added to `into` when given (a partial sum of other charges). */
  factors(phases: Phases, charges: ArrayLike<number>, into?: Factors): Factors {
    const n = charges.length;
    const re = into ? Float64Array.from(into.re) : new Float64Array(this.count);
    const im = into ? Float64Array.from(into.im) : new Float64Array(this.count);
    for (let v = 0; v < this.count; v++) {
      let sr = 0;
      let si = 0;
      for (let j = 0; j < n; j++) {
        sr += charges[j]! * phases.cos[v * n + j]!;
        si += charges[j]! * phases.sin[v * n + j]!;
      }
      re[v]! += sr;
      im[v]! += si;
    }
    return { re, im };
  }

  /** Adds the force on each of these charges (forces flattened, from index `at`) in the field of the total S(k). */
  addForces(phases: Phases, charges: ArrayLike<number>, total: Factors, forces: Float64Array, at = 0): void {
    const n = charges.length;
    for (let v = 0; v < this.count; v++) {
      const f = 2 * this.weight[v]!;
      const re = total.re[v]!;
      const im = total.im[v]!;
      const kx = this.k[3 * v]!;
      const ky = this.k[3 * v + 1]!;
      const kz = this.k[3 * v + 2]!;
      for (let j = 0; j < n; j++) {
        const g = f * charges[j]! * (phases.sin[v * n + j]! * re - phases.cos[v * n + j]! * im);
        forces[3 * (at + j)]! += g * kx;
        forces[3 * (at + j) + 1]! += g * ky;
        forces[3 * (at + j) + 2]! += g * kz;
      }
    }
  }

  /**
   * Adds the reciprocal sum's Hessian between these charges (dense, `size` columns) in the
   * field of the total S(k), from the vectors with |k| ≤ fraction·k_c only: the long waves, which couple distant charges.
   */
  addHessian(phases: Phases, charges: ArrayLike<number>, total: Factors, h: Float64Array, size: number, fraction: number): void {
    const n = charges.length;
    const limit = (fraction * this.s.kCutoff) ** 2;
    const c = new Float64Array(n);
    const s = new Float64Array(n);
    for (let v = 0; v < this.count; v++) {
      const [kx, ky, kz] = [this.k[3 * v]!, this.k[3 * v + 1]!, this.k[3 * v + 2]!];
      if (kx * kx + ky * ky + kz * kz > limit) continue;
      const kk = [kx * kx, kx * ky, kx * kz, ky * kx, ky * ky, ky * kz, kz * kx, kz * ky, kz * kz];
      const w = 2 * this.weight[v]!;
      for (let j = 0; j < n; j++) [c[j], s[j]] = [charges[j]! * phases.cos[v * n + j]!, charges[j]! * phases.sin[v * n + j]!];
      for (let i = 0; i < n; i++) {
        // ∂²/∂r_i∂r_j of Σ_k f|S|²: 2f kkᵀ q_i q_j cos(k·(r_i − r_j)), and on the diagonal −2f kkᵀ q_i Re(e^(−ik·r_i) S) + that.
        const own = -w * (c[i]! * total.re[v]! + s[i]! * total.im[v]!);
        for (let j = 0; j < n; j++) {
          const value = w * (c[i]! * c[j]! + s[i]! * s[j]!) + (i === j ? own : 0);
          const row = 3 * i * size + 3 * j;
          for (let x = 0; x < 3; x++) for (let y = 0; y < 3; y++) h[row + x * size + y]! += value * kk[3 * x + y]!;
        }
      }
    }
  }

  /** The reciprocal energy Σ f(k)|S(k)|² of the total S(k), its virial added. */
  energy(total: Factors, virial: number[]): number {
    let energy = 0;
    for (let v = 0; v < this.count; v++) {
      const e = this.weight[v]! * (total.re[v]! * total.re[v]! + total.im[v]! * total.im[v]!);
      const w = this.virialWeight[v]!;
      const [kx, ky, kz] = [this.k[3 * v]!, this.k[3 * v + 1]!, this.k[3 * v + 2]!];
      energy += e;
      virial[0]! += e * (w * kx * kx - 1);
      virial[1]! += e * (w * ky * ky - 1);
      virial[2]! += e * (w * kz * kz - 1);
      virial[3]! += e * w * ky * kz;
      virial[4]! += e * w * kx * kz;
      virial[5]! += e * w * kx * ky;
    }
    return energy;
  }

  /** The self term −k_e α/√π Σ q². */
  self(charges: ArrayLike<number>): number {
    let sum = 0;
    for (let j = 0; j < charges.length; j++) sum += charges[j]! * charges[j]!;
    return (-COULOMB * this.s.alpha * sum) / Math.sqrt(Math.PI);
  }
}

/** Adds the reciprocal-space sum and the self term of point charges; returns their energy. */
export function addReciprocal(cell: Cell, charges: readonly number[], s: Splitting, forces: Vec3[], virial: number[]): number {
  const sum = new Reciprocal(cell.lattice, s);
  const phases = sum.phases(cell.positions.flat());
  const total = sum.factors(phases, charges);
  const flat = new Float64Array(3 * charges.length);
  sum.addForces(phases, charges, total, flat);
  forces.forEach((f, i) => {
    f[0] += flat[3 * i]!;
    f[1] += flat[3 * i + 1]!;
    f[2] += flat[3 * i + 2]!;
  });
  return sum.energy(total, virial) + sum.self(charges);
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
