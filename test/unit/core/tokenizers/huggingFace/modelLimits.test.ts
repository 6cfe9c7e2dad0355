/**
 * A tokenizer.json from any repository cannot freeze, crash or wrongly pass the check (modelLimits.ts): each limit
 * refuses one over it with its numbers, before the work; the reliability pass's cases are refused or counted at
 * once; added tokens are checked in both modes at load; and added tokens are found as tokenizers.js finds them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  loadHuggingFaceTokenizer,
  prepareHuggingFaceSliced,
  TokenizerJsonError,
} from '../../../../../src/core/tokenizers/huggingFace/huggingFace';
import { MODEL_LIMITS, ModelLimitError, type ModelLimit } from '../../../../../src/core/tokenizers/huggingFace/modelLimits';
import { countAsync } from '../../../../../src/core/tokenizers/sliced';
import { linearRatio } from '../../../../support/linearity';

const { Tokenizer: Reference } = require('@huggingface/tokenizers') as {
  Tokenizer: new (json: unknown, config: unknown) => { encode(text: string, options: { add_special_tokens: boolean }): { ids: number[] } };
};

type Json = { [key: string]: unknown };

/** A small SentencePiece-style file: its characters and a few merges, no normalizer or pre-tokenizer. */
function mini(overrides: Json = {}): Json {
  const vocab: Record<string, number> = { '<unk>': 0, a: 1, b: 2, c: 3, ' ': 4, ab: 5, abc: 6, '▁': 7 };
  return {
    added_tokens: [],
    decoder: null,
    post_processor: null,
    normalizer: null,
    pre_tokenizer: null,
    model: { type: 'BPE', vocab, merges: ['a b', 'ab c'], unk_token: '<unk>' },
    ...overrides,
  };
}

/** tokenizer.json text with `key` set to `raw` JSON text (for structures too large or deep for JSON.stringify). */
const withRaw = (key: string, raw: string): string => `${JSON.stringify(mini()).slice(0, -1)},"${key}":${raw}}`;
const nested = (open: string, inner: string, close: string, depth: number): string => open.repeat(depth) + inner + close.repeat(depth);
const split = (literal: string) => ({ type: 'Split', pattern: { String: literal }, behavior: 'Isolated' });
const added = (content: string, id: number, special = false) => ({ id, content, special, normalized: false });
const max = (limit: ModelLimit): number => MODEL_LIMITS[limit].max;

/** One file over each limit, and the value the message must give (undefined: the parse stops before counting). */
const OVER: [ModelLimit, string, () => string, number | undefined][] = [
  [
    'vocabulary',
    'a vocabulary one token over',
    () =>
      JSON.stringify({
        model: {
          type: 'BPE',
          vocab: Object.fromEntries(Array.from({ length: max('vocabulary') + 1 }, (_, i) => [`t${i}`, i])),
          merges: [],
        },
      }),
    undefined,
  ],
  [
    'merges',
    'merges one over',
    () => withRaw('model', `{"type":"BPE","vocab":{"a":0,"b":1,"ab":2},"merges":[${'"a b",'.repeat(max('merges'))}"a b"]}`),
    max('merges') + 1,
  ],
  [
    'addedTokens',
    'added tokens one over',
    () => JSON.stringify(mini({ added_tokens: Array.from({ length: max('addedTokens') + 1 }, (_, i) => added(`<${i}>`, 100 + i)) })),
    max('addedTokens') + 1,
  ],
  [
    'addedTokenLength',
    'an added token one unit too long',
    () => JSON.stringify(mini({ added_tokens: [added('a'.repeat(max('addedTokenLength') + 1), 100)] })),
    max('addedTokenLength') + 1,
  ],
  [
    'addedTokenChars',
    'added tokens too long all together',
    () =>
      JSON.stringify(
        mini({ added_tokens: Array.from({ length: max('addedTokenChars') / 256 + 1 }, (_, i) => added(`${i}`.padEnd(256, 'x'), 100 + i)) }),
      ),
    max('addedTokenChars') + 256,
  ],
  [
    'pipelineDepth',
    'normalizer Sequences nested 5,000 deep',
    () => withRaw('normalizer', nested('{"type":"Sequence","normalizers":[', '{"type":"NFC"}', ']}', 5000)),
    max('pipelineDepth') + 1,
  ],
  [
    'pipelineDepth',
    'pre-tokenizer Sequences nested 100,000 deep',
    () => withRaw('pre_tokenizer', nested('{"type":"Sequence","pretokenizers":[', JSON.stringify(split('x')), ']}', 100_000)),
    max('pipelineDepth') + 1,
  ],
  [
    'pipelineSteps',
    '3,000 flat Splits',
    () =>
      JSON.stringify(
        mini({
          pre_tokenizer: {
            type: 'Sequence',
            pretokenizers: Array.from({ length: 3000 }, (_, i) => split(String.fromCharCode(0x4e00 + i))),
          },
        }),
      ),
    max('pipelineSteps') + 1,
  ],
  [
    'pipelineSteps',
    '65 normalizers',
    () => JSON.stringify(mini({ normalizer: { type: 'Sequence', normalizers: Array(max('pipelineSteps') + 1).fill({ type: 'NFC' }) } })),
    max('pipelineSteps') + 1,
  ],
  [
    'replaceContent',
    'a Replace of one space by 10,000 characters',
    () => JSON.stringify(mini({ normalizer: { type: 'Replace', pattern: { String: ' ' }, content: 'a'.repeat(10_000) } })),
    10_000,
  ],
  ['replaceContent', 'a long Prepend', () => JSON.stringify(mini({ normalizer: { type: 'Prepend', prepend: '▁'.repeat(65) } })), 65],
  [
    'growth',
    'NFKD after a Replace of a space by 64 characters',
    () =>
      JSON.stringify(
        mini({
          normalizer: {
            type: 'Sequence',
            normalizers: [{ type: 'Replace', pattern: { String: ' ' }, content: 'a'.repeat(64) }, { type: 'NFKD' }],
          },
        }),
      ),
    64 * 18,
  ],
];

test('a tokenizer.json over a limit is refused before the work, with the limit, the value found and the published sizes', async () => {
  for (const [limit, what, file, value] of OVER) {
    const text = file();
    const started = performance.now();
    await assert.rejects(prepareHuggingFaceSliced(text), (e: unknown) => {
      assert.ok(e instanceof ModelLimitError, `${what}: ${String(e)}`);
      assert.equal(e.limit, limit, what);
      assert.equal(e.value, value, what);
      const { max, published } = MODEL_LIMITS[limit];
      assert.match(
        e.message,
        new RegExp(
          `more than the ${max.toLocaleString('en-US')} .* Token Lens accepts \\(published models: up to ${published.toLocaleString('en-US')}\\)`,
        ),
        what,
      );
      if (value !== undefined) assert.ok(e.message.includes(value.toLocaleString('en-US')), `${what}: ${e.message}`);
      return true;
    });
    // Before: 35 s for a 5-million-token vocabulary, a crash for the Replace, RangeErrors for the Sequences.
    assert.ok(performance.now() - started < 10_000, `${what}: refused in ${(performance.now() - started).toFixed(0)} ms`);
  }
});

test('at the limits a file loads and counts: the longest added token, the longest replacement, the most normalizers', () => {
  const tokens = [added(`${'a'.repeat(max('addedTokenLength') - 1)}b`, 100), added('a', 101)];
  const unitSteps = Array(max('pipelineSteps') - 1).fill({ type: 'Replace', pattern: { String: 'x' }, content: 'y' });
  const normalizers = [{ type: 'Replace', pattern: { String: 'c' }, content: 'c'.repeat(max('replaceContent')) }, ...unitSteps];
  const tokenizer = loadHuggingFaceTokenizer(JSON.stringify(mini({ added_tokens: tokens, normalizer: { type: 'Sequence', normalizers } })));
  assert.equal(tokenizer.count('a'.repeat(300)), 300); // every a is the short added token: the long one never ends
  assert.equal(tokenizer.count(`${'a'.repeat(255)}b`), 1);
  assert.equal(tokenizer.count('c'), max('replaceContent'));
});

/** The longest pause a sliced count makes, and its total. */
async function slicedCount(
  tokenizer: Parameters<typeof countAsync>[0],
  text: string,
): Promise<{ count: number; ms: number; pause: number }> {
  let pause = 0;
  let last = performance.now();
  let on = true;
  const tick = () => {
    const now = performance.now();
    pause = Math.max(pause, now - last);
    last = now;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  const started = performance.now();
  const count = await countAsync(tokenizer, text);
  on = false;
  return { count, ms: performance.now() - started, pause };
}

test('an added token that almost matches everywhere: 100,000 a with "a" and 255 a then b count in linear time and in slices', async () => {
  const tokens = [added(`${'a'.repeat(max('addedTokenLength') - 1)}b`, 100), added('a', 101)];
  const tokenizer = (await prepareHuggingFaceSliced(JSON.stringify(mini({ added_tokens: tokens })))).tokenizer();
  const { count, ms, pause } = await slicedCount(tokenizer, `${'a'.repeat(100_000)}b`);
  assert.equal(count, 100_000 - 255 + 1);
  // Quadratic (the whole rest read from each place): 20 s and one 10 s block before; linear in 256 per token here
  // (about 1 s and 8 ms slices on a quiet machine). The bounds leave room for a loaded CI machine's GC pauses.
  assert.ok(ms < 10_000, `counted in ${ms.toFixed(0)} ms`);
  assert.ok(pause < 500, `longest pause ${pause.toFixed(0)} ms`);
  // And linear, not merely fast enough on this machine: 8× the a, well under 8² the time.
  const [small, large] = [`${'a'.repeat(5_000)}b`, `${'a'.repeat(40_000)}b`];
  const linear = await linearRatio({ what: '8× the a', run: (text: string) => tokenizer.count(text), small, large, limit: 32 });
  assert.ok(linear.ratio < 32, linear.message);
});

test('added tokens are found as tokenizers.js finds them: leftmost, the longest there, on random overlapping tokens', () => {
  const contents = fc.uniqueArray(fc.stringMatching(/^[abc]{1,5}$/), { minLength: 1, maxLength: 8 });
  const text = fc.stringMatching(/^[abc ]{0,60}$/);
  fc.assert(
    fc.property(contents, text, (tokens, input) => {
      const json = mini({ added_tokens: tokens.map((content, i) => added(content, 100 + i)) });
      const want = new Reference(json, {}).encode(input, { add_special_tokens: false }).ids;
      assert.deepEqual(
        loadHuggingFaceTokenizer(JSON.stringify(json)).encode(input),
        want,
        `${JSON.stringify(tokens)} in ${JSON.stringify(input)}`,
      );
    }),
    { numRuns: 300, seed: 20261127 },
  );
});

test('added tokens are checked for both modes when the model loads: a special token the special mode cannot use is refused then', () => {
  const lstrip = mini({ added_tokens: [{ ...added('<s>', 100, true), lstrip: true }] });
  assert.throws(
    () => loadHuggingFaceTokenizer(JSON.stringify(lstrip)),
    (e: unknown) => e instanceof TokenizerJsonError && /uses lstrip/.test(e.message),
  );
  const normalized = mini({
    normalizer: { type: 'Replace', pattern: { String: 'a' }, content: 'b' },
    added_tokens: [{ ...added('<a>', 100, true), normalized: true }],
  });
  assert.throws(() => loadHuggingFaceTokenizer(JSON.stringify(normalized)), /matched after normalization/);
});
