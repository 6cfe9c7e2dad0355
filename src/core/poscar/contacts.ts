/**
 * Close contacts under periodic boundary conditions: pairs of sites closer than a distance through any
 * periodic image, each pair once at its shortest distance, found in linear time with the cell list.
 */
import { cellGrid, forEachPair } from './cellList';
import type { Poscar } from './types';
import { determinant } from './vec';

export interface Contact {
  /** Site indices, i <= j; i === j is an atom and its own periodic image. */
  i: number;
  j: number;
  /** Å: the shortest distance between the two over all periodic images. */
  distance: number;
}

// Cells thinner than minDistance / MAX_REACH are searched this many images deep, no further.
const MAX_REACH = 8;

/**
 * Pairs of sites closer than `minDistance` Å, each pair once with its shortest periodic distance,
 * sorted by i then j; stops after `limit` pairs.
 */
export function closeContacts(poscar: Pick<Poscar, 'lattice' | 'sites'>, minDistance = 0.5, limit = Infinity): Contact[] {
  const { lattice, sites } = poscar;
  const volume = Math.abs(determinant(lattice));
  if (sites.length === 0 || !(minDistance > 0) || !(volume > 1e-8 && volume < Infinity)) return [];
  const frac = new Float64Array(sites.length * 3);
  sites.forEach((site, s) => frac.set(site.frac, s * 3));
  const out: Contact[] = [];
  // The nearest image of each j found for the current i, flushed in j order when i moves on.
  const nearest = new Map<number, number>();
  let current = -1;
  const flush = (): void => {
    for (const j of [...nearest.keys()].sort((p, q) => p - q)) {
      if (out.length < limit) out.push({ i: current, j, distance: Math.sqrt(nearest.get(j)!) });
    }
    nearest.clear();
  };
  const grid = cellGrid(lattice, minDistance, MAX_REACH);
  forEachPair(
    lattice,
    frac,
    minDistance,
    grid,
    (i, j, _tx, _ty, _tz, _x, _y, _z, r2) => {
      if (i !== current) {
        flush();
        current = i;
      }
      if (r2 < (nearest.get(j) ?? Infinity)) nearest.set(j, r2);
    },
    () => out.length >= limit,
  );
  flush();
  return out;
}
