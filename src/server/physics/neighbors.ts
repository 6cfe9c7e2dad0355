/**
 * Neighbour pairs within a cutoff over periodic images, from the POSCAR core's cell list (each bin at
 * least one cutoff wide measured perpendicular to the faces, so a skewed cell is searched as correctly
 * as an orthogonal one; a cutoff longer than the cell reaches further images).
 * Cost ∝ N × (neighbours per atom). Pure.
 */
import { candidatePairs, cellGrid, forEachPair } from '../../core/poscar/cellList';
import { dualBasis, InputError, perpendicularWidths, toFractional, type Mat3, type Vec3 } from './cell';

/** Each pair once: i < j, or i = j with a positive image. d = r_j + image − r_i (Cartesian Å), flattened. */
export interface NeighborList {
  count: number;
  i: number[];
  j: number[];
  d: number[];
  r: number[];
}

const MAX_CANDIDATES = 5e7;
/** Å: closer than this, two atoms are taken to be one on top of the other. */
const COINCIDENT = 1e-4;

const positive = (tx: number, ty: number, tz: number): boolean => tx > 0 || (tx === 0 && (ty > 0 || (ty === 0 && tz > 0)));

export function neighborList(lattice: Mat3, positions: readonly Vec3[], cutoff: number): NeighborList {
  const n = positions.length;
  const grid = cellGrid(lattice, cutoff);
  // A cell so thin or so dense that the search would not end in time is refused before it starts.
  if (candidatePairs(grid, n) > MAX_CANDIDATES) {
    const widths = perpendicularWidths(lattice);
    throw new InputError(
      `The cell is too thin or too dense for a ${cutoff.toFixed(2)} Å cutoff (perpendicular widths ${widths.map((w) => w.toFixed(2)).join(', ')} Å).`,
    );
  }
  const dual = dualBasis(lattice);
  const frac = positions.flatMap((r) => toFractional(r, dual));
  const list: NeighborList = { count: 0, i: [], j: [], d: [], r: [] };
  forEachPair(lattice, frac, cutoff, grid, (a, b, tx, ty, tz, dx, dy, dz, r2) => {
    if (a === b && !positive(tx, ty, tz)) return;
    if (r2 < COINCIDENT ** 2)
      throw new InputError(`Atoms ${a + 1} and ${b + 1} sit on the same spot (periodic images counted): no force or band can be computed.`);
    list.i.push(a);
    list.j.push(b);
    list.d.push(dx, dy, dz);
    list.r.push(Math.sqrt(r2));
    list.count++;
  });
  return list;
}
