/**
 * model.vocab and model.merges read in place from the text (modelTables.ts, vocab.ts) against the same file parsed
 * first (JSON.parse, the path of a parsed object): the same ids for every text, or the same refusal, on generated
 * models with escapes, duplicate tokens and ids, surrogates, <0xXX> tokens, byte-level tokens outside the byte
 * alphabet, merges as "a b" and ["a", "b"], compact and indented files and ids the in-place reader leaves to the
 * parser (1.0, 1e0). The real files' loads are checked against tokenizers.js in huggingFace.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { loadHuggingFaceTokenizer, TokenizerJsonError } from '../../../../../src/core/tokenizers/huggingFace/huggingFace';

const { Tokenizer: Reference } = require('@huggingface/tokenizers') as {
  Tokenizer: new (json: unknown, config: unknown) => { encode(text: string, options: { add_special_tokens: boolean }): { ids: number[] } };
};

/** GPT-2's byte alphabet, each byte's character. */
const BYTE_CHARS = (() => {
  const out: string[] = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    out.push(String.fromCharCode(printable ? b : 0x100 + extra++));
  }
  return out;
})();

const UNITS = ['a', 'b', '▁', '"', '\\', '\n', 'é', '\ud83d', '\ude00', '<0x41>', 'Ġ', ' ', 'x▁'];
const piece = fc.array(fc.constantFrom(...UNITS), { minLength: 1, maxLength: 3 }).map((u) => u.join(''));

interface Model {
  byteLevel: boolean;
  /** Vocabulary members in file order (a token may come twice). */
  members: [string, number | string][];
  merges: [string, string][];
  joined: boolean[];
  indent: number | undefined;
}

const model: fc.Arbitrary<Model> = fc
  .record({
    byteLevel: fc.boolean(),
    extra: fc.uniqueArray(piece, { maxLength: 12 }),
    pairs: fc.array(fc.tuple(fc.nat(40), fc.nat(40), fc.boolean()), { maxLength: 12 }),
    oddIds: fc.array(fc.tuple(fc.nat(40), fc.constantFrom('1.0', '1e0', '07', '-1', '16777216', '"3"')), { maxLength: 1 }),
    repeat: fc.array(fc.tuple(fc.nat(60), fc.nat(80)), { maxLength: 2 }),
    indent: fc.constantFrom(undefined, 2),
  })
  .map(({ byteLevel, extra, pairs, oddIds, repeat, indent }) => {
    const base = byteLevel ? BYTE_CHARS : ['a', 'b', '▁', '"', '\\', '\n', 'é', '<0x41>', '<0x0A>'];
    const tokens = [...new Set([...base, ...extra])];
    const merges: [string, string][] = [];
    const joined: boolean[] = [];
    for (const [i, j, asPair] of pairs) {
      const [a, b] = [tokens[i % tokens.length]!, tokens[j % tokens.length]!];
      if (!tokens.includes(a + b) && (i + j) % 5 !== 0) tokens.push(a + b); // sometimes a merge that makes no token
      merges.push([a, b]);
      joined.push(!asPair && !a.includes(' ') && !b.includes(' ') && a.length > 0);
    }
    const members: [string, number | string][] = tokens.map((t, id) => [t, id]);
    for (const [at, raw] of oddIds) if (members.length > at) members[at] = [members[at]![0], raw];
    for (const [from, id] of repeat) members.push([members[from % members.length]![0], id]);
    return { byteLevel, members, merges, joined, indent };
  });

/** The file's text, written by hand: JSON.stringify writes no member twice and no id as 1.0. */
function fileText(m: Model): string {
  const nl = m.indent ? '\n    ' : '';
  const vocab = m.members.map(([t, id]) => `${nl}${JSON.stringify(t)}: ${id}`).join(',');
  const merges = m.merges.map(([a, b], i) => nl + JSON.stringify(m.joined[i] ? `${a} ${b}` : [a, b], null, m.indent)).join(',');
  const pre = m.byteLevel ? { type: 'ByteLevel', add_prefix_space: false, use_regex: true } : null;
  const head = JSON.stringify({ normalizer: null, pre_tokenizer: pre, added_tokens: [] }).slice(0, -1);
  return `${head},"model":{"type":"BPE","byte_fallback":${!m.byteLevel},"vocab":{${vocab}},"merges":[${merges}]}}`;
}

type Outcome = { ids: number[][] } | { refused: string };

function outcome(load: () => { encode(text: string): number[] }, texts: string[]): Outcome {
  try {
    const tokenizer = load();
    return { ids: texts.map((t) => tokenizer.encode(t)) };
  } catch (e) {
    assert.ok(e instanceof TokenizerJsonError, String(e));
    return { refused: e.message };
  }
}

test('a file read in place gives the ids or the refusal of the same file parsed first, on generated models', () => {
  const texts = ['ab a\n"\\é', 'x▁ab▁▁b', '😀 é\n\nba', 'AAa'];
  let counted = 0;
  fc.assert(
    fc.property(model, (m) => {
      const text = fileText(m);
      const inPlace = outcome(() => loadHuggingFaceTokenizer(text), texts);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        assert.match('refused' in inPlace ? inPlace.refused : '', /not valid JSON/, text); // an id written 07
        return;
      }
      assert.deepEqual(
        inPlace,
        outcome(() => loadHuggingFaceTokenizer(json as never), texts),
        text,
      );
      if ('ids' in inPlace) counted++;
    }),
    { numRuns: 400, seed: 20261127 },
  );
  assert.ok(counted > 50, `${counted} of 400 generated models load`);
});

test('read in place, a SentencePiece-style model with escapes and surrogates gives tokenizers.js ids', () => {
  const vocab = '"<unk>": 0, "a": 1, "b": 2, "\\n": 3, "a\\n": 4, "\\ud83d": 5, "\\ude00": 6, "\\ud83d\\ude00": 7, "ab": 8';
  const merges = '["a", "\\n"], ["a", "b"], ["\\ud83d", "\\ude00"]';
  const text = `{"normalizer":null,"pre_tokenizer":null,"decoder":null,"post_processor":null,"added_tokens":[],"model":{"type":"BPE","unk_token":"<unk>","vocab":{${vocab}},"merges":[${merges}]}}`;
  const ours = loadHuggingFaceTokenizer(text);
  const reference = new Reference(JSON.parse(text), {});
  for (const input of ['a\nab', 'b😀a', 'aab\n\n😀']) {
    assert.deepEqual(ours.encode(input), reference.encode(input, { add_special_tokens: false }).ids, JSON.stringify(input));
  }
});
