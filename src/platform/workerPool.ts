/**
 * One worker thread that runs requests one after another, for work the extension host must not run itself (chat
 * templates, symmetry searches). A request that fails the worker, runs past its time or is cancelled ends by
 * terminating the worker, so that nothing it was doing can go on; the next request starts a new one. Node only.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** Every reply names the request it answers. */
export interface Reply {
  id: number;
}

/** How one request's failures read to the user: each an Error of the caller's own type. */
export interface Failures {
  /** The worker threw or ran out of memory (error.code 'ERR_WORKER_OUT_OF_MEMORY'). */
  failed(error: Error & { code?: string }): Error;
  stopped(): Error;
  timedOut(): Error;
  cancelled(): Error;
}

export interface Request<R extends Reply, T> {
  /** What is posted, with the request's id added. */
  message: object;
  timeoutMs: number;
  signal?: AbortSignal;
  failures: Failures;
  /** The answer from the worker's reply; throws for a reply that reports an error. */
  read(reply: R): T;
}

export class WorkerPool {
  private worker: Worker | undefined;
  private nextId = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly script: string,
    private readonly limits: ResourceLimits,
  ) {}

  /** Runs `request` once the requests before it are done. */
  run<R extends Reply, T>(request: Request<R, T>): Promise<T> {
    const run = this.queue.then(() => this.send(request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private spawn(): Worker {
    const worker = new Worker(this.script, { resourceLimits: this.limits });
    worker.unref();
    return worker;
  }

  private send<R extends Reply, T>({ message, timeoutMs, signal, failures, read }: Request<R, T>): Promise<T> {
    if (signal?.aborted) return Promise.reject(failures.cancelled());
    const worker = (this.worker ??= this.spawn());
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const done = (outcome: () => T, keep: boolean): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (!keep) this.retire(worker);
        try {
          resolve(outcome());
        } catch (error) {
          reject(error);
        }
      };
      const fail = (error: Error) => (): T => {
        throw error;
      };
      const onMessage = (reply: R): void => {
        if (reply.id === id) done(() => read(reply), true);
      };
      const onError = (error: Error): void => done(fail(failures.failed(error)), false);
      const onExit = (): void => done(fail(failures.stopped()), false);
      const onAbort = (): void => done(fail(failures.cancelled()), false);
      const timer = setTimeout(() => done(fail(failures.timedOut()), false), timeoutMs);
      signal?.addEventListener('abort', onAbort);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ ...message, id });
    });
  }

  private retire(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
  }
}
