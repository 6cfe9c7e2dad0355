/**
 * Neighbour pairs within a cutoff over periodic images, with a cell list: atoms are binned in fractional
 * coordinates, each bin at least one cutoff wide measured perpendicular to the faces, so a skewed cell is
 * searched as correctly as an orthogonal one; a cutoff longer than the cell reaches further images.
 * Cost ∝ N × (neighbours per atom). Pure.
 */
import { combine, dualBasis, InputError, perpendicularWidths, toFractional, type Mat3, type Vec3 } from './cell';

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

export function neighborList(lattice: Mat3, positions: readonly Vec3[], cutoff: number): NeighborList {
  const n = positions.length;
  const grid = binGrid(lattice, n, cutoff);
  const dual = dualBasis(lattice);
  const wrapped: Vec3[] = [];
  const bins: number[][] = Array.from({ length: grid.size[0] * grid.size[1] * grid.size[2] }, () => []);
  const binOf: Vec3[] = positions.map((r, atom) => {
    const f = toFractional(r, dual).map((x) => x - Math.floor(x)) as Vec3;
    wrapped.push(combine(f, lattice));
    const b = f.map((x, k) => Math.min(grid.size[k] - 1, Math.floor(x * grid.size[k]))) as Vec3;
    bins[grid.index(b)].push(atom);
    return b;
  });
  const list: NeighborList = { count: 0, i: [], j: [], d: [], r: [] };
  const cut2 = cutoff * cutoff;
  for (let a = 0; a < n; a++) {
    grid.forEachImage(binOf[a], (bin, shift) => {
      const image = combine(shift, lattice);
      const positiveImage = shift[0] > 0 || (shift[0] === 0 && (shift[1] > 0 || (shift[1] === 0 && shift[2] > 0)));
      for (const b of bins[bin]) {
        if (b < a || (b === a && !positiveImage)) continue;
        const dx = wrapped[b][0] + image[0] - wrapped[a][0];
        const dy = wrapped[b][1] + image[1] - wrapped[a][1];
        const dz = wrapped[b][2] + image[2] - wrapped[a][2];
        const r2 = dx * dx + dy * dy + dz * dz;
        if (r2 >= cut2) continue;
        if (r2 < COINCIDENT ** 2) throw new InputError(`Atoms ${a + 1} and ${b + 1} sit on the same spot (periodic images counted): no force or band can be computed.`);
        list.i.push(a);
        list.j.push(b);
        list.d.push(dx, dy, dz);
        list.r.push(Math.sqrt(r2));
        list.count++;
      }
    });
  }
  return list;
}

interface BinGrid {
  size: Vec3;
  index(b: Vec3): number;
  /** Calls back for every (bin, image shift) whose atoms can lie within the cutoff of an atom in bin b. */
  forEachImage(b: Vec3, visit: (bin: number, shift: Vec3) => void): void;
}

function binGrid(lattice: Mat3, n: number, cutoff: number): BinGrid {
  const widths = perpendicularWidths(lattice);
  // More bins than about 8 per atom only cost memory: a mostly empty cell (a molecule in vacuum) stays cheap.
  const cap = 2 * Math.ceil(Math.cbrt(n));
  const size = widths.map((w) => Math.max(1, Math.min(cap, Math.floor(w / cutoff)))) as Vec3;
  const reach = widths.map((w, k) => Math.ceil((cutoff * size[k]) / w)) as Vec3;
  const candidates = n * (n / (size[0] * size[1] * size[2])) * reach.reduce((p, m) => p * (2 * m + 1), 1);
  // A cell so thin or so dense that the search would not end in time is refused before it starts.
  if (candidates > MAX_CANDIDATES) {
    throw new InputError(`The cell is too thin or too dense for a ${cutoff.toFixed(2)} Å cutoff (perpendicular widths ${widths.map((w) => w.toFixed(2)).join(', ')} Å).`);
  }
  const index = (b: Vec3): number => (b[0] * size[1] + b[1]) * size[2] + b[2];
  const floorDiv = (t: number, k: number): [number, number] => {
    const s = Math.floor(t / size[k]);
    return [t - s * size[k], s];
  };
  return {
    size,
    index,
    forEachImage(b, visit) {
      for (let x = b[0] - reach[0]; x <= b[0] + reach[0]; x++) {
        const [wx, sx] = floorDiv(x, 0);
        for (let y = b[1] - reach[1]; y <= b[1] + reach[1]; y++) {
          const [wy, sy] = floorDiv(y, 1);
          for (let z = b[2] - reach[2]; z <= b[2] + reach[2]; z++) {
            const [wz, sz] = floorDiv(z, 2);
            visit(index([wx, wy, wz]), [sx, sy, sz]);
          }
        }
      }
    },
  };
}
