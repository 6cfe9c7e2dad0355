/**
 * Renders chat templates on a worker thread, so that a hostile template can neither block the caller's
 * event loop nor take its memory: the core's interpreter bounds time, depth and sizes; the worker adds a
 * heap limit (resourceLimits) and a timer that terminates it when one step runs past the deadline anyway.
 * A worker that was stopped is replaced on the next request. Node only (the CLI, the desktop extension host).
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { RENDER_LIMITS, TemplateError, type Renderer, type RenderRequest } from '../../core/chat/index';
import type { RenderReply } from './renderWorker';

export interface RenderPoolOptions {
  /** The bundled worker script; beside the caller's bundle by default. */
  script: string;
  /** Past the interpreter's own deadline, the worker is terminated. */
  timeoutMs?: number;
  heapMb?: number;
}

/** The worker script as the build places it, relative to a bundle in dist/ (or the test build's out/src/). */
export const renderWorkerScript = (bundleDir: string): string => path.join(bundleDir, 'features', 'chat', 'renderWorker.js');

export class RenderPool {
  private worker: Worker | undefined;
  private nextId = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: RenderPoolOptions) {}

  /** A Renderer for the core's count API: requests run one after another on the one worker. */
  readonly render: Renderer = (request) => {
    const run = this.queue.then(() => this.send(request));
    this.queue = run.catch(() => undefined);
    return run;
  };

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private spawn(): Worker {
    const worker = new Worker(this.options.script, {
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    worker.unref();
    return worker;
  }

  private send(request: RenderRequest): Promise<string> {
    const worker = (this.worker ??= this.spawn());
    const id = this.nextId++;
    const timeoutMs = this.options.timeoutMs ?? RENDER_LIMITS.maxMs + 1_000;
    return new Promise<string>((resolve, reject) => {
      const done = (settle: () => void, keep: boolean): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (!keep) this.retire(worker);
        settle();
      };
      const onMessage = (reply: RenderReply): void => {
        if (reply.id !== id) return;
        done(() => ('text' in reply ? resolve(reply.text) : reject(new TemplateError(reply.kind, reply.message))), true);
      };
      const onError = (error: Error & { code?: string }): void =>
        done(
          () =>
            reject(
              error.code === 'ERR_WORKER_OUT_OF_MEMORY'
                ? outOfMemory(this.options.heapMb ?? 256)
                : new TemplateError('failed', `The chat template's worker failed: ${error.message}`),
            ),
          false,
        );
      const onExit = (): void => done(() => reject(new TemplateError('failed', "The chat template's worker stopped.")), false);
      const timer = setTimeout(
        () =>
          done(
            () => reject(new TemplateError('limit', `The chat template ran longer than ${timeoutMs} ms and was stopped (it may loop).`)),
            false,
          ),
        timeoutMs,
      );
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, request });
    });
  }

  private retire(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
  }
}

const outOfMemory = (mb: number): TemplateError =>
  new TemplateError('limit', `The chat template used more than the ${mb} MB of memory it may have and was stopped.`);
