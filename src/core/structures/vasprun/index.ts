/**
 * vasprun.xml, VASP's XML output, read incrementally: `new VasprunReader()`, `push(slice)` as the text
 * arrives (50–500 MB files, in slices off the event loop), `finish()` for the StructureFile. The text is
 * never kept: a small tokenizer of our own (./xml.ts) streams the tags, and only what is needed is held.
 * Pure: no `vscode`.
 *
 * What is read, following pymatgen's Vasprun (pymatgen.io.vasp.outputs, 2022.11) and ASE's
 * read_vasp_xml (ase.io.vasp, 3.22) so that the numbers agree with them:
 * - species from <atominfo><array name="atoms">, the first <c> of each row ('X' is read as Xe and 'r' as Zr,
 *   as pymatgen does for VASP's truncated names);
 * - EDIFFG, NSW and IBRION from <parameters> (every value VASP used), else <incar>;
 * - every <calculation>'s structure (<crystal><varray name="basis">, <varray name="positions">, fractional),
 *   forces and stress (kBar, VASP's sign); selective dynamics from <varray name="selective"> (→ `free`; a
 *   step's structure without one keeps the initial structure's flags: VASP keeps atoms fixed for the whole run);
 * - energy: e_fr_energy of the step plus (e_0_energy − e_fr_energy) of its last <scstep>, which is what
 *   ASE's get_potential_energy() and pymatgen's final_energy give (both work round a VASP bug that writes a
 *   wrong e_0_energy in the step's own <energy>); `freeEnergy` is e_fr_energy (TOTEN);
 * - the band gap as pymatgen's Vasprun.eigenvalue_band_properties: over the last <eigenvalues> block, the
 *   highest eigenvalue with occupation > 1e-8 (VBM) and the lowest with occupation ≤ 1e-8 (CBM), direct when
 *   both are at the same k-point index; per spin too when spin-polarised. Rows are reduced as they stream:
 *   nothing of the (k-points × bands × spins) block is kept;
 * - the Fermi energy from the last <dos><i name="efermi">;
 * - converged: pymatgen's converged_ionic (NSW ≤ 1, or fewer steps than NSW); false for a truncated file.
 * - initialpos is the only frame when no step is complete; finalpos is added as 'final structure' when it
 *   differs from the last step's.
 *
 * A truncated file (a running job) gives its complete steps and a warning. Bounded: the element stack, the
 * text kept for one value and the diagnostics are capped; the work is linear in the text.
 */
import { element } from '../../poscar/elements';
import { MAX_DIAGNOSTICS, plural, quote, sortedWithOverflow } from '../../poscar/report';
import { ENGLISH, type Locale } from '../../util/locale';
import { fracToCart } from '../../poscar/structure';
import type { PoscarDiagnostic, Severity } from '../../poscar/types';
import { stepOutline } from '../steps';
import type { Mat3, RunOutcome, StructureFile, StructureFrame, Vec3 } from '../types';
import { XmlTokenizer, type Attributes, type TagPosition, type XmlHandler } from './xml';

/** Deeper elements than this are not vasprun.xml's: they are skipped. */
export const MAX_DEPTH = 64;
/** The most characters kept for one value (<v>, <r>, <i>, <c>); vasprun.xml's are under 100. */
export const MAX_VALUE = 4096;
/** pymatgen's occu_tol: an occupation above this is an occupied state. */
export const OCCUPIED = 1e-8;

interface Gap {
  vbm: number;
  cbm: number;
  vbmK: number;
  cbmK: number;
}

const newGap = (): Gap => ({ vbm: -Infinity, cbm: Infinity, vbmK: -1, cbmK: -1 });

interface Rows {
  rows: number[][];
  /** false once a row could not be read: the whole array is not used. */
  ok: boolean;
  at: TagPosition;
}

interface StructureBuilder {
  name: string;
  at: TagPosition;
  basis?: Rows;
  positions?: Rows;
  selective?: { rows: boolean[][]; ok: boolean };
}

interface Built {
  lattice: Mat3;
  frac: Vec3[];
  free?: [boolean, boolean, boolean][];
  at: TagPosition;
  lines: { first: number; last: number };
}

interface Calculation {
  at: TagPosition;
  structure?: Built;
  forces?: Rows;
  stress?: Rows;
  energy: Map<string, number>;
  /** The last <scstep>'s energies. */
  scstep?: Map<string, number>;
}

/** Collects diagnostics at tag positions ("Line N: …", capped as the POSCAR core's Report). */
class Problems {
  readonly list: PoscarDiagnostic[] = [];
  private dropped = 0;

  constructor(private readonly locale: Locale) {}

  add(severity: Severity, code: string, at: { line: number; column: number; end: number }, text: string): void {
    if (this.list.length >= MAX_DIAGNOSTICS) {
      this.dropped++;
      return;
    }
    this.list.push({
      severity,
      code,
      message: this.locale.t('Line {0}: {1}', at.line + 1, text),
      range: { line: at.line, start: at.column, end: Math.max(at.column, at.end) },
    });
  }

  sorted(): PoscarDiagnostic[] {
    return sortedWithOverflow(this.list, this.dropped, this.locale);
  }
}

/** The names pymatgen reads from VASP's two-character symbol field when VASP cut them. */
function atomSymbol(raw: string): string | undefined {
  const name = raw.trim();
  if (element(name)) return name;
  if (name === 'X') return 'Xe';
  if (name === 'r') return 'Zr';
  const letters = /^[A-Za-z]+/.exec(name)?.[0];
  if (!letters) return undefined;
  const symbol = letters[0]!.toUpperCase() + letters.slice(1).toLowerCase();
  return element(symbol) ? symbol : undefined;
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Scratch for the numbers of one value: a value keeps at most MAX_VALUE characters, so at most half as many numbers. */
const VALUES = new Float64Array(MAX_VALUE / 2 + 1);

/**
 * Reads the numbers of a value's text into VALUES: how many, or -1 when one is not a number ('*****'
 * overflow, NaN). The rows of a 500 MB file allocate no array of their own.
 */
function scanNumbers(text: string): number {
  let count = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && text.charCodeAt(i) <= 32) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && text.charCodeAt(i) > 32) i++;
    const token = text.slice(start, i);
    const value = Number(token);
    if (!Number.isFinite(value) || !NUMBER.test(token)) return -1;
    VALUES[count++] = value;
  }
  return count;
}

/** The one number of a value's text, or undefined when it holds another count or not a number. */
const single = (text: string): number | undefined => (scanNumbers(text) === 1 ? VALUES[0] : undefined);

export class VasprunReader implements XmlHandler {
  private readonly tokenizer = new XmlTokenizer(this);
  private readonly problems: Problems;
  private readonly stack: string[] = [];
  /** Elements opened past MAX_DEPTH (not on the stack). */
  private overflow = 0;
  private deepReported = false;

  // Text capture for one value element.
  private capture: ((text: string, at: TagPosition) => void) | null = null;
  private captureAt: TagPosition = { line: 0, column: 0, end: 0 };
  private captured = '';
  private captureDepth = -1;
  private longReported = false;

  // Header.
  private readonly species: string[] = [];
  private speciesAt: TagPosition | undefined;
  private inAtoms = -1; // depth of <array name="atoms">
  private cInRow = 0;
  private readonly incar = new Map<string, number>();
  private readonly parameters = new Map<string, number>();

  // Structures and steps.
  private structure: StructureBuilder | null = null;

  constructor(locale: Locale = ENGLISH) {
    this.problems = new Problems(locale);
  }
  private structureDepth = -1;
  private rows: Rows | null = null;
  private logical: { rows: boolean[][]; ok: boolean } | null = null;
  private initial: Built | undefined;
  private final: Built | undefined;
  private calculation: Calculation | null = null;
  private calculationDepth = -1;
  private scstepDepth = -1;
  private energy: Map<string, number> | null = null;
  private readonly frames: StructureFrame[] = [];
  private calculations = 0;
  private sawRoot = false;
  private warnedSpecies = false;
  private result: StructureFile | undefined;

  // Eigenvalues, reduced as they stream; the last complete block wins (pymatgen's iterparse).
  private eigenDepth = -1;
  private eigenSpin = 0;
  private eigenK = -1;
  private eigenSets = 0;
  private spinGaps: Gap[] = [];
  private allGap = newGap();
  private eigenBad = false;
  private band: RunOutcome['bandGap'];
  private dosDepth = -1;
  private fermi: number | undefined;

  // What a captured value goes to, one function each (not one per value: a large file has millions).
  private readonly onAtom = (text: string, at: TagPosition): void => this.atom(text, at);
  private readonly onRow = (text: string, at: TagPosition): void => this.row(text, at);
  private readonly onEigenRow = (text: string, at: TagPosition): void => this.eigenRow(text, at);

  get wantsText(): boolean {
    return this.capture !== null;
  }

  /** Feeds the next slice of the text (cut anywhere). */
  push(chunk: string): void {
    if (!this.result) this.tokenizer.push(chunk);
  }

  /** Ends the text and returns what was read; after it, push is ignored and finish returns the same. */
  finish(): StructureFile {
    if (this.result) return this.result;
    this.tokenizer.finish();
    const end = this.tokenizer.end;
    const truncated = this.stack.length > 0 || this.overflow > 0;
    if (this.calculation) {
      this.problems.add(
        'warning',
        'vasprun-truncated',
        this.calculation.at,
        `the file ends inside this calculation (step ${this.calculations + 1}): the job is running or was stopped; ${plural(this.frames.length, 'complete step')} shown`,
      );
    } else if (truncated && this.sawRoot) {
      this.problems.add(
        'warning',
        'vasprun-truncated',
        end,
        `the file ends before </modeling>: the job is running or was stopped; ${plural(this.frames.length, 'complete step')} shown`,
      );
    }
    if (this.frames.length === 0 && this.initial) this.frames.push(this.frameOf(this.initial, 'initial structure', this.initial.lines));
    const final = this.final;
    if (final) {
      const last = this.frames[this.frames.length - 1];
      if (
        !last ||
        differs(
          last,
          final.lattice,
          final.frac.map((f) => fracToCart(final.lattice, f)),
        )
      )
        this.frames.push(this.frameOf(final, 'final structure', final.lines));
    }
    if (this.frames.length === 0) {
      this.problems.add(
        'error',
        'vasprun-no-structure',
        this.sawRoot ? end : { line: 0, column: 0, end: 0 },
        this.sawRoot ? 'no structure in this vasprun.xml: the run has not written one yet' : 'not a vasprun.xml: no <modeling> element',
      );
    }
    const outcome: RunOutcome = {};
    const ediffg = this.parameters.get('EDIFFG') ?? this.incar.get('EDIFFG');
    if (ediffg !== undefined) outcome.ediffg = ediffg;
    const nsw = this.parameters.get('NSW') ?? this.incar.get('NSW') ?? 0;
    if (this.sawRoot) outcome.converged = !truncated && !this.calculation && (nsw <= 1 || this.calculations < nsw);
    if (this.band) outcome.bandGap = this.band;
    if (this.fermi !== undefined) outcome.fermi = this.fermi;
    this.result = {
      format: 'vasprun',
      frames: this.frames,
      diagnostics: this.problems.sorted(),
      outline: stepOutline(this.frames),
      outcome,
    };
    return this.result;
  }

  // ---------------------------------------------------------------------------------------------
  // Tokens

  open(name: string, attributes: Attributes, at: TagPosition): void {
    if (this.stack.length >= MAX_DEPTH) {
      this.tooDeep(at);
      return;
    }
    const parent = this.stack[this.stack.length - 1];
    this.stack.push(name);
    const depth = this.stack.length;
    if (this.capture) {
      // A value element holds no elements: its text so far is all it has.
      this.endCapture();
    }
    switch (name) {
      case 'modeling':
        this.sawRoot = true;
        break;
      case 'array':
        if (parent === 'atominfo' && attributes.get('name') === 'atoms') this.openAtoms(at, depth);
        break;
      case 'rc':
        this.cInRow = 0;
        break;
      case 'c':
        if (this.inAtoms > 0 && parent === 'rc' && this.cInRow++ === 0) this.begin(at, this.onAtom);
        break;
      case 'i':
        this.openValue(parent, attributes.get('name'), at);
        break;
      case 'calculation':
        if (parent === 'modeling') this.openCalculation(at, depth);
        break;
      case 'scstep':
        if (this.calculation && parent === 'calculation') this.openScstep(depth);
        break;
      case 'energy':
        this.openEnergy(parent, depth);
        break;
      case 'structure':
        this.openStructure(parent, attributes.get('name'), at, depth);
        break;
      case 'varray':
        this.openArray(parent, attributes.get('name'), at, depth);
        break;
      case 'v':
        if ((this.rows || this.logical) && parent === 'varray') this.begin(at, this.onRow);
        break;
      case 'eigenvalues':
        this.openEigenvalues(depth);
        break;
      case 'set':
        if (this.eigenDepth > 0) this.openEigenSet(attributes.get('comment'), depth);
        break;
      case 'r':
        if (this.eigenDepth > 0 && parent === 'set' && depth === this.eigenDepth + 5) this.begin(at, this.onEigenRow);
        break;
      case 'dos':
        this.dosDepth = depth;
        break;
      default:
        break;
    }
  }

  close(name: string, at: TagPosition): void {
    if (this.overflow > 0) {
      this.overflow--;
      return;
    }
    const index = this.stack.lastIndexOf(name);
    if (index < 0) {
      this.problems.add('warning', 'vasprun-stray-end-tag', at, `</${name}> closes no open element: it is ignored`);
      return;
    }
    if (index !== this.stack.length - 1) {
      this.problems.add(
        'warning',
        'vasprun-unclosed',
        at,
        `</${name}> closes <${this.stack[this.stack.length - 1]}> too, which was not closed`,
      );
    }
    while (this.stack.length > index) this.closed(this.stack.pop()!, this.stack.length + 1, at);
  }

  text(piece: string): void {
    if (this.captured.length + piece.length <= MAX_VALUE) this.captured += piece;
    else {
      this.captured += piece.slice(0, Math.max(0, MAX_VALUE - this.captured.length));
      if (!this.longReported) {
        this.longReported = true;
        this.problems.add(
          'warning',
          'vasprun-long-value',
          this.captureAt,
          `a value longer than ${MAX_VALUE} characters: only its start is read`,
        );
      }
    }
  }

  problem(code: 'xml-long-tag' | 'xml-unfinished', at: TagPosition, message: string): void {
    this.problems.add(
      code === 'xml-long-tag' ? 'error' : 'warning',
      code === 'xml-long-tag' ? 'vasprun-long-tag' : 'vasprun-unfinished-markup',
      at,
      message,
    );
  }

  // ---------------------------------------------------------------------------------------------
  // Elements

  /** An element at `depth` ends (its end tag, or an enclosing one's). */
  private closed(name: string, depth: number, at: TagPosition): void {
    if (this.capture && depth === this.captureDepth) this.endCapture();
    switch (name) {
      case 'array':
        if (depth === this.inAtoms) this.inAtoms = -1;
        break;
      case 'varray':
        this.closeArray();
        break;
      case 'energy':
        this.energy = null;
        break;
      case 'scstep':
        if (depth === this.scstepDepth) this.scstepDepth = -1;
        break;
      case 'structure':
        if (this.structure && depth === this.structureDepth) this.closeStructure(at);
        break;
      case 'calculation':
        if (this.calculation && depth === this.calculationDepth) this.closeCalculation(at);
        break;
      case 'eigenvalues':
        if (depth === this.eigenDepth) this.closeEigenvalues();
        break;
      case 'dos':
        if (depth === this.dosDepth) this.dosDepth = -1;
        break;
      default:
        break;
    }
  }

  private begin(at: TagPosition, use: (text: string, at: TagPosition) => void): void {
    this.capture = use;
    this.captureAt = at;
    this.captured = '';
    this.captureDepth = this.stack.length;
  }

  private endCapture(): void {
    const use = this.capture!;
    this.capture = null;
    this.captureDepth = -1;
    const text = this.captured;
    this.captured = '';
    use(text, this.captureAt);
  }

  /** An element past MAX_DEPTH: not kept on the stack, reported once. */
  private tooDeep(at: TagPosition): void {
    this.overflow++;
    if (this.deepReported) return;
    this.deepReported = true;
    this.problems.add(
      'error',
      'vasprun-deep',
      at,
      `elements nested deeper than ${MAX_DEPTH} levels: not vasprun.xml's; what is inside is skipped`,
    );
  }

  private openAtoms(at: TagPosition, depth: number): void {
    this.inAtoms = depth;
    this.speciesAt = at;
    this.species.length = 0;
  }

  /** The first <c> of an atoms row: the element. */
  private atom(text: string, at: TagPosition): void {
    const symbol = atomSymbol(text);
    if (!symbol)
      this.problems.add('warning', 'vasprun-unknown-element', at, `${quote(text.trim())} is no element: its atoms are shown as X`);
    this.species.push(symbol ?? 'X');
  }

  private openCalculation(at: TagPosition, depth: number): void {
    this.calculation = { at, energy: new Map() };
    this.calculationDepth = depth;
  }

  private openScstep(depth: number): void {
    this.scstepDepth = depth;
    this.calculation!.scstep = new Map();
  }

  /** The <energy> of the ionic step or of one of its electronic steps: where its <i> values go. */
  private openEnergy(parent: string | undefined, depth: number): void {
    if (this.calculation && parent === 'calculation') this.energy = this.calculation.energy;
    else if (this.calculation && parent === 'scstep' && depth === this.scstepDepth + 1) this.energy = this.calculation.scstep!;
  }

  /** initialpos, finalpos or a step's structure; any other is not read. */
  private openStructure(parent: string | undefined, name: string | undefined, at: TagPosition, depth: number): void {
    if ((parent === 'modeling' && (name === 'initialpos' || name === 'finalpos')) || (parent === 'calculation' && this.calculation)) {
      this.structure = { name: parent === 'calculation' ? 'step' : name!, at };
      this.structureDepth = depth;
    }
  }

  private openEigenvalues(depth: number): void {
    this.eigenDepth = depth;
    this.eigenSets = 0;
    this.eigenSpin = -1;
    this.spinGaps = [];
    this.allGap = newGap();
    this.eigenBad = false;
  }

  private openValue(parent: string | undefined, name: string | undefined, at: TagPosition): void {
    if (name === undefined) return;
    if (this.energy && parent === 'energy') {
      const into = this.energy;
      const inStep = this.calculation !== null && into === this.calculation.energy;
      this.begin(at, (text, where) => {
        const value = single(text);
        if (value !== undefined) into.set(name, value);
        // An electronic step's overflow ('****', pymatgen's NaN) is common and harmless; the ionic step's is not.
        else if (inStep)
          this.problems.add('warning', 'vasprun-bad-number', where, `${name} is not a number (${quote(text.trim())}): it is left out`);
      });
    } else if (parent === 'dos' && name === 'efermi' && this.stack.length === this.dosDepth + 1) {
      this.begin(at, (text, where) => {
        const value = single(text);
        if (value !== undefined) this.fermi = value;
        else this.problems.add('warning', 'vasprun-bad-number', where, `the Fermi energy is not a number (${quote(text.trim())})`);
      });
    } else if (name === 'EDIFFG' || name === 'NSW' || name === 'IBRION') {
      const into = this.stack.includes('parameters') ? this.parameters : this.stack.includes('incar') ? this.incar : undefined;
      if (!into || into.has(name)) return;
      this.begin(at, (text, where) => {
        const value = single(text);
        if (value !== undefined) into.set(name, value);
        else this.problems.add('warning', 'vasprun-bad-number', where, `${name} is not a number (${quote(text.trim())})`);
      });
    }
  }

  private openArray(parent: string | undefined, name: string | undefined, at: TagPosition, depth: number): void {
    this.rows = null;
    this.logical = null;
    const s = this.structure;
    if (s && parent === 'crystal' && name === 'basis' && depth === this.structureDepth + 2)
      this.rows = s.basis = { rows: [], ok: true, at };
    else if (s && parent === 'structure' && depth === this.structureDepth + 1) {
      if (name === 'positions') this.rows = s.positions = { rows: [], ok: true, at };
      else if (name === 'selective') this.logical = s.selective = { rows: [], ok: true };
    } else if (this.calculation && parent === 'calculation' && depth === this.calculationDepth + 1) {
      if (name === 'forces') this.rows = this.calculation.forces = { rows: [], ok: true, at };
      else if (name === 'stress') this.rows = this.calculation.stress = { rows: [], ok: true, at };
    }
  }

  private closeArray(): void {
    this.rows = null;
    this.logical = null;
  }

  private row(text: string, at: TagPosition): void {
    if (this.logical) {
      const flags = text.trim().split(/\s+/);
      if (flags.length !== 3 || flags.some((f) => f !== 'T' && f !== 'F')) {
        if (this.logical.ok)
          this.problems.add(
            'error',
            'vasprun-bad-row',
            at,
            `a selective-dynamics row needs three T or F, not ${quote(text.trim())}: the flags are left out`,
          );
        this.logical.ok = false;
      } else this.logical.rows.push(flags.map((f) => f === 'T'));
      return;
    }
    const rows = this.rows!;
    const count = scanNumbers(text);
    if (count !== 3) {
      if (rows.ok)
        this.problems.add(
          'error',
          'vasprun-bad-row',
          at,
          `this row needs three numbers, not ${quote(text.trim())}${count >= 0 ? '' : ' (VASP writes ***** for a number too large for its field)'}`,
        );
      rows.ok = false;
      return;
    }
    rows.rows.push([VALUES[0]!, VALUES[1]!, VALUES[2]!]);
  }

  private closeStructure(end: TagPosition): void {
    const s = this.structure!;
    this.structure = null;
    this.structureDepth = -1;
    this.rows = null;
    this.logical = null;
    const built = this.build(s, end);
    if (!built) return;
    if (s.name === 'initialpos') this.initial = built;
    else if (s.name === 'finalpos') this.final = built;
    else if (this.calculation) this.calculation.structure = built;
  }

  private build(s: StructureBuilder, end: TagPosition): Built | undefined {
    if (!s.basis || !s.basis.ok || s.basis.rows.length !== 3) {
      if (!s.basis || s.basis.ok)
        this.problems.add(
          'error',
          'vasprun-bad-lattice',
          s.basis?.at ?? s.at,
          `this structure has no lattice of three vectors: it is left out`,
        );
      return undefined;
    }
    if (!s.positions || !s.positions.ok) {
      if (!s.positions) this.problems.add('error', 'vasprun-no-positions', s.at, 'this structure has no positions: it is left out');
      return undefined;
    }
    const count = s.positions.rows.length;
    if (this.speciesAt && count !== this.species.length) {
      this.problems.add(
        'error',
        'vasprun-atom-count',
        s.positions.at,
        `${plural(count, 'position')} here, ${plural(this.species.length, 'atom')} in <atominfo>: this structure is left out`,
      );
      return undefined;
    }
    const built: Built = {
      lattice: s.basis.rows as Mat3,
      frac: s.positions.rows as Vec3[],
      at: s.at,
      lines: { first: s.at.line, last: end.line },
    };
    if (s.selective?.ok && s.selective.rows.length === count) built.free = s.selective.rows as [boolean, boolean, boolean][];
    else if (s.selective?.ok)
      this.problems.add(
        'error',
        'vasprun-bad-row',
        s.positions.at,
        `the selective-dynamics flags have ${plural(s.selective.rows.length, 'row')} for ${plural(count, 'atom')}: they are left out`,
      );
    return built;
  }

  private frameOf(built: Built, title: string, lines: { first: number; last: number }): StructureFrame {
    const species = built.frac.map((_, i) => this.species[i] ?? 'X');
    const frame: StructureFrame = {
      lattice: built.lattice,
      pbc: [true, true, true],
      species,
      positions: built.frac.map((f) => fracToCart(built.lattice, f)),
      title,
      lines,
    };
    const free = built.free ?? (this.initial?.free && this.initial.free.length === built.frac.length ? this.initial.free : undefined);
    if (free) frame.free = free;
    return frame;
  }

  private closeCalculation(at: TagPosition): void {
    const calc = this.calculation!;
    this.calculation = null;
    this.calculationDepth = -1;
    this.calculations++;
    if (!calc.structure) return; // GW and response runs have steps without a structure, as pymatgen's None
    if (!this.speciesAt && !this.warnedSpecies) {
      this.warnedSpecies = true;
      this.problems.add(
        'warning',
        'vasprun-no-atominfo',
        calc.at,
        'no <atominfo> before the first step: the elements are not known and are shown as X',
      );
    }
    const frame = this.frameOf(calc.structure, `step ${this.calculations}`, { first: calc.at.line, last: at.line });
    const count = frame.positions.length;
    if (calc.forces?.ok && calc.forces.rows.length === count) frame.forces = calc.forces.rows as Vec3[];
    else if (calc.forces?.ok)
      this.problems.add(
        'error',
        'vasprun-atom-count',
        calc.forces.at,
        `${plural(calc.forces.rows.length, 'force')} for ${plural(count, 'atom')}: this step's forces are left out`,
      );
    if (calc.stress?.ok && calc.stress.rows.length === 3) frame.stress = calc.stress.rows as Mat3;
    else if (calc.stress?.ok)
      this.problems.add(
        'error',
        'vasprun-bad-row',
        calc.stress.at,
        `the stress needs three rows, not ${calc.stress.rows.length}: this step's stress is left out`,
      );
    const free = calc.energy.get('e_fr_energy');
    const last = calc.scstep;
    const lastFree = last?.get('e_fr_energy');
    const lastZero = last?.get('e_0_energy');
    if (free !== undefined) {
      frame.freeEnergy = free;
      frame.energy =
        lastFree !== undefined && lastZero !== undefined ? free + (lastZero - lastFree) : (calc.energy.get('e_0_energy') ?? free);
    } else if (calc.energy.has('e_0_energy')) frame.energy = calc.energy.get('e_0_energy')!;
    this.frames.push(frame);
  }

  private openEigenSet(comment: string | undefined, depth: number): void {
    // <eigenvalues><array><set><set comment="spin 1"><set comment="kpoint 1"><r>
    const level = depth - this.eigenDepth - 2;
    if (level === 1) {
      this.eigenSpin = comment === 'spin 1' ? 0 : 1;
      while (this.spinGaps.length <= this.eigenSpin) this.spinGaps.push(newGap());
      this.eigenK = -1;
      this.eigenSets++;
    } else if (level === 2) this.eigenK++;
  }

  private eigenRow(text: string, at: TagPosition): void {
    if (scanNumbers(text) < 2 || this.eigenSpin < 0) {
      if (!this.eigenBad)
        this.problems.add(
          'warning',
          'vasprun-bad-eigenvalue',
          at,
          `an eigenvalue row needs an energy and an occupation, not ${quote(text.trim())}: it is left out of the band gap`,
        );
      this.eigenBad = true;
      return;
    }
    const e = VALUES[0]!;
    const occ = VALUES[1]!;
    this.reduce(this.allGap, e, occ);
    this.reduce(this.spinGaps[this.eigenSpin]!, e, occ);
  }

  private reduce(gap: Gap, e: number, occ: number): void {
    if (occ > OCCUPIED && e > gap.vbm) {
      gap.vbm = e;
      gap.vbmK = this.eigenK;
    } else if (occ <= OCCUPIED && e < gap.cbm) {
      gap.cbm = e;
      gap.cbmK = this.eigenK;
    }
  }

  private closeEigenvalues(): void {
    this.eigenDepth = -1;
    const g = this.allGap;
    if (!Number.isFinite(g.vbm) || !Number.isFinite(g.cbm)) {
      this.band = undefined;
      return;
    }
    const band: NonNullable<RunOutcome['bandGap']> = { gap: Math.max(g.cbm - g.vbm, 0), direct: g.vbmK === g.cbmK, cbm: g.cbm, vbm: g.vbm };
    if (this.spinGaps.length === 2 && this.spinGaps.every((s) => Number.isFinite(s.vbm) && Number.isFinite(s.cbm))) {
      band.spins = this.spinGaps.map((s) => ({ gap: Math.max(s.cbm - s.vbm, 0), direct: s.vbmK === s.cbmK, cbm: s.cbm, vbm: s.vbm }));
    }
    this.band = band;
  }
}

/** Whether finalpos differs from the last step's structure (by more than VASP's printed precision). */
function differs(frame: StructureFrame, lattice: Mat3, positions: Vec3[]): boolean {
  if (!frame.lattice || frame.positions.length !== positions.length) return true;
  const close = (a: readonly number[], b: readonly number[]) => a.every((x, i) => Math.abs(x - b[i]!) < 1e-6);
  return !frame.lattice.every((row, i) => close(row, lattice[i]!)) || !frame.positions.every((p, i) => close(p, positions[i]!));
}

/** The whole text at once: push + finish. */
export function readVasprun(text: string, locale: Locale = ENGLISH): StructureFile {
  const reader = new VasprunReader(locale);
  reader.push(text);
  return reader.finish();
}
