/**
 * What a CONTCAR may carry after the coordinates, read as pymatgen and VASP do: the lattice velocities
 * (a line starting with L right after the sites, a flag line, then 3 velocities and 3 lattice vectors),
 * the atomic velocities (after a blank line or a Direct/Cartesian line: blank means Cartesian), and
 * the predictor-corrector data (after a further blank line: kept verbatim).
 */
import { parseNumber } from './numbers';
import { plural, quote, type Report } from './report';
import { at, span, type SourceText, type Token } from './text';
import type { PoscarLines, Vec3 } from './types';

export interface Tail {
  latticeVelocities?: number[][];
  velocities?: Vec3[];
  velocityMode?: 'Direct' | 'Cartesian';
  predictorCorrector?: string[];
  lines: Pick<PoscarLines, 'latticeVelocities' | 'velocities' | 'predictorCorrector'>;
}

const LATTICE_VELOCITY_ROWS = 6;

/** Three numbers at the start of a line, else the first token that is not one (undefined: too few tokens). */
function vector(tokens: Token[]): Vec3 | { bad: Token | undefined } {
  const values = tokens.slice(0, 3).map((t) => parseNumber(t.text));
  const bad = values.findIndex((v) => v === undefined);
  if (bad >= 0) return { bad: tokens[bad] };
  return values.length === 3 ? (values as Vec3) : { bad: undefined };
}

const startsWithNumber = (src: SourceText, line: number): boolean => {
  const first = src.tokens(line)[0];
  return first !== undefined && parseNumber(first.text) !== undefined;
};

/** The header line, its flag line and six rows; returns the line after the block. */
function readLatticeVelocities(src: SourceText, header: number, tail: Tail, report: Report): number {
  const rows: number[][] = [];
  const first = header + 2;
  for (let line = first; line < first + LATTICE_VELOCITY_ROWS; line++) {
    const tokens = src.tokens(line);
    const row = vector(tokens);
    if (Array.isArray(row)) {
      rows.push(row);
      continue;
    }
    if (!src.has(line)) {
      report.warning(
        'lattice-velocities-bad',
        span(header, src.tokens(header)),
        `the file ends inside the lattice velocities block (a flag line and ${LATTICE_VELOCITY_ROWS} rows of three numbers): the block is ignored`,
      );
    } else {
      report.warning(
        'lattice-velocities-bad',
        row.bad ? at(line, row.bad) : span(line, tokens),
        `the lattice velocities block needs three numbers on each of its ${LATTICE_VELOCITY_ROWS} rows after the flag line (found ${row.bad ? quote(row.bad.text) : tokens.length}): the block is ignored`,
      );
    }
    break;
  }
  const last = Math.min(first + LATTICE_VELOCITY_ROWS, src.count) - 1;
  tail.lines.latticeVelocities = { first: header, last };
  if (rows.length === LATTICE_VELOCITY_ROWS) tail.latticeVelocities = rows;
  return last + 1;
}

/** Numeric lines right after the sites: the counts say fewer atoms. Returns the line after them. */
function skipExtraSites(src: SourceText, line: number, atoms: number, report: Report): number {
  let end = line;
  while (!src.isBlank(end)) end++;
  const more = end - line - 1;
  report.warning(
    'extra-coordinate-lines',
    span(line, src.tokens(line)),
    `more coordinate lines than the counts say (${plural(atoms, 'atom')}): this line${more ? ` and the ${more} after it are` : ' is'} ignored`,
  );
  return end;
}

/** Velocity lines up to a blank line; stored when there is one valid line per atom. Returns the line after. */
function readVelocities(src: SourceText, first: number, atoms: number, mode: Tail['velocityMode'], tail: Tail, report: Report): number {
  const vectors: Vec3[] = [];
  let valid = true;
  let line = first;
  for (; !src.isBlank(line); line++) {
    const tokens = src.tokens(line);
    const row = vector(tokens);
    if (Array.isArray(row)) vectors.push(row);
    else if (valid) {
      valid = false;
      report.warning(
        'velocities-bad',
        row.bad ? at(line, row.bad) : span(line, tokens),
        `an atomic velocity needs three numbers (found ${row.bad ? quote(row.bad.text) : tokens.length}): the velocities are ignored`,
      );
    }
  }
  if (line === first) return line;
  tail.lines.velocities = { first, last: line - 1 };
  if (valid && vectors.length !== atoms) {
    report.warning(
      'velocities-count',
      span(first, src.tokens(first)),
      `${plural(vectors.length, 'velocity line')} for ${plural(atoms, 'atom')}: the velocities are ignored`,
    );
  } else if (valid) {
    tail.velocities = vectors;
    tail.velocityMode = mode;
  }
  return line;
}

/** Everything after the coordinate lines, which end before `start`. */
export function readTail(src: SourceText, start: number, atoms: number, report: Report): Tail {
  const tail: Tail = { lines: {} };
  let line = start;
  if (/^[lL]/.test(src.tokens(line)[0]?.text ?? '')) line = readLatticeVelocities(src, line, tail, report);
  if (startsWithNumber(src, line)) line = skipExtraSites(src, line, atoms, report);
  while (src.has(line) && src.isBlank(line)) line++;
  if (!src.has(line)) return tail;
  let mode: Tail['velocityMode'] = 'Cartesian';
  if (!startsWithNumber(src, line)) {
    mode = /^[cCkK]/.test(src.tokens(line)[0]!.text) ? 'Cartesian' : 'Direct';
    line++;
  }
  line = readVelocities(src, line, atoms, mode, tail, report);
  while (src.has(line) && src.isBlank(line)) line++;
  let last = src.count - 1;
  while (last >= line && src.isBlank(last)) last--;
  if (last >= line) {
    tail.predictorCorrector = src.lines.slice(line, last + 1);
    tail.lines.predictorCorrector = { first: line, last };
  }
  return tail;
}
