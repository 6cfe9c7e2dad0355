/**
 * What an extended XYZ comment line says about its frame: the cell (Lattice=), periodicity (pbc=), the
 * columns of the atom lines (Properties=), the energy and the stress. Keys and their meaning follow ASE's
 * extxyz reader (ase/io/extxyz.py, ASE 3.22) and the libAtoms extended XYZ specification
 * (https://github.com/libAtoms/extxyz); any other key is ignored, as ASE keeps it only in `atoms.info`.
 * A plain XYZ comment line (free text) yields the default columns: species, then x y z.
 */
import { parseInteger, parseNumber } from '../../poscar/numbers';
import { quote, type Report } from '../../poscar/report';
import type { Mat3, Vec3 } from '../../poscar/types';
import { determinant } from '../../poscar/vec';
import { readBooleans, readKeyValues, type KeyValue } from './keyValues';

/**
 * kBar per eV/Å³: 1 eV/Å³ = 160.21766208 GPa (CODATA 2014, the constants ASE 3.22's `ase.units` uses)
 * and 1 GPa = 10 kBar.
 */
export const KBAR_PER_EV_A3 = 1602.1766208;

/** One column group of the atom lines, as Properties= names it (name:type:count). */
export interface Column {
  name: string;
  type: 'R' | 'I' | 'S' | 'L';
  count: number;
  /** Index of its first token on an atom line. */
  offset: number;
}

export interface FrameSpec {
  lattice: Mat3 | null;
  pbc: [boolean, boolean, boolean];
  columns: Column[];
  /** Tokens an atom line must have. */
  width: number;
  /** Offsets of the columns the reader uses; positions undefined when the frame cannot be placed. */
  positions?: number;
  species?: number;
  numbers?: number;
  forces?: number;
  /** ASE's constraints (FixAtoms: move_mask:L:1, FixCartesian: move_mask:L:3): true = free, as VASP's selective dynamics. */
  moveMask?: { offset: number; count: 1 | 3 };
  energy?: number;
  /** kBar, VASP's sign (see readStress). */
  stress?: Mat3;
  /** Whether the line held any of the keys above (an extended XYZ frame rather than a free-text comment). */
  extended: boolean;
}

/** Columns beyond this on one atom line are refused: no real property list comes close. */
const MAX_COLUMNS = 10_000;

const DEFAULT_COLUMNS: Column[] = [
  { name: 'species', type: 'S', count: 1, offset: 0 },
  { name: 'pos', type: 'R', count: 3, offset: 1 },
];

const numbersOf = (value: string): (number | undefined)[] =>
  value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((t) => parseNumber(t));

const valueRange = (line: number, kv: KeyValue) => ({ line, start: kv.valueStart, end: kv.valueEnd });

function readLattice(kv: KeyValue, line: number, report: Report): Mat3 | undefined {
  const values = numbersOf(kv.value);
  if (values.length !== 9 || values.some((v) => v === undefined)) {
    report.error(
      'xyz-lattice',
      valueRange(line, kv),
      `Lattice= must hold 9 numbers, the three lattice vectors one after another (found ${quote(kv.value)}): the frame is read as a molecule without a cell`,
    );
    return undefined;
  }
  const v = values as number[];
  // ASE: reshape((3, 3), order='F') then transpose, so the vectors are consecutive triples.
  const lattice: Mat3 = [
    [v[0]!, v[1]!, v[2]!],
    [v[3]!, v[4]!, v[5]!],
    [v[6]!, v[7]!, v[8]!],
  ];
  if (!(Math.abs(determinant(lattice)) > 1e-8)) {
    report.warning('xyz-lattice-singular', valueRange(line, kv), 'the three lattice vectors lie in one plane (zero cell volume)');
  }
  return lattice;
}

/**
 * ASE writes the stress in eV/Å³ with its sign (positive = tensile, the derivative of the energy with
 * respect to strain per volume); StructureFrame.stress is in kBar with VASP's sign, which ASE's VASP
 * reader negates (ase/calculators/vasp/vasp.py: `stress = -…[[0, 1, 2, 4, 5, 3]] * 1e-1 * GPa`). So
 * kBar = −1602.1766208 × eV/Å³. 9 numbers are a 3×3 matrix in Fortran order as ASE reads it; 6 are
 * Voigt order (xx yy zz yz xz xy), as ASE keeps a calculator's stress.
 */
function readStress(kv: KeyValue, line: number, report: Report): Mat3 | undefined {
  const values = numbersOf(kv.value);
  if ((values.length !== 9 && values.length !== 6) || values.some((v) => v === undefined)) {
    report.error(
      'xyz-stress',
      valueRange(line, kv),
      `stress= must hold 9 numbers (a 3×3 matrix) or 6 (Voigt order: xx yy zz yz xz xy), in eV/Å³ (found ${quote(kv.value)}): the stress is left out`,
    );
    return undefined;
  }
  const v = (values as number[]).map((x) => -x * KBAR_PER_EV_A3);
  if (!v.every(Number.isFinite)) {
    report.error('xyz-stress', valueRange(line, kv), 'the stress is too large to convert to kBar: it is left out');
    return undefined;
  }
  if (v.length === 6) {
    const [xx, yy, zz, yz, xz, xy] = v as [number, number, number, number, number, number];
    return [
      [xx, xy, xz],
      [xy, yy, yz],
      [xz, yz, zz],
    ];
  }
  // Fortran order: element (i, j) is value i + 3j.
  const m = (i: number, j: number): number => v[i + 3 * j]!;
  return [0, 1, 2].map((i) => [m(i, 0), m(i, 1), m(i, 2)] as Vec3) as Mat3;
}

function readProperties(kv: KeyValue, line: number, report: Report): Column[] | undefined {
  const fields = kv.value.split(':');
  const bad = (text: string): undefined => {
    report.error('xyz-properties', valueRange(line, kv), `${text}: the frame's atoms cannot be read`);
    return undefined;
  };
  if (fields.length % 3 !== 0) {
    return bad(`Properties= is a list of name:type:columns triples (found ${quote(kv.value)}, ${fields.length} fields)`);
  }
  const columns: Column[] = [];
  let offset = 0;
  for (let i = 0; i < fields.length; i += 3) {
    const [name, type, cols] = [fields[i]!, fields[i + 1]!, fields[i + 2]!];
    if (type !== 'R' && type !== 'I' && type !== 'S' && type !== 'L') {
      return bad(`the type of property ${quote(name)} is ${quote(type)}: it must be R (real), I (integer), S (string) or L (logical)`);
    }
    const count = parseInteger(cols);
    if (count === undefined || count < 1 || offset + count > MAX_COLUMNS) {
      return bad(`the column count of property ${quote(name)} must be a whole number from 1 to ${MAX_COLUMNS} (found ${quote(cols)})`);
    }
    columns.push({ name, type, count, offset });
    offset += count;
  }
  return columns;
}

/** The columns the reader uses, checked for the types and widths it needs. */
function locate(columns: Column[], kv: KeyValue | undefined, line: number, report: Report): Partial<FrameSpec> {
  const find = (name: string) => columns.find((c) => c.name === name);
  const range = kv ? valueRange(line, kv) : { line, start: 0, end: 0 };
  const out: Partial<FrameSpec> = {};
  const pos = find('pos');
  if (pos && pos.type === 'R' && pos.count === 3) out.positions = pos.offset;
  else {
    report.error(
      'xyz-no-positions',
      range,
      pos
        ? `the property pos must be pos:R:3 (found pos:${pos.type}:${pos.count}): the frame's atoms cannot be placed`
        : "Properties= names no pos:R:3 column: the frame's atoms cannot be placed",
    );
  }
  const species = find('species');
  if (species && species.type === 'S' && species.count === 1) out.species = species.offset;
  const numbers = find('Z');
  if (numbers && numbers.type === 'I' && numbers.count === 1) out.numbers = numbers.offset;
  if (out.species === undefined && out.numbers === undefined) {
    report.warning('xyz-no-species', range, 'Properties= names no species:S:1 or Z:I:1 column: the elements are unknown (shown as X)');
  }
  const forces = find('forces');
  if (forces && forces.type === 'R' && forces.count === 3) out.forces = forces.offset;
  else if (forces)
    report.warning('xyz-forces-shape', range, `forces must be forces:R:3 (found forces:${forces.type}:${forces.count}): they are left out`);
  const mask = find('move_mask');
  if (mask && mask.type === 'L' && (mask.count === 1 || mask.count === 3)) out.moveMask = { offset: mask.offset, count: mask.count };
  else if (mask)
    report.warning(
      'xyz-move-mask-shape',
      range,
      `move_mask must be move_mask:L:1 or move_mask:L:3 (found move_mask:${mask.type}:${mask.count}): the fixed atoms are left out`,
    );
  return out;
}

/** The pairs of the comment line by key, the last of a repeated key kept (as ASE); an unclosed quote reported. */
function lastPairs(text: string, line: number, report: Report): Map<string, KeyValue> {
  const last = new Map<string, KeyValue>();
  for (const kv of readKeyValues(text)) last.set(kv.key, kv); // ASE keeps the last of a repeated key
  for (const kv of last.values()) {
    if (kv.unterminated !== undefined && ['Lattice', 'Properties', 'pbc', 'energy', 'stress'].includes(kv.key)) {
      report.warning(
        'xyz-unterminated-quote',
        { line, start: kv.unterminated, end: kv.unterminated + 1 },
        `the quote opened here for ${kv.key}= is never closed: the value runs to the end of the line`,
      );
    }
  }
  return last;
}

/** What Lattice=, pbc= and Properties= say: the cell, its periodicity and the columns. */
function readCellAndColumns(last: Map<string, KeyValue>, line: number, report: Report): FrameSpec {
  const spec: FrameSpec = { lattice: null, pbc: [false, false, false], columns: DEFAULT_COLUMNS, width: 4, extended: false };
  const latticeKv = last.get('Lattice');
  if (latticeKv) {
    spec.extended = true;
    spec.lattice = readLattice(latticeKv, line, report) ?? null;
    if (spec.lattice) spec.pbc = [true, true, true]; // ASE's default with a Lattice
  }
  const pbcKv = last.get('pbc');
  if (pbcKv) {
    spec.extended = true;
    const flags = readBooleans(pbcKv.value);
    if (!flags || (flags.length !== 1 && flags.length !== 3)) {
      report.error('xyz-pbc', valueRange(line, pbcKv), `pbc= must be three logical values such as "T T F" (found ${quote(pbcKv.value)})`);
    } else if (!spec.lattice) {
      if (flags.includes(true)) {
        report.warning(
          'xyz-pbc-without-lattice',
          valueRange(line, pbcKv),
          'pbc= asks for periodicity but the frame has no Lattice=: it is read as a molecule',
        );
      }
    } else {
      spec.pbc = flags.length === 1 ? [flags[0]!, flags[0]!, flags[0]!] : [flags[0]!, flags[1]!, flags[2]!];
    }
  }
  const propertiesKv = last.get('Properties');
  let columns = DEFAULT_COLUMNS;
  if (propertiesKv) {
    spec.extended = true;
    columns = readProperties(propertiesKv, line, report) ?? [];
  }
  spec.columns = columns;
  const lastColumn = columns[columns.length - 1];
  spec.width = lastColumn ? lastColumn.offset + lastColumn.count : 0;
  if (columns.length > 0) Object.assign(spec, locate(columns, propertiesKv, line, report));
  return spec;
}

/** energy= and stress= into `spec`. */
function readEnergyAndStress(spec: FrameSpec, last: Map<string, KeyValue>, line: number, report: Report): void {
  const energyKv = last.get('energy');
  if (energyKv) {
    spec.extended = true;
    const energy = parseNumber(energyKv.value.trim());
    if (energy === undefined)
      report.error('xyz-energy', valueRange(line, energyKv), `energy= must be a number in eV (found ${quote(energyKv.value)})`);
    else spec.energy = energy;
  }
  const stressKv = last.get('stress');
  if (stressKv) {
    spec.extended = true;
    const stress = readStress(stressKv, line, report);
    if (stress) spec.stress = stress;
  }
}

/** The same value in the same columns (a diagnostic's range is the value's), or both absent. */
const sameValue = (a: KeyValue | undefined, b: KeyValue | undefined): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.value === b.value &&
    a.valueStart === b.valueStart &&
    a.valueEnd === b.valueEnd &&
    a.unterminated === b.unterminated);

/** Lattice=, pbc= and Properties= of a comment line, and what they gave when they gave no problem. */
interface Cell {
  lattice: KeyValue | undefined;
  pbc: KeyValue | undefined;
  properties: KeyValue | undefined;
  spec: FrameSpec;
}

/**
 * The comment lines of one file, read in order. A trajectory repeats its Lattice=, pbc= and Properties=
 * from frame to frame while the energy changes: a frame whose three are the previous frame's, word for word
 * in the same columns, takes the cell and columns read then (shared, as XDATCAR frames share their cell)
 * when they gave no problem, so only its energy and stress are read again.
 */
export class FrameSpecs {
  private previous: Cell | undefined;

  /** Everything the comment line on `line` says about the frame; problems reported there. */
  read(text: string, line: number, report: Report): FrameSpec {
    const last = lastPairs(text, line, report);
    const [lattice, pbc, properties] = [last.get('Lattice'), last.get('pbc'), last.get('Properties')];
    const previous = this.previous;
    let spec: FrameSpec;
    if (previous && sameValue(lattice, previous.lattice) && sameValue(pbc, previous.pbc) && sameValue(properties, previous.properties))
      spec = { ...previous.spec };
    else {
      const before = report.count;
      spec = readCellAndColumns(last, line, report);
      this.previous = report.count === before ? { lattice, pbc, properties, spec: { ...spec } } : undefined;
    }
    readEnergyAndStress(spec, last, line, report);
    return spec;
  }
}
