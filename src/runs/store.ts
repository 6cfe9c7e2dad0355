/**
 * The structure runs of this workspace: kept in memory, persisted (workspace storage) so that they and
 * their answers survive a window reload. Pure: the storage is any get/update pair (VS Code's Memento).
 */
import type { ResponseBody } from '../core/service/response';
import { RUN_KINDS, RUN_STATES, type RunRecord } from '../core/runs/run';
import { isInt, isRecord, isString } from '../core/util/guards';
import { isParameterKind, sentParameters } from '../core/runs/parameters';
import { toDisposable } from '../platform/disposable';
import { substitute, type Translate } from '../core/util/locale';

export interface Storage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY = 'tokenLens.runs';
/** The newest runs kept; older ones are dropped (the answers can be large). */
export const MAX_RUNS = 50;

/** A response body as JSON can carry it: bytes travel as base64. */
type StoredBody = Exclude<ResponseBody, { type: 'bytes' }> | { type: 'bytes'; base64: string; contentType: string };

export class RunStore {
  private runs: RunRecord[];
  private readonly listeners = new Set<(run: RunRecord | undefined) => void>();

  /** `t` words the error a run still going keeps after a reload (the host's vscode.l10n.t; English in tests). */
  constructor(
    private readonly storage: Storage,
    private readonly t: Translate = substitute,
  ) {
    const stored = storage.get<unknown[]>(KEY);
    this.runs = Array.isArray(stored) ? stored.flatMap((r) => revive(r) ?? []) : [];
  }

  /** Newest first. */
  get all(): readonly RunRecord[] {
    return this.runs;
  }

  get(id: string): RunRecord | undefined {
    return this.runs.find((r) => r.id === id);
  }

  /** Adds or replaces a run; listeners hear of it (undefined: the list changed as a whole). */
  put(run: RunRecord): void {
    const index = this.runs.findIndex((r) => r.id === run.id);
    if (index >= 0) this.runs[index] = run;
    else this.runs = [run, ...this.runs].slice(0, MAX_RUNS);
    this.changed(run);
  }

  remove(predicate: (run: RunRecord) => boolean): void {
    this.runs = this.runs.filter((r) => !predicate(r));
    this.changed(undefined);
  }

  onDidChange(listener: (run: RunRecord | undefined) => void): { dispose(): void } {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  }

  private changed(run: RunRecord | undefined): void {
    // A run still going is stored as cancelled: after a reload nothing is waiting for its answer.
    const settled = this.runs.map((r) =>
      r.state === 'running' ? { ...r, state: 'cancelled' as const, error: this.t('The window was reloaded while it ran.') } : r,
    );
    void this.storage.update(KEY, settled.map(toStored));
    for (const listener of this.listeners) listener(run);
  }
}

function toStored(run: RunRecord): unknown {
  const body = run.response?.body;
  if (body?.type !== 'bytes') return run;
  const stored: StoredBody = { type: 'bytes', base64: Buffer.from(body.bytes).toString('base64'), contentType: body.contentType };
  return { ...run, response: { ...run.response, body: stored } };
}

/** A stored run, checked field by field (workspace storage is not ours alone to trust). */
function revive(value: unknown): RunRecord | undefined {
  if (!isRecord(value)) return undefined;
  const { id, kind, inputUri, inputName, inputText, startedAt, state } = value;
  if (
    !isString(id, 100) ||
    !RUN_KINDS.includes(kind as RunRecord['kind']) ||
    !isString(inputUri, 10_000) ||
    !isString(inputName, 1000) ||
    typeof inputText !== 'string' ||
    !isInt(startedAt) ||
    !RUN_STATES.includes(state as RunRecord['state'])
  )
    return undefined;
  const run: RunRecord = {
    id,
    kind: kind as RunRecord['kind'],
    inputUri,
    inputName,
    inputText,
    startedAt,
    state: state as RunRecord['state'],
  };
  if (isInt(value.durationMs)) run.durationMs = value.durationMs;
  if (value.builtin === true) run.builtin = true;
  if (isRecord(value.params) && isParameterKind(run.kind)) run.params = sentParameters(run.kind, value.params);
  if (isString(value.error, 100_000)) run.error = value.error;
  const response = value.response;
  if (isRecord(response) && isInt(response.status) && isRecord(response.headers)) {
    const body = reviveBody(response.body);
    if (body)
      run.response = {
        status: response.status,
        headers: Object.fromEntries(Object.entries(response.headers).filter(([, v]) => typeof v === 'string')) as Record<string, string>,
        body,
      };
  }
  return run;
}

function reviveBody(value: unknown): ResponseBody | undefined {
  if (!isRecord(value)) return undefined;
  if (value.type === 'json') return { type: 'json', value: value.value };
  if (value.type === 'text' && typeof value.text === 'string' && typeof value.contentType === 'string')
    return { type: 'text', text: value.text, contentType: value.contentType };
  if (value.type === 'bytes' && typeof value.base64 === 'string' && typeof value.contentType === 'string') {
    return { type: 'bytes', bytes: new Uint8Array(Buffer.from(value.base64, 'base64')), contentType: value.contentType };
  }
  return undefined;
}
