/**
 * Renders chat templates on a worker thread, so that a hostile template can neither block the caller's
 * event loop nor take its memory: the core's interpreter bounds time, depth and sizes; the worker adds a
 * heap limit (resourceLimits) and a timer that terminates it when one step runs past the deadline anyway.
 * A worker that was stopped is replaced on the next request. Node only (the CLI, the desktop extension host).
 */
import * as path from 'node:path';
import { RENDER_LIMITS, TemplateError, type Renderer, type RenderRequest } from '../../core/chat/index';
import { WorkerPool } from '../../platform/workerPool';
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
  private readonly pool: WorkerPool;

  constructor(private readonly options: RenderPoolOptions) {
    const limits = { maxOldGenerationSizeMb: options.heapMb ?? 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };
    this.pool = new WorkerPool(options.script, limits);
  }

  /** A Renderer for the core's count API: requests run one after another on the one worker. */
  readonly render: Renderer = (request) => this.pool.run(this.request(request));

  close(): Promise<void> {
    return this.pool.close();
  }

  private request(request: RenderRequest) {
    const timeoutMs = this.options.timeoutMs ?? RENDER_LIMITS.maxMs + 1_000;
    const heapMb = this.options.heapMb ?? 256;
    return {
      message: { request },
      timeoutMs,
      failures: {
        failed: (error: Error & { code?: string }) =>
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new TemplateError('limit', `The chat template used more than the ${heapMb} MB of memory it may have and was stopped.`)
            : new TemplateError('failed', `The chat template's worker failed: ${error.message}`),
        stopped: () => new TemplateError('failed', "The chat template's worker stopped."),
        timedOut: () => new TemplateError('limit', `The chat template ran longer than ${timeoutMs} ms and was stopped (it may loop).`),
        cancelled: () => new TemplateError('failed', 'The chat template was cancelled.'),
      },
      read: (reply: RenderReply): string => {
        if ('text' in reply) return reply.text;
        throw new TemplateError(reply.kind, reply.message);
      },
    };
  }
}
