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
      if (m[5] === undefined) trans[row]! += sign * number;
      else {
        if (!Number.isInteger(number)) return { error: `'${term}': the factor of ${m[5]} must be a whole number` };
        rot[row]!['xyz'.indexOf(m[5])]! += sign * number;
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

/**
 * Fractional positions in [0,1)³ with a lookup of those within `tol` of a point in every coordinate,
 * across the periodic boundary (as ASE's Spacegroup.equivalent_sites and pymatgen's in_coord_list_pbc
 * compare). Buckets are 2·tol wide, so the box of ±tol around a point overlaps 2 buckets along each axis (3 when
 * rounding puts its edges on bucket borders): a lookup reads at most 27 buckets of at most BUCKET_LIMIT points, O(1) whatever the input.
 * Storage is flat (coordinates in one array, buckets as linked lists through `next`), so a large structure
 * costs no per-point allocation.
 */
export class PeriodicHash {
  /** x, y, z of point i at 3i, 3i+1, 3i+2. */
  readonly coords: number[] = [];
  /** Any number attached to each point (here: the index of the site it was generated from). */
  readonly tags: number[] = [];
  private readonly next: number[] = [];
  /** Open addressing: bucket keys and the last point added to each (its list runs on through `next`). */
  private keys = new Int32Array(1024).fill(-1);
  private heads = new Int32Array(1024);
  private used = 0;
  private readonly n: number;
  private readonly found: number[] = [];
  private readonly xs: number[] = [0, 0, 0];
  private readonly ys: number[] = [0, 0, 0];
  private readonly zs: number[] = [0, 0, 0];

  constructor(private readonly tol: number) {
    // At most 1024 buckets a side, so that a bucket key (< 2^30) fits an Int32Array.
    this.n = Math.min(1024, Math.max(1, Math.floor(1 / (2 * tol))));
  }

  get size(): number {
    return this.tags.length;
  }

  point(i: number): Vec3 {
    return [this.coords[3 * i]!, this.coords[3 * i + 1]!, this.coords[3 * i + 2]!];
  }

  private cell(v: number): number {
    return Math.min(this.n - 1, Math.max(0, Math.floor(v * this.n)));
  }

  /** The cells along one axis that the box v ± tol overlaps, wrapped: one to three (all of them when n ≤ 3). */
  private span(v: number, out: number[]): number {
    const { n } = this;
    if (n <= 3) {
      for (let i = 0; i < n; i++) out[i] = i;
      return n;
    }
    // Usually one or two cells; three when rounding puts v ± tol exactly on cell borders (0.014 × 500 = 6.999…).
    const lo = Math.floor((v - this.tol) * n);
    const hi = Math.min(lo + 2, Math.floor((v + this.tol) * n));
    let k = 0;
    for (let c = lo; c <= hi; c++) out[k++] = ((c % n) + n) % n;
    return k;
  }

  /** Indices of the stored points within tol of p in every coordinate (periodic); the array is reused by the next call. */
  near(p: Vec3): readonly number[] {
    const { n, found, xs, ys, zs, coords, next, tol } = this;
    found.length = 0;
    const nx = this.span(p[0], xs);
    const ny = this.span(p[1], ys);
    const nz = this.span(p[2], zs);
    for (let a = 0; a < nx; a++)
      for (let b = 0; b < ny; b++)
        for (let c = 0; c < nz; c++) {
          for (let i = this.head((xs[a]! * n + ys[b]!) * n + zs[c]!); i >= 0; i = next[i]!) {
            let close = true;
            for (let k = 0; k < 3 && close; k++) {
              const d = Math.abs(coords[3 * i + k]! - p[k]!);
              close = d <= tol || Math.abs(d - 1) <= tol;
            }
            if (close) found.push(i);
          }
        }
    return found;
  }

  /** Stores p; -1 (not stored) when its bucket already holds BUCKET_LIMIT points, which no real structure has. */
  add(p: Vec3, tag: number): number {
    const key = (this.cell(p[0]) * this.n + this.cell(p[1])) * this.n + this.cell(p[2]);
    const head = this.head(key);
    let count = 0;
    for (let i = head; i >= 0 && count < BUCKET_LIMIT; i = this.next[i]!) count++;
    if (count >= BUCKET_LIMIT) return -1;
    const index = this.tags.length;
    this.coords.push(p[0], p[1], p[2]);
    this.tags.push(tag);
    this.next.push(head);
    this.setHead(key, index);
    return index;
  }

  /** The slot of a bucket key: where it is, or the empty slot where it would go. */
  private slot(key: number): number {
    const mask = this.keys.length - 1;
    let i = (Math.imul(key, 0x9e3779b1) >>> 0) & mask;
    while (this.keys[i] !== -1 && this.keys[i] !== key) i = (i + 1) & mask;
    return i;
  }

  private head(key: number): number {
    const i = this.slot(key);
    return this.keys[i] === key ? this.heads[i]! : -1;
  }

  private setHead(key: number, index: number): void {
    let i = this.slot(key);
    if (this.keys[i] !== key) {
      if (2 * (this.used + 1) > this.keys.length) {
        this.grow();
        i = this.slot(key);
      }
      this.keys[i] = key;
      this.used++;
    }
    this.heads[i] = index;
  }

  private grow(): void {
    const { keys, heads } = this;
    this.keys = new Int32Array(keys.length * 2).fill(-1);
    this.heads = new Int32Array(keys.length * 2);
    for (let j = 0; j < keys.length; j++)
      if (keys[j] !== -1) {
        const i = this.slot(keys[j]!);
        this.keys[i] = keys[j]!;
        this.heads[i] = heads[j]!;
      }
  }
}
