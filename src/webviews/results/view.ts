/**
 * A run record → what its page shows: the answer read for its kind, with what the POSCAR core adds
 * (the input's atoms and elements, the cell before and after a relaxation). Pure: no vscode.
 */
import { latticeParameters, parsePoscar, volume } from '../../core/poscar/index';
import type { Poscar } from '../../core/poscar/types';
import { firstErrorMessage } from './poscarText';
import type { LatticeRow, ResultView, RunInfo } from './protocol';
import { readResult } from './read';
import { isAppKind, runTitle, type RunRecord } from '../../core/runs/run';
import { isRecord, type Rec } from '../../core/util/guards';
import { ENGLISH, type Locale } from '../../core/util/locale';
import { isParameterKind, parameterRows } from '../../core/runs/parameters';
import { isFileSummary, summaryFileName } from './relaxationFile';

export function runInfo(run: RunRecord, { t }: Locale = ENGLISH): RunInfo {
  // A file's summary was read, not answered: no HTTP status, the file's name instead.
  const file = isFileSummary(run);
  return {
    id: run.id,
    kind: run.kind,
    title: runTitle(run, t),
    inputName: run.inputName,
    state: run.state,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    error: run.error,
    ...(file ? { readFrom: summaryFileName(run) } : { status: run.response?.status }),
    ...(run.builtin ? { builtin: true } : {}),
    ...(run.params && isParameterKind(run.kind) ? { parameters: parameterRows(run.kind, run.params, answerOf(run)) } : {}),
  };
}

/** The answer's JSON object, if it is one. */
function answerOf(run: RunRecord): unknown {
  const body = run.response?.body;
  return body?.type === 'json' ? body.value : undefined;
}

const ROWS: [name: string, unit: string, of: (p: Poscar) => number][] = [
  ['a', 'Å', (p) => latticeParameters(p.lattice).a],
  ['b', 'Å', (p) => latticeParameters(p.lattice).b],
  ['c', 'Å', (p) => latticeParameters(p.lattice).c],
  ['α', '°', (p) => latticeParameters(p.lattice).alpha],
  ['β', '°', (p) => latticeParameters(p.lattice).beta],
  ['γ', '°', (p) => latticeParameters(p.lattice).gamma],
  ['V', 'Å³', (p) => volume(p.lattice)],
];

export function latticeRows(before: Poscar | undefined, after: Poscar | undefined): LatticeRow[] {
  if (!before && !after) return [];
  return ROWS.map(([name, unit, of]) => ({ name, unit, before: before && of(before), after: after && of(after) }));
}

/** The view of a run that has an answer; null before one comes. */
export function resultView(run: RunRecord, input: Poscar | undefined, locale: Locale = ENGLISH): ResultView | null {
  const { t } = locale;
  if (!run.response) return null;
  if (isAppKind(run.kind))
    return {
      model: readResult(run.kind, run.response.body, run.response.headers, { request: requestOf(run), t }),
      elements: [],
      lattice: [],
    };
  const model = readResult(run.kind, run.response.body, run.response.headers, { atoms: input?.sites.length, t });
  let lattice: LatticeRow[] = [];
  if (model.kind === 'relax' && model.finalPoscar !== undefined) {
    const final = parsePoscar(model.finalPoscar, locale);
    const error = firstErrorMessage(final);
    if (error) model.warnings.push(t('The relaxed POSCAR has an error: {0}', error));
    const atoms = final.poscar?.sites.length;
    if (input && atoms !== undefined && atoms !== input.sites.length)
      model.warnings.push(t('The relaxed structure has {0} atoms, the input {1}.', atoms, input.sites.length));
    lattice = latticeRows(input, final.poscar);
  }
  return { model, elements: input?.sites.map((s) => s.species) ?? model.species ?? [], lattice };
}

/** The request body an application run sent (kept as JSON in inputText). */
export function requestOf(run: RunRecord): Rec {
  try {
    const value: unknown = JSON.parse(run.inputText);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}
