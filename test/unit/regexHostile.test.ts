/**
 * Patterns that make a backtracking RegExp run for seconds, minutes or ever (nested quantifiers, overlapping
 * alternation under a star, adjacent overlapping stars, `a*b` scanned globally over a long run, lookarounds inside
 * loops), and patterns that cost the linear matcher thousands of steps a character (alternations of long counted
 * repeats, lookarounds of long counted repeats inside loops, nested counted repeats: linear, but seconds), each in a
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
import { isLoaded, loadTokenizer, ModelLoadError, registerModel } from '../../src/core/tokenizers/index';
import { scanSliced } from '../../src/core/tokenizers/sliced';
import { withHeartbeat } from '../bench/heartbeat';
import { Rng } from '../bench/textgen';

/** How long one synchronous count may take: seconds for the costliest patterns here; V8 needs minutes or forever. */
const WATCHDOG_MS = 180_000;
/** The longest the sliced count may hold the event loop (its slices are SLICE_MS; the rest is a loaded machine's noise). */
const BLOCK_MS = 150;
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
  // Linear, but thousands of steps a character: seconds in one exec, which a sliced count must not spend at once.
  ['nine alternatives of a long counted repeat', { split: alternatives('a', 1000, 9) }, run('a')],
  ['a lookahead of a long counted repeat inside a loop', { split: '(?:a(?=a{1000}b))+|a' }, run('a')],
  ['alternatives of long counted repeats in a Replace normalizer', { replace: alternatives('a', 1000, 3) }, run('a')],
  ...generated(new Rng(27)),
];

/** `x{n}b|x{n}c|…`, k alternatives that each read n characters before failing on a run of a. */
function alternatives(atom: string, n: number, k: number): string {
  return Array.from({ length: k }, (_, i) => `${atom}{${n}}${String.fromCharCode(0x62 + i)}`).join('|');
}

/**
 * A class of patterns that cost the linear matcher up to about 1,200 steps a character on a run of a: alternations of
 * long counted repeats, lookarounds of long counted repeats inside loops, nested counted repeats.
 */
function generated(rng: Rng): [string, { split?: string; replace?: string }, string][] {
  const atom = (): string => rng.pick(['a', '[a-c]', '\\p{L}', '.', '[^b]']);
  const long = (): number => rng.int(200, 600);
  const out: [string, { split?: string; replace?: string }, string][] = [];
  for (let k = 0; k < 2; k++) {
    const n = long();
    out.push([
      'generated: alternation of long counted repeats',
      { split: alternatives(atom(), n, Math.max(2, Math.floor(1200 / n))) },
      run('a'),
    ]);
  }
  const looks = [
    (x: string, n: number) => `(?:a(?=${x}{${n}}b))+|a`,
    (x: string, n: number) => `(?:(?!${x}{${n}}b)a)+c|a`,
    (x: string, n: number) => `(?:a(?<=${x}{${n}}))+b|a`,
    (x: string, n: number) => `a(?=(?:${x}{${n}}|a{${n}}b)c)|a`,
  ];
  for (const look of looks)
    out.push(['generated: a lookaround of a long counted repeat in a loop', { split: look(atom(), long()) }, run('a')]);
  for (let k = 0; k < 2; k++) {
    const inner = rng.int(100, 300);
    const outer = rng.int(2, Math.floor(1200 / inner));
    out.push(['generated: nested counted repeats', { split: `(?:(?:${atom()}{${inner}}){1,${outer}}b)|a` }, run('a')]);
  }
  return out;
}

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
  const module = join(__dirname, '..', '..', 'src', 'core', 'tokenizers', 'index.js');
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
    const { maxGapMs, totalMs } = await withHeartbeat(() =>
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
    let held = Infinity;
    for (let attempt = 0; attempt < 2 && held >= BLOCK_MS; attempt++) {
      const sliced = await countSliced(json, text);
      assert.equal(sliced.count, sync.count, 'the sliced count is the synchronous count');
      assert.deepEqual(sliced.ends, sync.ends, 'the same pieces');
      console.log(
        `${what}: synchronous ${Math.round(sync.ms!)} ms; sliced ${Math.round(sliced.totalMs)} ms, event loop held ${sliced.maxGapMs.toFixed(1)} ms at most`,
      );
      held = Math.min(held, sliced.maxGapMs);
    }
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
