/** The inspector's rows (src/webviews/pages/inspector/rows.ts): lines, wrapping at token boundaries, and the row of an offset. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TableView } from '../../../../../src/core/inspector/segments';
import { keyMove } from '../../../../../src/webviews/pages/inspector/keys';
import { charWidth, cutRows, rowAt } from '../../../../../src/webviews/pages/inspector/rows';

/** One segment per word, space run or newline, one token each (id = its index). */
function table(text: string): TableView {
  const bounds = [0];
  for (const m of text.matchAll(/\n|[^\S\n]+|[^\s]+/g)) bounds.push(m.index + m[0].length);
  const n = bounds.length - 1;
  return {
    bounds: Int32Array.from(bounds),
    tokenIndex: Int32Array.from({ length: n + 1 }, (_, i) => i),
    ids: Int32Array.from({ length: n }, (_, i) => i),
    byteLengths: Int32Array.from({ length: n }, () => 1),
  };
}

const rowTexts = (text: string, starts: number[]): string[] => starts.map((s, i) => text.slice(s, starts[i + 1] ?? text.length));
const width = (text: string): number => [...text].reduce((w, ch) => w + charWidth(ch.charCodeAt(0)), 0);

test('every newline ends a row, and short lines stay whole', () => {
  const text = 'one two\nthree\n\nfour';
  const rows = cutRows(text, table(text), 80, false);
  assert.deepEqual(rowTexts(text, rows.rowStarts), ['one two\n', 'three\n', '\n', 'four']);
});

test('a line wider than the pane wraps at a token boundary, never inside a word', () => {
  const text = 'alpha beta gamma delta epsilon';
  const rows = cutRows(text, table(text), 12, false);
  const parts = rowTexts(text, rows.rowStarts);
  assert.ok(parts.length > 1, parts.join('|'));
  for (const part of parts) assert.ok(width(part.trimEnd()) <= 12, `row "${part}" is ${width(part)} wide`);
  const boundaries = new Set(Array.from(table(text).bounds));
  for (const start of rows.rowStarts) assert.ok(boundaries.has(start), `row starts at ${start}, inside a token`);
});

test('ids inline take room: the same line wraps earlier with them', () => {
  const text = 'a b c d e f g h i j k l m n o p';
  assert.ok(cutRows(text, table(text), 16, true).rowStarts.length > cutRows(text, table(text), 16, false).rowStarts.length);
});

test('one segment wider than the pane is cut at code points, never between the halves of a surrogate pair', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }), fc.integer({ min: 4, max: 40 }), (word, cols) => {
      const text = word.replace(/\s/g, 'x');
      const rows = cutRows(text, table(text), cols, false);
      for (const start of rows.rowStarts.slice(1)) {
        const code = text.charCodeAt(start);
        assert.ok(!(code >= 0xdc00 && code <= 0xdfff), `row starts inside a surrogate pair at ${start}`);
      }
      assert.equal(rows.rowStarts.length, rows.rowSegs.length);
      assert.ok(
        rows.rowStarts.every((s, i) => i === 0 || s > rows.rowStarts[i - 1]!),
        'rows start in order',
      );
    }),
  );
});

test('rowAt finds the row of every offset, as a linear search does', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { maxLength: 50 }),
      fc.integer({ min: 0, max: 10_001 }),
      (rest, offset) => {
        const starts = [0, ...rest.sort((a, b) => a - b)];
        let expected = 0;
        for (let r = 0; r < starts.length; r++) if (starts[r]! <= offset) expected = r;
        assert.equal(rowAt(starts, offset), expected);
      },
    ),
  );
});

test('keys: along the tokens, across rows at the same column, a screen at a time, to the ends; Enter selects, Escape hides', () => {
  const text = 'aa bb cc\ndd ee ff\ngg hh ii';
  const t = table(text);
  const { rowStarts } = cutRows(text, t, 80, false);
  const state = (active: number) => ({ active, table: t, rowStarts, textLength: text.length, page: 2 });
  const segmentOfText = (offset: number) => Array.from(t.bounds).findIndex((b, i) => b <= offset && offset < t.bounds[i + 1]!);
  assert.equal(keyMove('ArrowRight', state(-1)), 0, 'the first press lands on the first token');
  assert.equal(keyMove('ArrowRight', state(0)), 1);
  assert.equal(keyMove('ArrowLeft', state(0)), 0);
  assert.equal(keyMove('ArrowDown', state(segmentOfText(3))), segmentOfText(12), '"bb" → "ee", the same column a row down');
  assert.equal(keyMove('ArrowUp', state(segmentOfText(12))), segmentOfText(3));
  assert.equal(keyMove('PageDown', state(0)), segmentOfText(18), 'two rows down');
  assert.equal(keyMove('Home', state(7)), 0);
  assert.equal(keyMove('End', state(0)), t.bounds.length - 2);
  assert.equal(keyMove('Enter', state(3)), 'select');
  assert.equal(keyMove(' ', state(3)), 'select');
  assert.equal(keyMove('Escape', state(3)), 'hide');
  assert.equal(keyMove('a', state(3)), undefined);
});
