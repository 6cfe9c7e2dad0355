import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  buildSegmentTable,
  getSegment,
  getSegments,
  isGraphemeBoundary,
  segment,
  segmentAt,
  segmentsInRange,
  type SpanLike,
} from '../../../../src/core/inspector/segments';
import { loadTokenizerSync, TOKENIZER_NAMES } from '../../../../src/core/tokenizers/index';
import { cpuMs, linearRatio } from '../../../support/linearity';

const enc = new TextEncoder();
const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');

/** A span over text[start, end) carrying bytes[from, to) of that text's UTF-8 (byte tokens by hand). */
function span(id: number, bytes: number[], start: number, end: number): SpanLike {
  return { id, bytes: Uint8Array.from(bytes), start, end };
}

/** The invariants every segmentation must keep, whatever the text and the tokenizer. */
function checkInvariants(text: string, spans: SpanLike[], label: string) {
  const table = buildSegmentTable(text, spans);
  const segs = getSegments(text, table);
  assert.equal(segs.map((s) => s.text).join(''), text, `${label}: segment texts concatenate to the input`);
  assert.deepEqual(
    segs.flatMap((s) => s.ids),
    spans.map((s) => s.id),
    `${label}: every id once, in order`,
  );
  let pos = 0;
  for (const s of segs) {
    assert.equal(s.start, pos, `${label}: no gap or drift at ${pos}`);
    assert.ok(s.end > s.start, `${label}: no empty segment`);
    assert.equal(s.text, text.slice(s.start, s.end));
    assert.ok(!s.text.includes('\ufffd') || text.slice(s.start, s.end).includes('\ufffd'), `${label}: no replacement character`);
    assert.equal(s.bytesHex, hex(enc.encode(s.text)), `${label}: segment bytes are the text's UTF-8`);
    pos = s.end;
  }
  assert.equal(pos, text.length);
  // Each token's hex, read back from the table, is the token's exact bytes.
  const tokenHex = segs.flatMap((s) => s.tokenBytesHex);
  assert.deepEqual(
    tokenHex,
    spans.map((s) => hex(s.bytes)),
    `${label}: per-token bytes are exact`,
  );
  return segs;
}

test('hand-built byte tokens: an emoji split in two is one segment with both ids', () => {
  const text = 'a👍b';
  // 👍 = f0 9f 91 8d, tokens [f0 9f] [91 8d] both cover the emoji's two UTF-16 units.
  const spans = [span(1, [0x61], 0, 1), span(2, [0xf0, 0x9f], 1, 3), span(3, [0x91, 0x8d], 1, 3), span(4, [0x62], 3, 4)];
  const segs = checkInvariants(text, spans, 'thumbs');
  assert.deepEqual(
    segs.map((s) => [s.text, s.ids]),
    [
      ['a', [1]],
      ['👍', [2, 3]],
      ['b', [4]],
    ],
  );
  assert.deepEqual(segs[1]!.tokenBytesHex, ['f0 9f', '91 8d']);
  assert.equal(segs[1]!.bytesHex, 'f0 9f 91 8d');
});

test('hand-built: a token that starts a word and ends mid-character chains the overlap', () => {
  const text = ' 日本';
  // " 日" = 20 e6 97 a5; tokens [20 e6] (0..2), [97 a5] (1..2), [e6 9c ac] (2..3)
  const spans = [span(1, [0x20, 0xe6], 0, 2), span(2, [0x97, 0xa5], 1, 2), span(3, [0xe6, 0x9c, 0xac], 2, 3)];
  const segs = checkInvariants(text, spans, 'cjk');
  assert.deepEqual(
    segs.map((s) => [s.text, s.ids, s.start, s.end]),
    [
      [' 日', [1, 2], 0, 2],
      ['本', [3], 2, 3],
    ],
  );
});

test('uncovered text (the whitespace tokenizer skips spaces) is a segment with no ids', () => {
  const text = 'ab  cd';
  const segs = checkInvariants(text, [span(0, [0x61, 0x62], 0, 2), span(1, [0x63, 0x64], 4, 6)], 'gaps');
  assert.deepEqual(
    segs.map((s) => [s.text, s.ids]),
    [
      ['ab', [0]],
      ['  ', []],
      ['cd', [1]],
    ],
  );
});

test('empty text and text without tokens', () => {
  assert.deepEqual(getSegments('', buildSegmentTable('', [])), []);
  const segs = getSegments('   ', buildSegmentTable('   ', []));
  assert.deepEqual(
    segs.map((s) => [s.text, s.ids]),
    [['   ', []]],
  );
});

test('grapheme boundaries: ZWJ families, flags, skin tones, combining marks and CR LF stay whole', () => {
  const family = '👨‍👩‍👧';
  for (let i = 1; i < family.length; i++) assert.equal(isGraphemeBoundary(family, i), false, `family at ${i}`);
  const flags = '🇫🇷🇩🇪';
  assert.deepEqual(
    [2, 4, 6].map((i) => isGraphemeBoundary(flags, i)),
    [false, true, false],
  );
  assert.equal(isGraphemeBoundary('👍🏽', 2), false, 'skin tone');
  assert.equal(isGraphemeBoundary('e\u0301x', 1), false, 'combining acute');
  assert.equal(isGraphemeBoundary('e\u0301x', 2), true);
  assert.equal(isGraphemeBoundary('a\r\nb', 2), false, 'CR LF');
  assert.equal(isGraphemeBoundary('a\r\nb', 1), true);
  assert.equal(isGraphemeBoundary('日本', 1), true);
  assert.equal(isGraphemeBoundary('ab', 1), true);
  assert.equal(isGraphemeBoundary('❤\ufe0f', 1), false, 'variation selector');
});

test('character tokenizer on a ZWJ family: one segment, every code point id, in order', () => {
  const text = 'x👨‍👩‍👧y';
  const spans = loadTokenizerSync('character').spans(text);
  const segs = checkInvariants(text, spans, 'character');
  assert.deepEqual(
    segs.map((s) => s.text),
    ['x', '👨‍👩‍👧', 'y'],
  );
  assert.deepEqual(segs[1]!.ids, [0x1f468, 0x200d, 0x1f469, 0x200d, 0x1f467]);
  // Without grapheme grouping the code points are separate segments, still exact.
  const plain = segment(text, spans, { graphemes: false });
  assert.deepEqual(
    plain.map((s) => s.text),
    ['x', '👨', '\u200d', '👩', '\u200d', '👧', 'y'],
  );
});

const SAMPLES: Record<string, string> = {
  english: 'The quick brown fox jumps over the lazy dog.',
  code: 'function add(a, b) {\n\treturn a + b; // 👍\n}\r\n',
  emoji: 'Thumbs 👍, family 👨‍👩‍👧, flag 🇫🇷, skin 👍🏽, heart ❤️, keycap 1️⃣.',
  cjk: '日本語のテキストです。中文文本，한국어 텍스트.',
  combining: 'Cafe\u0301 na\u0303o Z\u0351\u0352\u0353algo',
  crlf: 'line one\r\nline two\r\n\r\n',
  html: '<img src=x onerror=alert(1)></script>',
  surrogates: 'lone \ud800 high and \udc00 low',
  rtl: 'שלום עולם مرحبا',
};

test('real tokenizers: offsets never drift and texts concatenate, for every tokenizer and sample', () => {
  for (const name of TOKENIZER_NAMES) {
    const tokenizer = loadTokenizerSync(name);
    for (const [label, text] of Object.entries(SAMPLES)) {
      checkInvariants(text, tokenizer.spans(text), `${name}/${label}`);
    }
    const all = Object.values(SAMPLES).join('\n');
    checkInvariants(all, tokenizer.spans(all), `${name}/all`);
  }
});

test('cl100k: the thumbs-up after a space is one segment holding the two tokens that split it', () => {
  const text = 'Hi 👍 日本語';
  const spans = loadTokenizerSync('cl100k_base').spans(text);
  const segs = checkInvariants(text, spans, 'cl100k');
  const thumbs = segs.find((s) => s.text.includes('👍'))!;
  assert.equal(thumbs.text, ' 👍');
  assert.equal(thumbs.ids.length, 2);
  assert.equal(thumbs.bytesHex, '20 f0 9f 91 8d');
  const partial = spans.filter((s) => s.partial).length;
  assert.ok(partial >= 2, 'the engine marks the split tokens partial');
  // The flag and the family render whole.
  const more = 'a 🇫🇷 b 👨‍👩‍👧 c';
  const more_segs = checkInvariants(more, loadTokenizerSync('cl100k_base').spans(more), 'cl100k flags');
  assert.ok(
    more_segs.some((s) => s.text.endsWith('🇫🇷')),
    'flag whole',
  );
  assert.ok(
    more_segs.some((s) => s.text.endsWith('👨‍👩‍👧')),
    'family whole',
  );
});

test('segmentAt and segmentsInRange map editor offsets to segments', () => {
  const text = 'ab 👍 cd';
  const table = buildSegmentTable(text, loadTokenizerSync('cl100k_base').spans(text));
  const segs = getSegments(text, table);
  for (let offset = 0; offset < text.length; offset++) {
    const i = segmentAt(table, offset);
    assert.ok(segs[i]!.start <= offset && offset < segs[i]!.end, `offset ${offset} in segment ${i}`);
  }
  assert.equal(segmentAt(table, text.length), segs.length - 1);
  assert.deepEqual(segmentsInRange(table, 0, text.length), [0, segs.length - 1]);
  const thumb = segs.findIndex((s) => s.text.includes('👍'));
  assert.deepEqual(segmentsInRange(table, text.indexOf('👍'), text.indexOf('👍') + 2), [thumb, thumb]);
  assert.deepEqual(segmentsInRange(table, 1, 1), [0, 0], 'a cursor marks the segment it is in');
  assert.equal(segmentsInRange(table, text.length + 5, text.length + 6), undefined);
  assert.equal(segmentAt(buildSegmentTable('', []), 0), -1);
  assert.equal(getSegment(text, table, 0).text, segs[0]!.text);
});

test('large text: segmentation is linear (300k characters in well under a second; 8× the text, well under 8² the time)', async () => {
  const parts = Object.values(SAMPLES);
  const sample = (length: number) => {
    let text = '';
    for (let i = 0; text.length < length; i++) text += parts[i % parts.length] + ' ';
    return { text, spans: loadTokenizerSync('cl100k_base').spans(text) };
  };
  const { text, spans } = sample(300_000);
  let table = buildSegmentTable('', []);
  // CPU time, not wall time: the other test lane does not count.
  const elapsed = await cpuMs(() => (table = buildSegmentTable(text, spans)));
  assert.equal(table.bounds[table.bounds.length - 1], text.length);
  assert.equal(table.tokenIndex[table.tokenIndex.length - 1], spans.length);
  assert.ok(elapsed < 1000, `segmentation took ${elapsed.toFixed(0)} ms`);
  const run = (input: ReturnType<typeof sample>) => buildSegmentTable(input.text, input.spans);
  const { ratio, message } = await linearRatio({ what: '8× the text', run, small: sample(37_500), large: sample(300_000), limit: 32 });
  assert.ok(ratio < 32, message);
});
