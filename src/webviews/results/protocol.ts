/**
 * Messages between a result view (extension) and its page, with the guards each side runs. Pure:
 * imported by panel.ts and pages/results/main.ts.
 */
import { isArrayOf, isFiniteNumber, isInt, isRecord, isString, isVec3 } from '../../core/util/guards';
import { conforms, fit, fittingNote, list, optional, pick, record, test, text, whole, type Shape } from '../../core/util/shape';
import type { ResultModel } from './model';
import { APP_MODEL } from './apps/guard';
import { isAppKind, RUN_KINDS, RUN_STATES, type RunKind, type RunState, type StructureKind } from '../../core/runs/run';
import type { ParameterRow } from '../../core/runs/parameters';

export const RESULT_VIEW_TYPE = 'tokenLens.result';

/** What the page needs to know of the run itself. */
export interface RunInfo {
  id: string;
  kind: RunKind;
  /** "Relax: POSCAR" */
  title: string;
  inputName: string;
  state: RunState;
  /** ms since the epoch: the page ticks the elapsed time from it while running. */
  startedAt: number;
  durationMs?: number;
  error?: string;
  /** The HTTP status of the answer, when one came (never for a file's summary). */
  status?: number;
  /** A file's relaxation summary: the file's name. Its header says it was read from the file, not answered. */
  readFrom?: string;
  /** Answered by the built-in local service (the reference models on this machine). */
  builtin?: boolean;
  /** Relax and MD: each parameter as the request carried it and as the answer states it (core/runs/parameters.ts). */
  parameters?: ParameterRow[];
}

/** One row of the cell before and after relaxation. */
export interface LatticeRow {
  name: string;
  unit: string;
  before?: number;
  after?: number;
}

export interface ResultView {
  model: ResultModel;
  /** The element of every atom of the structure sent (for the force table). */
  elements: string[];
  /** Relax: a b c α β γ V of the input and the relaxed structure. */
  lattice: LatticeRow[];
}

export interface ShowMessage {
  type: 'show';
  seq: number;
  run: RunInfo;
  /** null while running, or when no answer came. */
  view: ResultView | null;
  /** What was shortened or dropped to fit the page, in words (protocol.ts fitShowMessage); shown at the top. */
  note?: string;
}

/** Test seam (development and test builds only): a report, or a click as a user would (targets are data-target values). */
export interface ResultTestMessage {
  type: 'test';
  /** Echoed in the report that answers it. */
  id: number;
  action: 'report' | 'click';
  target?: string;
}

export type ToResultPage = ShowMessage | ResultTestMessage;

export interface ResultReport {
  seq: number;
  /** The test message this answers. */
  request: number;
  kind: string;
  state: string;
  headline: string;
  /** The header's note that the built-in reference service answered, or ''. */
  source: string;
  /** The header's status line: "Done in 1.2 s · HTTP 200 · started …", or a file summary's "OUTCAR · read from file at …". */
  status: string;
  /** The note of what was shortened or dropped to fit, as shown, or ''. */
  note: string;
  /** Plot titles with their series and points (of the longest series), and the y axis's tick labels as drawn. */
  plots: { title: string; series: number; points: number; yTicks: string[] }[];
  /** Every table's rows as text, cells joined by " | ". */
  tables: { title: string; rows: string[] }[];
  extraKeys: string[];
  images: number;
  warnings: string[];
  /** The data-target of every button and clickable row. */
  targets: string[];
  theme: string;
  /** Milliseconds from the message to the page built. */
  renderMs: number;
}

export type StructureAction = 'open' | 'compare' | 'save' | 'show3d';

export type FromResultPage =
  | { type: 'ready'; state?: unknown }
  | { type: 'cancel' }
  | { type: 'retry' }
  | { type: 'structure'; action: StructureAction }
  | { type: 'selectAtom'; index: number }
  /** An application's row: GET /{app}/detail/{id}. */
  | { type: 'detail'; app: string; id: string }
  /** Save the run's answer as JSON. */
  | { type: 'saveJson' }
  | { type: 'exportPng'; name: string; dataUrl: string }
  | { type: 'copyCsv'; name: string; text: string }
  | { type: 'error'; message: string }
  | ({ type: 'rendered' } & ResultReport);

// ---- the shape of what the page is sent: its guard, and the host's fit of what the guard would refuse ----

const num = optional(test(isFiniteNumber, 1.5));
const bool = optional(test((v) => typeof v === 'boolean', true));
const int = test(isInt, 1);
const isSeries = (v: unknown): boolean => Array.isArray(v) && v.every((x) => x === null || isFiniteNumber(x));
const series = test(isSeries, [1, null]);
const numbers = test((v) => isArrayOf(v, isFiniteNumber), [0, 1]);
const mat3 = test(
  (v) => Array.isArray(v) && v.length === 3 && v.every(isVec3),
  [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
);
const trajectory = optional(test((v) => isRecord(v) && isInt(v.frames) && isInt(v.atoms), { frames: 1, atoms: 1 }));
const oneOf = (...values: string[]): Shape => test((v) => values.includes(v as string), values[0]);
/** A POSCAR cut short is another structure: one over the limit is dropped, not shortened. */
const POSCAR = optional(whole(5_000_000));

const COMMON: Record<string, Shape> = {
  method: optional(text(10_000)),
  natoms: optional(int),
  species: optional(list(text(100))),
  extra: test(isRecord, {}),
  images: list(
    record({ source: text(1000), dataUrl: whole(30_000_000, (url) => url.startsWith('data:image/'), 'data:image/png;base64,') }),
  ),
  warnings: list(text(10_000)),
};

const KINDS: Record<StructureKind, Record<string, Shape>> = {
  singlePoint: {
    energy: num,
    energyPerAtom: num,
    energyPerAtomComputed: bool,
    forces: optional(test((v) => isArrayOf(v, isVec3), [[0, 0, 0]])),
    maxForce: num,
    stress: optional(mat3),
    stressUnit: optional(text(200)),
  },
  relax: {
    converged: bool,
    finalPoscar: POSCAR,
    initialEnergy: num,
    finalEnergy: num,
    energies: series,
    forcesMax: series,
    steps: optional(int),
    maxSteps: optional(int),
    fmax: num,
    trajectory,
  },
  md: {
    time: numbers,
    timeUnit: oneOf('fs', 'step'),
    total: series,
    kinetic: series,
    potential: series,
    temperature: series,
    averageTemperature: num,
    finalTemperature: num,
    energyDrift: num,
    energyDriftComputed: bool,
    timestepFs: num,
    steps: optional(int),
    targetTemperature: num,
    thermostat: bool,
    finalPoscar: POSCAR,
    trajectory,
    analysis: optional(
      record({
        rdf: optional(record({ r: numbers, total: numbers, pairs: list(record({ label: text(100), g: numbers }), 100), frames: int })),
        msd: optional(record({ lag: numbers, msd: numbers, unit: oneOf('fs', 'frame'), diffusion: num, window: optional(numbers) })),
        note: optional(text(1000)),
      }),
    ),
  },
  tightbinding: {
    distances: numbers,
    distanceSource: oneOf('service', 'kpoints', 'index'),
    bands: test((v) => Array.isArray(v) && v.every(isSeries), [[1, 2]]),
    ticks: list(record({ distance: test(isFiniteNumber, 0), label: text(100) })),
    fermi: num,
    nelectrons: num,
    path: optional(text(1000)),
    latticeType: optional(text(100)),
    latticeTypeSource: optional(text(300)),
    dos: optional(record({ energies: numbers, states: series, made: optional(text(200)) })),
    edges: record({
      vbm: num,
      cbm: num,
      gap: num,
      metal: bool,
      direct: bool,
      directGap: num,
      vbmK: optional(int),
      cbmK: optional(int),
      source: oneOf('service', 'electrons', 'fermi', 'headers', 'none'),
    }),
  },
};

const MODEL = pick(
  'kind',
  Object.fromEntries(RUN_KINDS.map((kind) => [kind, record({ ...COMMON, ...(isAppKind(kind) ? APP_MODEL : KINDS[kind]) })])),
);

const RUN_INFO = record({
  // A file summary's id holds the file's URI.
  id: whole(10_000),
  kind: oneOf(...RUN_KINDS),
  title: text(1000),
  inputName: text(1000),
  state: oneOf(...RUN_STATES),
  startedAt: test(isFiniteNumber, 0),
  durationMs: num,
  error: optional(text(20_000)),
  status: optional(int),
  readFrom: optional(text(1000)),
  builtin: bool,
  parameters: optional(list(record({ name: text(100), sent: text(200), answer: text(200) }), 20)),
});

const LATTICE_ROW = record({ name: text(20), unit: text(20), before: num, after: num });

const VIEW = record({ model: MODEL, elements: list(text(100)), lattice: list(LATTICE_ROW) });

/** Everything the page may be sent, as one shape. */
export const TO_RESULT_PAGE = pick('type', {
  show: record({ seq: int, run: RUN_INFO, view: optional(VIEW, null), note: optional(text(10_000)) }),
  test: record({ action: oneOf('report', 'click'), id: int, target: optional(text(200)) }),
});

export function isToResultPage(value: unknown): value is ToResultPage {
  return conforms(TO_RESULT_PAGE, value);
}

/** "view.model.species[0]" → "species[0]": the names a note uses. */
const label = (path: string): string => path.replace(/^view\.model\./, '').replace(/^view\./, '');

/**
 * A show message as the page will take it: every text over its limit shortened and marked, every part
 * that cannot be shown dropped, and a note saying so in words; undefined only when nothing of it can be shown.
 */
export function fitShowMessage(message: ShowMessage): ShowMessage | undefined {
  const fitted = fit(TO_RESULT_PAGE, message);
  if (!fitted) return undefined;
  const note = fittingNote(fitted.fitting, label);
  const out = fitted.value as ShowMessage;
  return note ? { ...out, note: note.length > 10_000 ? `${note.slice(0, 9_999)}…` : note } : out;
}

// ---- what the page sends ---------------------------------------------------------------------------

type Check = (value: unknown) => boolean;

const recordOf =
  (shape: Record<string, Check>): Check =>
  (v) =>
    isRecord(v) && Object.entries(shape).every(([k, check]) => check(v[k]));

const isReport = /* @__PURE__ */ recordOf({
  seq: isInt,
  request: isInt,
  kind: (v) => isString(v, 100),
  state: (v) => isString(v, 100),
  headline: (v) => isString(v, 10_000),
  source: (v) => isString(v, 1000),
  status: (v) => isString(v, 1000),
  note: (v) => isString(v, 10_000),
  plots: (v) =>
    Array.isArray(v) &&
    v.every(
      recordOf({
        title: (t) => isString(t, 1000),
        series: isInt,
        points: isInt,
        yTicks: (t) => isArrayOf(t, (x): x is string => isString(x, 100)),
      }),
    ),
  tables: (v) =>
    Array.isArray(v) &&
    v.every(recordOf({ title: (t) => isString(t, 1000), rows: (r) => isArrayOf(r, (x): x is string => isString(x, 10_000)) })),
  extraKeys: (v) => isArrayOf(v, (k): k is string => isString(k, 1000)),
  images: isInt,
  warnings: (v) => isArrayOf(v, (w): w is string => isString(w, 10_000)),
  targets: (v) => isArrayOf(v, (t): t is string => isString(t, 200)),
  theme: (v) => isString(v, 100),
  renderMs: isFiniteNumber,
});

export function isFromResultPage(value: unknown): value is FromResultPage {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'ready':
    case 'cancel':
    case 'retry':
    case 'saveJson':
      return true;
    case 'structure':
      return ['open', 'compare', 'save', 'show3d'].includes(value.action as string);
    case 'selectAtom':
      return isInt(value.index);
    case 'detail':
      return isString(value.app, 100) && /^[a-z_]+$/.test(value.app) && isString(value.id, 200) && value.id.length > 0;
    case 'exportPng':
      return isString(value.name, 200) && isString(value.dataUrl, 50_000_000) && value.dataUrl.startsWith('data:image/png;base64,');
    case 'copyCsv':
      return isString(value.name, 200) && isString(value.text, 50_000_000);
    case 'error':
      return isString(value.message, 5000);
    case 'rendered': // the page's report, which only tests ask for: compiled out of release bundles
      return TEST_HOOKS && isReport(value);
    default:
      return false;
  }
}
