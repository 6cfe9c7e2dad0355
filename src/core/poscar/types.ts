/**
 * The POSCAR core's data: what the parser reads from VASP's structure format, with the source range of
 * every part, so that diagnostics, hovers, symbols and folding point at the text. Pure: no `vscode`.
 *
 * Lines and columns are 0-based; columns count UTF-16 code units (as VS Code's Position does).
 */

export type Vec3 = [number, number, number];
export type Mat3 = [Vec3, Vec3, Vec3];

export interface SourceRange {
  line: number;
  start: number;
  end: number;
}

/** A run of whole lines, first to last inclusive. */
export interface LineSpan {
  first: number;
  last: number;
}

export type Severity = 'error' | 'warning' | 'info';

export interface PoscarDiagnostic {
  severity: Severity;
  /** Starts with "Line N: " (1-based), written for a materials scientist. */
  message: string;
  range: SourceRange;
  /** Stable id for tests and code actions, e.g. 'counts-not-integer', 'close-contact'. */
  code: string;
}

export type ScaleKind = 'factor' | 'volume' | 'triple';

export interface Site {
  /** Element symbol (normalised: 'Fe_pv' -> 'Fe'), or the placeholder of a VASP 4 file without names. */
  species: string;
  /** Index into Poscar.species. */
  speciesIndex: number;
  frac: Vec3;
  /** Cartesian position in Å, scale applied. */
  cart: Vec3;
  /** Selective-dynamics flags (true = free to move), only under selective dynamics. */
  flags?: [boolean, boolean, boolean];
  /** Whatever followed the numbers (and flags) on the line, trimmed; empty when nothing did. */
  label: string;
  /** The site's line in the file. */
  line: number;
}

export interface Poscar {
  comment: string;
  scale: { kind: ScaleKind; values: number[] };
  /** Lattice vectors in Å as rows, scale applied. */
  lattice: Mat3;
  /** One entry per species group, normalised element symbols. */
  species: string[];
  /** The species as written ('Fe_pv', 'Si/1a2b3c'); equal to species where names were given plainly. */
  speciesRaw: string[];
  /** Where element names came from: the species line, the labels after the coordinates or the comment line (VASP 4, pymatgen's rules), or nowhere. */
  speciesSource: 'species-line' | 'site-labels' | 'comment' | 'unknown';
  counts: number[];
  selectiveDynamics: boolean;
  coordinateMode: 'Direct' | 'Cartesian';
  sites: Site[];
  /** Lattice velocities block (CONTCAR of variable-cell MD), as written. */
  latticeVelocities?: number[][];
  /** Atomic velocities, one per site, in the file's own coordinate mode and units. */
  velocities?: Vec3[];
  velocityMode?: 'Direct' | 'Cartesian';
  /** Predictor-corrector lines, kept verbatim. */
  predictorCorrector?: string[];
  /** Where each part stands in the text: for symbols, folding, hovers. */
  lines: PoscarLines;
}

export interface PoscarLines {
  comment: number;
  scale: number;
  lattice: [number, number, number];
  species?: number;
  counts: number;
  selective?: number;
  mode: number;
  /** One span per species group, in order. */
  sitesBySpecies: LineSpan[];
  sites: LineSpan;
  latticeVelocities?: LineSpan;
  velocities?: LineSpan;
  predictorCorrector?: LineSpan;
}

export interface ParseResult {
  /** Present when the file could be read far enough to build a structure (it may still carry errors). */
  poscar?: Poscar;
  diagnostics: PoscarDiagnostic[];
}

export interface LatticeParameters {
  /** Å */
  a: number;
  b: number;
  c: number;
  /** Degrees: alpha between b and c, beta between a and c, gamma between a and b. */
  alpha: number;
  beta: number;
  gamma: number;
}

export interface StructureSummary extends LatticeParameters {
  /** Full formula in species order, e.g. 'Na4Cl4'. */
  formula: string;
  /** Reduced formula, e.g. 'NaCl'. */
  reducedFormula: string;
  elements: Record<string, number>;
  atoms: number;
  /** Å³ */
  volume: number;
  /** g/cm³; undefined when an element is unknown. */
  density?: number;
  selectiveDynamics: boolean;
  coordinateMode: 'Direct' | 'Cartesian';
}
