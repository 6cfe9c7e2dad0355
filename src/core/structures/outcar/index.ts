/**
 * OUTCAR, VASP's main log, of a finished or still-running job: every ionic step's structure, forces,
 * energy and stress, the species, EDIFFG and whether the ionic loop reached its target. Pure: no `vscode`.
 *
 * What is read, following ASE's reader (ase.io.vasp_parsers.vasp_outcar_parsers, ASE 3.22) so that the
 * numbers agree with `ase.io.read(f, index=':', format='vasp-out')`:
 * - species: the POTCAR 'TITEL  = PAW_PBE Fe_pv 02Aug2007' lines, one per species (ASE reads the
 *   'POTCAR:' lines, printed twice; we fall back to their first half), times 'ions per type'.
 * - a step ends with the 'FREE ENERGIE OF THE ION-ELECTRON SYSTEM' block; its structure is the last
 *   'direct lattice vectors' block before it and the 'POSITION … TOTAL-FORCE (eV/Angst)' block in it.
 * - energy: the 'energy(sigma->0)' value, the one ASE's get_potential_energy() and pymatgen's
 *   Outcar.final_energy report; the free energy TOTEN (ASE's free_energy, the one forces are consistent
 *   with) is kept as freeEnergy.
 * - stress: the 'in kB' line, VASP's order XX YY ZZ XY YZ ZX, in kBar with VASP's sign.
 * - outcome: EDIFFG, 'reached required accuracy' (converged), the last 'E-fermi' (pymatgen's Outcar.efermi).
 *
 * OUTCAR does not list selective dynamics (which atoms were fixed): that is only in the POSCAR/CONTCAR and
 * vasprun.xml, so frames read here have no `free` flags.
 *
 * Total: never throws; one pass over the lines, every look-ahead bounded by a constant.
 */
import { element } from '../../poscar/elements';
import { parseInteger, parseNumber, splitRunTogether } from '../../poscar/numbers';
import { plural, quote, Report } from '../../poscar/report';
import { ENGLISH, type Locale } from '../../util/locale';
import { speciesSymbol } from '../../poscar/species';
import { tokenize, type Token } from '../../poscar/text';
import type { SourceRange } from '../../poscar/types';
import { stepOutline, stressFromVoigt } from '../steps';
import type { Mat3, RunOutcome, StructureFile, StructureFrame, Vec3 } from '../types';

/** Numbers of a line, Fortran's run-together negatives ('0.25-0.125') split; `bad` is the first token that is none. */
interface LineNumbers {
  values: number[];
  bad?: Token;
}

function numbersOf(line: string): LineNumbers {
  const values: number[] = [];
  for (const token of tokenize(line)) {
    const value = parseNumber(token.text);
    if (value !== undefined) {
      values.push(value);
      continue;
    }
    const pieces = splitRunTogether(token.text)?.map(parseNumber);
    if (!pieces || pieces.some((p) => p === undefined)) return { values, bad: token };
    for (const p of pieces) values.push(p!);
  }
  return { values };
}

/** The element a TITEL or POTCAR: line names ('PAW_PBE Fe_pv 02Aug2007' → Fe, 'H1.25' → H, ' H  1/r potential' → H). */
function titelElement(words: readonly string[]): string | undefined {
  const name = words.includes('1/r') ? words[0] : words[1];
  if (name === undefined) return undefined;
  const symbol = speciesSymbol(name.split('_')[0]!.replace(/[^A-Za-z]/g, ''));
  return element(symbol) ? symbol : undefined;
}

/** The first token after `marker` on the line, its value (undefined when not a number) and columns. */
function valueAfter(line: string, marker: string): { value: number | undefined; start: number; end: number } {
  const from = line.indexOf(marker);
  if (from < 0) return { value: undefined, start: 0, end: line.length };
  let offset = from + marker.length;
  while (offset < line.length && (line[offset] === ' ' || line[offset] === '=')) offset++; // 'energy(sigma->0) =' and '=-1.9'
  const token = tokenize(line.slice(offset))[0];
  if (!token) return { value: undefined, start: from, end: line.length };
  return { value: parseNumber(token.text), start: offset + token.start, end: offset + token.end };
}

/** The words after the first `marker` on the line ('TITEL  = PAW_PBE Fe_pv 02Aug2007', '=' → PAW_PBE, Fe_pv, 02Aug2007). */
function wordsAfter(line: string, marker: string): string[] {
  return line
    .slice(line.indexOf(marker) + marker.length)
    .trim()
    .split(/\s+/);
}

const wordAfter = (line: string, marker: string): string => wordsAfter(line, marker)[0] ?? '';

const DASHES = /^\s*-{10,}\s*$/;
/** How far past 'FREE ENERGIE OF THE ION-ELECTRON SYSTEM' its TOTEN and sigma->0 lines may stand. */
const ENERGY_LOOKAHEAD = 6;

interface Positions {
  at: Vec3[];
  forces: Vec3[];
}

interface StepEnergy {
  toten: number | undefined;
  sigma0: number | undefined;
  /** The 'FREE ENERGIE' line and the block's last line. */
  line: number;
  last: number;
}

/** What the pass over the lines has read so far. */
interface Outcar {
  readonly lines: readonly string[];
  /** The lines to read: not the empty one after a final line break. */
  readonly n: number;
  readonly report: Report;
  readonly frames: StructureFrame[];
  readonly titel: { symbol: string; line: number }[];
  readonly potcar: string[];
  counts: { values: number[]; line: number } | undefined;
  nions: number | undefined;
  ediffg: { value: number; criterion: boolean } | undefined;
  nsw: number | undefined;
  ibrion: number | undefined;
  reached: boolean;
  finished: boolean;
  fermi: number | undefined;
  speciesPerSite: string[] | undefined;
  // The step being read: its first line, and what of it was read so far.
  stepStart: number;
  lattice: Mat3 | null;
  stress: Mat3 | undefined;
  positions: Positions | undefined;
  pendingEnergy: StepEnergy | undefined;
}

function newOutcar(text: string, locale: Locale): Outcar {
  // A string split when there is no '\r' (V8's fast path; a regular expression over 8 MB costs ten times more).
  const lines = text.indexOf('\r') < 0 ? text.split('\n') : text.split(/\r\n|\r|\n/);
  return {
    lines,
    n: lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length,
    report: new Report(locale).within(lines),
    frames: [],
    titel: [],
    potcar: [],
    counts: undefined,
    nions: undefined,
    ediffg: undefined,
    nsw: undefined,
    ibrion: undefined,
    reached: false,
    finished: false,
    fermi: undefined,
    speciesPerSite: undefined,
    stepStart: 0,
    lattice: null,
    stress: undefined,
    positions: undefined,
    pendingEnergy: undefined,
  };
}

export function readOutcar(text: string, locale: Locale = ENGLISH): StructureFile {
  const s = newOutcar(text, locale);
  const { lines, n } = s;
  for (let i = 0; i < n; i++) {
    const line = lines[i]!;
    // Most of an OUTCAR is rows of numbers (eigenvalues, charges, forces of the electronic loop): none is looked at.
    let first = 0;
    while (first < line.length && line.charCodeAt(first) === 32) first++;
    const c = line.charCodeAt(first);
    if ((c >= 48 && c <= 57) || c === 46 || first === line.length) continue;
    if (c === 45 /* - */ && line.charCodeAt(first + 1) !== 45) continue; // a negative number, not a row of dashes
    i = readLine(s, line, i);
  }
  dropPendingEnergy(s);
  reportSpecies(s);
  reportEnd(s);
  return { format: 'outcar', frames: s.frames, diagnostics: s.report.sorted(), outline: stepOutline(s.frames), outcome: outcomeOf(s) };
}

/** Reads what line i starts (a setting, a block), by the first of these markers it holds; returns the last line read. */
function readLine(s: Outcar, line: string, i: number): number {
  if (line.includes('TITEL')) readTitel(s, line, i);
  else if (line.startsWith(' POTCAR:')) s.potcar.push(titelElement(line.slice(8).trim().split(/\s+/)) ?? 'X');
  else if (line.includes('ions per type =')) readCounts(s, line, i);
  else if (s.nions === undefined && line.includes('NIONS =')) s.nions = parseInteger(wordAfter(line, 'NIONS ='));
  else if (line.includes('EDIFFG =')) readEdiffg(s, line);
  else if (line.includes('NSW    =') || line.includes('IBRION =')) readNswIbrion(s, line);
  else if (line.includes('direct lattice vectors')) return readLattice(s, i);
  else if (line.includes('in kB')) readStress(s, line, i);
  else if (line.includes('POSITION') && line.includes('TOTAL-FORCE')) return readPositions(s, i);
  else if (line.includes('FREE ENERGIE OF THE ION-ELECTRON SYSTEM')) return readEnergy(s, line, i);
  else if (line.includes('Iteration')) dropPendingEnergy(s);
  else if (line.includes('E-fermi :'))
    s.fermi = parseNumber(wordAfter(line, 'E-fermi :')); // pymatgen keeps the last one, None when VASP printed stars
  else if (line.includes('reached required accuracy')) s.reached = true;
  else if (line.includes('General timing and accounting')) s.finished = true;
  return i;
}

function readTitel(s: Outcar, line: string, i: number): void {
  const words = wordsAfter(line, '=');
  const symbol = titelElement(words);
  s.titel.push({ symbol: symbol ?? 'X', line: i });
  if (!symbol)
    s.report.warning(
      'outcar-unknown-element',
      { line: i, start: line.indexOf('=') + 1, end: line.length },
      `no element in the POTCAR title ${quote(words.join(' '))}: its atoms are shown as X`,
    );
}

function readCounts(s: Outcar, line: string, i: number): void {
  const values = wordsAfter(line, '=').map(parseInteger);
  if (!s.counts && values.length && values.every((v) => v !== undefined && v >= 0)) s.counts = { values: values as number[], line: i };
}

function readEdiffg(s: Outcar, line: string): void {
  const value = parseNumber(wordAfter(line, 'EDIFFG ='));
  const criterion = line.includes('stopping-criterion');
  if (value !== undefined && (!s.ediffg || (criterion && !s.ediffg.criterion))) s.ediffg = { value, criterion };
}

function readNswIbrion(s: Outcar, line: string): void {
  const value = parseInteger(wordAfter(line, '='));
  if (value === undefined) return;
  if (line.includes('NSW')) s.nsw ??= value;
  else s.ibrion ??= value;
}

/** The three rows after 'direct lattice vectors' (line i); returns the last line read. */
function readLattice(s: Outcar, i: number): number {
  const { lines, n } = s;
  const rows: Vec3[] = [];
  for (let k = 1; k <= 3 && i + k < n; k++) {
    const { values, bad } = numbersOf(lines[i + k]!);
    if (values.length < 3) {
      const at = bad ?? { start: 0, end: lines[i + k]!.length };
      s.report.error(
        'outcar-bad-lattice',
        { line: i + k, start: at.start, end: at.end },
        'a lattice vector needs three numbers here: the lattice of this step is not known',
      );
      break;
    }
    rows.push([values[0]!, values[1]!, values[2]!]);
  }
  if (rows.length === 3) s.lattice = rows as Mat3;
  return i + rows.length;
}

function readStress(s: Outcar, line: string, i: number): void {
  const offset = line.indexOf('in kB') + 5;
  const { values, bad } = numbersOf(line.slice(offset));
  if (values.length >= 6 && !bad) {
    s.stress = stressFromVoigt(values);
    return;
  }
  s.stress = undefined;
  const range = bad ? { line: i, start: offset + bad.start, end: offset + bad.end } : { line: i, start: 0, end: line.length };
  s.report.warning(
    'outcar-bad-stress',
    range,
    `the stress needs six numbers (XX YY ZZ XY YZ ZX)${bad ? `, not ${quote(bad.text)}` : ''}: this step has no stress`,
  );
}

/** The POSITION … TOTAL-FORCE block on line i: it completes the step when its energy came first. Returns the last line read. */
function readPositions(s: Outcar, i: number): number {
  const block = positionRows(s, i);
  s.positions = block.positions;
  if (s.positions && s.pendingEnergy) {
    emit(s, s.positions, s.pendingEnergy, block.next);
    s.positions = undefined;
    s.stepStart = block.next + 1;
  }
  return block.next;
}

/** The rows after the POSITION header (on line `at`) up to the dashes; `next` is the last line read. */
function positionRows(s: Outcar, at: number): { positions?: Positions; next: number } {
  const { lines, n, report } = s;
  const expected = expectedAtoms(s);
  const pos: Vec3[] = [];
  const forces: Vec3[] = [];
  let k = at + 1;
  if (k < n && DASHES.test(lines[k]!)) k++;
  for (; k < n && !DASHES.test(lines[k]!); k++) {
    const { values, bad } = numbersOf(lines[k]!);
    if (values.length < 6 || bad) {
      const token = bad ?? { start: 0, end: lines[k]!.length };
      report.error(
        'outcar-bad-position',
        { line: k, start: token.start, end: token.end },
        `a row of the POSITION block needs six numbers (x y z Fx Fy Fz)${bad ? `, not ${quote(bad.text)}` : ''}: ionic step ${s.frames.length + 1} is left out`,
      );
      return { next: blockEnd(s, k) };
    }
    pos.push([values[0]!, values[1]!, values[2]!]);
    forces.push([values[3]!, values[4]!, values[5]!]);
  }
  if (k >= n) return { next: n }; // the file ends inside the block (a running job): said at the end
  if (expected !== undefined && pos.length !== expected) {
    report.error(
      'outcar-atom-count',
      { line: at, start: 0, end: lines[at]!.length },
      `this POSITION block lists ${plural(pos.length, 'atom')}, the header ${expected} ('ions per type'): ionic step ${s.frames.length + 1} is left out`,
    );
    return { next: k };
  }
  return { positions: { at: pos, forces }, next: k };
}

/** The closing dashes of a block with a bad row (or the end of the file). */
function blockEnd(s: Outcar, from: number): number {
  let k = from;
  while (k < s.n && !DASHES.test(s.lines[k]!)) k++;
  return k;
}

/** The energy block on line i ('FREE ENERGIE'): it completes the step when its positions came first. Returns the last line read. */
function readEnergy(s: Outcar, line: string, i: number): number {
  const { energy, totenAt } = energyLines(s, i);
  if (energy.last === i) return i; // the file ends inside the block: the step is incomplete (said at the end)
  if (energy.toten === undefined) {
    s.report.warning(
      'outcar-bad-energy',
      totenAt ?? { line: i, start: 0, end: line.length },
      `ionic step ${s.frames.length + 1} has no readable free energy TOTEN${totenAt ? '' : ' after this line'}`,
    );
  }
  if (s.positions) emit(s, s.positions, energy);
  else s.pendingEnergy = energy; // some runs print the energy before the positions (single points of VASP 5.2)
  s.positions = undefined;
  s.stepStart = energy.last + 1;
  return energy.last;
}

/** The TOTEN and energy(sigma->0) lines after the 'FREE ENERGIE' line i; `last` stays i when neither is there. */
function energyLines(s: Outcar, i: number): { energy: StepEnergy; totenAt: SourceRange | undefined } {
  let toten: number | undefined;
  let sigma0: number | undefined;
  let totenAt: SourceRange | undefined;
  let last = i;
  for (let k = 1; k <= ENERGY_LOOKAHEAD && i + k < s.n; k++) {
    const next = s.lines[i + k]!;
    if (next.includes('TOTEN')) {
      const found = valueAfter(next, '=');
      toten = found.value;
      totenAt = { line: i + k, start: found.start, end: found.end };
      last = i + k;
    } else if (next.includes('energy(sigma->0)')) {
      sigma0 = valueAfter(next, 'energy(sigma->0)').value;
      last = i + k;
      break;
    }
  }
  return { energy: { toten, sigma0, line: i, last }, totenAt };
}

function emit(s: Outcar, at: Positions, energy: StepEnergy, last = energy.last): void {
  const names = species(s);
  const frame: StructureFrame = {
    lattice: s.lattice,
    pbc: s.lattice ? [true, true, true] : [false, false, false],
    species: names.length === at.at.length ? names : at.at.map((_, k) => names[k] ?? 'X'),
    positions: at.at,
    forces: at.forces,
    title: s.report.locale.t('step {0}', s.frames.length + 1),
    lines: { first: s.stepStart, last },
  };
  const value = energy.sigma0 ?? energy.toten;
  if (value !== undefined) frame.energy = value;
  if (energy.toten !== undefined) frame.freeEnergy = energy.toten;
  if (s.stress) frame.stress = s.stress;
  s.frames.push(frame);
  s.stress = undefined;
  s.pendingEnergy = undefined;
}

/** An energy block no positions followed before the next electronic loop: that step cannot be shown. */
function dropPendingEnergy(s: Outcar): void {
  if (!s.pendingEnergy) return;
  const at = s.pendingEnergy.line;
  s.report.warning(
    'outcar-step-without-positions',
    { line: at, start: 0, end: s.lines[at]!.length },
    `ionic step ${s.frames.length + 1} ends here without a 'POSITION … TOTAL-FORCE' block: it is left out`,
  );
  s.pendingEnergy = undefined;
  s.stress = undefined;
}

/** The species of every site, from the POTCAR titles and 'ions per type' read before the first step. */
function species(s: Outcar): string[] {
  if (s.speciesPerSite) return s.speciesPerSite;
  const names = s.titel.length ? s.titel.map((t) => t.symbol) : s.potcar.slice(0, Math.ceil(s.potcar.length / 2));
  const out: string[] = [];
  if (s.counts) s.counts.values.forEach((c, i) => out.push(...Array<string>(c).fill(names[i] ?? 'X')));
  s.speciesPerSite = out;
  return out;
}

const expectedAtoms = (s: Outcar): number | undefined => (s.counts ? s.counts.values.reduce((a, b) => a + b, 0) : s.nions);

function reportSpecies(s: Outcar): void {
  const { counts, titel, lines, report } = s;
  if (titel.length === 0 && s.potcar.length === 0) {
    if (s.frames.length || counts)
      report.warning(
        'outcar-no-species',
        { line: counts?.line ?? 0, start: 0, end: lines[counts?.line ?? 0]!.length },
        'no POTCAR TITEL lines: the elements are not known and are shown as X',
      );
  } else if (counts && titel.length && counts.values.length !== titel.length) {
    report.warning(
      'outcar-species-count',
      { line: counts.line, start: 0, end: lines[counts.line]!.length },
      `'ions per type' has ${plural(counts.values.length, 'count')} but the POTCAR has ${plural(titel.length, 'species')}: species may be wrong`,
    );
  }
  if (!counts && s.frames.length)
    report.warning(
      'outcar-no-counts',
      { line: 0, start: 0, end: lines[0]!.length },
      `no 'ions per type' line: the elements of the atoms are not known`,
    );
}

/** Whether the text ends early: in a step, or before VASP's closing timing. */
function reportEnd(s: Outcar): void {
  const { frames, report } = s;
  const lastLine = Math.max(0, s.n - 1);
  const end = { line: lastLine, start: 0, end: s.lines[lastLine]?.length ?? 0 };
  if (frames.length === 0) {
    report.error('outcar-no-steps', end, `no complete ionic step: this is not an OUTCAR, or its first step has not finished yet`);
  } else if (!s.finished && hasStepStarted(s, s.stepStart)) {
    report.warning(
      'outcar-truncated',
      end,
      `the file ends inside ionic step ${frames.length + 1} (the job is running or was stopped): ${plural(frames.length, 'complete step')} shown`,
    );
  } else if (!s.finished) {
    report.warning(
      'outcar-unfinished',
      end,
      `no 'General timing and accounting' at the end: the job is running or was stopped; ${plural(frames.length, 'complete step')} shown`,
    );
  }
}

function hasStepStarted(s: Outcar, from: number): boolean {
  for (let k = from; k < s.n; k++) if (s.lines[k]!.includes('Iteration') || s.lines[k]!.includes('POSITION')) return true;
  return false;
}

function outcomeOf(s: Outcar): RunOutcome {
  const outcome: RunOutcome = {};
  if (s.ediffg) outcome.ediffg = s.ediffg.value;
  if (s.fermi !== undefined) outcome.fermi = s.fermi;
  if (s.reached) outcome.converged = true;
  else if (s.ibrion === 0) {
    // Molecular dynamics has no convergence target.
  } else if (s.ibrion === -1 || (s.nsw !== undefined && s.nsw <= 1))
    outcome.converged = s.finished && s.frames.length > 0; // a single point, as pymatgen's converged_ionic
  else outcome.converged = false;
  return outcome;
}
