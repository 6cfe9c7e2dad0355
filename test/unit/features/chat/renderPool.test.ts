/**
 * Templates rendered on the worker thread (src/features/chat/renderPool.ts): the caller's event loop stays
 * free (a heartbeat measures its longest gap) while a hostile template runs, a watchdog fails the test if
 * the pool never answers, and the heap limit stops what the interpreter's size caps let through.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { RENDER_LIMITS } from '../../../../src/core/chat/render';
import { RenderPool } from '../../../../src/features/chat/renderPool';
import { withHeartbeat } from '../../../bench/heartbeat';

const script = join(__dirname, '..', '..', '..', '..', 'src', 'features', 'chat', 'renderWorker.js');

/** Runs `work` under a watchdog, with the longest time the caller's event loop was held meanwhile. */
async function watched<T>(work: Promise<T>, watchdogMs = 10_000): Promise<{ outcome: PromiseSettledResult<T>; longestGapMs: number }> {
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error('watchdog: the pool never answered')), watchdogMs)),
  );
  try {
    const { value, maxGapMs } = await withHeartbeat(() => Promise.allSettled([Promise.race([work, watchdog])]));
    return { outcome: value[0], longestGapMs: maxGapMs };
  } finally {
    clearTimeout(timer);
  }
}

const reason = (outcome: PromiseSettledResult<unknown>): string =>
  outcome.status === 'rejected' ? (outcome.reason as Error).message : 'rendered';

test('a looping template is stopped on the worker while the caller keeps running; the next template renders', async (t) => {
  const pool = new RenderPool({ script });
  t.after(() => pool.close());
  const loop = '{% for i in range(20000) %}{% for j in range(20000) %}{% endfor %}{% endfor %}';
  const { outcome, longestGapMs } = await watched(pool.render({ template: loop, context: {} }));
  assert.match(reason(outcome), /ran longer than \d+ ms and was stopped/);
  // Rendered on the caller's thread, the loop would hold it for the render's whole limit (2 s); half of that leaves
  // room for a loaded machine (200 ms once failed at 344 with the worker doing its job).
  assert.ok(longestGapMs < RENDER_LIMITS.maxMs / 2, `the caller's event loop was blocked ${longestGapMs.toFixed(0)} ms`);
  assert.equal(await pool.render({ template: '{{ messages[0].content }}!', context: { messages: [{ content: 'hi' }] } }), 'hi!');
});

test('the heap limit stops a template the size caps let through, with a message; the pool recovers', async (t) => {
  const pool = new RenderPool({ script, heapMb: 16 });
  t.after(() => pool.close());
  // 8 million characters (under the 16 million cap), flattened and kept, thirty times over.
  const hungry =
    "{% set ns = namespace(s='ab', kept=[]) %}{% for i in range(22) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}" +
    '{% for i in range(30) %}{% set ns.kept = ns.kept + [(ns.s ~ i)|upper] %}{% endfor %}';
  const { outcome } = await watched(pool.render({ template: hungry, context: {} }));
  assert.equal(reason(outcome), 'The chat template used more than the 16 MB of memory it may have and was stopped.');
  assert.equal(await pool.render({ template: '{{ 6 * 7 }}', context: {} }), '42');
});

test('a template error on the worker keeps its kind and words', async (t) => {
  const pool = new RenderPool({ script });
  t.after(() => pool.close());
  await assert.rejects(pool.render({ template: '{{ raise_exception("Roles must alternate") }}', context: {} }), {
    name: 'TemplateError',
    kind: 'raised',
    message: 'The chat template refused the conversation: Roles must alternate',
  });
});
