/** The POSCAR header: comment, scale, lattice, element names and counts, selective dynamics, mode. */
import { need, type Context } from './context';
import { parseNumber } from './numbers';
import { quote, type Report } from './report';
import { readSpeciesAndCounts } from './speciesCounts';
import { at, span, type SourceText } from './text';
import type { Mat3, Poscar, PoscarLines, SourceRange, Vec3 } from './types';
import { determinant, norm, planeSpacings } from './vec';

export interface Header {
  comment: string;
  scale: Poscar['scale'];
  lattice: Mat3;
  /** Multiplies Cartesian positions, per axis. */
  cartesianScale: Vec3;
  species: string[];
  speciesRaw: string[];
  speciesSource: Poscar['speciesSource'];
  counts: number[];
  countsRange: SourceRange;
  selectiveDynamics: boolean;
  coordinateMode: Poscar['coordinateMode'];
  lines: Omit<PoscarLines, 'sitesBySpecies' | 'sites' | 'latticeVelocities' | 'velocities' | 'predictorCorrector'>;
}

const ORDINAL = ['first', 'second', 'third'] as const;

function readScale(ctx: Context, line: number): Poscar['scale'] | undefined {
  const tokens = need(ctx, line, 'the scale factor');
  if (!tokens) return undefined;
  const values: number[] = [];
  for (const token of tokens.slice(0, 3)) {
    const value = parseNumber(token.text);
    if (value === undefined) break;
    values.push(value);
  }
  const { report } = ctx;
  if (values.length === 0) {
    report.error('scale-not-number', at(line, tokens[0]!), `the scale factor must be a number (found ${quote(tokens[0]!.text)})`);
  } else if (values.length === 2) {
    report.error(
      'scale-count',
      span(line, tokens.slice(0, 2)),
      'the scale line holds one number (a factor, or the cell volume in Å³ as a negative number) or three (one factor per Cartesian axis), not two',
    );
  } else if (values.length === 3) {
    const bad = values.findIndex((v) => v <= 0);
    if (bad < 0) return { kind: 'triple', values };
    report.error(
      'scale-not-positive',
      at(line, tokens[bad]!),
      `three scale factors (one per Cartesian axis) must all be positive (found ${quote(tokens[bad]!.text)})`,
    );
  } else if (values[0] === 0) {
    report.error(
      'scale-zero',
      at(line, tokens[0]!),
      'the scale factor is 0: give a positive factor, or the cell volume in Å³ as a negative number',
    );
  } else {
    return { kind: values[0]! < 0 ? 'volume' : 'factor', values };
  }
  return undefined;
}

/** Three numbers; VASP ignores whatever follows them. */
function readVector(ctx: Context, line: number, what: string): Vec3 | undefined {
  const tokens = need(ctx, line, what);
  if (!tokens) return undefined;
  const values: number[] = [];
  for (const token of tokens.slice(0, 3)) {
    const value = parseNumber(token.text);
    if (value === undefined) {
      ctx.report.error('lattice-not-number', at(line, token), `${what} must hold three numbers (found ${quote(token.text)})`);
      return undefined;
    }
    values.push(value);
  }
  if (values.length === 3) return values as Vec3;
  ctx.report.error('lattice-not-number', span(line, tokens), `${what} needs three numbers (found ${values.length})`);
  return undefined;
}

function readLattice(ctx: Context, first: number): Mat3 | undefined {
  const vectors = ORDINAL.map((ordinal, k) => readVector(ctx, first + k, `the ${ordinal} lattice vector`));
  return vectors.every((v) => v !== undefined) ? (vectors as Mat3) : undefined;
}

/** The lattice in Å and the factors for Cartesian positions (VASP scales those the same way). */
function applyScale(raw: Mat3, scale: Poscar['scale']): { lattice: Mat3; cartesianScale: Vec3 } {
  let factors: Vec3;
  if (scale.kind === 'triple') factors = scale.values as Vec3;
  else {
    const rawVolume = Math.abs(determinant(raw));
    // A negative factor is the target volume: the factor that gives it (pymatgen: |det|, so handedness stays).
    const s = scale.kind === 'factor' ? scale.values[0]! : rawVolume > 0 ? Math.cbrt(-scale.values[0]! / rawVolume) : 1;
    factors = [s, s, s];
  }
  const lattice = raw.map((v) => [v[0] * factors[0], v[1] * factors[1], v[2] * factors[2]]) as Mat3;
  return { lattice, cartesianScale: factors };
}

/** Å: no crystal or simulation cell has a lattice vector this long (0.1 mm). */
export const MAX_LATTICE_LENGTH = 1e6;
/** Å: a cell thinner than this along an axis is degenerate (its atoms would overlap their own images). */
export const MIN_CELL_THICKNESS = 1e-2;

const AXES = ['a', 'b', 'c'] as const;

/** The degenerate-lattice error, or undefined when the cell can be computed with. */
function latticeProblem(lattice: Mat3): { code: string; text: string; fatal: boolean } | undefined {
  const det = determinant(lattice);
  const longest = Math.max(...lattice.map(norm));
  if (!Number.isFinite(det) || !(longest <= MAX_LATTICE_LENGTH)) {
    return {
      code: 'lattice-overflow',
      fatal: true,
      text: `the scaled lattice vectors are too large to compute with (${longest.toPrecision(3)} Å long; at most ${MAX_LATTICE_LENGTH.toExponential(0)} Å): check the scale factor and the lattice lines`,
    };
  }
  if (Math.abs(det) < 1e-8)
    return {
      code: 'lattice-singular',
      fatal: false,
      text: 'the three lattice vectors lie in one plane (zero cell volume): check the lattice lines',
    };
  const thin = planeSpacings(lattice).findIndex((d) => !(d >= MIN_CELL_THICKNESS));
  if (thin >= 0) {
    return {
      code: 'lattice-thin',
      fatal: false,
      text: `the cell is thinner than ${MIN_CELL_THICKNESS} Å across the planes of the other two vectors than ${AXES[thin]}: every atom would overlap its own periodic images; check the scale factor and the lattice lines`,
    };
  }
  return undefined;
}

/** |v|² of (x, y, z). */
const square = (x: number, y: number, z: number): number => x * x + y * y + z * z;

/**
 * A sufficient test, without allocation, that latticeProblem finds nothing in the cell of rows m[0..2],
 * m[3..5], m[6..8] and that it is right-handed (no left-handed warning): the determinant computed as
 * determinant() computes it, the length and thickness limits with 2 % to spare (far more than the rounding
 * of either computation; a thickness is |det| / |the cross product of the other two rows|). False means only:
 * ask latticeProblem. A variable-cell trajectory checks one cell per frame.
 */
export function clearlyRegular(m: Float64Array): boolean {
  const bc0 = m[4]! * m[8]! - m[5]! * m[7]!;
  const bc1 = m[5]! * m[6]! - m[3]! * m[8]!;
  const bc2 = m[3]! * m[7]! - m[4]! * m[6]!;
  const det = m[0]! * bc0 + m[1]! * bc1 + m[2]! * bc2;
  const longest = (0.98 * MAX_LATTICE_LENGTH) ** 2;
  if (!(det >= 1e-6) || !(square(m[0]!, m[1]!, m[2]!) <= longest)) return false;
  if (!(square(m[3]!, m[4]!, m[5]!) <= longest && square(m[6]!, m[7]!, m[8]!) <= longest)) return false;
  const thick = (1.02 * MIN_CELL_THICKNESS) ** 2 / (det * det);
  return (
    square(bc0, bc1, bc2) * thick <= 1 &&
    square(m[7]! * m[2]! - m[8]! * m[1]!, m[8]! * m[0]! - m[6]! * m[2]!, m[6]! * m[1]! - m[7]! * m[0]!) * thick <= 1 &&
    square(m[1]! * m[5]! - m[2]! * m[4]!, m[2]! * m[3]! - m[0]! * m[5]!, m[0]! * m[4]! - m[1]! * m[3]!) * thick <= 1
  );
}

/** Reports a degenerate lattice; false when it cannot be computed with at all (too large, not finite). */
function checkLattice({ src, report }: Context, lattice: Mat3, line: number): boolean {
  const range = span(line, src.tokens(line));
  const problem = latticeProblem(lattice);
  if (problem) {
    report.error(problem.code, range, problem.text);
    return !problem.fatal;
  }
  const det = determinant(lattice);
  if (det < 0) {
    report.warning(
      'left-handed-lattice',
      range,
      `the lattice vectors are left-handed (a·(b×c) = ${det.toFixed(3)} Å³ is negative): some programs refuse such cells; swapping two vectors (and their coordinate columns) fixes it`,
    );
  }
  return true;
}

function readMode(ctx: Context, line: number): { selective?: number; mode: number; coordinateMode: Poscar['coordinateMode'] } | undefined {
  const { src, report } = ctx;
  const firstChar = (l: number): string => src.tokens(l)[0]?.text[0] ?? '';
  const selective = /[sS]/.test(firstChar(line)) ? line : undefined;
  const mode = selective === undefined ? line : line + 1;
  const tokens = src.tokens(mode);
  const what = 'the coordinate mode line (Direct or Cartesian)';
  if (!src.has(mode)) {
    need(ctx, mode, what); // reports the end of the file
    return undefined;
  }
  if (tokens.length === 0) {
    report.warning(
      'mode-line-blank',
      { line: mode, start: 0, end: 0 },
      'the coordinate mode line is blank: VASP and ASE read Direct (fractional) coordinates, pymatgen refuses the file; write Direct or Cartesian',
    );
  } else if (parseNumber(tokens[0]!.text) !== undefined) {
    report.error('mode-line-missing', span(mode, tokens), `expected ${what}, found numbers: is the line missing?`);
    return undefined;
  }
  const coordinateMode = /[cCkK]/.test(firstChar(mode)) ? 'Cartesian' : 'Direct';
  return { ...(selective === undefined ? {} : { selective }), mode, coordinateMode };
}

/**
 * The scale and lattice lines (1–4), scaled and checked: `cell` when they can be computed with; `missing`
 * when a lattice line is missing (the lines below are then shifted: errors there would be noise).
 */
export function readCell(
  src: SourceText,
  report: Report,
): { cell?: Pick<Header, 'scale' | 'lattice' | 'cartesianScale'>; missing: boolean } {
  const ctx = { src, report };
  const scale = readScale(ctx, 1);
  const raw = readLattice(ctx, 2);
  const scaled = raw && scale && applyScale(raw, scale);
  const usable = scaled ? checkLattice(ctx, scaled.lattice, 2) : true;
  return { missing: !raw, ...(scale && scaled && usable ? { cell: { scale, ...scaled } } : {}) };
}

/**
 * The header, or undefined (with errors reported) when it cannot be read. A singular lattice or a
 * names/counts mismatch is reported but still gives a header, so the sites are checked too.
 */
export function readHeader(src: SourceText, report: Report): Header | undefined {
  const ctx = { src, report };
  const comment = (src.lines[0] ?? '').trim();
  const { cell, missing } = readCell(src, report);
  if (missing) return undefined;
  const groups = readSpeciesAndCounts(ctx, 5, comment);
  const mode = groups && readMode(ctx, groups.next);
  if (!cell || !groups || !mode) return undefined;
  const { names, counts } = groups;
  return {
    comment,
    ...cell,
    ...names,
    counts: counts.counts,
    countsRange: counts.range,
    selectiveDynamics: mode.selective !== undefined,
    coordinateMode: mode.coordinateMode,
    lines: {
      comment: 0,
      scale: 1,
      lattice: [2, 3, 4],
      ...(groups.species === undefined ? {} : { species: groups.species }),
      counts: counts.range.line,
      ...(mode.selective === undefined ? {} : { selective: mode.selective }),
      mode: mode.mode,
    },
  };
}
