/**
 * Patterns that make a backtracking RegExp run for seconds, minutes or ever (nested quantifiers, overlapping
 * alternation under a star, adjacent overlapping stars, `a*b` scanned globally over a long run, lookarounds inside
 * loops), and patterns that cost (or, written out, would cost) the linear matcher thousands of steps a character
 * (alternations of long counted repeats, lookarounds of long counted repeats inside loops, nested counted repeats, a
 * long counted repeat of a group: linear, but seconds), each in a
 * tokenizer.json registered and loaded as the extension loads one (registerModel, loadTokenizer) and counted on
 * 100,000 characters twice: synchronously (tokenizer.scan, as count does) in a worker thread that a watchdog
 * terminates, so that a pattern that does not finish in time fails the test instead of hanging it; then sliced on
 * this thread (scanSliced, the path of countAsync and the status bar) while a 1 ms heartbeat measures
 * the longest time the event loop was held, which must stay under BLOCK_MS, with the same pieces and count.
 * And a pattern the engine refuses: the model does not load, and the error names the model and the pattern.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { isLoaded, loadTokenizer, ModelLoadError, registerModel } from '../../../../../../src/core/tokenizers/index';
import { scanSliced } from '../../../../../../src/core/tokenizers/sliced';
import { withHeartbeat } from '../../../../../bench/heartbeat';
import { CASES, N, tokenizerJson } from '../../../../../support/hostilePatterns';
import { leastUnder } from '../../../../../support/linearity';

/** How long one synchronous count may take: seconds for the costliest patterns here; V8 needs minutes or forever. */
const WATCHDOG_MS = 180_000;
/** The longest the sliced count may hold the event loop (its slices are SLICE_MS; the rest is a loaded machine's noise). */
const BLOCK_MS = 150;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { loadTokenizer, registerModel } = require(workerData.module);
registerModel({ name: 'hostile', description: '', source: '/tmp/hostile/tokenizer.json', load: async () => workerData.json });
loadTokenizer('hostile').then((tokenizer) => {
  const started = performance.now();
  const ends = [];
  let count = 0;
  tokenizer.scan(workerData.text, 0, (end, n) => {
    ends.push(end);
    count += n;
    return true;
  });
  parentPort.postMessage({ count, ends, ms: performance.now() - started });
}, (e) => parentPort.postMessage({ error: String(e && e.message) }));
`;

interface Counted {
  count?: number;
  ends?: number[];
  ms?: number;
  error?: string;
}

function countInWorker(json: string, text: string): Promise<Counted> {
  const module = join(__dirname, '..', '..', '..', '..', '..', '..', 'src', 'core', 'tokenizers', 'index.js');
  const worker = new Worker(WORKER, { eval: true, workerData: { module, json, text } });
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still counting after ${WATCHDOG_MS} ms: the pattern backtracks`)), WATCHDOG_MS);
  });
  const answer = new Promise<Counted>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return Promise.race([answer, watchdog]).finally(() => {
    clearTimeout(timer);
    void worker.terminate();
  });
}

let models = 0;

/** The pieces and count of a sliced scan on this thread, and the longest time it held the event loop. */
async function countSliced(json: string, text: string): Promise<{ count: number; ends: number[]; maxGapMs: number; totalMs: number }> {
  const name = `hostile-${++models}`;
  const remove = registerModel({ name, description: '', source: `/tmp/${name}/tokenizer.json`, load: () => Promise.resolve(json) });
  try {
    const tokenizer = await loadTokenizer(name);
    const ends: number[] = [];
    let count = 0;
    const { maxCpuGapMs: maxGapMs, totalMs } = await withHeartbeat(() =>
      scanSliced(tokenizer, text, (end, n) => {
        ends.push(end);
        count += n;
      }),
    );
    return { count, ends, maxGapMs, totalMs };
  } finally {
    remove();
  }
}

for (const [what, step, text] of CASES) {
  test(`${what}: ${(step.split ?? step.replace)!.slice(0, 80)} on ${N} characters counts in linear time, sliced without holding the event loop`, async () => {
    const json = tokenizerJson(step);
    // One after the other: the worker's thread would otherwise compete with this one for the machine.
    const sync = await countInWorker(json, text);
    assert.equal(sync.error, undefined);
    assert.equal(sync.count, text.length, 'one token per ASCII character');
    // A second sliced count only when the first held the loop too long: a machine busy with other work can stall
    // this thread once; a pattern that holds it does so every time.
    const slicedHold = async () => {
      const sliced = await countSliced(json, text);
      assert.equal(sliced.count, sync.count, 'the sliced count is the synchronous count');
      assert.deepEqual(sliced.ends, sync.ends, 'the same pieces');
      console.log(
        `${what}: synchronous ${Math.round(sync.ms!)} ms; sliced ${Math.round(sliced.totalMs)} ms, event loop held ${sliced.maxGapMs.toFixed(1)} ms at most`,
      );
      return sliced.maxGapMs;
    };
    const held = (await leastUnder(slicedHold, BLOCK_MS)).least;
    assert.ok(held < BLOCK_MS, `the sliced count held the event loop ${held.toFixed(0)} ms (at most ${BLOCK_MS})`);
  });
}

test('a pattern the engine refuses is a model-load error naming the model and the pattern; the model is not loaded', async () => {
  const remove = registerModel({
    name: 'refused',
    description: '',
    source: '/tmp/refused/tokenizer.json',
    load: () => Promise.resolve(tokenizerJson({ split: '(?<=a+)b' })),
  });
  try {
    await assert.rejects(
      loadTokenizer('refused'),
      (e: unknown) =>
        e instanceof ModelLoadError &&
        e.message.startsWith('Could not load the tokenizer "refused" from /tmp/refused/tokenizer.json: ') &&
        e.message.includes('Cannot use the pattern "(?<=a+)b": variable-length lookbehind'),
    );
    assert.equal(isLoaded('refused'), false);
  } finally {
    remove();
  }
});
