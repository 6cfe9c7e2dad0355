/**
 * o200k_harmony (gpt-oss's encoding) against gpt-tokenizer's o200k_harmony, an implementation written apart from
 * Token Lens, and the one rank table it shares with o200k_base. (differential.test.ts compares it with tiktoken's
 * core too, in both modes and with any number of special tokens.) Its own process: nothing is loaded yet.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encode as gptEncode } from 'gpt-tokenizer/encoding/o200k_harmony';
import { encode as gptEncodeBase } from 'gpt-tokenizer/encoding/o200k_base';
import { getEncodingStats, isLoaded, loadTokenizer, loadTokenizerSync } from '../../../../../src/core/tokenizers/index';
import { corpora, Rng, randomText } from '../../../../bench/textgen';
import { gptTokenizerHarmonySpecials } from '../../../../support/tiktokenOracle';

const SEED = Number(process.env.DIFF_SEED ?? 0x4a2d);
const asText = (s: string): number[] => gptEncode(s, { disallowedSpecial: new Set() });
/**
 * Without U+FEFF and U+0085, where gpt-tokenizer's pattern (JavaScript's \s: U+FEFF is whitespace, U+0085 is not)
 * differs from tiktoken's (Rust's \s, Unicode White_Space: the other way round). tiktoken's o200k_base encodes
 * " \ufeff\ufeffp" as [71280, 5574, 79] and "\t\t\u0085" as [335, 126, 227], Token Lens too; gpt-tokenizer 4.0.0 as
 * [71280, 5416, 123, 79] and [197, 197, 126, 227]. (differential.test.ts keeps both, against tiktoken.)
 */
const comparable = (s: string): string => s.replace(/[\ufeff\u0085]/g, '');

test('o200k_base and o200k_harmony read one rank table, built once, and each keeps its own special tokens', async () => {
  assert.deepEqual(getEncodingStats(), [], 'nothing is loaded at import');
  const harmony = loadTokenizerSync('o200k_harmony', { specialTokens: 'special' });
  const [first] = getEncodingStats();
  assert.deepEqual([first?.ranks, first?.encodings], ['o200k_base', ['o200k_harmony']]);
  assert.equal(isLoaded('o200k_base'), true, 'o200k_base needs nothing more');

  const base = await loadTokenizer('o200k_base', { specialTokens: 'special' });
  const stats = getEncodingStats();
  assert.equal(stats.length, 1, `one table for both: ${JSON.stringify(stats)}`);
  assert.deepEqual(stats[0], { ...first!, encodings: ['o200k_harmony', 'o200k_base'] }, 'the same build: load time and size unchanged');
  assert.ok(stats[0].tokens > 199_000, `${stats[0].tokens} tokens`);

  const chat = '<|start|>user<|message|>Hi<|end|><|endoftext|>';
  assert.deepEqual(harmony.encode(chat), [200006, ...asText('user'), 200008, ...asText('Hi'), 200007, 199999]);
  assert.deepEqual(
    base.encode(chat),
    gptEncodeBase(chat.replace('<|endoftext|>', ''), { disallowedSpecial: new Set() }).concat(199999),
    "o200k_base's special tokens are its own, whichever encoding built the table",
  );
});

test("the special tokens are gpt-tokenizer's o200k_harmony list: the Harmony tokens, reserved ids to 201087 and <|endofprompt|>", () => {
  const tokenizer = loadTokenizerSync('o200k_harmony', { specialTokens: 'special' });
  const specials = Object.entries(gptTokenizerHarmonySpecials());
  assert.equal(specials.length, 1091);
  for (const [text, id] of specials) assert.deepEqual(tokenizer.encode(text), [id], text);
  assert.deepEqual(tokenizer.encode('<|reserved_201088|>'), asText('<|reserved_201088|>'), 'past the last id it is text');
});

test('as text: the ids of gpt-tokenizer on the installed text and seeded random strings (but U+FEFF and U+0085)', () => {
  const tokenizer = loadTokenizerSync('o200k_harmony');
  for (const { name, text: corpus } of corpora()) {
    const text = comparable(corpus);
    assert.ok(same(tokenizer.encode(text), asText(text)), name);
  }
  const rng = new Rng(SEED);
  for (let i = 0; i < 600; i++) {
    const text = comparable(randomText(rng));
    assert.deepEqual(tokenizer.encode(text), asText(text), `random string ${i} (seed ${SEED}): ${JSON.stringify(text)}`);
  }
});

/**
 * gpt-tokenizer 4.0.0 recognizes an allowed special token only at the very start of the text: its special-token regex
 * is sticky (flag y), so the search from a position finds one only right there, and adds that position to the index
 * twice. ("x<|start|>" is [87, 27, 91, 5236, 91, 29] there; tiktoken: [87, 200006].) So these texts start with one
 * and hold no other.
 */
test('as special tokens: the ids of gpt-tokenizer where it allows them (one special token, at the start)', () => {
  const tokenizer = loadTokenizerSync('o200k_harmony', { specialTokens: 'special' });
  const specials = Object.keys(gptTokenizerHarmonySpecials());
  const rng = new Rng(SEED + 1);
  for (let i = 0; i < 600; i++) {
    const rest = comparable(randomText(rng)).split('<|').join('< |');
    const text = (i < specials.length && i < 40 ? specials[i]! : rng.pick(specials)) + rest;
    const want = gptEncode(text, { allowedSpecial: 'all' });
    assert.deepEqual(tokenizer.encode(text), want, `string ${i} (seed ${SEED + 1}): ${JSON.stringify(text)}`);
  }
});

function same(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
