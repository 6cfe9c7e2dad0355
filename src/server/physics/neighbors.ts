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

/**
 * A neighbour list kept while the atoms move (Verlet's): built `skin` beyond the cutoff, it holds every pair within the
 * cutoff until an atom has moved skin/2 from where it was built, and its separations follow the atoms. The pairs it
 * gives may lie up to a skin beyond the cutoff.
 */
export class VerletList {
  private constructor(
    private readonly lattice: Mat3,
    private readonly reference: readonly Vec3[],
    private readonly built: NeighborList,
    private readonly skin: number,
  ) {}

  static build(lattice: Mat3, positions: readonly Vec3[], cutoff: number, skin: number): VerletList {
    return new VerletList(lattice, positions, neighborList(lattice, positions, cutoff + skin), skin);
  }

  /** The list at these positions in the same lattice, or undefined when the lattice changed or an atom moved too far. */
  at(lattice: Mat3, positions: readonly Vec3[]): NeighborList | undefined {
    const same = lattice.every((row, a) => row.every((x, b) => x === this.lattice[a]![b]));
    if (!same || positions.length !== this.reference.length) return undefined;
    const moved = new Float64Array(3 * positions.length);
    let most = 0;
    positions.forEach((p, a) => {
      for (let k = 0; k < 3; k++) moved[3 * a + k] = p[k]! - this.reference[a]![k]!;
      most = Math.max(most, Math.hypot(moved[3 * a]!, moved[3 * a + 1]!, moved[3 * a + 2]!));
    });
    if (most > this.skin / 2) return undefined;
    const { count, i, j } = this.built;
    const d = this.built.d.slice();
    const r = this.built.r.slice();
    for (let m = 0; m < count; m++) {
      for (let k = 0; k < 3; k++) d[3 * m + k]! += moved[3 * j[m]! + k]! - moved[3 * i[m]! + k]!;
      r[m] = Math.sqrt(d[3 * m]! ** 2 + d[3 * m + 1]! ** 2 + d[3 * m + 2]! ** 2);
    }
    return { count, i, j, d, r };
  }
}
