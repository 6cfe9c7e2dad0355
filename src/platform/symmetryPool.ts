/**
 * Symmetry searches on a worker thread (symmetryWorker.ts), so that a large structure never blocks the extension
 * host: moyo's WebAssembly cannot be interrupted, so a search that runs past the timeout, or whose document
 * changed (its AbortSignal), ends by terminating the worker; the next search starts a new one (moyo loads again,
 * tens of ms). Searches run one after another. Node only (the desktop extension host); the web host searches on
 * its own thread with a lower limit (core/crystallography/symmetry.ts).
 */
import * as path from 'node:path';
import type { Cell } from '../core/crystallography/cell';
import { SymmetryError, type SymmetryResult, type SymmetrySearch } from '../core/crystallography/symmetry';
import type { SearchReply } from './symmetryWorker';
import { WorkerPool } from './workerPool';

/** How long one search may run on the worker, ms. */
export const SEARCH_TIMEOUT_MS = 60_000;

/** The worker script as the build places it: dist/symmetryWorker.js beside the bundle (esbuild.mjs). */
export const symmetryWorkerScript = (bundleDir: string): string => path.join(bundleDir, 'symmetryWorker.js');

export class SymmetryPool {
  private readonly pool: WorkerPool;

  constructor(
    script: string,
    private readonly timeoutMs = SEARCH_TIMEOUT_MS,
  ) {
    this.pool = new WorkerPool(script, { maxOldGenerationSizeMb: 1024 });
  }

  readonly search: SymmetrySearch = (cell, symprec, signal) => this.pool.run(this.request(cell, symprec, signal));

  close(): Promise<void> {
    return this.pool.close();
  }

  private request(cell: Cell, symprec: number, signal: AbortSignal | undefined) {
    const seconds = this.timeoutMs / 1000;
    const atoms = cell.frac.length.toLocaleString('en-US');
    return {
      message: { cell, symprec },
      timeoutMs: this.timeoutMs,
      signal,
      failures: {
        failed: (error: Error) => new SymmetryError(`The symmetry search's worker failed: ${error.message}`),
        stopped: () => new SymmetryError("The symmetry search's worker stopped."),
        timedOut: () => new SymmetryError(`The symmetry search took over ${seconds} s on ${atoms} atoms and was stopped.`),
        cancelled: () => new SymmetryError('The symmetry search was cancelled (the structure changed).'),
      },
      read: (reply: SearchReply): SymmetryResult => {
        if ('result' in reply) return reply.result;
        throw new SymmetryError(reply.error);
      },
    };
  }
}
