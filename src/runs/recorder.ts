/**
 * What every run of a service endpoint shares, whichever command starts it: a record in the run
 * list (running, then done, failed or cancelled, with the answer), its result view, the request sent
 * through the service feature's one policy, and cancelling it by id.
 */
import type { ResultViews } from '../webviews/results/feature';
import type { RunRecord } from '../core/runs/run';
import { Disposable, toDisposable } from '../platform/disposable';
import type { ServiceClient } from '../features/service/client';
import type { ServiceResponse } from '../core/service/response';
import type { ServiceErrorKind } from '../core/service/errors';
import type { ShownMessage } from '../features/service/messages';
import type { CallStatus, RequestPolicy } from '../features/service/policy';
import type { RunStore } from './store';
import { config } from '../platform/config';

/** Outcomes of a call that sent nothing. */
const NOT_SENT: readonly CallStatus[] = ['untrusted', 'declined', 'noUrl', 'noKey'];

export interface RecordedOutcome {
  status: CallStatus;
  /** Undefined when nothing was sent (the run is not kept). */
  runId?: string;
  response?: ServiceResponse;
  errorKind?: ServiceErrorKind;
  message?: ShownMessage;
}

export interface RecordOptions {
  /** The progress title. */
  title: string;
  /** Open the result view at once. */
  show: boolean;
  /** The whole command again, for Try Again and a new key. */
  again: () => Thenable<unknown>;
}

export class RunRecorder extends Disposable {
  private readonly controllers = new Map<string, AbortController>();
  private count = 0;

  constructor(
    private readonly service: RequestPolicy,
    private readonly store: RunStore,
    private readonly views: ResultViews,
  ) {
    super();
    this.register(toDisposable(() => this.controllers.forEach((c) => c.abort())));
  }

  cancel(runId: string): void {
    this.controllers.get(runId)?.abort();
  }

  /** The editor column of a run's view, if open (a document opened for the run goes in another). */
  viewColumn(runId: string): number | undefined {
    return this.views.columnOf(runId);
  }

  /** A run again of one that failed or was cancelled replaces its view: no stale tab under the same title. */
  private failedTwins(run: RunRecord): string[] {
    const ended = (old: RunRecord): boolean => old.state === 'failed' || old.state === 'cancelled';
    const twin = (old: RunRecord): boolean =>
      old.id !== run.id && old.kind === run.kind && old.inputUri === run.inputUri && old.inputText === run.inputText;
    return this.store.all.filter((old) => ended(old) && twin(old)).map((old) => old.id);
  }

  /** Records the run, sends the request, and records how it ended. */
  async record(
    input: Pick<RunRecord, 'kind' | 'inputUri' | 'inputName' | 'inputText' | 'params'>,
    request: (client: ServiceClient, signal: AbortSignal) => Promise<ServiceResponse>,
    options: RecordOptions,
  ): Promise<RecordedOutcome> {
    const run: RunRecord = {
      ...input,
      id: `${Date.now().toString(36)}-${++this.count}`,
      startedAt: Date.now(),
      state: 'running',
      ...(config.serviceBuiltin ? { builtin: true } : {}),
    };
    const controller = new AbortController();
    this.controllers.set(run.id, controller);
    this.store.put(run);
    if (options.show) this.views.show(run, true, this.failedTwins(run));
    // The duration counts from the request, not from the prompts (URL, key) before it.
    let sentAt = run.startedAt;
    const timed = (client: ServiceClient, signal: AbortSignal): Promise<ServiceResponse> => {
      sentAt = Date.now();
      return request(client, signal);
    };
    const outcome = await this.service
      .call(options.title, timed, { signal: controller.signal, showElapsed: true, again: options.again })
      .finally(() => this.controllers.delete(run.id));
    if (outcome.status !== 'ok' && NOT_SENT.includes(outcome.status)) {
      // Refused before anything was sent (Restricted Mode, a declined URL, no URL or key): not a run to list.
      this.store.remove((r) => r.id === run.id);
      this.views.close(run.id);
      return { status: outcome.status, ...(outcome.message ? { message: outcome.message } : {}) };
    }
    const done: RunRecord = { ...run, durationMs: Date.now() - sentAt };
    if (outcome.status === 'ok') {
      done.state = 'done';
      done.response = { status: outcome.value.status, headers: outcome.value.headers, body: outcome.value.body };
    } else {
      done.state = outcome.status === 'cancelled' ? 'cancelled' : 'failed';
      if (outcome.message) done.error = outcome.message.text;
    }
    this.store.put(done);
    this.views.update(done);
    if (outcome.status === 'ok') return { status: 'ok', runId: run.id, response: outcome.value };
    return {
      status: outcome.status,
      runId: run.id,
      ...(outcome.errorKind ? { errorKind: outcome.errorKind } : {}),
      ...(outcome.message ? { message: outcome.message } : {}),
    };
  }
}
