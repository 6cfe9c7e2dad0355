/**
 * A VASP KPOINTS file in line mode for a k-path (VASP wiki, "KPOINTS": line 2 the number of points per segment,
 * line 3 'Line-mode', line 4 'Reciprocal', then each segment as a pair of end points). The labels follow the
 * points as trailing comments in pymatgen's spelling ('\Gamma', '\Sigma_1'; pymatgen.io.vasp.Kpoints
 * .automatic_linemode), so pymatgen's Kpoints.from_file reads them back. Pure.
 */
import type { Mat3, Vec3 } from '../poscar/types';
import { cartToFrac } from '../poscar/structure';
import { cellProblem, primitiveDataset, type MoyoBindings } from './symmetry';
import { pymatgenLabel } from './kpathLabels';
import { bravaisFromMetric, kPathOfSpaceGroup, pointsIn, segmentLength, setyawanCurtarolo, type Variant } from './kpath';

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

/** A crystal as the structure readers give it (core/structures/types.ts StructureFrame): rows in Å, Cartesian sites. */
export interface Crystal {
  lattice: Mat3;
  species: string[];
  /** Cartesian positions in Å. */
  positions: Vec3[];
}

/**
 * What a symmetry finder (spglib, moyo) says of a crystal: its space group and its conventional cell in the
 * standard setting, as rows in the crystal's own Cartesian frame (not rotated to the standard orientation), so
 * that the special points can be written in the crystal's reciprocal basis.
 */
export interface Standardized {
  number: number;
  conventionalLattice: Mat3;
}

/** A symmetry finder; it may answer later (moyo's WebAssembly loads once, asynchronously). */
export type Standardize = (crystal: Crystal) => Standardized | undefined | Promise<Standardized | undefined>;

export interface BandPathKpoints {
  text: string;
  variant: Variant;
  divisions: number;
  /** Where the lattice type came from: the space group, or the cell's metric alone. */
  source: 'space group' | 'metric';
  spaceGroup?: number;
}

/**
 * The KPOINTS file of Setyawan & Curtarolo's band path for a crystal: the variant from the space group and the
 * standard conventional cell when a symmetry finder gave them, else from the cell's metric (said on the comment
 * line: 'lattice type from the cell metric'); the points in the reciprocal basis of the crystal's own cell, so the
 * file goes with its POSCAR; N per segment from `density` (per Å⁻¹, 2π included) on the longest segment.
 */
export function bandPathKpoints(crystal: Crystal, density: number, standardized?: Standardized): BandPathKpoints {
  const definition = standardized
    ? kPathOfSpaceGroup(standardized.number, standardized.conventionalLattice)
    : (({ bravais, conventional }) => setyawanCurtarolo(bravais, conventional))(bravaisFromMetric(crystal.lattice));
  const points = pointsIn(definition, crystal.lattice);
  const divisions = lineDivisions(points, definition.branches, crystal.lattice, density);
  const origin = standardized ? `space group ${standardized.number}` : 'lattice type from the cell metric';
  // ASCII only: VASP reads the comment line as bytes.
  const comment =
    `${definition.variant} k-path of Setyawan & Curtarolo (2010); ${origin}; ` +
    `${divisions} points per segment = 1 + ceil(${density} per 1/A x longest segment, 2pi in b)`;
  return {
    text: lineModeKpoints({ comment, points, branches: definition.branches, divisions }),
    variant: definition.variant,
    divisions,
    source: standardized ? 'space group' : 'metric',
    ...(standardized ? { spaceGroup: standardized.number } : {}),
  };
}

/** The fields of moyo's MoyoDataset (@spglib/moyo-wasm) that say the space group and the standard cell. */
export interface MoyoStandardCell {
  number: number;
  /** The standardized conventional cell, rotated to the standard orientation: basis vectors one after another. */
  std_cell: { lattice: { basis: readonly number[] } };
  /** The rotation R taking the input's frame to the standard one (v_std = R v), column-major (nalgebra's order). */
  std_rotation_matrix: readonly number[];
}

/**
 * moyo's answer as `Standardized`: its conventional cell rotated back into the crystal's frame, v = Rᵀ v_std;
 * with R column-major, Rᵀ's rows are the flat array's consecutive triples.
 */
export function standardizedFromMoyo(dataset: MoyoStandardCell): Standardized {
  const b = dataset.std_cell.lattice.basis;
  const r = dataset.std_rotation_matrix;
  const std: Vec3[] = [0, 1, 2].map((i) => [b[3 * i]!, b[3 * i + 1]!, b[3 * i + 2]!]);
  const back = (v: Vec3): Vec3 => [0, 1, 2].map((i) => r[3 * i]! * v[0] + r[3 * i + 1]! * v[1] + r[3 * i + 2]! * v[2]) as Vec3;
  return { number: dataset.number, conventionalLattice: std.map(back) as Mat3 };
}

/**
 * The space group and standard cell of a crystal by moyo, in spglib's setting; undefined when the cell cannot be
 * searched or moyo's answer lacks them. Throws what moyo throws (no group at this tolerance).
 */
export function standardizeCrystal(moyo: MoyoBindings, crystal: Crystal, symprec: number): Standardized | undefined {
  const cell = { lattice: crystal.lattice, frac: crystal.positions.map((p) => cartToFrac(crystal.lattice, p)), species: crystal.species };
  if (cellProblem(cell, symprec)) return undefined;
  // A supercell is reduced first: moyo's cost grows steeply with the atoms, and the standard cell is the same.
  const raw = primitiveDataset(moyo, cell, symprec) as Partial<MoyoStandardCell> | undefined;
  const basis = raw?.std_cell?.lattice?.basis;
  const rotation = raw?.std_rotation_matrix;
  const nine = (v: unknown): boolean => Array.isArray(v) && v.length === 9 && v.every((x) => Number.isFinite(x));
  if (typeof raw?.number !== 'number' || !nine(basis) || !nine(rotation)) return undefined;
  return standardizedFromMoyo(raw as MoyoStandardCell);
}
