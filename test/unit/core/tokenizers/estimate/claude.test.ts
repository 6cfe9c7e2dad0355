/**
 * claude (estimate) against two references, on the installed text (whole, and in slices) and on seeded hostile
 * random strings. Our count reads the rank file the build writes (esbuild.mjs) with our engine.
 * - ai-tokenizer, whose method it is: the count a user sees equals what its API gives a Claude model's text
 *   (its `claude` encoding × the model's content multiplier, rounded) on every text it reads as tiktoken does;
 * - tiktoken (the Rust reference, WASM) with the same rank file, i.e. the countTokens of Anthropic's
 *   @anthropic-ai/tokenizer without its NFKC step and with special-token text as text: the base count equals it
 *   on every text.
 * ai-tokenizer reads otherwise only text with U+FEFF, U+0085 or a piece named like a member of Object.prototype
 * (readOtherwise; a test below shows each): there Token Lens counts as tiktoken does.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Tiktoken } from 'tiktoken';
import { ESTIMATES, loadTokenizer, loadTokenizerSync, shownCount, type Tokenizer } from '../../../../../src/core/tokenizers/index';
import { readRankFile } from '../../../../../src/core/tokenizers/tiktoken/ranks';
import { summarize } from '../../../../../src/core/counts/summary';
import { compilePattern } from '../../../../../src/core/tokenizers/engine/pattern';
import { corpora, Rng, randomSlice, randomText, textWithLoneSurrogates } from '../../../../bench/textgen';

const CLAUDE = 'claude (estimate)';
const SEED = Number(process.env.DIFF_SEED ?? 0xc1a0de);

interface AiEncoding {
  pat_str: string;
  stringEncoder: Record<string, number>;
  special_tokens: Record<string, number>;
}
interface AiTokenizer {
  count(text: string): number;
  encode(text: string, allowedSpecial?: 'all'): number[];
}
interface AiModel {
  encoding: string;
  contextWindow: number;
  tokens: { contentMultiplier: number };
}
type AiCount = (options: { tokenizer: AiTokenizer; model: AiModel; messages: { role: 'user'; content: string }[] }) => {
  messages: { content: { type: string; total: number }[] }[];
};

const encoding = require('ai-tokenizer/encoding/claude') as AiEncoding;
const ai = require('ai-tokenizer') as { Tokenizer: new (e: AiEncoding) => AiTokenizer; models: Record<string, AiModel> };
const { count } = require('ai-tokenizer/sdk') as { count: AiCount };
const SONNET = ai.models['anthropic/claude-sonnet-4.5']!;
const theirs = new ai.Tokenizer(encoding);

const rankFile = readRankFile('claude');
const tiktoken = new Tiktoken(rankFile.bpe_ranks, rankFile.special_tokens, rankFile.pat_str);
after(() => tiktoken.free());

/**
 * Where ai-tokenizer reads text otherwise than tiktoken: it runs the pattern as a JavaScript RegExp, whose \s takes
 * U+FEFF and not U+0085 (Unicode White_Space, which tiktoken uses, is the other way round); it looks merged bytes up
 * through a TextDecoder, which drops a leading U+FEFF; and it looks pieces up in a plain object, where a piece named
 * like a member of Object.prototype ("hasOwnProperty", "__proto__") that is no token finds that member, one "token".
 */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype).filter((n) => !Object.hasOwn(encoding.stringEncoder, n)));
const jsPieces = new RegExp(encoding.pat_str, 'gu');
const readOtherwise = (text: string): boolean =>
  /[\u0085\ufeff]/.test(text) || (text.match(jsPieces) ?? []).some((piece) => PROTOTYPE_NAMES.has(piece));

/** ai-tokenizer's count of one user message's text for Claude Sonnet 4.5: the text part's total, without the message overhead. */
function theirCount(text: string): number {
  const result = count({ tokenizer: theirs, model: SONNET, messages: [{ role: 'user', content: text }] });
  return result.messages[0]!.content[0]?.total ?? 0; // an empty message has no text part
}

/** What Token Lens shows for `text`: the status bar's summary (round(base count × factor)). */
function ourCount(claude: Tokenizer, text: string): number {
  return summarize(CLAUDE, 'document', [text], claude.count(text)).tokens;
}

const show = (s: string): string => {
  const json = JSON.stringify(s);
  return json.length > 300 ? `${json.slice(0, 300)}… (${s.length} UTF-16 units)` : json;
};

function assertCounts(claude: Tokenizer, text: string, where: string): void {
  assert.equal(claude.count(text), tiktoken.encode_ordinary(text).length, `base count = tiktoken's, ${where}: ${show(text)}`);
  if (!readOtherwise(text)) assert.equal(ourCount(claude, text), theirCount(text), `shown = ai-tokenizer's, ${where}: ${show(text)}`);
}

test('every Claude model of ai-tokenizer counts with its claude encoding × 1.1 in a 200,000-token window, as claude (estimate) says', () => {
  const entry = ESTIMATES.find((e) => e.name === CLAUDE)!;
  const claudes = Object.entries(ai.models).filter(([id]) => id.startsWith('anthropic/'));
  assert.ok(claudes.length >= 10, `${claudes.length} Claude models`);
  for (const [id, model] of claudes) {
    assert.equal(model.encoding, entry.estimate.base, id);
    assert.equal(model.tokens.contentMultiplier, entry.estimate.factor, id);
    assert.equal(model.contextWindow, entry.contextWindow, id);
  }
});

test("claude (estimate) counts as ai-tokenizer's Claude Sonnet 4.5 and as tiktoken on the installed text: whole, and slices", async () => {
  const claude = await loadTokenizer(CLAUDE);
  for (const { name, text } of corpora()) {
    assert.ok(text.length > 100_000, `${name} has real text (${text.length} UTF-16 units)`);
    assertCounts(claude, text, `${name}, whole`);
    let at = 0;
    for (let chunk = 0; at < text.length; chunk++) {
      const size = [1, 7, 50, 300, 2_000, 20_000][chunk % 6]!;
      assertCounts(claude, text.slice(at, at + size), `${name}, slice at ${at}`);
      at += size;
    }
    const rng = new Rng(SEED);
    for (let i = 0; i < 200; i++) {
      assertCounts(claude, randomSlice(rng, text, rng.pick([1, 2, 5, 13, 80, 700, 5_000])), `${name}, random slice ${i} (seed ${SEED})`);
    }
  }
});

test(`claude (estimate) counts as ai-tokenizer and as tiktoken on seeded hostile random strings (seed ${SEED + 1})`, async () => {
  const claude = await loadTokenizer(CLAUDE);
  const rng = new Rng(SEED + 1);
  const texts = ['', ' ', 'a', 'Hello, world!', '\r\n\r\n', ' '.repeat(5_000), 'a'.repeat(20_000), '1234567890'.repeat(300)];
  for (let i = 0; i < 800; i++) texts.push(randomText(rng));
  for (let i = 0; i < 30; i++) texts.push(randomText(rng, 400));
  texts.forEach((text, i) => assertCounts(claude, text, `string ${i}`));
  assert.ok(texts.filter((t) => !readOtherwise(t)).length > 700, 'most strings are compared with ai-tokenizer too');
  // Lone surrogates: all three read them as U+FFFD (what TextEncoder makes of them).
  for (let i = 0; i < 100; i++) assertCounts(claude, textWithLoneSurrogates(rng), `lone surrogates ${i}`);
});

test('U+FEFF, U+0085, "hasOwnProperty": ai-tokenizer reads them otherwise; Token Lens counts as tiktoken with Anthropic’s vocabulary', () => {
  const claude = loadTokenizerSync(CLAUDE);
  // JavaScript's \s takes U+FEFF and lacks U+0085: ai-tokenizer cuts the text into other pieces than tiktoken does.
  const js = (text: string) => text.match(new RegExp(encoding.pat_str, 'gu'));
  const rust = (text: string) => text.match(compilePattern(encoding.pat_str));
  assert.deepEqual(js('a\u0085\u0085b'), ['a', '\u0085\u0085', 'b']);
  assert.deepEqual(rust('a\u0085\u0085b'), ['a', '\u0085', '\u0085', 'b']);
  assert.deepEqual(js('\t\t\ufeff'), ['\t\t\ufeff']);
  assert.deepEqual(rust('\t\t\ufeff'), ['\t', '\t', '\ufeff']);
  // And its TextDecoder drops the U+FEFF of merged bytes: "\ufeff\n" is one "\n" token to it.
  assert.equal(theirs.count('\ufeff\n'), 1);
  assert.equal(claude.count('\ufeff\n'), 2);
  assert.equal(theirs.count('\t\t\ufeff'), 2);
  assert.equal(claude.count('\t\t\ufeff'), 3);
  // And its plain-object lookup finds Object.prototype.hasOwnProperty: one "token", where the vocabulary has three.
  assert.ok(PROTOTYPE_NAMES.has('hasOwnProperty') && PROTOTYPE_NAMES.has('__proto__'));
  assert.equal(theirs.count('hasOwnProperty'), 1);
  assert.equal(claude.count('hasOwnProperty'), 3);
  assert.equal(theirs.count('x.hasOwnProperty(y)'), claude.count('x.hasOwnProperty(y)') - 2);
  for (const text of [
    'hasOwnProperty',
    '__proto__',
    'x.valueOf()',
    '\ufeff\n',
    'x\ufeff\ufeff y',
    '\t\t\ufeff',
    'a\u0085\u0085b',
    ' \u0085\u0085x',
    '\ufeff# Title\n',
  ]) {
    assert.equal(claude.count(text), tiktoken.encode_ordinary(text).length, show(text));
  }
});

test("Claude's special-token text is ordinary text: counted as ai-tokenizer counts ordinary text (its count refuses it)", () => {
  const claude = loadTokenizerSync(CLAUDE);
  const specials = Object.keys(encoding.special_tokens);
  assert.deepEqual(specials.sort(), ['<EOT>', '<META>', '<META_END>', '<META_START>', '<SOS>']);
  for (const text of [...specials, 'a<EOT>b', ' <META_START>x<META_END> ', '<SOS><SOS>']) {
    assert.throws(() => theirCount(text), /disallowed special token/, text);
    // encode(text, 'all') is ai-tokenizer's ordinary encoding: every special token's text as text.
    assert.equal(ourCount(claude, text), Math.round(theirs.encode(text, 'all').length * 1.1), text);
    assert.equal(claude.count(text), tiktoken.encode_ordinary(text).length, text);
  }
  // With special tokens on (tokenLens.specialTokens), each is one token, as in Anthropic's own countTokens.
  const special = loadTokenizerSync(CLAUDE, { specialTokens: 'special' });
  assert.equal(shownCount(special.info, special.count('<EOT>')), 1);
  assert.equal(special.count('a<EOT>b'), tiktoken.encode('a<EOT>b', 'all').length);
});
