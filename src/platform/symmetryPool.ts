/**
 * Symmetry searches on a worker thread (symmetryWorker.ts), so that a large structure never blocks the extension
 * host: moyo's WebAssembly cannot be interrupted, so a search that runs past the timeout, or whose document
 * changed (its AbortSignal), ends by terminating the worker; the next search starts a new one (moyo loads again,
 * tens of ms). Searches run one after another. Node only (the desktop extension host); the web host searches on
 * its own thread with a lower limit (core/crystallography/symmetry.ts).
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Cell } from '../core/crystallography/cell';
import { SymmetryError, type SymmetryResult, type SymmetrySearch } from '../core/crystallography/symmetry';
import type { SearchReply } from './symmetryWorker';

/** How long one search may run on the worker, ms. */
export const SEARCH_TIMEOUT_MS = 60_000;

/** The worker script as the build places it: dist/symmetryWorker.js beside the bundle (esbuild.mjs). */
export const symmetryWorkerScript = (bundleDir: string): string => path.join(bundleDir, 'symmetryWorker.js');

const cancelled = (): SymmetryError => new SymmetryError('The symmetry search was cancelled (the structure changed).');

export class SymmetryPool {
  private worker: Worker | undefined;
  private nextId = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly script: string,
    private readonly timeoutMs = SEARCH_TIMEOUT_MS,
  ) {}

  readonly search: SymmetrySearch = (cell, symprec, signal) => {
    const run = this.queue.then(() => this.send(cell, symprec, signal));
    this.queue = run.catch(() => undefined);
    return run;
  };

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private spawn(): Worker {
    const worker = new Worker(this.script, { resourceLimits: { maxOldGenerationSizeMb: 1024 } });
    worker.unref();
    return worker;
  }

  private send(cell: Cell, symprec: number, signal: AbortSignal | undefined): Promise<SymmetryResult> {
    if (signal?.aborted) return Promise.reject(cancelled());
    const worker = (this.worker ??= this.spawn());
    const id = this.nextId++;
    return new Promise<SymmetryResult>((resolve, reject) => {
      const done = (settle: () => void, keep: boolean): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (!keep) this.retire(worker);
        settle();
      };
      const onMessage = (reply: SearchReply): void => {
        if (reply.id !== id) return;
        done(() => ('result' in reply ? resolve(reply.result) : reject(new SymmetryError(reply.error))), true);
      };
      const onError = (error: Error): void =>
        done(() => reject(new SymmetryError(`The symmetry search's worker failed: ${error.message}`)), false);
      const onExit = (): void => done(() => reject(new SymmetryError("The symmetry search's worker stopped.")), false);
      const onAbort = (): void => done(() => reject(cancelled()), false);
      const seconds = this.timeoutMs / 1000;
      const atoms = cell.frac.length.toLocaleString('en-US');
      const timer = setTimeout(
        () => done(() => reject(new SymmetryError(`The symmetry search took over ${seconds} s on ${atoms} atoms and was stopped.`)), false),
        this.timeoutMs,
      );
      signal?.addEventListener('abort', onAbort);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, cell, symprec });
    });
  }

  private retire(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
  }
}
