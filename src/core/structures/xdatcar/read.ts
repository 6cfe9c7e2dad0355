/**
 * readXdatcar: VASP 5's XDATCAR, the positions of a molecular dynamics or relaxation run, as pymatgen's
 * Xdatcar (pymatgen/io/vasp/outputs.py) and ASE's read_vasp_xdatcar (ase/io/vasp.py) read it. The header is
 * a POSCAR header (title, scale, lattice, element names, counts), read by the POSCAR core's own reader;
 * then one block per configuration: 'Direct configuration=     N' and one line of fractional coordinates
 * per atom. With a fixed cell the header comes once; with a variable cell (ISIF=3 MD) VASP repeats it
 * before every configuration. Never throws; near-linear; every problem on its line and column.
 *
 * Followed as pymatgen does, where ASE differs:
 * - no element names line (VASP 4 style): names from the comment line when it lists one per count, else
 *   X1, X2, … (the POSCAR core's rule; ASE reads the counts as names and fails);
 * - blank lines instead of 'Direct configuration=' lines: each blank line ends a configuration (ASE
 *   reads only the first);
 * - a negative scale is the cell volume in Å³ (ASE multiplies by it);
 * - labels after the coordinates are ignored (ASE fails on them).
 */
import { clearlyRegular, readCell, readHeader, type Header } from '../../poscar/header';
import { parseInteger, parseNumber } from '../../poscar/numbers';
import { plural, quote, Report } from '../../poscar/report';
import { ENGLISH, type Locale } from '../../util/locale';
import { tokenize, type SourceText } from '../../poscar/text';
import type { Mat3 } from '../../poscar/types';
import { Fields } from '../fields';
import { TextLines } from '../lines';
import { defineRows } from '../packed';
import { frameDetail, groupFrames, MAX_FRAME_ATOMS, MAX_FRAMES, MAX_TOTAL_SITES } from '../trajectoryOutline';
import type { OutlineEntry, StructureFile, StructureFrame } from '../types';

/** Lines a POSCAR header can take: 5, then up to 10 lines of names and 10 of counts, then the mode line. */
const HEADER_LINES = 32;

/** `src` seen from line `first` on, for at most HEADER_LINES lines: the POSCAR header reader starts at 0. */
function windowAt(src: TextLines, first: number): SourceText {
  const count = Math.max(0, Math.min(src.count - first, HEADER_LINES));
  const lines = Array.from({ length: count }, (_, k) => src.line(first + k));
  return {
    lines,
    count,
    has: (line: number) => line < count,
    tokens: (line: number) => (line < count ? tokenize(lines[line]!) : []),
    isBlank: (line: number) => line >= count || tokenize(lines[line]!).length === 0,
  };
}

/**
 * What `read` makes of the header window at line `first`, its problems moved to the file's lines.
 * Warnings already given for an earlier header (a left-handed cell repeated in every block) are not given again.
 */
function readAt<T>(src: TextLines, first: number, report: Report, seen: Set<string>, read: (window: SourceText, local: Report) => T): T {
  const window = windowAt(src, first);
  const local = new Report().within(window.lines.length > 0 ? window.lines : ['']);
  const result = read(window, local);
  for (const d of local.diagnostics) {
    if (d.code === 'mode-line-blank') continue; // a blank line is a configuration separator here (see below)
    if (d.severity === 'warning' && seen.has(d.code)) continue;
    seen.add(d.code);
    const text = d.message.replace(/^Line \d+: /, '');
    const range = { ...d.range, line: d.range.line + first };
    if (d.severity === 'error') report.error(d.code, range, text);
    else report.warning(d.code, range, text);
  }
  return result;
}

/** The POSCAR header from line `first`, its problems moved to the file's lines. */
function readHeaderAt(src: TextLines, first: number, report: Report, seen: Set<string>): Header | undefined {
  const header = readAt(src, first, report, seen, readHeader);
  if (!header) return undefined;
  return { ...header, lines: { ...header.lines, mode: header.lines.mode + first } };
}

/** 'Direct configuration=     3' (or VASP's 'Cartesian configuration=' that no version writes). */
const isConfigurationLine = (text: string): boolean => /^\s*[A-Za-z]+\s+configuration\s*=/.test(text) || /^\s*Direct\s*$/i.test(text);

function configurationNumber(text: string): number | undefined {
  const match = /=\s*(\S+)/.exec(text);
  const n = match ? parseInteger(match[1]!) : undefined;
  return n !== undefined && n >= 0 ? n : undefined;
}

interface Block {
  /** The lines of its header, from the title to the mode line. */
  first: number;
  mode: number;
  lattice: Mat3;
  species: string[];
  atoms: number;
  /** The configuration separator is a blank line (no 'Direct configuration=' lines). */
  blankSeparated: boolean;
}

function blockOf(header: Header, src: TextLines, first: number): Block {
  const species: string[] = [];
  const atoms = header.counts.reduce((sum, n) => sum + n, 0);
  const { mode } = header.lines;
  // Too many to read: the caller reports it before the species are needed.
  if (atoms > MAX_FRAME_ATOMS) return { first, mode, lattice: header.lattice, species, atoms, blankSeparated: false };
  header.counts.forEach((n, g) => {
    for (let k = 0; k < n; k++) species.push(header.species[g]!);
  });
  return { first, mode, lattice: header.lattice, species, atoms: species.length, blankSeparated: src.isBlank(mode) };
}

/**
 * Whether the repeated header at `first` has the current block's lines but the scale and lattice (title,
 * names, counts, selective; the mode line but its number) word for word, as a variable-cell run writes
 * them before every configuration.
 */
function sameLayout(state: State, first: number): boolean {
  const { src, block } = state;
  const size = block.mode - block.first;
  if (first + size >= src.count || !src.same(first, block.first)) return false;
  for (let k = 5; k < size; k++) if (!src.same(first + k, block.first + k)) return false;
  // The mode line up to its '=' (the configuration number after it changes): all readHeader reads of it.
  return src.same(first + size, block.mode, EQUALS);
}

const EQUALS = '='.charCodeAt(0);

/** A repeated header's lattice lines, read by quickLattice. */
const RAW = new Float64Array(9);

/**
 * The lattice of the header at `first` when its scale line is one positive plain decimal, its lattice lines
 * three each, and the cell clearly has none of readCell's problems or warnings: the numbers readCell
 * computes (raw × scale), read in place. Else undefined, and readCell reads it.
 */
function quickLattice({ text, starts, ends, count }: TextLines, first: number): Mat3 | undefined {
  if (first + 4 >= count || !FIELDS.lone(text, starts[first + 1]!, ends[first + 1]!, RAW, 0)) return undefined;
  const scale = RAW[0]!;
  if (!(scale > 0)) return undefined;
  for (let k = 0; k < 3; k++) {
    if (!FIELDS.triple(text, starts[first + 2 + k]!, ends[first + 2 + k]!, RAW, 3 * k)) return undefined;
  }
  for (let k = 0; k < 9; k++) RAW[k] = RAW[k]! * scale;
  if (!clearlyRegular(RAW)) return undefined;
  return [
    [RAW[0]!, RAW[1]!, RAW[2]!],
    [RAW[3]!, RAW[4]!, RAW[5]!],
    [RAW[6]!, RAW[7]!, RAW[8]!],
  ];
}

/**
 * The block of a repeated header at `first`: of the same layout, only its scale and lattice are read and
 * the species are shared; else the whole header. Undefined (the problems reported) when it cannot be read.
 */
function repeatedBlock(state: State, first: number): Block | undefined {
  const { src, block, report, seen } = state;
  if (sameLayout(state, first)) {
    const lattice = quickLattice(src, first) ?? readAt(src, first, report, seen, (window, local) => readCell(window, local).cell)?.lattice;
    return lattice && { ...block, first, mode: first + block.mode - block.first, lattice };
  }
  const header = readHeaderAt(src, first, report, seen);
  return header && blockOf(header, src, first);
}

/**
 * The fractional coordinates of atom `atom` (1-based): the first three fields (anything after them, a
 * label, is ignored), written into `out` when they times the lattice are finite; false after reporting why not.
 */
function readPosition(
  fields: Fields,
  lattice: Mat3,
  line: number,
  atom: number,
  atoms: number,
  report: Report,
  out: Float64Array,
): boolean {
  if (fields.count < 3) {
    report.error(
      'xdatcar-short-line',
      fields.span(line),
      fields.count === 0
        ? `a blank line where atom ${atom} of ${atoms} should be: the configuration is left out`
        : `atom ${atom} needs three fractional coordinates (found ${fields.count}): the configuration is left out`,
    );
    return false;
  }
  const a = fields.number(0);
  const b = fields.number(1);
  const c = fields.number(2);
  if (a === undefined || b === undefined || c === undefined) {
    const k = a === undefined ? 0 : b === undefined ? 1 : 2;
    report.error(
      'xdatcar-not-number',
      fields.range(line, k),
      `the coordinate must be a number (found ${quote(fields.text(k))}): the configuration is left out`,
    );
    return false;
  }
  const [u, v, w] = lattice;
  const x = a * u[0] + b * v[0] + c * w[0];
  const y = a * u[1] + b * v[1] + c * w[1];
  const z = a * u[2] + b * v[2] + c * w[2];
  if (Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) {
    const k = 3 * (atom - 1);
    out[k] = a;
    out[k + 1] = b;
    out[k + 2] = c;
    return true;
  }
  report.error(
    'xdatcar-coordinates-too-large',
    fields.range(line, 0, 2),
    'these coordinates times the lattice vectors are too large to compute with: the configuration is left out',
  );
  return false;
}

/** One scanner for every coordinate line read (the reader is synchronous, so it is never shared by two reads). */
const FIELDS = new Fields();

/** Whether a character code is an ASCII letter: a configuration line starts with one, a coordinate line never. */
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** What the reader carries from one configuration to the next. */
interface State {
  src: TextLines;
  report: Report;
  /** Warning codes already given by a header: not repeated for every repeated header. */
  seen: Set<string>;
  title: string;
  block: Block;
  /** The current configuration's 'Direct configuration=' line (or the blank line standing for it). */
  marker: number;
  /** The current configuration's first line (its header's, for the first one or a variable cell). */
  blockStart: number;
  frames: StructureFrame[];
  outline: OutlineEntry[];
  sites: number;
  blankNoted: boolean;
}

/** Limits and the configuration line's own warnings; false when the reading must stop here. */
function checkConfiguration(state: State): boolean {
  const { block, marker, report, frames, sites, src } = state;
  if (block.atoms > MAX_FRAME_ATOMS) {
    report.error(
      'xdatcar-too-many-atoms',
      { line: marker, start: 0, end: 0 },
      `${block.atoms} atoms in one configuration: at most ${MAX_FRAME_ATOMS} are read`,
    );
    return false;
  }
  if (frames.length >= MAX_FRAMES || sites + block.atoms > MAX_TOTAL_SITES) {
    report.warning(
      'too-many-frames',
      { line: marker, start: 0, end: src.line(marker).length },
      `only the first ${frames.length} configurations are read (${sites} atoms in all; at most ${MAX_FRAMES} configurations or ${MAX_TOTAL_SITES} atoms): the rest of the file is left out`,
    );
    return false;
  }
  if (block.blankSeparated && !state.blankNoted) {
    state.blankNoted = true;
    report.warning(
      'xdatcar-no-configuration-line',
      { line: marker, start: 0, end: 0 },
      "a blank line where VASP writes 'Direct configuration=     1': read as Direct coordinates with blank lines between configurations, as pymatgen reads it (ASE reads only the first configuration)",
    );
  }
  const markerText = src.line(marker);
  if (/^\s*[cCkK]/.test(markerText)) {
    report.warning(
      'xdatcar-cartesian',
      { line: marker, start: 0, end: markerText.length },
      'XDATCAR coordinates are fractional (VASP writes Direct): read as Direct, as ASE and pymatgen read them',
    );
  }
  return true;
}

/** Fractional rows to Cartesian in place: f·L (fracToCart), written out. */
function toCartesian(positions: Float64Array, [u, v, w]: Mat3): void {
  const [u0, u1, u2] = u;
  const [v0, v1, v2] = v;
  const [w0, w1, w2] = w;
  for (let k = 0; k < positions.length; k += 3) {
    const a = positions[k]!;
    const b = positions[k + 1]!;
    const c = positions[k + 2]!;
    positions[k] = a * u0 + b * v0 + c * w0;
    positions[k + 1] = a * u1 + b * v1 + c * w1;
    positions[k + 2] = a * u2 + b * v2 + c * w2;
  }
}

/**
 * The coordinate lines of one configuration: its positions (undefined when a line is bad or a
 * configuration line comes too soon), the line after it, and whether the file ended first.
 */
function readConfiguration(state: State, number: number): { positions?: Float64Array; next: number; truncated: boolean } {
  const { src, report, block, marker } = state;
  const positions = new Float64Array(3 * block.atoms);
  let ok = true;
  let line = marker + 1;
  for (let i = 0; i < block.atoms; i++, line++) {
    if (!src.has(line)) return { next: line, truncated: true };
    // Three plain decimals, as VASP writes every line, read in place: finite times any lattice a header
    // gives (below 1e15, and vectors of at most MAX_LATTICE_LENGTH). The rest is scanned for its problem.
    if (ok && FIELDS.triple(src.text, src.starts[line]!, src.ends[line]!, positions, 3 * i)) continue;
    const text = src.line(line);
    const fields = FIELDS.scan(text);
    if (fields.count > 0 && isLetter(text.charCodeAt(fields.starts[0]!)) && isConfigurationLine(text)) {
      report.error(
        'xdatcar-count-mismatch',
        { line, start: 0, end: text.length },
        `configuration ${number} has ${plural(i, 'coordinate line')} but the counts say ${block.atoms} atoms: that configuration is left out`,
      );
      return { next: line, truncated: false };
    }
    if (ok) ok = readPosition(fields, block.lattice, line, i + 1, block.atoms, report, positions);
  }
  if (ok) toCartesian(positions, block.lattice);
  return { ...(ok ? { positions } : {}), next: line, truncated: false };
}

/**
 * What follows a configuration ending before `line`: another configuration line, a blank separator, or
 * a repeated header (variable cell); moves the state there, or returns false at the end or on a line
 * that is none of these.
 */
function advance(state: State, line: number, number: number): boolean {
  const { src, report } = state;
  let next = line;
  while (next < src.count && src.isBlank(next)) next++;
  if (next >= src.count) return false;
  const text = src.line(next);
  if (isConfigurationLine(text)) {
    state.marker = state.blockStart = next;
    return true;
  }
  const firstToken = src.tokens(next)[0]?.text ?? '';
  if (state.block.blankSeparated && next > line && parseNumber(firstToken) !== undefined) {
    state.marker = next - 1; // the blank line before the coordinates stands for 'Direct configuration='
    state.blockStart = line;
    return true;
  }
  // A repeated header (variable cell): pymatgen recognises it by the title line, ASE by anything that is
  // not a configuration line; both then read a whole new POSCAR header.
  const trimmed = text.trim();
  const scaleFollows = parseNumber(src.tokens(next + 1)[0]?.text ?? '') !== undefined;
  if (trimmed !== state.title && !(parseNumber(firstToken) === undefined && scaleFollows)) {
    report.error(
      'xdatcar-unexpected-line',
      { line: next, start: 0, end: text.length },
      `expected 'Direct configuration=' or a repeated header after configuration ${number}, found ${quote(trimmed)}: does the configuration above have more atoms than the counts say? The rest of the file is left out`,
    );
    return false;
  }
  const repeated = repeatedBlock(state, next);
  if (!repeated) {
    report.error(
      'xdatcar-bad-header',
      { line: next, start: 0, end: text.length },
      'this repeated header (a variable cell) cannot be read: the rest of the file is left out',
    );
    return false;
  }
  state.block = repeated;
  state.marker = repeated.mode;
  state.blockStart = next;
  return true;
}

function keep(state: State, positions: Float64Array, number: number, last: number): void {
  const { block } = state;
  const lines = { first: state.blockStart, last };
  const frame: StructureFrame = defineRows(
    {
      lattice: block.lattice,
      pbc: [true, true, true],
      species: block.species,
      title: state.report.locale.t('configuration {0}', number),
      lines,
    },
    'positions',
    positions,
  );
  state.frames.push(frame);
  state.sites += block.atoms;
  state.outline.push({
    name: frame.title,
    detail: frameDetail(block.atoms, undefined, state.report.locale),
    kind: 'frame',
    lines: frame.lines,
  });
}

export function readXdatcar(text: string, locale: Locale = ENGLISH): StructureFile {
  const report = new Report(locale);
  const src = new TextLines(text);
  report.within(() => src.lines);
  const empty = (): StructureFile => ({ format: 'xdatcar', frames: [], diagnostics: report.sorted(), outline: [] });
  if (!/\S/.test(text)) {
    report.error(
      'empty-file',
      { line: 0, start: 0, end: 0 },
      'the file is empty: an XDATCAR holds a POSCAR-like header, then one block of coordinates per configuration',
    );
    return empty();
  }
  const seen = new Set<string>();
  const header = readHeaderAt(src, 0, report, seen);
  if (!header) return empty();
  const state: State = {
    src,
    report,
    seen,
    title: src.line(0).trim(),
    block: blockOf(header, src, 0),
    marker: header.lines.mode,
    blockStart: 0,
    frames: [],
    outline: [],
    sites: 0,
    blankNoted: false,
  };
  for (let index = 1; checkConfiguration(state); index++) {
    const number = configurationNumber(src.line(state.marker)) ?? index;
    const { positions, next, truncated } = readConfiguration(state, number);
    if (truncated) {
      const kept = state.frames.length;
      report.warning(
        'xdatcar-truncated',
        { line: next, start: 0, end: 0 },
        `the file ends after ${plural(next - state.marker - 1, 'coordinate line')} of configuration ${number} (of ${state.block.atoms}): that configuration is left out${kept > 0 ? `, the ${plural(kept, 'configuration')} before it are kept` : ''}`,
      );
      break;
    }
    if (positions) keep(state, positions, number, next - 1);
    if (!advance(state, next, number)) break;
  }
  return { format: 'xdatcar', frames: state.frames, diagnostics: report.sorted(), outline: groupFrames(state.outline, locale) };
}
