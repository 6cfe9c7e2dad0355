/**
 * What the 3D view draws for a cell: the sites repeated na × nb × nc times, plus the periodic images
 * that sit on the supercell's faces, edges and corners (so a cubic cell shows all eight corners, as
 * crystal viewers do). Pure: runs in the webview and in unit tests.
 */
import type { Mat3, Vec3 } from '../../core/poscar/types';

export interface SceneInput {
  lattice: Mat3;
  /** Element symbol per site. */
  elements: string[];
  /** Fractional coordinates, flat: x0 y0 z0 x1 … */
  frac: number[];
}

export interface Scene {
  elements: string[];
  /** Cartesian Å, flat. */
  positions: Float64Array;
  /** The site (index into the input) each drawn atom is an image of. */
  sites: Int32Array;
  /** The supercell's lattice (rows). */
  cell: Mat3;
  /** The repeat actually drawn (reduced when the atom budget would be exceeded). */
  repeat: Vec3;
}

/** Wrapped coordinates this close to 0 are also drawn at the far face. */
const FACE = 1e-3;

export function buildScene(input: SceneInput, repeat: Vec3, maxAtoms = 50_000): Scene {
  const n = input.elements.length;
  const r = fitRepeat(repeat, n, maxAtoms);
  const elements: string[] = [];
  const positions: number[] = [];
  const sites: number[] = [];
  const [a, b, c] = input.lattice;
  for (let s = 0; s < n; s++) {
    const f = [wrap(input.frac[3 * s]!), wrap(input.frac[3 * s + 1]!), wrap(input.frac[3 * s + 2]!)];
    // Along each axis the copies 0..r-1, and one more at r when the coordinate sits on the face.
    const ranges = f.map((x, k) => (x < FACE ? r[k]! + 1 : r[k]!));
    for (let i = 0; i < ranges[0]!; i++) {
      for (let j = 0; j < ranges[1]!; j++) {
        for (let k = 0; k < ranges[2]!; k++) {
          const u = f[0]! + i,
            v = f[1]! + j,
            w = f[2]! + k;
          positions.push(u * a[0] + v * b[0] + w * c[0], u * a[1] + v * b[1] + w * c[1], u * a[2] + v * b[2] + w * c[2]);
          elements.push(input.elements[s]!);
          sites.push(s);
        }
      }
    }
  }
  const scale = (v: Vec3, k: number): Vec3 => [v[0] * k, v[1] * k, v[2] * k];
  return {
    elements,
    positions: Float64Array.from(positions),
    sites: Int32Array.from(sites),
    cell: [scale(a, r[0]), scale(b, r[1]), scale(c, r[2])],
    repeat: r,
  };
}

/** Coordinates into [0, 1), with values a hair below 1 taken as 0 (they are the same face). */
function wrap(x: number): number {
  const w = x - Math.floor(x);
  return w > 1 - FACE ? 0 : w;
}

/** The largest repeat, no larger than asked, whose atoms stay within the budget (shrinking the largest axis first). */
export function fitRepeat(repeat: Vec3, sites: number, maxAtoms: number): Vec3 {
  const r: Vec3 = [...repeat];
  while (sites * r[0] * r[1] * r[2] > maxAtoms && r.some((x) => x > 1)) {
    const k = r.indexOf(Math.max(...r));
    r[k]!--;
  }
  return r;
}

/** XYZ text of a scene, the format the viewer library reads (and bonds itself). */
export function toXyz(scene: Scene, title = ''): string {
  const lines = [String(scene.elements.length), title.replace(/[\r\n]+/g, ' ')];
  const p = scene.positions;
  for (let i = 0; i < scene.elements.length; i++) {
    lines.push(`${scene.elements[i]} ${p[3 * i]!.toFixed(6)} ${p[3 * i + 1]!.toFixed(6)} ${p[3 * i + 2]!.toFixed(6)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Elements and how many sites of each the cell holds, in order of first appearance. */
export function legend(elements: readonly string[]): { element: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const e of elements) counts.set(e, (counts.get(e) ?? 0) + 1);
  return [...counts].map(([element, count]) => ({ element, count }));
}
