/**
 * Close contacts under periodic boundary conditions in linear time: atoms are binned on a grid of the
 * cell's fractional coordinates and each atom is compared with the atoms of neighbouring bins only.
 *
 * The grid is cut by the planes between lattice planes, so a bin is at least `minDistance` thick in
 * every direction however skewed the cell is: any pair closer than `minDistance` (through any periodic
 * image) lies in bins at most `reach` apart. Walking the unwrapped bin offsets visits each periodic
 * image of a bin once, which is what makes this correct where rounding fractional differences
 * (the textbook minimum-image convention) is wrong for skewed or thin cells.
 */
import type { Mat3, Poscar } from './types';
import { determinant, planeSpacings } from './vec';

export interface Contact {
  /** Site indices, i <= j; i === j is an atom and its own periodic image. */
  i: number;
  j: number;
  /** Å: the shortest distance between the two over all periodic images. */
  distance: number;
}

// Bins per site at most: a large empty cell must not allocate a fine grid.
const BINS_PER_SITE = 2;
// Cells thinner than minDistance / MAX_REACH are searched this many images deep, no further.
const MAX_REACH = 8;

interface Grid {
  bins: [number, number, number];
  reach: [number, number, number];
}

function grid(lattice: Mat3, minDistance: number, sites: number): Grid {
  const spacing = planeSpacings(lattice);
  const bins = spacing.map((d) => Math.max(1, Math.floor(d / minDistance)));
  const cap = Math.max(1, BINS_PER_SITE * sites);
  while (bins[0]! * bins[1]! * bins[2]! > cap) {
    const k = bins.indexOf(Math.max(...bins));
    bins[k] = Math.max(1, Math.floor(bins[k]! / 2));
  }
  const reach = bins.map((n, k) => Math.min(MAX_REACH, Math.ceil((minDistance * n) / spacing[k]!)));
  return { bins: bins as Grid['bins'], reach: reach as Grid['reach'] };
}

/** Fractional coordinates wrapped into [0, 1), flat. */
function wrapped(sites: Poscar['sites']): Float64Array {
  const out = new Float64Array(sites.length * 3);
  sites.forEach((site, s) => {
    for (let k = 0; k < 3; k++) {
      const w = site.frac[k] - Math.floor(site.frac[k]);
      out[s * 3 + k] = w >= 0 && w < 1 ? w : 0; // -1e-17 wraps to 1 in floating point; NaN from overflow
    }
  });
  return out;
}

const cell = (w: number, n: number): number => Math.min(n - 1, Math.floor(w * n));

/** Sites sorted by bin (a counting sort): bin b holds order[start[b] .. start[b+1]). */
function binSites(frac: Float64Array, bins: Grid['bins']): { binOf: Int32Array; order: Int32Array; start: Int32Array } {
  const n = frac.length / 3;
  const [nx, ny, nz] = bins;
  const binOf = new Int32Array(n);
  const start = new Int32Array(nx * ny * nz + 1);
  for (let s = 0; s < n; s++) {
    binOf[s] = (cell(frac[s * 3]!, nx) * ny + cell(frac[s * 3 + 1]!, ny)) * nz + cell(frac[s * 3 + 2]!, nz);
    start[binOf[s]! + 1]!++;
  }
  for (let b = 0; b < nx * ny * nz; b++) start[b + 1]! += start[b]!;
  const fill = start.slice(0, -1);
  const order = new Int32Array(n);
  for (let s = 0; s < n; s++) order[fill[binOf[s]!]!++] = s;
  return { binOf, order, start };
}

const floorDiv = (a: number, n: number): number => Math.floor(a / n);

/**
 * Pairs of sites closer than `minDistance` Å, each pair once with its shortest periodic distance,
 * sorted by i then j; stops after `limit` pairs.
 */
export function closeContacts(poscar: Pick<Poscar, 'lattice' | 'sites'>, minDistance = 0.5, limit = Infinity): Contact[] {
  const { lattice, sites } = poscar;
  const volume = Math.abs(determinant(lattice));
  if (sites.length === 0 || !(minDistance > 0) || !(volume > 1e-8 && volume < Infinity)) return [];
  const { bins, reach } = grid(lattice, minDistance, sites.length);
  const frac = wrapped(sites);
  const { binOf, order, start } = binSites(frac, bins);
  const [nx, ny, nz] = bins;
  const [a, b, c] = lattice;
  const cutoff2 = minDistance * minDistance;
  const out: Contact[] = [];
  const nearest = new Map<number, number>();
  for (let i = 0; i < sites.length && out.length < limit; i++) {
    const home = binOf[i]!;
    const hx = Math.floor(home / (ny * nz));
    const hy = Math.floor(home / nz) % ny;
    const hz = home % nz;
    nearest.clear();
    for (let dx = -reach[0]; dx <= reach[0]; dx++) {
      const ux = hx + dx;
      const tx = floorDiv(ux, nx);
      for (let dy = -reach[1]; dy <= reach[1]; dy++) {
        const uy = hy + dy;
        const ty = floorDiv(uy, ny);
        for (let dz = -reach[2]; dz <= reach[2]; dz++) {
          const uz = hz + dz;
          const tz = floorDiv(uz, nz);
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
            const d2 = x * x + y * y + z * z;
            if (d2 < cutoff2 && d2 < (nearest.get(j) ?? Infinity)) nearest.set(j, d2);
          }
        }
      }
    }
    if (nearest.size === 0) continue;
    for (const j of [...nearest.keys()].sort((p, q) => p - q)) {
      if (out.length < limit) out.push({ i, j, distance: Math.sqrt(nearest.get(j)!) });
    }
  }
  return out;
}
