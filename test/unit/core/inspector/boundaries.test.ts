import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { boundaryWindow, cutAfter, cutBefore, LOOK } from '../../../../src/core/inspector/window';
import { buildSegmentTable } from '../../../../src/core/inspector/segments';
import { loadTokenizerSync } from '../../../../src/core/tokenizers/index';

const ROOT = path.join(__dirname, '..', '..', '..', '..', '..');
// Real text every install has: the TypeScript compiler's own sources and our fixtures.
const TEXT = [
  fs.readFileSync(path.join(ROOT, 'node_modules', 'typescript', 'lib', 'lib.dom.d.ts'), 'utf8').slice(0, 400_000),
  fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'workspace', 'emoji.txt'), 'utf8'),
  fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'workspace', 'cjk.txt'), 'utf8'),
].join('\n');

/** The segment boundaries of the whole text inside [start, end). */
function wholeBounds(name: string, start: number, end: number): number[] {
  const tokenizer = loadTokenizerSync(name);
  return buildSegmentTable(TEXT, tokenizer.spans(TEXT)).bounds.filter((b) => b >= start && b < end);
}

for (const name of ['cl100k_base', 'o200k_base', 'gpt2', 'character']) {
  test(`${name}: the boundaries drawn for a visible window equal the whole document's`, () => {
    const tokenizer = loadTokenizerSync(name);
    for (const [start, end] of [
      [0, 3000],
      [123_456, 127_000],
      [TEXT.length - 600, TEXT.length],
    ] as const) {
      const window = boundaryWindow(tokenizer, TEXT, start, end);
      const drawn = window.table.bounds.map((b) => b + window.from).filter((b) => b >= start && b < end);
      assert.deepEqual(drawn, wholeBounds(name, start, end), `${name} [${start}, ${end})`);
      assert.ok(window.text.length < end - start + 2 * LOOK + 10);
    }
  });
}

test('cuts: within reach of the visible text, or the start and end of the text', () => {
  const text = 'alpha beta\ngamma delta\nepsilon';
  assert.equal(cutBefore(text, 0), 0);
  assert.equal(cutBefore(text, 14), 11, 'the last cut before: after the first newline');
  assert.equal(cutAfter(text, 12), 16, 'after "gamma", before " delta"');
  assert.equal(cutAfter(text, text.length), text.length);
  const long = 'x'.repeat(3 * LOOK);
  assert.equal(cutBefore(long, 2 * LOOK), LOOK, 'no cut within reach: one reach back');
  assert.equal(cutAfter(long, LOOK), 2 * LOOK);
});

test('an emoji split into byte tokens is one segment carrying every id, never split on screen', () => {
  const text = 'family 👨‍👩‍👧‍👦 here';
  const window = boundaryWindow(loadTokenizerSync('cl100k_base'), text, 0, text.length);
  const at = text.indexOf('👨');
  const index = window.table.bounds.findIndex((b) => b > at) - 1;
  const [start, end] = [window.table.bounds[index]!, window.table.bounds[index + 1]!];
  assert.ok(start <= at && end >= at + '👨‍👩‍👧‍👦'.length, `segment [${start}, ${end}) holds the whole family`);
  assert.ok(window.table.tokenIndex[index + 1]! - window.table.tokenIndex[index]! > 1);
});
