/**
 * Symmetry operations in the Jones-faithful notation CIF uses (International Tables for Crystallography
 * Vol. A, §1.4; CIF core dictionary, _space_group_symop_operation_xyz): 'x, y, z', '-y, x-y, z+1/3',
 * '1/2+x, -y, 0.25-z'. Each of the three comma-separated parts is a sum of signed terms: x, y or z with an
 * optional integer factor, a fraction p/q or a decimal. A valid operation maps the lattice onto itself: the
 * rotation part has integer entries and determinant ±1.
 *
 * Fractional positions are expanded with a spatial hash (symmetry-equivalent copies closer than a
 * tolerance in every fractional coordinate, periodic, are one site), so expansion is linear in the number
 * of positions generated, never quadratic.
 *
 * Pure; never throws.
 */
import type { Vec3 } from '../types';

export interface SymOp {
  /** Row i gives the new coordinate i: rot[i] · (x, y, z) + trans[i]. */
  rot: [Vec3, Vec3, Vec3];
  trans: Vec3;
}

export type SymOpResult = { op: SymOp } | { error: string };

const TERM = /^([+-]?)(?:(\d+(?:\.\d*)?|\.\d+)(?:\/(\d+(?:\.\d*)?))?)?(\*)?([xyz])?$/;

/** Parses 'x, y, z'-style text; an explanation instead when it is not an operation. */
export function parseSymOp(text: string): SymOpResult {
  const parts = text.replace(/\s+/g, '').toLowerCase().split(',');
  if (parts.length !== 3) return { error: `an operation has three parts separated by commas (x, y, z), this has ${parts.length}` };
  const rot: [Vec3, Vec3, Vec3] = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const trans: Vec3 = [0, 0, 0];
  for (let row = 0; row < 3; row++) {
    const part = parts[row]!;
    if (part.length === 0) return { error: `part ${row + 1} is empty` };
    if (part.length > 64) return { error: `part ${row + 1} is too long to be a coordinate expression` };
    // Split before every sign that is not the first character: '1/2+x-y' -> '1/2', '+x', '-y'.
    const terms = part.match(/[+-]?[^+-]+/g);
    if (!terms || terms.join('') !== part) return { error: `part ${row + 1} ('${part}') is not a sum of terms such as x, -y, 1/2` };
    for (const term of terms) {
      const m = TERM.exec(term);
      if (!m || (m[2] === undefined && m[5] === undefined) || (m[4] !== undefined && (m[2] === undefined || m[5] === undefined)))
        return { error: `'${term}' in part ${row + 1} is not x, y, z, a number or a fraction` };
      const sign = m[1] === '-' ? -1 : 1;
      let number = m[2] === undefined ? 1 : Number(m[2]);
      if (m[3] !== undefined) {
        const denominator = Number(m[3]);
        if (!(denominator > 0)) return { error: `'${term}' divides by zero` };
        number /= denominator;
      }
      if (m[5] === undefined) trans[row] += sign * number;
      else {
        if (!Number.isInteger(number)) return { error: `'${term}': the factor of ${m[5]} must be a whole number` };
        rot[row]['xyz'.indexOf(m[5])] += sign * number;
      }
    }
  }
  const det =
    rot[0][0] * (rot[1][1] * rot[2][2] - rot[1][2] * rot[2][1]) -
    rot[0][1] * (rot[1][0] * rot[2][2] - rot[1][2] * rot[2][0]) +
    rot[0][2] * (rot[1][0] * rot[2][1] - rot[1][1] * rot[2][0]);
  if (Math.abs(det) !== 1) return { error: `its rotation part has determinant ${det}, not ±1: it does not map the lattice onto itself` };
  return { op: { rot, trans } };
}

export const IDENTITY: SymOp = {
  rot: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  trans: [0, 0, 0],
};

/** Into [0, 1): -0.25 -> 0.75, 1 -> 0, and -1e-17 -> 0 (not 1, which floor's rounding would give). */
export function wrap(v: number): number {
  const w = v - Math.floor(v);
  return w >= 1 ? 0 : w;
}

export const apply = (op: SymOp, f: Vec3): Vec3 => {
  const [r0, r1, r2] = op.rot;
  return [
    wrap(r0[0] * f[0] + r0[1] * f[1] + r0[2] * f[2] + op.trans[0]),
    wrap(r1[0] * f[0] + r1[1] * f[1] + r1[2] * f[2] + op.trans[1]),
    wrap(r2[0] * f[0] + r2[1] * f[1] + r2[2] * f[2] + op.trans[2]),
  ];
};

/**
 * Fractional positions in [0,1)³ with a lookup of those within `tol` of a point in every coordinate,
 * across the periodic boundary (as ASE's Spacegroup.equivalent_sites and pymatgen's in_coord_list_pbc
 * compare). Buckets are `tol` wide, so a lookup reads 27 buckets: O(1) for any physical structure.
 */
/** Points one bucket may hold: a lookup reads at most 27 × this, whatever the input. */
export const BUCKET_LIMIT = 64;

export class PeriodicHash {
  readonly points: Vec3[] = [];
  /** Any number attached to each point (here: the index of the site it was generated from). */
  readonly tags: number[] = [];
  private readonly n: number;
  private readonly buckets = new Map<number, number[]>();

  constructor(private readonly tol: number) {
    this.n = Math.max(1, Math.floor(1 / tol));
  }

  private cell(v: number): number {
    return Math.min(this.n - 1, Math.floor(v * this.n));
  }

  /** Indices of the stored points within tol of p in every coordinate (periodic). */
  near(p: Vec3): number[] {
    const { n } = this;
    const found: number[] = [];
    const around = (c: number): number[] => (n < 3 ? Array.from({ length: n }, (_, i) => i) : [(c + n - 1) % n, c, (c + 1) % n]);
    const xs = around(this.cell(p[0]));
    const ys = around(this.cell(p[1]));
    const zs = around(this.cell(p[2]));
    for (const x of xs)
      for (const y of ys)
        for (const z of zs) {
          const bucket = this.buckets.get((x * n + y) * n + z);
          if (bucket) for (const index of bucket) if (this.close(this.points[index]!, p)) found.push(index);
        }
    return found;
  }

  private close(a: Vec3, b: Vec3): boolean {
    for (let i = 0; i < 3; i++) {
      const d = Math.abs(a[i]! - b[i]!);
      if (d > this.tol && Math.abs(d - 1) > this.tol) return false;
    }
    return true;
  }

  /** Stores p; -1 (not stored) when its bucket already holds BUCKET_LIMIT points, which no real structure has. */
  add(p: Vec3, tag: number): number {
    const key = (this.cell(p[0]) * this.n + this.cell(p[1])) * this.n + this.cell(p[2]);
    const bucket = this.buckets.get(key);
    const index = this.points.length;
    if (bucket && bucket.length >= BUCKET_LIMIT) return -1;
    if (bucket) bucket.push(index);
    else this.buckets.set(key, [index]);
    this.points.push(p);
    this.tags.push(tag);
    return index;
  }
}
