/**
 * A VASP KPOINTS file in line mode for a k-path (VASP wiki, "KPOINTS": line 2 the number of points per segment,
 * line 3 'Line-mode', line 4 'Reciprocal', then each segment as a pair of end points). The labels follow the
 * points as trailing comments in pymatgen's spelling ('\Gamma', '\Sigma_1'; pymatgen.io.vasp.Kpoints
 * .automatic_linemode), so pymatgen's Kpoints.from_file reads them back. Pure.
 */
import type { Mat3, Vec3 } from '../poscar/types';
import { pymatgenLabel } from './kpathLabels';
import { segmentLength } from './kpath';

/**
 * The points per segment for a density per Å⁻¹: VASP puts the same number on every segment, so the longest
 * segment sets it — 1 + ceil(density × its length), both ends included, at least 2.
 */
export function lineDivisions(points: Record<string, Vec3>, branches: readonly string[][], lattice: Mat3, density: number): number {
  let longest = 0;
  for (const names of branches)
    for (let s = 1; s < names.length; s++) longest = Math.max(longest, segmentLength(lattice, points[names[s - 1]!]!, points[names[s]!]!));
  return Math.max(2, 1 + Math.ceil(density * longest));
}

const coordinate = (x: number): string => {
  const text = (Math.abs(x) < 5e-11 ? 0 : x).toFixed(10);
  return text.padStart(14);
};

export interface LineModeFile {
  /** The first line; made one line here. */
  comment: string;
  /** Fractional coordinates of the reciprocal basis of the POSCAR the file goes with. */
  points: Record<string, Vec3>;
  branches: readonly string[][];
  divisions: number;
}

export function lineModeKpoints({ comment, points, branches, divisions }: LineModeFile): string {
  const line = (label: string): string => `${points[label]!.map(coordinate).join('')} ! ${pymatgenLabel(label)}`;
  const segments: string[] = [];
  for (const names of branches) for (let s = 1; s < names.length; s++) segments.push(`${line(names[s - 1]!)}\n${line(names[s]!)}\n`);
  const head = [comment.replace(/\s+/g, ' ').trim() || 'k-path', String(divisions), 'Line-mode', 'Reciprocal'].join('\n');
  return `${head}\n${segments.join('\n')}`;
}
