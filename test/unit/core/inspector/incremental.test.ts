import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commonEnds, IncrementalTables } from '../../../../src/core/inspector/incremental';
import { buildSegmentTable, toWireTable, type WireTable } from '../../../../src/core/inspector/segments';
import { canSlice } from '../../../../src/core/inspector/tokenize';
import { loadTokenizerSync, TOKENIZER_NAMES, type Tokenizer } from '../../../../src/core/tokenizers/index';
import { Rng, randomText } from '../../../bench/textgen';

const tableOf = (tokenizer: Tokenizer, text: string): WireTable => toWireTable(buildSegmentTable(text, tokenizer.spans(text)));

const sameTable = (a: WireTable, b: WireTable): boolean =>
  (['bounds', 'tokenIndex', 'ids', 'byteLengths'] as const).every(
    (k) => a[k].length === b[k].length && a[k].every((v, i) => v === b[k][i]),
  );

/** A random edit: insert, delete or replace a random fragment (newlines, words, emoji, CJK, odd spaces...). */
function edit(rng: Rng, text: string): string {
  const at = rng.int(0, text.length);
  const safe = (i: number) => (i > 0 && i < text.length && /[\udc00-\udfff]/.test(text[i]!) ? i - 1 : i);
  const start = safe(at);
  const end = safe(Math.min(text.length, start + rng.pick([0, 0, 0, 1, 2, 5, 40])));
  const insert = rng.chance(0.25)
    ? ''
    : rng.pick([
        randomText(rng, rng.int(1, 3)),
        '\n',
        ' ',
        'x',
        '\n\u0085',
        '\r\n',
        ' word',
        '👍',
        '!\n/x',
        '  \n\nw',
        '\u0085\nz',
        'a\n\u00a0b',
      ]);
  return text.slice(0, start) + insert + text.slice(end);
}

test('commonEnds: prefix and suffix never overlap', () => {
  assert.deepEqual(commonEnds('abc', 'abc'), { prefix: 3, suffix: 0 });
  assert.deepEqual(commonEnds('aaaa', 'aaaaa'), { prefix: 4, suffix: 0 });
  assert.deepEqual(commonEnds('one two', 'one 2 two'), { prefix: 4, suffix: 3 });
  assert.deepEqual(commonEnds('', 'x'), { prefix: 0, suffix: 0 });
  assert.deepEqual(commonEnds('xay', 'xby'), { prefix: 1, suffix: 1 });
});

test('an edit in a long text is walked again near the edit only', async () => {
  const tokenizer = loadTokenizerSync('cl100k_base');
  const tables = new IncrementalTables();
  const line = 'The quick brown fox jumps over the lazy dog.\n';
  const text = line.repeat(2000);
  await tables.table('k', tokenizer, text);
  const at = text.length / 2;
  const next = `${text.slice(0, at)}X${text.slice(at)}`;
  const cost = tables.cost('k', tokenizer, next);
  assert.ok(cost > 0 && cost < 400, `walks ${cost} units again before the edit, not the whole text`);
  assert.deepEqual(await tables.table('k', tokenizer, next), tableOf(tokenizer, next));
  assert.equal(tables.cost('k', tokenizer, next), 0);
});

test('an edited table equals a table built from scratch, for every sliceable tokenizer, over random edits', async () => {
  for (const name of TOKENIZER_NAMES) {
    for (const specialTokens of ['text', 'special'] as const) {
      const tokenizer = loadTokenizerSync(name, { specialTokens });
      if (!canSlice(tokenizer)) continue;
      const rng = new Rng(name.length * 131 + (specialTokens === 'text' ? 1 : 2));
      const tables = new IncrementalTables();
      let text = randomText(rng, 400);
      await tables.table(name, tokenizer, text);
      let retokenized = 0;
      let total = 0;
      for (let i = 0; i < 120; i++) {
        const next = edit(rng, text);
        retokenized += tables.cost(name, tokenizer, next);
        const table = (await tables.table(name, tokenizer, next))!;
        const expected = tableOf(tokenizer, next);
        if (!sameTable(table, expected)) {
          assert.deepEqual(
            table,
            expected,
            `${name}/${specialTokens}, edit ${i} (seed ${rng.seed}): ${JSON.stringify(text.slice(0, 60))} -> ${JSON.stringify(next.slice(0, 60))}`,
          );
        }
        total += next.length;
        text = next;
      }
      assert.ok(
        retokenized < total / 2,
        `${name}/${specialTokens}: edits re-tokenize a part of the text (${retokenized} of ${total} units)`,
      );
    }
  }
});

test('IncrementalTables: exact after edits, per tokenizer key; a cancelled update leaves the cache as it was', async () => {
  const tokenizer = loadTokenizerSync('o200k_base');
  const tables = new IncrementalTables();
  const base = 'The quick brown fox jumps over the lazy dog.\n'.repeat(3000);
  assert.deepEqual(await tables.table('o200k', tokenizer, base), tableOf(tokenizer, base));
  const edited = `${base.slice(0, 5000)}, 👍 and 日本語,${base.slice(5000)}`;
  assert.deepEqual(await tables.table('o200k', tokenizer, edited), tableOf(tokenizer, edited));
  // A change big enough to be tokenized in slices stops when cancelled (small ones finish in one go).
  assert.equal(await tables.table('o200k', tokenizer, `${'Other text. '.repeat(10_000)}${edited}`, { cancelled: true }), undefined);
  const again = `${edited.slice(0, 100)}x${edited.slice(100)}`;
  assert.deepEqual(await tables.table('o200k', tokenizer, again), tableOf(tokenizer, again));
  tables.keepOnly([]);
  assert.deepEqual(await tables.table('o200k', tokenizer, base), tableOf(tokenizer, base));
});
