/**
 * One run of a structure endpoint as the run list keeps it, and what its view is called. Pure: the
 * page imports the names too.
 */
import type { ResponseBody } from '../../service/client';

export const RUN_KINDS = ['relax', 'singlePoint', 'md', 'tightbinding'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

export const RUN_STATES = ['running', 'done', 'failed', 'cancelled'] as const;
export type RunState = (typeof RUN_STATES)[number];

export interface RunRecord {
  id: string;
  kind: RunKind;
  /** The POSCAR document the run was sent from. */
  inputUri: string;
  /** Its file name, e.g. "POSCAR". */
  inputName: string;
  /** The text sent. */
  inputText: string;
  /** ms since the epoch */
  startedAt: number;
  durationMs?: number;
  state: RunState;
  /** Why it failed, written for the user. */
  error?: string;
  response?: { status: number; headers: Record<string, string>; body: ResponseBody };
}

export const KIND_LABELS: Record<RunKind, string> = {
  relax: 'Relax',
  singlePoint: 'Single point',
  md: 'Molecular dynamics',
  tightbinding: 'Band structure',
};

/** "Relax: POSCAR" */
export function runTitle(run: Pick<RunRecord, 'kind' | 'inputName'>): string {
  return `${KIND_LABELS[run.kind]}: ${run.inputName}`;
}
