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

/** Bins per atom at most: a large empty cell (a molecule in vacuum) must not allocate a fine grid. */
const BINS_PER_SITE = 2;

export interface CellGrid {
  bins: Vec3;
  /** Bins searched on each side along each axis. */
  reach: Vec3;
  /** Bins this far apart would be needed for an exact search (reach is capped at maxReach). */
  fullReach: Vec3;
}

/** The grid for `sites` atoms and this cutoff; `maxReach` caps how many images deep a thin cell is searched. */
export function cellGrid(lattice: Mat3, sites: number, cutoff: number, maxReach = Infinity): CellGrid {
  const spacing = planeSpacings(lattice);
  const bins = spacing.map((d) => Math.max(1, Math.floor(d / cutoff))) as Vec3;
  const cap = Math.max(1, BINS_PER_SITE * sites);
  while (bins[0] * bins[1] * bins[2] > cap) {
    const k = bins.indexOf(Math.max(...bins));
    bins[k] = Math.max(1, Math.floor(bins[k] / 2));
  }
  const fullReach = bins.map((n, k) => Math.ceil((cutoff * n) / spacing[k])) as Vec3;
  return { bins, fullReach, reach: fullReach.map((r) => Math.min(maxReach, r)) as Vec3 };
}

/** Pairs the search will look at: atoms × atoms per bin × bins searched. */
export function candidatePairs(grid: CellGrid, sites: number): number {
  const perBin = sites / (grid.bins[0] * grid.bins[1] * grid.bins[2]);
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

/** Atoms sorted by bin (a counting sort): bin b holds order[start[b] .. start[b+1]). */
function binSites(frac: Float64Array, [nx, ny, nz]: Vec3): { binOf: Int32Array; order: Int32Array; start: Int32Array } {
  const n = frac.length / 3;
  const binOf = new Int32Array(n);
  const start = new Int32Array(nx * ny * nz + 1);
  for (let s = 0; s < n; s++) {
    binOf[s] = (cellOf(frac[s * 3]!, nx) * ny + cellOf(frac[s * 3 + 1]!, ny)) * nz + cellOf(frac[s * 3 + 2]!, nz);
    start[binOf[s]! + 1]!++;
  }
  for (let b = 0; b < nx * ny * nz; b++) start[b + 1]! += start[b]!;
  const fill = start.slice(0, -1);
  const order = new Int32Array(n);
  for (let s = 0; s < n; s++) order[fill[binOf[s]!]!++] = s;
  return { binOf, order, start };
}

/**
 * Called for each i ≤ j and periodic image (tx, ty, tz) of j closer than the cutoff to i, except an atom
 * with itself at no shift; (x, y, z) = r_j + image − r_i in Cartesian Å, with both atoms wrapped into the
 * cell, and r2 its squared length. A pair of distinct atoms is reported once per image within reach.
 */
export type PairVisitor = (i: number, j: number, tx: number, ty: number, tz: number, x: number, y: number, z: number, r2: number) => void;

/** Visits the pairs within `cutoff` of atoms at fractional coordinates `frac` (flat) on `grid`, i in order; stops when `stop()` says so. */
export function forEachPair(lattice: Mat3, fracIn: ArrayLike<number>, cutoff: number, grid: CellGrid, visit: PairVisitor, stop: () => boolean = () => false): void {
  const frac = wrap(fracIn);
  const n = frac.length / 3;
  const { binOf, order, start } = binSites(frac, grid.bins);
  const [nx, ny, nz] = grid.bins;
  const [rx, ry, rz] = grid.reach;
  const [a, b, c] = lattice;
  const cutoff2 = cutoff * cutoff;
  for (let i = 0; i < n && !stop(); i++) {
    const home = binOf[i]!;
    const hx = Math.floor(home / (ny * nz));
    const hy = Math.floor(home / nz) % ny;
    const hz = home % nz;
    for (let ux = hx - rx; ux <= hx + rx; ux++) {
      const tx = Math.floor(ux / nx);
      for (let uy = hy - ry; uy <= hy + ry; uy++) {
        const ty = Math.floor(uy / ny);
        for (let uz = hz - rz; uz <= hz + rz; uz++) {
          const tz = Math.floor(uz / nz);
          const bin = ((ux - tx * nx) * ny + (uy - ty * ny)) * nz + (uz - tz * nz);
          for (let o = start[bin]!; o < start[bin + 1]!; o++) {
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
