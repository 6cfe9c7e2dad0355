/**
 * Worker threads for the requests, so that neither a band structure of 200 atoms nor a 50,000-character
 * tokenize ever stalls the requests of other clients: at most `size` run at once, the rest wait their turn.
 * A job that runs past its budget, or whose client went away, has its worker terminated and replaced.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Job, JobOutcome } from './compute';
import type { Lane } from '../routes/index';

export class JobTimeout extends Error {}

interface Waiting {
  job: Job;
  signal: AbortSignal;
  resolve: (outcome: JobOutcome) => void;
  reject: (error: unknown) => void;
}

export class WorkerPool {
  private idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly queue: Waiting[] = [];

  constructor(
    private readonly size: number,
    private readonly budgetMs: number,
    private readonly script = path.join(__dirname, 'worker.js'),
  ) {}

  run(job: Job, signal: AbortSignal): Promise<JobOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, signal, resolve, reject });
      this.next();
    });
  }

  async close(): Promise<void> {
    this.queue.splice(0).forEach((w) => w.reject(new Error('the server is closing')));
    await Promise.all([...this.all].map((w) => w.terminate()));
    this.all.clear();
    this.idle = [];
  }

  private next(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.all.size < this.size ? this.spawn() : undefined);
      if (!worker) return;
      this.start(worker, this.queue.shift()!);
    }
  }

  private spawn(): Worker {
    const worker = new Worker(this.script);
    worker.unref();
    this.all.add(worker);
    return worker;
  }

  private start(worker: Worker, waiting: Waiting): void {
    if (waiting.signal.aborted) {
      this.idle.push(worker);
      return waiting.reject(waiting.signal.reason);
    }
    let settled = false;
    const finish = (reuse: boolean, settle: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      waiting.signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      if (reuse) this.idle.push(worker);
      else this.retire(worker);
      settle();
      this.next();
    };
    const onMessage = (outcome: JobOutcome): void => finish(true, () => waiting.resolve(outcome));
    const onError = (error: unknown): void => finish(false, () => waiting.reject(error));
    const onAbort = (): void => finish(false, () => waiting.reject(waiting.signal.reason));
    const timer = setTimeout(
      () => finish(false, () => waiting.reject(new JobTimeout(`longer than ${Math.round(this.budgetMs / 1000)} s`))),
      this.budgetMs,
    );
    worker.on('message', onMessage);
    worker.on('error', onError);
    waiting.signal.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(waiting.job);
  }

  private retire(worker: Worker): void {
    this.all.delete(worker);
    void worker.terminate();
  }
}

/** One pool per lane (routes/index.ts), so that a request never waits behind a longer kind of request. */
export class WorkerLanes {
  private readonly pools: Record<Lane, WorkerPool>;

  constructor(sizes: Record<Lane, number>, budgetMs: number) {
    this.pools = {
      quick: new WorkerPool(sizes.quick, budgetMs),
      bulk: new WorkerPool(sizes.bulk, budgetMs),
      compute: new WorkerPool(sizes.compute, budgetMs),
    };
  }

  run(job: Job, lane: Lane, signal: AbortSignal): Promise<JobOutcome> {
    return this.pools[lane].run(job, signal);
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.pools).map((pool) => pool.close()));
  }
}
