/**
 * One run of a structure endpoint as the run list keeps it, and what its view is called. Pure: the
 * page imports the names too.
 */
import type { ResponseBody } from '../service/response';
import { substitute, type Translate } from '../util/locale';

export const STRUCTURE_KINDS = ['relax', 'singlePoint', 'md', 'tightbinding'] as const;
export type StructureKind = (typeof STRUCTURE_KINDS)[number];

/** The other applications (spec 4.3): their request is JSON, their answer is read for a generic view. */
export const APP_KINDS = ['search', 'predict', 'pxrd', 'pxrdMatch', 'optimade', 'heterostructure', 'vqe', 'reaction', 'hea'] as const;
export type AppKind = (typeof APP_KINDS)[number];

export const RUN_KINDS = [...STRUCTURE_KINDS, ...APP_KINDS] as const;
export type RunKind = (typeof RUN_KINDS)[number];

export function isAppKind(kind: string): kind is AppKind {
  return (APP_KINDS as readonly string[]).includes(kind);
}

export const RUN_STATES = ['running', 'done', 'failed', 'cancelled'] as const;
export type RunState = (typeof RUN_STATES)[number];

export interface RunRecord {
  id: string;
  kind: RunKind;
  /** The POSCAR document the run was sent from (an application run: its data file, or a token-lens-request: URI). */
  inputUri: string;
  /** Its file name, e.g. "POSCAR"; an application run: what was asked, e.g. "Si" or "JVASP-1002". */
  inputName: string;
  /** The text sent (an application run: the request body as JSON). */
  inputText: string;
  /** ms since the epoch */
  startedAt: number;
  /** Sent to the built-in local service (its reference models), not to a service of the user's. */
  builtin?: boolean;
  /**
   * Relax and MD: the parameter fields the request carried besides the POSCAR (core/runs/parameters.ts), by
   * request field name; {} when it carried none. Absent in runs recorded before parameters were sent.
   */
  params?: Record<string, number | string | boolean>;
  durationMs?: number;
  state: RunState;
  /** Why it failed, written for the user. */
  error?: string;
  response?: { status: number; headers: Record<string, string>; body: ResponseBody };
}

/** Each kind's name in the runs view, titles and headlines: `t` the caller's (the host's locale; English by default). */
const KIND_LABELS: Record<RunKind, (t: Translate) => string> = {
  relax: (t) => t('Relax'),
  singlePoint: (t) => t('Single point'),
  md: (t) => t('Molecular dynamics'),
  tightbinding: (t) => t('Band structure'),
  search: (t) => t('Materials search'),
  predict: (t) => t('Property prediction'),
  pxrd: (t) => t('Powder pattern'),
  pxrdMatch: (t) => t('Powder match'),
  optimade: (t) => t('OPTIMADE query'),
  heterostructure: (t) => t('Heterostructure'),
  vqe: (t) => t('Quantum VQE'),
  reaction: (t) => t('Reaction balance'),
  hea: (t) => t('High-entropy alloy'),
};

export function kindLabel(kind: RunKind, t: Translate = substitute): string {
  return KIND_LABELS[kind](t);
}

/** "Relax: POSCAR" */
export function runTitle(run: Pick<RunRecord, 'kind' | 'inputName'>, t: Translate = substitute): string {
  return t('{0}: {1}', kindLabel(run.kind, t), run.inputName);
}

/**
 * The file name Save Result As… proposes: what was run, on what, and when, e.g.
 * `Si.vasp-relax-2026-11-24-1405.json` or `search-Fe2O3-2026-11-24-1405.json`; only characters every file
 * system takes, at most 120 of them.
 */
export function resultFileName(run: Pick<RunRecord, 'kind' | 'inputName' | 'startedAt'>): string {
  const d = new Date(run.startedAt);
  const two = (n: number) => String(n).padStart(2, '0');
  const when = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}`;
  const input = run.inputName
    .replace(/[^\p{L}\p{N}._+-]+/gu, '_')
    .replace(/^[._]+|_+$/g, '')
    .slice(0, 60);
  const parts = isAppKind(run.kind) ? [run.kind, input] : [input, run.kind];
  return `${parts.filter(Boolean).join('-')}-${when}.json`.slice(-120);
}

/** The Structure Runs view's id (package.json contributes.views). */
export const RUNS_VIEW = 'tokenLens.runs';
