/**
 * Messages between a result view (extension) and its page, with the guards each side runs. Pure:
 * imported by panel.ts and webview/main.ts.
 */
import { isArrayOf, isFiniteNumber, isInt, isRecord, isString, isVec3 } from '../../core/util/guards';
import type { ResultModel } from './model';
import { isAppModel } from './apps/guard';
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
  /** The HTTP status of the answer, when one came. */
  status?: number;
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
  /** Plot titles with their series and points (of the longest series). */
  plots: { title: string; series: number; points: number }[];
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

// ---- guards -------------------------------------------------------------------------------------

type Check = (value: unknown) => boolean;

const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined || check(v);
const num = optional(isFiniteNumber);
const bool = optional((v) => typeof v === 'boolean');
const text = (max: number): Check => optional((v) => isString(v, max));
const series: Check = (v) => Array.isArray(v) && v.every((x) => x === null || isFiniteNumber(x));
const numbers: Check = (v) => isArrayOf(v, isFiniteNumber);
const mat3: Check = (v) => Array.isArray(v) && v.length === 3 && v.every(isVec3);
const trajectory = optional((v) => isRecord(v) && isInt(v.frames) && isInt(v.atoms));
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    values.includes(v as string);
const recordOf =
  (shape: Record<string, Check>): Check =>
  (v) =>
    isRecord(v) && Object.entries(shape).every(([k, check]) => check(v[k]));
const POSCAR = text(5_000_000);

const COMMON: Record<string, Check> = {
  method: text(10_000),
  natoms: optional(isInt),
  species: optional((v) => isArrayOf(v, (s): s is string => isString(s, 100))),
  extra: isRecord,
  images: (v) =>
    isArrayOf(
      v,
      (i): i is unknown =>
        isRecord(i) && isString(i.source, 1000) && isString(i.dataUrl, 30_000_000) && i.dataUrl.startsWith('data:image/'),
    ),
  warnings: (v) => isArrayOf(v, (w): w is string => isString(w, 10_000)),
};

const KINDS: Record<StructureKind, Record<string, Check>> = {
  singlePoint: {
    energy: num,
    energyPerAtom: num,
    energyPerAtomComputed: bool,
    forces: optional((v) => isArrayOf(v, isVec3)),
    maxForce: num,
    stress: optional(mat3),
    stressUnit: text(200),
  },
  relax: {
    converged: bool,
    finalPoscar: POSCAR,
    initialEnergy: num,
    finalEnergy: num,
    energies: series,
    forcesMax: series,
    steps: optional(isInt),
    maxSteps: optional(isInt),
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
    steps: optional(isInt),
    targetTemperature: num,
    thermostat: bool,
    finalPoscar: POSCAR,
    trajectory,
  },
  tightbinding: {
    distances: numbers,
    distanceSource: oneOf('service', 'kpoints', 'index'),
    bands: (v) => Array.isArray(v) && v.every(series),
    ticks: (v) => Array.isArray(v) && v.every(recordOf({ distance: isFiniteNumber, label: (l) => isString(l, 100) })),
    fermi: num,
    nelectrons: num,
    path: text(1000),
    latticeType: text(100),
    dos: optional(recordOf({ energies: numbers, states: series, made: text(200) })),
    edges: recordOf({
      vbm: num,
      cbm: num,
      gap: num,
      metal: bool,
      direct: bool,
      directGap: num,
      vbmK: optional(isInt),
      cbmK: optional(isInt),
      source: oneOf('service', 'electrons', 'fermi', 'headers', 'none'),
    }),
  },
};

function isResultModel(value: unknown): value is ResultModel {
  if (!isRecord(value) || !RUN_KINDS.includes(value.kind as RunKind)) return false;
  return isAppKind(value.kind as string)
    ? recordOf(COMMON)(value) && isAppModel(value)
    : recordOf({ ...COMMON, ...KINDS[value.kind as StructureKind] })(value);
}

const isRunInfo = recordOf({
  id: (v) => isString(v, 200),
  kind: oneOf(...RUN_KINDS),
  title: (v) => isString(v, 1000),
  inputName: (v) => isString(v, 1000),
  state: oneOf(...RUN_STATES),
  startedAt: isFiniteNumber,
  durationMs: num,
  error: text(20_000),
  status: optional(isInt),
  builtin: bool,
  parameters: optional((v) =>
    isArrayOf(
      v,
      (r): r is ParameterRow =>
        recordOf({ name: (x) => isString(x, 100), sent: (x) => isString(x, 200), answer: (x) => isString(x, 200) })(r),
      20,
    ),
  ),
});

const isLatticeRow = recordOf({ name: (v) => isString(v, 20), unit: (v) => isString(v, 20), before: num, after: num });

const isView = recordOf({
  model: isResultModel,
  elements: (v) => isArrayOf(v, (s): s is string => isString(s, 100)),
  lattice: (v) => isArrayOf(v, (r): r is LatticeRow => isLatticeRow(r)),
});

export function isToResultPage(value: unknown): value is ToResultPage {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'show':
      return isInt(value.seq) && isRunInfo(value.run) && (value.view === null || isView(value.view));
    case 'test':
      return oneOf('report', 'click')(value.action) && isInt(value.id) && text(200)(value.target);
    default:
      return false;
  }
}

const isReport = recordOf({
  seq: isInt,
  request: isInt,
  kind: (v) => isString(v, 100),
  state: (v) => isString(v, 100),
  headline: (v) => isString(v, 10_000),
  source: (v) => isString(v, 1000),
  plots: (v) => Array.isArray(v) && v.every(recordOf({ title: (t) => isString(t, 1000), series: isInt, points: isInt })),
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
      return oneOf('open', 'compare', 'save', 'show3d')(value.action);
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
    case 'rendered':
      return isReport(value);
    default:
      return false;
  }
}
