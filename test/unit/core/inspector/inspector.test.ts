import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULT_OPTIONS,
  isFromWebview,
  isSegmentTable,
  isToWebview,
  sanitizeOptions,
  type RenderMessage,
} from '../../../../src/webviews/inspector/protocol';
import { buildSegmentTable, toWireTable, type SegmentTable } from '../../../../src/core/inspector/segments';
import { canSlice, chunkTable, SAFE_CUT, SLICE_THRESHOLD, tableSliced, walkTable } from '../../../../src/core/inspector/tokenize';
import { tokenizeAsync } from '../../../../src/core/tokenizers/sliced';
import { PAGE_MESSAGES, translatePage } from '../../../../src/core/inspector/strings';
import { loadTokenizerSync, TOKENIZER_NAMES } from '../../../../src/core/tokenizers/index';
import { substitute } from '../../../../src/core/util/locale';
import { Rng, randomText } from '../../../bench/textgen';

function renderMessage(text: string): RenderMessage {
  const spans = loadTokenizerSync('cl100k_base').spans(text);
  return {
    type: 'render',
    seq: 1,
    source: 'a.md',
    scope: 'document',
    text,
    nChars: [...text].length,
    tokenizers: [...TOKENIZER_NAMES],
    primary: { tokenizer: 'cl100k_base', nTokens: spans.length, table: toWireTable(buildSegmentTable(text, spans)) },
    options: DEFAULT_OPTIONS,
    origin: [0, 0],
  };
}

test('protocol: well-formed messages pass both guards', () => {
  const render = renderMessage('Hello 👍 <img src=x onerror=alert(1)>');
  assert.ok(isToWebview(render));
  assert.ok(isToWebview({ ...render, compare: render.primary, mark: [0, 3] }));
  assert.ok(isToWebview({ type: 'mark', seq: 1, start: 0, end: 0, reveal: true }));
  assert.ok(isToWebview({ type: 'empty', seq: 2, reason: 'no editor', tokenizers: ['a'], tokenizer: 'a', options: DEFAULT_OPTIONS }));
  assert.ok(isToWebview({ type: 'test', action: 'click', pane: 0, segment: 3 }));
  // Ready is the webview base's: its state is whatever the page persisted, read through sanitizeOptions.
  assert.ok(isFromWebview({ type: 'ready', state: { options: DEFAULT_OPTIONS } }));
  assert.ok(isFromWebview({ type: 'ready' }));
  assert.deepEqual(sanitizeOptions({ showIds: 'yes', showWhitespace: false, compare: null }), sanitizeOptions(undefined));
  assert.ok(isFromWebview({ type: 'options', options: { showIds: true, showWhitespace: true, compare: 'o200k_base' } }));
  assert.ok(isFromWebview({ type: 'select', seq: 1, start: 2, end: 5 }));
  assert.ok(isFromWebview({ type: 'setTokenizer', tokenizer: 'gpt2' }));
  assert.ok(isFromWebview({ type: 'copyIds', pane: 1 }));
});

test('protocol: unknown and malformed messages are rejected', () => {
  const render = renderMessage('Hello world');
  const bad: unknown[] = [
    null,
    undefined,
    42,
    'ready',
    [],
    {},
    { type: 'nope' },
    { type: '__proto__' },
    { type: 'select', seq: 1, start: 5, end: 2 },
    { type: 'select', seq: 1, start: -1, end: 2 },
    { type: 'select', seq: 1, start: 0.5, end: 2 },
    { type: 'select', seq: '1', start: 0, end: 2 },
    { type: 'copyIds', pane: 2 },
    { type: 'setTokenizer', tokenizer: 7 },
    { type: 'setTokenizer', tokenizer: 'x'.repeat(1000) },
    { type: 'rendered', seq: 1 },
    { type: 'painted', seq: 1 },
  ];
  for (const message of bad) assert.equal(isFromWebview(message), false, JSON.stringify(message));
  const badToWebview: unknown[] = [
    null,
    { type: 'render' },
    { ...render, seq: -1 },
    { ...render, text: 5 },
    { ...render, text: render.text + 'x' }, // table no longer ends at the text's end
    { ...render, primary: { ...render.primary, nTokens: 3 } },
    { ...render, primary: { ...render.primary, table: { ...render.primary.table, bounds: [0, 5, 3, render.text.length] } } },
    { ...render, primary: { ...render.primary, table: { ...render.primary.table, ids: ['1', 2] } } },
    { ...render, mark: [3, 1] },
    { ...render, options: {} },
    { ...render, scope: 'everything' },
    { type: 'mark', seq: 1, start: 3, end: 1, reveal: true },
    { type: 'test', action: 'eval' },
    { type: 'html', html: '<script>alert(1)</script>' },
  ];
  for (const message of badToWebview) assert.equal(isToWebview(message), false, JSON.stringify(message).slice(0, 120));
});

test('protocol: segment table guard checks shape, order and ends', () => {
  const wire = (table: SegmentTable) => toWireTable(table);
  assert.ok(isSegmentTable(wire({ bounds: [0], tokenIndex: [0], ids: [], byteLengths: [] }), 0));
  assert.ok(!isSegmentTable(wire({ bounds: [0], tokenIndex: [0], ids: [], byteLengths: [] }), 1));
  assert.ok(!isSegmentTable(wire({ bounds: [0, 2], tokenIndex: [0, 1], ids: [5], byteLengths: [] }), 2));
  assert.ok(!isSegmentTable(wire({ bounds: [1, 2], tokenIndex: [0, 1], ids: [5], byteLengths: [2] }), 2));
  assert.ok(!isSegmentTable(wire({ bounds: [0, 2, 1, 2], tokenIndex: [0, 1, 1, 1], ids: [5], byteLengths: [2] }), 2), 'bounds go back');
  assert.ok(isSegmentTable(wire({ bounds: [0, 2], tokenIndex: [0, 1], ids: [5], byteLengths: [2] }), 2));
  assert.ok(!isSegmentTable({ bounds: [0, 2], tokenIndex: [0, 1], ids: [5], byteLengths: [2] }, 2), 'plain arrays are not the wire form');
  assert.ok(
    !isSegmentTable({ ...wire({ bounds: [0, 2], tokenIndex: [0, 1], ids: [5], byteLengths: [2] }), ids: new Float64Array([5.5]) }, 2),
    'only Int32Arrays',
  );
});

test('options from persisted state are sanitized field by field', () => {
  assert.deepEqual(sanitizeOptions(undefined), DEFAULT_OPTIONS);
  assert.deepEqual(sanitizeOptions({ showIds: true, compare: 'o200k_base' }, TOKENIZER_NAMES), {
    showIds: true,
    showWhitespace: false,
    compare: 'o200k_base',
  });
  assert.deepEqual(sanitizeOptions({ showIds: 1, showWhitespace: true, compare: 'nope' }, TOKENIZER_NAMES), {
    showIds: false,
    showWhitespace: true,
    compare: null,
  });
});

function bigText(length: number): string {
  const parts = [
    'The quick brown fox jumps over the lazy dog. ',
    'function add(a, b) {\n  return a + b;\n}\n',
    'Emoji 👍 👨‍👩‍👧 🇫🇷 and <|endoftext|> ',
    '日本語のテキストです。\n',
    '   spaces   \n\n\tTabs\r\n',
    "it's we'll 12345 ",
    'x'.repeat(50) + '\n',
    '    \n  indented\n',
  ];
  let text = '';
  for (let i = 0; text.length < length; i++) text += parts[(i * 7) % parts.length];
  return text;
}

test('a table built chunk by chunk equals the table of the whole text, for every tokenizer and special-token mode', async () => {
  const text = bigText(SLICE_THRESHOLD * 3);
  assert.ok((await walkTable(loadTokenizerSync('cl100k_base'), text, 0))!.anchors.length >= 2, 'the text is cut into chunks');
  for (const name of TOKENIZER_NAMES) {
    for (const specialTokens of ['text', 'special'] as const) {
      const tokenizer = loadTokenizerSync(name, { specialTokens });
      const whole = toWireTable(buildSegmentTable(text, tokenizer.spans(text)));
      const sliced = (await tableSliced(tokenizer, text))!;
      for (const key of ['bounds', 'tokenIndex', 'ids', 'byteLengths'] as const) {
        const i = whole[key].findIndex((v, k) => v !== sliced[key][k]);
        if (i >= 0 || whole[key].length !== sliced[key].length) {
          assert.fail(`${name}/${specialTokens}: ${key} differ at ${i} (lengths ${whole[key].length} and ${sliced[key].length})`);
        }
      }
    }
  }
});

test("a piece of 60,000 letters is walked in parts between its tokens, and the table equals the whole text's, for every tokenizer", async () => {
  const rng = new Rng(7);
  const letters = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[rng.int(0, alphabet.length - 1)]).join('');
  // A DNA sequence, a run of accented letters (tokens that split characters) and CJK, each one pre-tokenizer piece.
  const texts = [letters('ACGT', 60_000), `x ${letters('éèàüöñç', 30_000)} y`, letters('的一是不了人我在有他这中', 30_000)];
  for (const name of TOKENIZER_NAMES) {
    const tokenizer = loadTokenizerSync(name);
    for (const text of texts) {
      const whole = toWireTable(buildSegmentTable(text, tokenizer.spans(text)));
      const walked = (await walkTable(tokenizer, text, 0))!;
      for (const key of ['bounds', 'tokenIndex', 'ids', 'byteLengths'] as const) {
        assert.deepEqual(walked.table[key], whole[key], `${name}, ${text.slice(0, 8)}…: ${key}`);
      }
      const pieceEnds = new Set<number>();
      tokenizer.spansFrom(text, 0, [], (end) => !pieceEnds.add(end));
      for (const anchor of walked.anchors) assert.ok(pieceEnds.has(anchor), `${name}: anchor ${anchor} is a piece end`);
      assert.deepEqual(await tokenizeAsync(tokenizer, text), tokenizer.tokenize(text), `${name}: tokenizeAsync`);
    }
  }
  const first = chunkTable(loadTokenizerSync('cl100k_base'), texts[0]!, 0, (_end, inPiece) => inPiece);
  assert.ok(first.resume && first.end > 0 && first.end < 60_000, `the first chunk ends inside the piece, at ${first.end}`);
});

test('building a table in chunks stops when cancelled', async () => {
  const text = bigText(SLICE_THRESHOLD * 2);
  const cancellation = { cancelled: false };
  const pending = tableSliced(loadTokenizerSync('cl100k_base'), text, cancellation);
  cancellation.cancelled = true;
  assert.equal(await pending, undefined);
});

test('every safe cut point is safe: tokenizing both sides alone gives the tokens of the whole, for every tokenizer', () => {
  const rng = new Rng(4242);
  // Random text, plus the neighbourhoods that once fooled the cut: a space run before "\n" (older
  // encodings), "\n/" after punctuation (o200k), U+0085 and NBSP around a newline (regex engines).
  const hostile = [
    'word  \n\nNext',
    'end!\n/path',
    'a\u0085\nline',
    'a\n\u0085b',
    'a\n\u00a0b',
    'x \ny',
    "it's\nok",
    '<|endoftext|>\nz',
    'the quick fox\nnext line',
  ];
  let text = '';
  while (text.length < 8_000) text += rng.chance(0.5) ? rng.pick(hostile) : randomText(rng, 3);
  const cuts = [...text.matchAll(new RegExp(SAFE_CUT.source, 'g'))].map((m) => m.index + 1);
  assert.ok(cuts.length > 100, `${cuts.length} cut points`);
  const uncut = new Set<string>();
  for (const name of TOKENIZER_NAMES) {
    for (const specialTokens of ['text', 'special'] as const) {
      const tokenizer = loadTokenizerSync(name, { specialTokens });
      if (!canSlice(tokenizer)) {
        uncut.add(name);
        continue;
      }
      const whole = tokenizer.encode(text).join(',');
      for (const cut of cuts) {
        const parts = [...tokenizer.encode(text.slice(0, cut)), ...tokenizer.encode(text.slice(cut))].join(',');
        if (parts !== whole)
          assert.fail(
            `${name}/${specialTokens}: cutting at ${cut} changes the tokens: ${JSON.stringify(text.slice(cut - 6, cut))} | ${JSON.stringify(text.slice(cut, cut + 6))}`,
          );
      }
    }
  }
  // Only the tokenizer whose ids number words across the whole text is left whole (wholeTextIds).
  assert.deepEqual([...uncut], ['whitespace']);
});

test("the page's messages: translated whole, placeholders kept for the page; the strings message is guarded", () => {
  const upper = translatePage((message) => message.toUpperCase());
  assert.deepEqual(Object.keys(upper), [...PAGE_MESSAGES]);
  assert.equal(upper['{0} tokens'], '{0} TOKENS');
  assert.equal(translatePage(substitute)['id {0}  bytes {1}'], 'id {0}  bytes {1}', 'placeholders survive a translation that fills them');
  assert.ok(isToWebview({ type: 'strings', strings: upper }));
  assert.ok(!isToWebview({ type: 'strings', strings: { Off: 5 } }));
  assert.ok(!isToWebview({ type: 'strings', strings: ['Off'] }));
});
