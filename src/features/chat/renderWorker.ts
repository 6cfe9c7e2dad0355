/** The worker thread chat templates render in (renderPool.ts): one request at a time, within the core's bounds. */
import { parentPort } from 'node:worker_threads';
import { inThreadRenderer, TemplateError, type RenderRequest } from '../../core/chat/index';

export type RenderReply = { id: number; text: string } | { id: number; kind: TemplateError['kind']; message: string };

const render = inThreadRenderer();

parentPort?.on('message', ({ id, request }: { id: number; request: RenderRequest }) => {
  render(request).then(
    (text) => parentPort!.postMessage({ id, text } satisfies RenderReply),
    (error: unknown) => {
      const kind = error instanceof TemplateError ? error.kind : 'failed';
      parentPort!.postMessage({ id, kind, message: error instanceof Error ? error.message : String(error) } satisfies RenderReply);
    },
  );
});
