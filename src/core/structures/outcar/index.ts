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
import { speciesSymbol } from '../../poscar/species';
import { SourceText, tokenize, type Token } from '../../poscar/text';
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

const DASHES = /^\s*-{10,}\s*$/;
/** How far past 'FREE ENERGIE OF THE ION-ELECTRON SYSTEM' its TOTEN and sigma->0 lines may stand. */
const ENERGY_LOOKAHEAD = 6;

export function readOutcar(text: string): StructureFile {
  const source = new SourceText(text);
  const lines = source.lines;
  const n = source.count;
  const report = new Report().within(lines);

  const titel: { symbol: string; line: number }[] = [];
  const potcar: string[] = [];
  let counts: { values: number[]; line: number } | undefined;
  let nions: number | undefined;
  let ediffg: { value: number; criterion: boolean } | undefined;
  let nsw: number | undefined;
  let ibrion: number | undefined;
  let reached = false;
  let finished = false;
  let fermi: number | undefined;

  let lattice: Mat3 | null = null;
  let stress: Mat3 | undefined;
  let positions: { at: Vec3[]; forces: Vec3[] } | undefined;
  let stepStart = 0;
  const frames: StructureFrame[] = [];
  let speciesPerSite: string[] | undefined;

  interface StepEnergy {
    toten: number | undefined;
    sigma0: number | undefined;
    /** The 'FREE ENERGIE' line and the block's last line. */
    line: number;
    last: number;
  }
  let pendingEnergy: StepEnergy | undefined;

  const emit = (at: { at: Vec3[]; forces: Vec3[] }, energy: StepEnergy, last = energy.last): void => {
    const names = species();
    const frame: StructureFrame = {
      lattice,
      pbc: lattice ? [true, true, true] : [false, false, false],
      species: names.length === at.at.length ? names : at.at.map((_, s) => names[s] ?? 'X'),
      positions: at.at,
      forces: at.forces,
      title: `step ${frames.length + 1}`,
      lines: { first: stepStart, last },
    };
    const value = energy.sigma0 ?? energy.toten;
    if (value !== undefined) frame.energy = value;
    if (energy.toten !== undefined) frame.freeEnergy = energy.toten;
    if (stress) frame.stress = stress;
    frames.push(frame);
    stress = undefined;
    pendingEnergy = undefined;
  };

  /** An energy block no positions followed before the next electronic loop: that step cannot be shown. */
  const dropPendingEnergy = (): void => {
    if (!pendingEnergy) return;
    const at = pendingEnergy.line;
    report.warning(
      'outcar-step-without-positions',
      { line: at, start: 0, end: lines[at]!.length },
      `ionic step ${frames.length + 1} ends here without a 'POSITION … TOTAL-FORCE' block: it is left out`,
    );
    pendingEnergy = undefined;
    stress = undefined;
  };

  const species = (): string[] => {
    if (speciesPerSite) return speciesPerSite;
    const names = titel.length ? titel.map((t) => t.symbol) : potcar.slice(0, Math.ceil(potcar.length / 2));
    const out: string[] = [];
    if (counts) counts.values.forEach((c, i) => out.push(...Array<string>(c).fill(names[i] ?? 'X')));
    speciesPerSite = out;
    return out;
  };
  const expectedAtoms = (): number | undefined => (counts ? counts.values.reduce((a, b) => a + b, 0) : nions);

  for (let i = 0; i < n; i++) {
    const line = lines[i]!;
    // Cheap screens first: most of an OUTCAR is electronic iterations none of these match.
    if (line.includes('TITEL')) {
      const words = line
        .slice(line.indexOf('=') + 1)
        .trim()
        .split(/\s+/);
      const symbol = titelElement(words);
      if (symbol) titel.push({ symbol, line: i });
      else {
        titel.push({ symbol: 'X', line: i });
        const start = line.indexOf('=') + 1;
        report.warning(
          'outcar-unknown-element',
          { line: i, start, end: line.length },
          `no element in the POTCAR title ${quote(words.join(' '))}: its atoms are shown as X`,
        );
      }
    } else if (line.startsWith(' POTCAR:')) {
      potcar.push(titelElement(line.slice(8).trim().split(/\s+/)) ?? 'X');
    } else if (line.includes('ions per type =')) {
      const words = line
        .slice(line.indexOf('=') + 1)
        .trim()
        .split(/\s+/);
      const values = words.map(parseInteger);
      if (!counts && values.length && values.every((v) => v !== undefined && v >= 0)) counts = { values: values as number[], line: i };
    } else if (nions === undefined && line.includes('NIONS =')) {
      nions = parseInteger(
        line
          .slice(line.indexOf('NIONS =') + 7)
          .trim()
          .split(/\s+/)[0] ?? '',
      );
    } else if (line.includes('EDIFFG =')) {
      const value = parseNumber(
        line
          .slice(line.indexOf('EDIFFG =') + 8)
          .trim()
          .split(/\s+/)[0] ?? '',
      );
      const criterion = line.includes('stopping-criterion');
      if (value !== undefined && (!ediffg || (criterion && !ediffg.criterion))) ediffg = { value, criterion };
    } else if (line.includes('NSW    =') || line.includes('IBRION =')) {
      const key = line.includes('NSW') ? 'NSW' : 'IBRION';
      const value = parseInteger(
        line
          .slice(line.indexOf('=') + 1)
          .trim()
          .split(/\s+/)[0] ?? '',
      );
      if (value !== undefined) {
        if (key === 'NSW' && nsw === undefined) nsw = value;
        if (key === 'IBRION' && ibrion === undefined) ibrion = value;
      }
    } else if (line.includes('direct lattice vectors')) {
      const rows: Vec3[] = [];
      for (let k = 1; k <= 3 && i + k < n; k++) {
        const { values, bad } = numbersOf(lines[i + k]!);
        if (values.length < 3) {
          const at = bad ?? { start: 0, end: lines[i + k]!.length };
          report.error(
            'outcar-bad-lattice',
            { line: i + k, start: at.start, end: at.end },
            'a lattice vector needs three numbers here: the lattice of this step is not known',
          );
          break;
        }
        rows.push([values[0]!, values[1]!, values[2]!]);
      }
      if (rows.length === 3) lattice = rows as Mat3;
      i += rows.length;
    } else if (line.includes('in kB')) {
      const after = line.slice(line.indexOf('in kB') + 5);
      const { values, bad } = numbersOf(after);
      if (values.length >= 6 && !bad) stress = stressFromVoigt(values);
      else {
        stress = undefined;
        const offset = line.indexOf('in kB') + 5;
        const range = bad ? { line: i, start: offset + bad.start, end: offset + bad.end } : { line: i, start: 0, end: line.length };
        report.warning(
          'outcar-bad-stress',
          range,
          `the stress needs six numbers (XX YY ZZ XY YZ ZX)${bad ? `, not ${quote(bad.text)}` : ''}: this step has no stress`,
        );
      }
    } else if (line.includes('POSITION') && line.includes('TOTAL-FORCE')) {
      const block = readPositions(i);
      positions = block.positions;
      if (positions && pendingEnergy) {
        emit(positions, pendingEnergy, block.next);
        positions = undefined;
        stepStart = block.next + 1;
      }
      i = block.next;
    } else if (line.includes('FREE ENERGIE OF THE ION-ELECTRON SYSTEM')) {
      let toten: number | undefined;
      let sigma0: number | undefined;
      let totenAt: { line: number; start: number; end: number } | undefined;
      let last = i;
      for (let k = 1; k <= ENERGY_LOOKAHEAD && i + k < n; k++) {
        const next = lines[i + k]!;
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
      if (last === i) continue; // the file ends inside the block: the step is incomplete (said at the end)
      if (toten === undefined) {
        const at = totenAt ?? { line: i, start: 0, end: line.length };
        report.warning(
          'outcar-bad-energy',
          at,
          `ionic step ${frames.length + 1} has no readable free energy TOTEN${totenAt ? '' : ' after this line'}`,
        );
      }
      const energy = { toten, sigma0, line: i, last };
      if (positions) emit(positions, energy);
      else pendingEnergy = energy; // some runs print the energy before the positions (single points of VASP 5.2)
      positions = undefined;
      stepStart = last + 1;
      i = last;
    } else if (line.includes('Iteration')) {
      dropPendingEnergy();
    } else if (line.includes('E-fermi :')) {
      const value = parseNumber(
        line
          .slice(line.indexOf('E-fermi :') + 9)
          .trim()
          .split(/\s+/)[0] ?? '',
      );
      fermi = value; // pymatgen keeps the last one, None when VASP printed stars
    } else if (line.includes('reached required accuracy')) {
      reached = true;
    } else if (line.includes('General timing and accounting')) {
      finished = true;
    }
  }

  /** The rows after the POSITION header (on line `at`) up to the dashes; `next` is the last line read. */
  function readPositions(at: number): { positions?: { at: Vec3[]; forces: Vec3[] }; next: number } {
    const expected = expectedAtoms();
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
          `a row of the POSITION block needs six numbers (x y z Fx Fy Fz)${bad ? `, not ${quote(bad.text)}` : ''}: ionic step ${frames.length + 1} is left out`,
        );
        return { next: blockEnd(k) };
      }
      pos.push([values[0]!, values[1]!, values[2]!]);
      forces.push([values[3]!, values[4]!, values[5]!]);
    }
    if (k >= n) return { next: n }; // the file ends inside the block (a running job): said at the end
    if (expected !== undefined && pos.length !== expected) {
      report.error(
        'outcar-atom-count',
        { line: at, start: 0, end: lines[at]!.length },
        `this POSITION block lists ${plural(pos.length, 'atom')}, the header ${expected} ('ions per type'): ionic step ${frames.length + 1} is left out`,
      );
      return { next: k };
    }
    return { positions: { at: pos, forces }, next: k };
  }

  /** The closing dashes of a block with a bad row (or the end of the file). */
  function blockEnd(from: number): number {
    let k = from;
    while (k < n && !DASHES.test(lines[k]!)) k++;
    return k;
  }

  dropPendingEnergy();
  const lastLine = Math.max(0, n - 1);
  const end = { line: lastLine, start: 0, end: lines[lastLine]?.length ?? 0 };
  if (titel.length === 0 && potcar.length === 0) {
    if (frames.length || counts)
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
  if (!counts && frames.length)
    report.warning(
      'outcar-no-counts',
      { line: 0, start: 0, end: lines[0]!.length },
      `no 'ions per type' line: the elements of the atoms are not known`,
    );
  if (frames.length === 0) {
    report.error('outcar-no-steps', end, `no complete ionic step: this is not an OUTCAR, or its first step has not finished yet`);
  } else if (!finished && hasStepStarted(stepStart)) {
    report.warning(
      'outcar-truncated',
      end,
      `the file ends inside ionic step ${frames.length + 1} (the job is running or was stopped): ${plural(frames.length, 'complete step')} shown`,
    );
  } else if (!finished) {
    report.warning(
      'outcar-unfinished',
      end,
      `no 'General timing and accounting' at the end: the job is running or was stopped; ${plural(frames.length, 'complete step')} shown`,
    );
  }

  function hasStepStarted(from: number): boolean {
    for (let k = from; k < n; k++) if (lines[k]!.includes('Iteration') || lines[k]!.includes('POSITION')) return true;
    return false;
  }

  const outcome: RunOutcome = {};
  if (ediffg) outcome.ediffg = ediffg.value;
  if (fermi !== undefined) outcome.fermi = fermi;
  if (reached) outcome.converged = true;
  else if (ibrion === 0) {
    // Molecular dynamics has no convergence target.
  } else if (ibrion === -1 || (nsw !== undefined && nsw <= 1))
    outcome.converged = finished && frames.length > 0; // a single point, as pymatgen's converged_ionic
  else outcome.converged = false;

  return { format: 'outcar', frames, diagnostics: report.sorted(), outline: stepOutline(frames), outcome };
}
