/**
 * Pairs of atoms within a cutoff under periodic boundary conditions, in linear time: atoms are binned
 * on a grid of the cell's fractional coordinates and each atom is compared with the atoms of nearby
 * bins only. Both the POSCAR close-contact check and the reference server's neighbour lists use it.
 *
 * The grid is cut by planes parallel to the cell's faces, so a bin is at least `cutoff` thick in every
 * direction however skewed the cell is: any pair closer than `cutoff` (through any periodic image)
 * lies in bins at most `reach` apart. Walking the unwrapped bin offsets visits each periodic image of
 * a bin once, which is what makes this correct where rounding fractional differences (the textbook
 * minimum-image convention) is wrong for skewed or thin cells. Pure.
 */
import type { Mat3, Vec3 } from './types';
import { planeSpacings } from './vec';

/**
 * Bins per axis at most, so that a bin's key (ix·ny + iy)·nz + iz stays an exact integer (< 2^51).
 * A cell wider than this many cutoffs gets bins thicker than the cutoff, which stays correct.
 */
const MAX_BINS_PER_AXIS = 1 << 17;
/** Up to this many bins per atom the bins are an array; beyond, only the occupied ones are kept (hashed). */
const DENSE_BINS_PER_SITE = 4;
/**
 * Å: bins are at least this thick even for a shorter cutoff. Atoms of a solid stand 1.5-3 Å apart, so a
 * bin holds about one; a short cutoff (the 0.5 Å close-contact check) then searches about 3 bins an
 * atom, not 27, because only atoms near a face look across it.
 */
const MIN_BIN = 2;

export interface CellGrid {
  bins: Vec3;
  /** Bins searched on each side along each axis. */
  reach: Vec3;
  /** Bins this far apart would be needed for an exact search (reach is capped at maxReach). */
  fullReach: Vec3;
  /** The cutoff in fractional units along each axis (cutoff / plane spacing): how far a search must look. */
  span: Vec3;
}

const binCount = (spacing: number, cutoff: number): number => {
  const n = Math.floor(spacing / cutoff);
  return n >= 1 ? Math.min(n, MAX_BINS_PER_AXIS) : 1; // NaN from a degenerate cell: one bin
};

/**
 * The grid for this cutoff: every bin at least `cutoff` thick, whatever the cell, so a compact cluster
 * in a big box is as cheap as a crystal (only occupied bins cost anything). `maxReach` caps how many
 * images deep a thin cell is searched; a degenerate cell (zero or non-finite thickness) needs an
 * infinite reach, which `candidatePairs` reports as an infinite cost.
 */
export function cellGrid(lattice: Mat3, cutoff: number, maxReach = Infinity): CellGrid {
  const spacing = planeSpacings(lattice);
  const bins = spacing.map((d) => binCount(d, Math.max(cutoff, MIN_BIN))) as Vec3;
  const fullReach = bins.map((n, k) => {
    const r = Math.ceil((cutoff * n) / spacing[k]!);
    return Number.isFinite(r) && r >= 1 ? r : Infinity;
  }) as Vec3;
  const span = spacing.map((d) => cutoff / d) as Vec3;
  return { bins, fullReach, span, reach: fullReach.map((r) => Math.min(maxReach, r)) as Vec3 };
}

/** Pairs the search will look at, at least: atoms × bins searched per atom × atoms per bin (≥ 1). */
export function candidatePairs(grid: CellGrid, sites: number): number {
  const perBin = Math.max(1, sites / (grid.bins[0] * grid.bins[1] * grid.bins[2]));
  return sites * perBin * grid.reach.reduce((p, r) => p * (2 * r + 1), 1);
}

/** Fractional coordinates wrapped into [0, 1), flat. */
function wrap(frac: ArrayLike<number>): Float64Array {
  const out = new Float64Array(frac.length);
  for (let k = 0; k < frac.length; k++) {
    const w = frac[k]! - Math.floor(frac[k]!);
    out[k] = w >= 0 && w < 1 ? w : 0; // -1e-17 wraps to 1 in floating point; NaN from overflow
  }
  return out;
}

const cellOf = (w: number, n: number): number => Math.min(n - 1, Math.floor(w * n));

/**
 * Atoms sorted by bin (a counting sort over the occupied bins): the atoms of the bin with key k are
 * order[start[s] .. start[s+1]) where s = slotOf(k), or none when slotOf(k) is -1.
 */
interface Binned {
  keyOf: Float64Array;
  order: Int32Array;
  start: Int32Array;
  slotOf: (key: number) => number;
}

/**
 * The slots of the occupied bins' keys: an open-addressing table (keys are integers below 2^51, so a
 * Map would box them; this stays a few typed arrays).
 */
function slotTable(keys: Float64Array): (key: number) => number {
  let size = 16;
  while (size < 2 * keys.length) size *= 2;
  const mask = size - 1;
  const table = new Float64Array(size).fill(-1);
  const slots = new Int32Array(size);
  const home = (key: number): number =>
    Math.imul((key % 4294967296) ^ Math.imul(Math.floor(key / 4294967296), 0x9e3779b1), 0x85ebca6b) & mask;
  let count = 0;
  for (const key of keys) {
    let h = home(key);
    while (table[h] !== -1 && table[h] !== key) h = (h + 1) & mask;
    if (table[h] === -1) {
      table[h] = key;
      slots[h] = count++;
    }
  }
  return (key) => {
    for (let h = home(key); table[h] !== -1; h = (h + 1) & mask) if (table[h] === key) return slots[h]!;
    return -1;
  };
}

function binSites(frac: Float64Array, [nx, ny, nz]: Vec3): Binned {
  const n = frac.length / 3;
  const keyOf = new Float64Array(n);
  for (let s = 0; s < n; s++) {
    keyOf[s] = (cellOf(frac[s * 3]!, nx) * ny + cellOf(frac[s * 3 + 1]!, ny)) * nz + cellOf(frac[s * 3 + 2]!, nz);
  }
  const dense = nx * ny * nz <= DENSE_BINS_PER_SITE * n + 64;
  const slotOf = dense ? (key: number): number => key : slotTable(keyOf);
  let count = dense ? nx * ny * nz : 0;
  if (!dense) for (let s = 0; s < n; s++) count = Math.max(count, slotOf(keyOf[s]!) + 1);
  const start = new Int32Array(count + 1);
  for (let s = 0; s < n; s++) start[slotOf(keyOf[s]!) + 1]!++;
  for (let b = 0; b < count; b++) start[b + 1]! += start[b]!;
  const fill = start.slice(0, -1);
  const order = new Int32Array(n);
  for (let s = 0; s < n; s++) order[fill[slotOf(keyOf[s]!)]!++] = s;
  return { keyOf, order, start, slotOf };
}

/**
 * Called for each i ≤ j and periodic image (tx, ty, tz) of j closer than the cutoff to i, except an atom
 * with itself at no shift; (x, y, z) = r_j + image − r_i in Cartesian Å, with both atoms wrapped into the
 * cell, and r2 its squared length. A pair of distinct atoms is reported once per image within reach.
 */
export type PairVisitor = (i: number, j: number, tx: number, ty: number, tz: number, x: number, y: number, z: number, r2: number) => void;

/** Visits the pairs within `cutoff` of atoms at fractional coordinates `frac` (flat) on `grid`, i in order; stops when `stop()` says so. */
export function forEachPair(
  lattice: Mat3,
  fracIn: ArrayLike<number>,
  cutoff: number,
  grid: CellGrid,
  visit: PairVisitor,
  stop: () => boolean = () => false,
): void {
  if (!grid.reach.every(Number.isFinite)) return; // a degenerate cell: callers check candidatePairs first
  const frac = wrap(fracIn);
  const n = frac.length / 3;
  const { order, start, slotOf } = binSites(frac, grid.bins);
  const [nx, ny, nz] = grid.bins;
  const [a, b, c] = lattice;
  const cutoff2 = cutoff * cutoff;
  const lo = new Int32Array(3);
  const hi = new Int32Array(3);
  for (let i = 0; i < n && !stop(); i++) {
    searchRange(frac, i, grid, lo, hi);
    for (let ux = lo[0]!; ux <= hi[0]!; ux++) {
      const tx = Math.floor(ux / nx);
      for (let uy = lo[1]!; uy <= hi[1]!; uy++) {
        const ty = Math.floor(uy / ny);
        for (let uz = lo[2]!; uz <= hi[2]!; uz++) {
          const tz = Math.floor(uz / nz);
          const slot = slotOf(((ux - tx * nx) * ny + (uy - ty * ny)) * nz + (uz - tz * nz));
          if (slot < 0) continue;
          for (let o = start[slot]!; o < start[slot + 1]!; o++) {
            const j = order[o]!;
            if (j < i || (j === i && tx === 0 && ty === 0 && tz === 0)) continue;
            const fx = frac[j * 3]! + tx - frac[i * 3]!;
            const fy = frac[j * 3 + 1]! + ty - frac[i * 3 + 1]!;
            const fz = frac[j * 3 + 2]! + tz - frac[i * 3 + 2]!;
            const x = fx * a[0] + fy * b[0] + fz * c[0];
            const y = fx * a[1] + fy * b[1] + fz * c[1];
            const z = fx * a[2] + fy * b[2] + fz * c[2];
            const r2 = x * x + y * y + z * z;
            if (r2 < cutoff2) visit(i, j, tx, ty, tz, x, y, z, r2);
          }
        }
      }
    }
  }
}

/**
 * The unwrapped bins atom i must search along each axis: those its cutoff slab [w − span, w + span]
 * touches, within reach of its own bin. An atom far from its bin's faces searches its own bin only,
 * which is what keeps a short cutoff (the close-contact check) cheap.
 */
function searchRange(frac: Float64Array, i: number, grid: CellGrid, lo: Int32Array, hi: Int32Array): void {
  for (let k = 0; k < 3; k++) {
    const n = grid.bins[k]!;
    const w = frac[i * 3 + k]!;
    const home = cellOf(w, n);
    const margin = grid.span[k]! * n + 1e-9; // a hair wider than the slab: rounding never loses a pair
    lo[k] = Math.max(home - grid.reach[k]!, Math.floor(w * n - margin));
    hi[k] = Math.min(home + grid.reach[k]!, Math.floor(w * n + margin));
  }
}
