/**
 * Patterns that make a backtracking RegExp run for seconds, minutes or ever (nested quantifiers, overlapping
 * alternation under a star, adjacent overlapping stars, `a*b` scanned globally over a long run, lookarounds inside
 * loops), each in a tokenizer.json registered and loaded as the extension loads one (registerModel, loadTokenizer)
 * and counted on 100,000 characters, in a worker thread that a watchdog terminates: a pattern that does not
 * finish in time fails the test instead of hanging it. And a pattern the engine refuses: the model does not load,
 * and the error names the model and the pattern.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { isLoaded, loadTokenizer, ModelLoadError, registerModel } from '../../src/core/tokenizers/index';

/** How long one case may take: the linear matcher needs well under a second; V8 needs minutes or forever. */
const WATCHDOG_MS = 20_000;
const N = 100_000;

/** A byte-fallback BPE with no merges: every ASCII character is one token, whatever the pieces. */
function tokenizerJson(step: { split?: string; replace?: string }): string {
  const vocab: Record<string, number> = { '<unk>': 0 };
  for (let b = 0; b < 256; b++) vocab[`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`] = 1 + b;
  return JSON.stringify({
    added_tokens: [],
    normalizer: step.replace ? { type: 'Replace', pattern: { Regex: step.replace }, content: 'x' } : null,
    pre_tokenizer: step.split ? { type: 'Split', pattern: { Regex: step.split }, behavior: 'Isolated', invert: false } : null,
    model: { type: 'BPE', vocab, merges: [], unk_token: '<unk>', byte_fallback: true },
  });
}

const PROSE = 'The quick brown fox jumps over the lazy dog. ';
const run = (c: string): string => c.repeat(N);
const prose = (): string => PROSE.repeat(Math.ceil(N / PROSE.length)).slice(0, N);

const CASES: [string, { split?: string; replace?: string }, string][] = [
  ['nested quantifiers', { split: '(a+)+b' }, run('a')],
  ['nested quantifiers over any character, on prose', { split: '(.+)+#' }, prose()],
  ['overlapping alternation under a star', { split: '(a|aa)*c' }, run('a')],
  ['the same alternative twice under a star', { split: '(?:a|a)*b' }, run('a')],
  ['adjacent overlapping stars', { split: '[ ]*[ ]*[ ]*[ ]*#' }, run(' ')],
  ['a*b scanned globally (quadratic on V8)', { split: 'a*b' }, run('a')],
  ['a loop whose body can match empty', { split: '(x*y*)*z' }, run('x')],
  ['a lookahead inside a loop', { split: '(?:a(?=a*c))+|a' }, run('a')],
  ['a negative lookahead inside a loop', { split: '(?:(?!a*c)a)+c' }, run('a')],
  ['a lookbehind before a star', { split: '(?<=a)a*b' }, run('a')],
  ['nested counted repeats', { split: '(a{1,10}){1,10}b' }, run('a')],
  ['a Replace normalizer', { replace: '(a|aa)*c' }, run('a')],
];

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { loadTokenizer, registerModel } = require(workerData.module);
registerModel({ name: 'hostile', description: '', source: '/tmp/hostile/tokenizer.json', load: async () => workerData.json });
loadTokenizer('hostile').then((tokenizer) => {
  const started = performance.now();
  const count = tokenizer.count(workerData.text);
  parentPort.postMessage({ count, ms: performance.now() - started });
}, (e) => parentPort.postMessage({ error: String(e && e.message) }));
`;

function countInWorker(json: string, text: string): Promise<{ count?: number; ms?: number; error?: string }> {
  const module = join(__dirname, '..', '..', 'src', 'core', 'tokenizers', 'index.js');
  const worker = new Worker(WORKER, { eval: true, workerData: { module, json, text } });
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still counting after ${WATCHDOG_MS} ms: the pattern backtracks`)), WATCHDOG_MS);
  });
  const answer = new Promise<{ count?: number; ms?: number; error?: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return Promise.race([answer, watchdog]).finally(() => {
    clearTimeout(timer);
    void worker.terminate();
  });
}

for (const [what, step, text] of CASES) {
  test(`${what}: ${step.split ?? step.replace} on ${N} characters loads and counts in linear time`, async () => {
    const result = await countInWorker(tokenizerJson(step), text);
    assert.equal(result.error, undefined);
    assert.equal(result.count, text.length, 'one token per ASCII character');
    console.log(`${what}: ${Math.round(result.ms!)} ms`);
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
