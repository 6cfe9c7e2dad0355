/**
 * High-symmetry k-paths after Setyawan & Curtarolo (Comput. Mater. Sci. 49, 299, 2010) for the lattices
 * recognised from a b c α β γ, and the sampling of a path into k-points. Pure.
 *
 * The special points are fractional coordinates of the reciprocal basis of Setyawan-Curtarolo's standard
 * cell, so a type is recognised only in that setting: FCC as the primitive cell with α = β = γ = 60°, BCC as
 * the one with 109.47°, hexagonal with γ = 120° between a and b. A conventional cubic FCC or BCC cell takes the
 * simple-cubic path (its own Brillouin zone), and anything else the fallback path Γ-X-Y-Z-Γ with
 * X, Y, Z = (½,0,0), (0,½,0), (0,0,½).
 */
import { latticeParameters } from '../../core/poscar/structure';
import { combine, norm, reciprocal, sub, type Mat3, type Vec3 } from './cell';

export type Bravais = 'CUB' | 'FCC' | 'BCC' | 'HEX' | 'TET' | 'ORC' | 'OTHER';

/** Relative tolerance on lengths and absolute tolerance on angles (degrees) when recognising a lattice. */
export const LENGTH_TOLERANCE = 1e-3;
export const ANGLE_TOLERANCE = 0.1;

const BCC_ANGLE = (Math.acos(-1 / 3) * 180) / Math.PI;
const G: Vec3 = [0, 0, 0];

export const PATHS: Record<Bravais, { path: string; points: Record<string, Vec3> }> = {
  CUB: { path: 'Γ-X-M-Γ-R-X|M-R', points: { Γ: G, X: [0, 0.5, 0], M: [0.5, 0.5, 0], R: [0.5, 0.5, 0.5] } },
  FCC: {
    path: 'Γ-X-W-K-Γ-L-U-W-L-K|U-X',
    points: { Γ: G, X: [0.5, 0, 0.5], W: [0.5, 0.25, 0.75], K: [0.375, 0.375, 0.75], L: [0.5, 0.5, 0.5], U: [0.625, 0.25, 0.625] },
  },
  BCC: { path: 'Γ-H-N-Γ-P-H|P-N', points: { Γ: G, H: [0.5, -0.5, 0.5], N: [0, 0, 0.5], P: [0.25, 0.25, 0.25] } },
  HEX: {
    path: 'Γ-M-K-Γ-A-L-H-A|L-M|K-H',
    points: { Γ: G, M: [0.5, 0, 0], K: [1 / 3, 1 / 3, 0], A: [0, 0, 0.5], L: [0.5, 0, 0.5], H: [1 / 3, 1 / 3, 0.5] },
  },
  TET: {
    path: 'Γ-X-M-Γ-Z-R-A-Z|X-R|M-A',
    points: { Γ: G, X: [0, 0.5, 0], M: [0.5, 0.5, 0], Z: [0, 0, 0.5], R: [0, 0.5, 0.5], A: [0.5, 0.5, 0.5] },
  },
  // Setyawan-Curtarolo name X, Y, Z for a < b < c; here they simply follow the cell's own a, b, c.
  ORC: {
    path: 'Γ-X-S-Y-Γ-Z-U-R-T-Z|Y-T|U-X|S-R',
    points: {
      Γ: G,
      X: [0.5, 0, 0],
      Y: [0, 0.5, 0],
      Z: [0, 0, 0.5],
      S: [0.5, 0.5, 0],
      U: [0.5, 0, 0.5],
      T: [0, 0.5, 0.5],
      R: [0.5, 0.5, 0.5],
    },
  },
  OTHER: { path: 'Γ-X-Y-Z-Γ', points: { Γ: G, X: [0.5, 0, 0], Y: [0, 0.5, 0], Z: [0, 0, 0.5] } },
};

export function bravaisLattice(lattice: Mat3): Bravais {
  const { a, b, c, alpha, beta, gamma } = latticeParameters(lattice);
  const angles = [alpha, beta, gamma];
  const same = (x: number, y: number): boolean => Math.abs(x - y) <= LENGTH_TOLERANCE * Math.max(x, y);
  const is = (angle: number, degrees: number): boolean => Math.abs(angle - degrees) <= ANGLE_TOLERANCE;
  const all = (degrees: number): boolean => angles.every((angle) => is(angle, degrees));
  if (same(a, b) && same(b, c)) {
    if (all(90)) return 'CUB';
    if (all(60)) return 'FCC';
    if (all(BCC_ANGLE)) return 'BCC';
  }
  if (same(a, b) && is(alpha, 90) && is(beta, 90) && is(gamma, 120)) return 'HEX';
  if (all(90)) return same(a, b) ? 'TET' : 'ORC';
  return 'OTHER';
}

export interface KLabel {
  index: number;
  distance: number;
  /** 'Γ', 'X', ...; where the path jumps, both ends: 'K|U' (at the index of the K). */
  label: string;
}

export interface KPath {
  bravais: Bravais;
  path: string;
  /** Fractional coordinates of the cell's reciprocal lattice. */
  kpoints: Vec3[];
  /** Å⁻¹ (with the 2π) along the path; zero-length across a jump. */
  distances: number[];
  labels: KLabel[];
}

/**
 * Samples the path: a segment of length L (Å⁻¹, with the 2π) gets ceil(density × L) intervals, at least one,
 * so `density` is k-points per Å⁻¹ (pymatgen's line_density). Corners are shared within a branch; after a
 * jump the next branch starts at the same distance.
 */
export function kPath(lattice: Mat3, density: number): KPath {
  const bravais = bravaisLattice(lattice);
  const { path, points } = PATHS[bravais];
  const recip = reciprocal(lattice);
  const result: KPath = { bravais, path, kpoints: [], distances: [], labels: [] };
  let distance = 0;
  path.split('|').forEach((branch, b) => {
    const names = branch.split('-');
    const jump = result.labels.at(-1);
    if (jump) jump.label += `|${names[0]}`;
    result.kpoints.push(points[names[0]]);
    result.distances.push(distance);
    if (b === 0) result.labels.push({ index: 0, distance, label: names[0] });
    for (let s = 1; s < names.length; s++) {
      const from = points[names[s - 1]];
      const to = points[names[s]];
      const length = norm(combine(sub(to, from), recip));
      const intervals = Math.max(1, Math.ceil(density * length));
      for (let t = 1; t <= intervals; t++) {
        result.kpoints.push(from.map((x, k) => x + ((to[k] - x) * t) / intervals) as Vec3);
        result.distances.push(distance + (length * t) / intervals);
      }
      distance += length;
      result.labels.push({ index: result.kpoints.length - 1, distance, label: names[s] });
    }
  });
  return result;
}
