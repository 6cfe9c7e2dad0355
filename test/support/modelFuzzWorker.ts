/**
 * fuzz.models.test.ts's worker thread: loads each tokenizer.json it is sent and counts texts with it as the
 * editor does (sliced), reporting the outcome and the longest pause of its event loop. The test kills it when
 * a case passes its time bound, and its resourceLimits end it when memory does.
 */
import { parentPort } from 'node:worker_threads';
import { prepareHuggingFaceSliced } from '../../src/core/tokenizers/huggingFace/huggingFace';
import { countAsync } from '../../src/core/tokenizers/sliced';

export interface FuzzCase {
  json: string;
  texts: string[];
}

export type FuzzOutcome =
  | { kind: 'counted'; counts: number[]; pause: number }
  | { kind: 'refused'; name: string; message: string; pause: number }
  | { kind: 'crashed'; name: string; message: string; pause: number };

async function run({ json, texts }: FuzzCase): Promise<FuzzOutcome> {
  let pause = 0;
  let last = performance.now();
  let on = true;
  const tick = (): void => {
    const now = performance.now();
    pause = Math.max(pause, now - last);
    last = now;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const model = await prepareHuggingFaceSliced(json);
    const counts: number[] = [];
    for (const specialTokens of ['text', 'special'] as const) {
      const tokenizer = model.tokenizer({ specialTokens });
      for (const text of texts) counts.push(await countAsync(tokenizer, text));
    }
    return { kind: 'counted', counts, pause };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    return { kind: name === 'TokenizerJsonError' ? 'refused' : 'crashed', name, message: message.slice(0, 500), pause };
  } finally {
    on = false;
  }
}

parentPort?.on('message', (message: FuzzCase) => {
  void run(message).then((outcome) => parentPort!.postMessage(outcome));
});
