/**
 * What every structure reader returns, whatever the format (the table in languages.ts): frames of atoms with an
 * optional cell and the values the file gives for each, the problems found (each on its exact line and column) and
 * the parts an outline shows. Pure: no `vscode`.
 *
 * Units: lengths in Å, energies in eV, forces in eV/Å, stress in kBar (VASP's sign: positive is tensile),
 * as the files write them after conversion; lines and columns 0-based, columns in UTF-16 units.
 */
import type { LineSpan, Mat3, PoscarDiagnostic, SourceRange, Vec3 } from '../poscar/types';

export type { LineSpan, Mat3, SourceRange, Vec3 };

/** A problem in a structure file: the POSCAR core's diagnostic ("Line N: …", a stable code, a range). */
export type StructureDiagnostic = PoscarDiagnostic;

/** One snapshot of atoms: a CIF data block, an XYZ frame, an XDATCAR configuration, an ionic step. */
export interface StructureFrame {
  /** Lattice vectors as rows in Å; null for a molecule (XYZ without Lattice=). */
  lattice: Mat3 | null;
  /** Periodic along each lattice vector (false for all three when lattice is null). */
  pbc: [boolean, boolean, boolean];
  /** Element symbol per site ('X' where the file names none the element table knows). */
  species: string[];
  /** Cartesian positions in Å, one per site. */
  positions: Vec3[];
  /** Site labels as the file writes them (CIF's _atom_site_label), when it does. */
  labels?: string[];
  /** Occupancy per site, when the file gives any below 1 (CIF disorder): such a frame cannot be sent to a run as it is. */
  occupancy?: number[];
  /** Selective dynamics, VASP's convention: true = free to move along that axis. */
  free?: [boolean, boolean, boolean][];
  /** Total energy in eV (VASP: energy(sigma->0), as ASE's and pymatgen's readers report it; extXYZ: energy=). */
  energy?: number;
  /** VASP's free energy TOTEN (e_fr_energy) in eV, the one the forces are consistent with (ASE's free_energy). */
  freeEnergy?: number;
  /** Forces in eV/Å, one per site. */
  forces?: Vec3[];
  /** Stress tensor in kBar. */
  stress?: Mat3;
  /** A name for the outline and the player: a CIF block's name, "step 3", a frame's comment line. */
  title: string;
  /** The frame's lines in the file (for the outline, folding and go-to). */
  lines: LineSpan;
}

/** A part of the file the outline shows: a CIF data block, a frame, an ionic step, a section. */
export interface OutlineEntry {
  name: string;
  detail: string;
  kind: 'block' | 'frame' | 'step' | 'section';
  lines: LineSpan;
  children?: OutlineEntry[];
}

/** What a VASP run reached (OUTCAR, vasprun.xml). */
export interface RunOutcome {
  /** EDIFFG as the run set it: negative is a force target in eV/Å, positive an energy target in eV. */
  ediffg?: number;
  /** Whether the ionic loop reached its target (false for a run stopped early or still running). */
  converged?: boolean;
  /** The band gap in eV from eigenvalues and occupations (vasprun.xml), with whether it is direct; `spins` per spin channel when spin-polarised. */
  bandGap?: {
    gap: number;
    direct: boolean;
    cbm: number;
    vbm: number;
    spins?: { gap: number; direct: boolean; cbm: number; vbm: number }[];
  };
  /** Fermi energy in eV. */
  fermi?: number;
}

export interface StructureFile {
  /** The registration's id in core/structures/languages.ts ('poscar', 'cif', …). */
  format: string;
  /** Every frame read; empty when nothing could be (then the diagnostics say why). */
  frames: StructureFrame[];
  diagnostics: StructureDiagnostic[];
  outline: OutlineEntry[];
  outcome?: RunOutcome;
}
