/**
 * Differential tests: the engine's token ids must equal tiktoken's (OpenAI's Rust reference, built to
 * WASM; o200k_harmony built from its parts, tiktokenOracle.ts) for every encoding, on real text (what `npm ci` installs, plus the shared 1 MiB corpus when
 * present) and on seeded random hostile Unicode. A failure prints the seed and a shrunk reproducer
 * (expected vs got), so it can be replayed without the random loop.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Tiktoken } from 'tiktoken';
import { ENCODING_NAMES, countChars, loadTokenizerSync, type EncodingName, type Tokenizer } from '../../../../../src/core/tokenizers/index';
import { tiktokenOracle } from '../../../../support/tiktokenOracle';
import { corpora, Rng, randomSlice, randomText, textWithLoneSurrogates } from '../../../../bench/textgen';
import { cachedEncoder, fileHash, packageVersion, type ReferenceKey } from '../../../../support/referenceCache';

const CORPORA = corpora();
const SEED = Number(process.env.DIFF_SEED ?? 0x70c3e1);
const RANDOM_STRINGS = Number(process.env.DIFF_STRINGS ?? 600);

const oracles = new Map<string, Tiktoken>();
function oracle(name: EncodingName): Tiktoken {
  let enc = oracles.get(name);
  if (!enc) oracles.set(name, (enc = tiktokenOracle(name)));
  return enc;
}
after(() => {
  for (const enc of oracles.values()) enc.free();
});

const show = (s: string): string => {
  const json = JSON.stringify(s);
  return json.length > 400 ? `${json.slice(0, 400)}… (${s.length} UTF-16 units)` : json;
};

function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** Removes code points while `fails` still holds: a small input that shows the same disagreement. */
function shrink(text: string, fails: (s: string) => boolean): string {
  let chars = [...text];
  for (let chunk = Math.max(1, chars.length >> 1); chunk >= 1; chunk = chunk >> 1) {
    for (let i = 0; i + chunk <= chars.length;) {
      const candidate = chars.slice(0, i).concat(chars.slice(i + chunk));
      if (candidate.length > 0 && fails(candidate.join(''))) chars = candidate;
      else i += chunk;
    }
    if (chunk === 1) break;
  }
  return chars.join('');
}

type Encoder = (text: string) => ArrayLike<number>;

/** Asserts got(text) == expected(text), and answers got(text); on failure shrinks the input and reports both id lists. */
function assertSameIds(label: string, text: string, expected: Encoder, got: Encoder, context = ''): ArrayLike<number> {
  const want = expected(text);
  const have = got(text);
  const at = firstDifference(want, have);
  if (at < 0) return have;
  const fails = (s: string): boolean => {
    try {
      return firstDifference(expected(s), got(s)) >= 0;
    } catch {
      return true;
    }
  };
  const small = text.length <= 20_000 ? shrink(text, fails) : text;
  const sw = Array.from(expected(small));
  const sh = Array.from(got(small));
  assert.fail(
    `${label}: token ids differ from tiktoken ${context}\n` +
      `  input (${text.length} units) first differs at token ${at}: expected ${want[at]} got ${have[at]}; lengths ${want.length} vs ${have.length}\n` +
      `  minimal reproducer: ${show(small)}\n` +
      `  expected (tiktoken): [${sw.join(', ')}]\n` +
      `  got (Token Lens):    [${sh.join(', ')}]`,
  );
}

const utf8 = new TextEncoder();
/** Lone surrogates replaced by U+FFFD, as TextEncoder (and String.prototype.toWellFormed) do. */
const wellFormed = (s: string): string => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** Spec 2.2 / 4.1 rules and the span contract, for any tokenizer. */
function assertTokenizeRules(tokenizer: Tokenizer, text: string, context: string): void {
  const result = tokenizer.tokenize(text);
  const where = `${tokenizer.info.name} on ${show(text)} ${context}`;
  assert.equal(result.tokenizer, tokenizer.info.name, where);
  assert.equal(result.text, text, where);
  assert.equal(result.n_tokens, result.tokens.length, `n_tokens = tokens.length: ${where}`);
  assert.equal(result.n_tokens, result.token_ids.length, `n_tokens = token_ids.length: ${where}`);
  assert.equal(result.n_chars, [...text].length, `n_chars counts code points: ${where}`);
  assert.equal(result.n_tokens, tokenizer.count(text), `n_tokens = count(text): ${where}`);
  assert.deepEqual(result.token_ids, tokenizer.encode(text), `token_ids = encode(text): ${where}`);

  const spans = tokenizer.spans(text);
  assert.equal(spans.length, result.n_tokens, `spans.length: ${where}`);
  let prevStart = 0;
  let prevEnd = 0;
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i]!;
    assert.equal(s.id, result.token_ids[i], `span ${i} id: ${where}`);
    assert.ok(s.start >= 0 && s.start < s.end && s.end <= text.length, `span ${i} [${s.start}, ${s.end}) in range: ${where}`);
    assert.ok(s.start >= prevStart && s.end >= prevEnd, `span ${i} monotonic: ${where}`);
    if (tokenizer.info.kind !== 'whitespace') {
      // Contiguous cover: no gap between tokens; only tokens that share a character overlap.
      if (i === 0) assert.equal(s.start, 0, `first span starts at 0: ${where}`);
      else if (spans[i - 1]!.partial && s.partial) assert.ok(s.start <= prevEnd, `span ${i} no gap: ${where}`);
      else assert.equal(s.start, prevEnd, `span ${i} starts where span ${i - 1} ends: ${where}`);
    }
    const slice = text.slice(s.start, s.end);
    if (!s.partial) {
      assert.deepEqual(Array.from(s.bytes), Array.from(utf8.encode(slice)), `span ${i} bytes = UTF-8 of its range: ${where}`);
      assert.equal(result.tokens[i], slice, `tokens[${i}] is the token's text: ${where}`);
    }
    prevStart = s.start;
    prevEnd = s.end;
  }
  if (tokenizer.info.kind !== 'whitespace') {
    if (text.length > 0) assert.equal(prevEnd, text.length, `spans cover the text: ${where}`);
    const joined = Buffer.concat(spans.map((s) => s.bytes));
    assert.ok(joined.equals(Buffer.from(utf8.encode(text))), `concatenated span bytes = UTF-8 of the text: ${where}`);
  }
}

/** tiktoken's answers on long texts are kept in the reference cache (test/support/referenceCache.ts): it is quadratic on long pieces. */
const referenceKey = (name: EncodingName): ReferenceKey => ({
  reference: `tiktoken@${packageVersion('tiktoken')} ${name}`,
  // o200k_harmony is built in tiktokenOracle.ts: its source is part of the key too.
  modelHash: fileHash(require.resolve('../../../../support/tiktokenOracle')),
});

const sampleTexts = (seed: number, n: number): string[] => {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => randomText(rng));
};

for (const name of ENCODING_NAMES) {
  describe(`differential ${name} vs tiktoken`, () => {
    const engine = loadTokenizerSync(name);
    const special = loadTokenizerSync(name, { specialTokens: 'special' });
    const ordinary: Encoder = (s) => oracle(name).encode_ordinary(s);
    const allSpecial: Encoder = (s) => oracle(name).encode(s, 'all');
    const mine: Encoder = (s) => engine.encode(s);
    const mineSpecial: Encoder = (s) => special.encode(s);

    for (const { name: corpusName, text: corpus } of CORPORA) {
      test(`${corpusName}: whole, and slices`, () => {
        assert.ok(corpus.length > 100_000, `${corpusName} has real text (${corpus.length} UTF-16 units)`);
        const want = cachedEncoder(referenceKey(name), [corpus], ordinary)(corpus);
        const have = engine.encode(corpus);
        const at = firstDifference(want, have);
        if (at >= 0) {
          // Localise: find the smallest corpus slice around the first differing token that still differs.
          const tokensBefore = new TextDecoder().decode(
            oracle(name).decode(Uint32Array.from(Array.from(want).slice(0, Math.max(0, at - 5)))),
          ).length;
          const window = corpus.slice(Math.max(0, tokensBefore - 200), tokensBefore + 400);
          assertSameIds(name, window, ordinary, mine, `(${corpusName}, near UTF-16 offset ${tokensBefore})`);
          assert.fail(
            `${name}: ${corpusName} ids differ at token ${at} (expected ${want[at]}, got ${have[at]}); lengths ${want.length} vs ${have.length}`,
          );
        }
        assert.equal(engine.count(corpus), want.length, 'count(corpus)');
        const rng = new Rng(SEED ^ 0x5eed);
        const slices = Array.from({ length: 60 }, () => randomSlice(rng, corpus, rng.pick([1, 7, 50, 300, 2_000, 20_000])));
        const expected = cachedEncoder(referenceKey(name), slices, ordinary);
        slices.forEach((slice, i) => {
          const ids = assertSameIds(name, slice, expected, mine, `(${corpusName} slice ${i}, seed ${SEED ^ 0x5eed})`);
          assert.equal(engine.count(slice), ids.length);
        });
      });
    }

    test(`${RANDOM_STRINGS} seeded random Unicode strings (seed ${SEED})`, () => {
      const texts = sampleTexts(SEED, RANDOM_STRINGS);
      texts.forEach((text, i) => {
        const ids = assertSameIds(name, text, ordinary, mine, `(random string ${i}, seed ${SEED}; rerun with DIFF_SEED=${SEED})`);
        assert.equal(engine.count(text), ids.length, `count = encode().length on ${show(text)}`);
      });
      // Long mixed strings: pieces meet each other in every order.
      const rng = new Rng(SEED + 1);
      for (let i = 0; i < 20; i++) {
        const text = randomText(rng, 400);
        assertSameIds(name, text, ordinary, mine, `(long random string ${i}, seed ${SEED + 1})`);
      }
    });

    test('long pieces (the heap merge path) and runs of one character', () => {
      const rng = new Rng(SEED + 2);
      const alphabets = [
        'ab',
        'aab',
        'abc',
        'xyz',
        'abcdefghijklmnopqrstuvwxyz',
        'ABCDEFabcdef',
        'qwertyuiopQWERTY',
        'ёжзий',
        '的一是不了人',
        'é',
      ];
      const texts: string[] = [];
      for (const n of [127, 128, 129, 130, 200, 255, 256, 257, 1000, 4000]) {
        for (const c of ['a', ' ', '0', '9', '\n', '\t', '!', '=', 'é', '的', '👍', 'ab', ' a', 'a '])
          texts.push(c.repeat(Math.ceil(n / c.length)));
      }
      for (let i = 0; i < 150; i++) {
        const alphabet = [...rng.pick(alphabets)];
        const n = rng.int(60, 3000);
        let s = '';
        for (let k = 0; k < n; k++) s += rng.pick(alphabet);
        texts.push((rng.chance(0.5) ? ' ' : '') + s);
      }
      for (let i = 0; i < 30; i++) texts.push('a'.repeat(rng.int(100, 3000)) + 'b' + 'a'.repeat(rng.int(0, 500)));
      // A few really long pieces (tiktoken itself is quadratic on them: ~0.4 s each at 20,000).
      let letters = '';
      for (let k = 0; k < 20_000; k++) letters += rng.pick([...'abcdefghijklmnopqrstuvwxyz']);
      texts.push('a'.repeat(20_000), ' '.repeat(20_000) + 'x', letters);
      const expected = cachedEncoder(referenceKey(name), texts, ordinary);
      texts.forEach((text, i) => assertSameIds(name, text, expected, mine, `(long piece ${i}, seed ${SEED + 2})`));
    });

    test(`specialTokens: 'special' equals tiktoken encode(text, 'all')`, () => {
      const texts = sampleTexts(SEED + 3, Math.ceil(RANDOM_STRINGS / 2));
      texts.push(
        '<|endoftext|>',
        '<|endoftext|><|endoftext|>',
        'a<|endoftext|>b',
        ' <|endoftext|> ',
        '<|endoftext',
        '<|fim_prefix|>x<|fim_suffix|>y<|fim_middle|>',
        '<<|endoftext|>>',
        '<|endofprompt|>',
        '<|start|>user<|message|>Hi<|end|><|start|>assistant<|channel|>final<|message|>Hello!<|return|>',
        '<|startoftext|><|constrain|>json<|call|>',
        '<|reserved_200018|><|endofprompt|><|reserved_200000|><|reserved_201087|>',
        '<|reserved_201088|> <|reserved_199997|> <|reserved_200002|> <|reserved_|> <|start|',
        '',
      );
      texts.forEach((text, i) => {
        assertSameIds(`${name} (special)`, text, allSpecial, mineSpecial, `(string ${i}, seed ${SEED + 3})`);
        assert.equal(special.count(text), special.encode(text).length, `count = encode().length (special) on ${show(text)}`);
      });
      // And in text mode, special-token text is ordinary text.
      assertSameIds(name, 'x<|endoftext|>y', ordinary, mine);
      assert.ok(
        !engine.encode('<|endoftext|>').includes(oracle(name).encode('<|endoftext|>', 'all')[0]!),
        'text mode never yields the special id',
      );
    });

    test('tokenize follows spec 4.1 and spans cover the text', () => {
      const texts = sampleTexts(SEED + 4, 150);
      texts.push('', 'a', '👍', '👨‍👩‍👧‍👦', '🇺🇸🇯🇵', 'é', 'e\u0301', '\r\n', '日本語のテキスト', 'Hello, world!', '<|endoftext|>');
      for (const text of texts) {
        assertTokenizeRules(engine, text, '');
        assertTokenizeRules(special, text, '(special)');
      }
      assert.equal(engine.tokenize('👍').n_chars, 1);
    });

    test('does not throw on lone surrogates (and encodes them as U+FFFD, as TextEncoder does)', () => {
      const rng = new Rng(SEED + 5);
      const texts = ['\ud800', '\udc00', 'a\ud83d', '\ud83d a', '\udc4d\ud83d', 'x\ud800\ud800y', '\ud83d\ud83d\udc4d'];
      for (let i = 0; i < 100; i++) texts.push(textWithLoneSurrogates(rng));
      for (const text of texts) {
        for (const tk of [engine, special]) {
          const ids = tk.encode(text);
          assert.equal(tk.count(text), ids.length, `count = encode().length on ${show(text)}`);
          const result = tk.tokenize(text);
          assert.equal(result.n_tokens, ids.length);
          assert.equal(result.n_chars, countChars(text));
          const spans = tk.spans(text);
          assert.equal(spans.length, ids.length);
        }
        assertSameIds(name, text, (s) => ordinary(wellFormed(s)), mine, '(lone surrogates read as U+FFFD)');
      }
    });
  });
}

describe('comparison tokenizers follow spec 4.1 on random text', () => {
  for (const name of ['character', 'whitespace']) {
    test(`${name}: tokenize rules, spans, count = encode().length, lone surrogates do not throw`, () => {
      const tk = loadTokenizerSync(name);
      const texts = sampleTexts(SEED + 6, 200);
      texts.push('', '👍', '👨‍👩‍👧‍👦', 'e\u0301', '\r\n', '  a  b  ', '<|endoftext|>');
      for (const text of texts) {
        assertTokenizeRules(tk, text, '');
        assert.equal(tk.count(text), tk.encode(text).length, `count = encode().length on ${show(text)}`);
        if (name === 'character') {
          const result = tk.tokenize(text);
          assert.equal(result.n_tokens, result.n_chars, `character: one token per code point on ${show(text)}`);
          assert.deepEqual(result.tokens, [...text], `character: each token is one code point on ${show(text)}`);
        } else {
          for (const token of tk.tokenize(text).tokens)
            assert.ok(!/^\p{White_Space}+$/u.test(token), `whitespace: no separator (White_Space) tokens on ${show(text)}`);
        }
      }
      const rng = new Rng(SEED + 7);
      for (let i = 0; i < 50; i++) {
        const text = textWithLoneSurrogates(rng);
        assert.equal(tk.count(text), tk.encode(text).length);
        assert.equal(tk.tokenize(text).n_chars, countChars(text));
      }
      assert.equal(tk.tokenize('👍').n_chars, 1);
      if (name === 'character') assert.equal(tk.count('👍🏽'), 2, 'an emoji with a skin tone is two code points');
    });
  }
});
