/**
 * readXyz: plain and extended XYZ, one frame or many, as ASE's extxyz reader (ase/io/extxyz.py, ASE 3.22)
 * and pymatgen's XYZ (pymatgen/io/xyz.py) read them. Each frame: the atom count, a comment line (key=value
 * pairs in extended XYZ), then one line per atom (element symbol or atomic number, x y z in Å, and the
 * columns Properties= names). Never throws; near-linear; every problem on its line and column.
 */
import { ELEMENTS, element } from '../../poscar/elements';
import { parseInteger } from '../../poscar/numbers';
import { plural, quote, Report } from '../../poscar/report';
import type { Token } from '../../poscar/text';
import { Fields } from '../fields';
import { TextLines } from '../lines';
import { defineRows } from '../packed';
import { frameDetail, groupFrames, MAX_FRAME_ATOMS, MAX_FRAMES, MAX_TOTAL_SITES } from '../trajectoryOutline';
import type { LineSpan, OutlineEntry, StructureFile, StructureFrame } from '../types';
import { FrameSpecs, type FrameSpec } from './frameSpec';

/** Characters of a comment line kept as a frame's title. */
const TITLE_LENGTH = 80;

/** Element symbols for species tokens, each token resolved once. */
class SpeciesNames {
  private readonly known = new Map<string, Resolved>();
  /** The same, keyed by the character codes of tokens of at most three ASCII characters: found without a substring. */
  private readonly short = new Map<number, Resolved>();

  /** The token text[start, end), resolved (see `resolve`). */
  resolveAt(text: string, start: number, end: number): Resolved {
    let key = end - start;
    if (key > 3) return this.resolve(text.slice(start, end));
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f) return this.resolve(text.slice(start, end));
      key = key * 128 + c;
    }
    let resolved = this.short.get(key);
    if (resolved === undefined) this.short.set(key, (resolved = this.resolve(text.slice(start, end))));
    return resolved;
  }

  /**
   * The element for a species token: an atomic number (ASE's Z column, pymatgen reads '6' as carbon), a
   * symbol in any case ('CL' -> Cl, as ASE's capitalize()), or a label starting with one ('C1', 'Fe_pv').
   * Anything else is 'X' with the token kept as the label.
   */
  private resolve(text: string): Resolved {
    const cached = this.known.get(text);
    if (cached) return cached;
    const z = parseInteger(text);
    let symbol: string | undefined;
    if (z !== undefined) symbol = z >= 1 && z <= ELEMENTS.length ? ELEMENTS[z - 1]!.symbol : undefined;
    else {
      const capital = text[0]!.toUpperCase() + text.slice(1).toLowerCase();
      if (element(capital)) symbol = capital;
      else {
        const letters = /^[A-Za-z]{1,2}/.exec(text)?.[0];
        const two = letters && letters[0]!.toUpperCase() + letters.slice(1).toLowerCase();
        if (two && element(two)) symbol = two;
        else if (letters && element(letters[0]!.toUpperCase())) symbol = letters[0]!.toUpperCase();
      }
    }
    const resolved: Resolved =
      symbol === undefined
        ? { symbol: 'X', label: text, unknown: true }
        : { symbol, label: symbol === text || z !== undefined ? undefined : text, unknown: false };
    this.known.set(text, resolved);
    return resolved;
  }
}

interface Resolved {
  symbol: string;
  label: string | undefined;
  /** Not an element: warned about at its first atom only, then `unknown` is cleared. */
  unknown: boolean;
}

interface Frames {
  frames: StructureFrame[];
  outline: OutlineEntry[];
  sites: number;
}

/** A lone whole number: the count line of a frame. */
const isCountLine = (tokens: Token[]): boolean => tokens.length === 1 && (parseInteger(tokens[0]!.text) ?? -1) >= 0;

/** The next count line from `from` on, or the end of the file. */
function nextCountLine(src: TextLines, from: number): number {
  let line = from;
  while (line < src.count && !isCountLine(src.tokens(line))) line++;
  return line;
}

function frameTitle(comment: string, spec: FrameSpec, index: number): string {
  const text = comment.trim();
  if (spec.extended || text === '') return `frame ${index}`;
  return text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH - 1)}…` : text;
}

/**
 * A frame's atom lines as read: what each gave, where the frame ends, and whether it can be kept. One shape
 * for every frame (no optional members), so the reads of it stay monomorphic.
 */
interface AtomLines {
  species: string[];
  /** The labels of the atoms read, the element symbol where a line gives none; undefined until one does. */
  labels: string[] | undefined;
  /** x y z of each atom read, packed (see ../packed.ts). */
  positions: Float64Array;
  /** Undefined when the frame has none or a line's are bad. */
  forces: Float64Array | undefined;
  free: Flags[] | undefined;
  next: number;
  ok: boolean;
  truncated: boolean;
  /** The atom lines read when a count line comes before the count is reached. */
  short: number | undefined;
}

/** What reading a frame's atom lines needs besides the lines. */
interface AtomContext {
  spec: FrameSpec;
  names: SpeciesNames;
  report: Report;
  /** 1 for the columns read as numbers (positions, forces), for Fields.scanReading. */
  numbers: Uint8Array;
}

/** The columns of positions and forces: the fields an atom line's scan reads as numbers on the way. */
function numberColumns(spec: FrameSpec): Uint8Array {
  const numbers = new Uint8Array(spec.width);
  for (const offset of [spec.positions, spec.forces]) if (offset !== undefined) numbers.fill(1, offset, offset + 3);
  return numbers;
}

/**
 * Reads the atom lines of one frame, each scanned where it stands in the text and its numbers read from
 * the characters on the way (Fields.scanReading): a million atom lines make no string, token or array of
 * their own. A line with a number scanReading does not take whole is scanned again and read field by field.
 */
function readAtoms(src: TextLines, first: number, n: number, spec: FrameSpec, names: SpeciesNames, report: Report): AtomLines {
  const atoms: AtomLines = {
    species: [],
    labels: undefined,
    positions: new Float64Array(3 * n),
    forces: spec.forces === undefined ? undefined : new Float64Array(3 * n),
    free: spec.moveMask === undefined ? undefined : [],
    next: first + n,
    ok: spec.positions !== undefined,
    truncated: false,
    short: undefined,
  };
  const context: AtomContext = { spec, names, report, numbers: numberColumns(spec) };
  const fields = FIELDS;
  const { text, starts, ends } = src;
  for (let i = 0; i < n; i++) {
    const line = first + i;
    if (line >= src.count) return cut(atoms, i, line, true);
    const read = fields.scanReading(text, starts[line]!, ends[line]!, context.numbers);
    if (!read) fields.scan(text, starts[line], ends[line]);
    if (i > 0 && fields.count === 1 && (parseInteger(fields.text(0)) ?? -1) >= 0) return cut(atoms, i, line, false);
    // The columns are unknown or a line was bad: only the frame's extent matters now.
    if (atoms.ok) atoms.ok = readAtom(atoms, fields, read, i, line, context);
  }
  return atoms;
}

/** The frame's first i atoms, its end at `line`: the file ended there (truncated) or a count line came early. */
function cut(atoms: AtomLines, i: number, line: number, truncated: boolean): AtomLines {
  atoms.positions = atoms.positions.subarray(0, 3 * i);
  if (atoms.forces) atoms.forces = atoms.forces.subarray(0, 3 * i);
  atoms.next = line;
  if (truncated) {
    atoms.ok = false;
    atoms.truncated = true;
  } else atoms.short = i;
  return atoms;
}

/**
 * Atom i from the scanned `fields` into `atoms` (its numbers already in fields.values when `read`); false
 * after reporting why the frame cannot be kept.
 */
function readAtom(atoms: AtomLines, fields: Fields, read: boolean, i: number, line: number, context: AtomContext): boolean {
  const { spec, names, report } = context;
  const width = spec.width;
  if (fields.count < width) {
    report.error(
      'xyz-short-line',
      fields.span(line),
      fields.count === 0
        ? `a blank line where atom ${i + 1} of ${atoms.positions.length / 3} should be: the frame is left out`
        : `atom ${i + 1} has ${plural(fields.count, 'column')} where ${spec.extended ? 'Properties=' : 'an XYZ atom line'} asks for ${width} (${describe(spec)}): the frame is left out`,
    );
    return false;
  }
  if (read) copyVector(fields.values, spec.positions!, atoms.positions, i);
  else if (!readVector(fields, spec.positions!, line, 'position', report, atoms.positions, i)) return false;
  const speciesOffset = spec.species ?? spec.numbers;
  if (speciesOffset === undefined) addSpecies(atoms, 'X', undefined);
  else {
    const resolved = names.resolveAt(fields.line, fields.starts[speciesOffset]!, fields.ends[speciesOffset]!);
    if (resolved.unknown) {
      resolved.unknown = false;
      report.warning(
        'unknown-element',
        fields.range(line, speciesOffset),
        `${quote(resolved.label!)} is not an element symbol or atomic number: shown as X, its mass is unknown`,
      );
    }
    addSpecies(atoms, resolved.symbol, resolved.label);
  }
  if (atoms.forces && read) copyVector(fields.values, spec.forces!, atoms.forces, i);
  else if (atoms.forces && !readVector(fields, spec.forces!, line, 'force', report, atoms.forces, i)) atoms.forces = undefined;
  if (atoms.free) {
    const flags = readFlags(fields, spec.moveMask!, line, report);
    if (flags) atoms.free.push(flags);
    else atoms.free = undefined;
  }
  return true;
}

/** One atom's element and label (the labels array made at the first label, the symbols before it copied). */
function addSpecies(atoms: AtomLines, symbol: string, label: string | undefined): void {
  if (label !== undefined && atoms.labels === undefined) atoms.labels = atoms.species.slice();
  atoms.species.push(symbol);
  atoms.labels?.push(label ?? symbol);
}

type Flags = [boolean, boolean, boolean];

/** ASE's logical values (ase/io/extxyz.py: T, F, True, False in any case). */
const LOGICAL: Record<string, boolean> = { t: true, true: true, f: false, false: false };

/** An atom's move_mask: one flag for all three axes (FixAtoms) or one per axis (FixCartesian); true = free. */
function readFlags(fields: Fields, mask: { offset: number; count: 1 | 3 }, line: number, report: Report): Flags | undefined {
  const flags: boolean[] = [];
  for (let k = 0; k < mask.count; k++) {
    const flag = LOGICAL[fields.text(mask.offset + k).toLowerCase()];
    if (flag === undefined) {
      report.warning(
        'xyz-not-logical',
        fields.range(line, mask.offset + k),
        `move_mask must be T or F (found ${quote(fields.text(mask.offset + k))}): the frame's fixed atoms are left out`,
      );
      return undefined;
    }
    flags.push(flag);
  }
  return mask.count === 1 ? [flags[0]!, flags[0]!, flags[0]!] : (flags as Flags);
}

/** One scanner for every atom line read (the readers are synchronous, so it is never shared by two reads). */
const FIELDS = new Fields();

function describe(spec: FrameSpec): string {
  return spec.columns.map((c) => `${c.name}:${c.count}`).join(' ');
}

/** The vector in values[offset…] as atom `atom`'s. */
function copyVector(values: Float64Array, offset: number, out: Float64Array, atom: number): void {
  out[3 * atom] = values[offset]!;
  out[3 * atom + 1] = values[offset + 1]!;
  out[3 * atom + 2] = values[offset + 2]!;
}

/** The vector in columns offset… of the line, written into `out` as atom `atom`'s; false after reporting why not. */
function readVector(fields: Fields, offset: number, line: number, what: string, report: Report, out: Float64Array, atom: number): boolean {
  const j = 3 * atom;
  if (fields.numberInto(offset, out, j) && fields.numberInto(offset + 1, out, j + 1) && fields.numberInto(offset + 2, out, j + 2))
    return true;
  const k = fields.number(offset) === undefined ? 0 : fields.number(offset + 1) === undefined ? 1 : 2;
  report.error(
    'xyz-not-number',
    fields.range(line, offset + k),
    `the ${what}'s ${'xyz'[k]} must be a number (found ${quote(fields.text(offset + k))})${what === 'position' ? ': the frame is left out' : ": the frame's forces are left out"}`,
  );
  return false;
}

/** What the reader carries from one frame to the next. */
interface State {
  src: TextLines;
  report: Report;
  out: Frames;
  names: SpeciesNames;
  specs: FrameSpecs;
  /** Frames met so far, read or not. */
  index: number;
  blankReported: boolean;
  /** The line after the last frame read in full. */
  previousEnd: number;
}

/** Blank lines from `line` on: the line after them, or undefined when the reading stops (text that is no frame). */
function afterBlank(state: State, line: number): number | undefined {
  const { src, report } = state;
  let next = line;
  while (next < src.count && src.isBlank(next)) next++;
  if (next >= src.count || state.index === 0) return next;
  const follows = src.tokens(next);
  if (!isCountLine(follows.slice(0, 1))) {
    report.warning(
      'xyz-trailing-text',
      { line: next, start: follows[0]!.start, end: src.line(next).length },
      `the text after the blank line is not an XYZ frame (no atom count): lines ${next + 1}–${src.count} are ignored, as ASE (which stops at the blank line) and pymatgen ignore them`,
    );
    return undefined;
  }
  if (!state.blankReported) {
    state.blankReported = true;
    report.warning(
      'xyz-blank-line',
      { line, start: 0, end: 0 },
      'a blank line between frames: read on here, but ASE stops reading at a blank line and drops the frames after it',
    );
  }
  return next;
}

/** A count line that is no count: reported, and the line of the next count line to go on from. */
function skipBadCount(state: State, line: number, tokens: Token[]): number {
  const { src } = state;
  const next = nextCountLine(src, line + 1);
  const skipped = next > line + 1 ? ` (lines ${line + 1}–${next} skipped)` : '';
  state.report.error(
    'xyz-count',
    { line, start: tokens[0]!.start, end: tokens[tokens.length - 1]!.end },
    state.previousEnd === line
      ? `expected the atom count of the next frame, found ${quote(src.line(line).trim())}: does the frame above have more atom lines than its count says?${skipped}`
      : `an XYZ frame starts with its atom count, a whole number (found ${quote(tokens[0]!.text)})${skipped}`,
  );
  return next;
}

/** Limits on the count on `line`; false when the reading stops here. */
function withinLimits(state: State, n: number, countRange: { line: number; start: number; end: number }): boolean {
  const { out, report } = state;
  if (n > MAX_FRAME_ATOMS) {
    report.error(
      'xyz-too-many-atoms',
      countRange,
      `${n} atoms in one frame: at most ${MAX_FRAME_ATOMS} are read; the rest of the file is left out`,
    );
    return false;
  }
  if (out.frames.length >= MAX_FRAMES || out.sites + n > MAX_TOTAL_SITES) {
    report.warning(
      'too-many-frames',
      countRange,
      `only the first ${out.frames.length} frames are read (${out.sites} atoms in all; at most ${MAX_FRAMES} frames or ${MAX_TOTAL_SITES} atoms): the rest of the file is left out`,
    );
    return false;
  }
  return true;
}

/** The frame whose count `n` is on `line`: kept when it can be; the line after it, or undefined at a truncated end. */
function readFrame(state: State, line: number, n: number, countRange: { line: number; start: number; end: number }): number | undefined {
  const { src, report, out } = state;
  const index = ++state.index;
  const commentLine = line + 1;
  if (!src.has(commentLine)) {
    report.warning(
      'xyz-truncated',
      { line: commentLine, start: 0, end: 0 },
      `the file ends after the atom count of frame ${index}: that frame is left out`,
    );
    return undefined;
  }
  const comment = src.line(commentLine);
  const spec = state.specs.read(comment, commentLine, report);
  const atoms = readAtoms(src, line + 2, n, spec, state.names, report);
  if (atoms.truncated) {
    const kept = out.frames.length;
    report.warning(
      'xyz-truncated',
      { line: atoms.next, start: 0, end: 0 },
      `the file ends after ${plural(atoms.next - line - 2, 'atom line')} of frame ${index}, whose count on line ${line + 1} is ${n}: that frame is left out${kept > 0 ? `, the ${plural(kept, 'frame')} before it are kept` : ''}`,
    );
    return undefined;
  }
  if (atoms.short !== undefined) {
    report.error(
      'xyz-count-mismatch',
      countRange,
      `frame ${index} has ${plural(atoms.short, 'atom line')} but its count says ${n}: a new frame starts on line ${atoms.next + 1}`,
    );
  }
  if (atoms.ok) keep(state, atoms, spec, frameTitle(comment, spec, index), { first: line, last: atoms.next - 1 });
  return atoms.next;
}

/** A frame read whole, added to the file's frames and outline (members set one by one: no spread, cheap before V8 optimizes). */
function keep(state: State, atoms: AtomLines, spec: FrameSpec, title: string, lines: LineSpan): void {
  const { out } = state;
  const count = atoms.species.length;
  const frame: StructureFrame = defineRows(
    { lattice: spec.lattice, pbc: spec.pbc, species: atoms.species, title, lines },
    'positions',
    atoms.positions,
  );
  if (atoms.labels) frame.labels = atoms.labels;
  if (spec.energy !== undefined) frame.energy = spec.energy;
  if (spec.stress) frame.stress = spec.stress;
  if (atoms.forces) defineRows(frame, 'forces', atoms.forces);
  if (atoms.free && atoms.free.length === count) frame.free = atoms.free;
  out.frames.push(frame);
  out.sites += count;
  out.outline.push({ name: `frame ${state.index}`, detail: frameDetail(count, spec.energy), kind: 'frame', lines });
}

function readFrames(src: TextLines, report: Report): Frames {
  const state: State = {
    src,
    report,
    out: { frames: [], outline: [], sites: 0 },
    names: new SpeciesNames(),
    specs: new FrameSpecs(),
    index: 0,
    blankReported: false,
    previousEnd: -1,
  };
  let line: number | undefined = 0;
  while (line !== undefined && line < src.count) {
    const tokens = src.tokens(line);
    if (tokens.length === 0) {
      line = afterBlank(state, line);
      continue;
    }
    const n = parseInteger(tokens[0]!.text);
    if (n === undefined || n < 0) {
      line = skipBadCount(state, line, tokens);
      continue;
    }
    if (tokens.length > 1) {
      report.warning(
        'xyz-count-extra',
        { line, start: tokens[1]!.start, end: tokens[tokens.length - 1]!.end },
        'only the atom count belongs on this line: ASE and pymatgen refuse the frame with more on it',
      );
    }
    const countRange = { line, start: tokens[0]!.start, end: tokens[0]!.end };
    if (!withinLimits(state, n, countRange)) break;
    line = readFrame(state, line, n, countRange);
    if (line !== undefined) state.previousEnd = line;
  }
  return state.out;
}

export function readXyz(text: string): StructureFile {
  const report = new Report();
  const src = new TextLines(text);
  report.within(() => src.lines);
  if (!/\S/.test(text)) {
    report.error(
      'empty-file',
      { line: 0, start: 0, end: 0 },
      'the file is empty: an XYZ frame holds the atom count, a comment line and one line per atom',
    );
    return { format: 'xyz', frames: [], diagnostics: report.sorted(), outline: [] };
  }
  const { frames, outline } = readFrames(src, report);
  return { format: 'xyz', frames, diagnostics: report.sorted(), outline: groupFrames(outline) };
}
