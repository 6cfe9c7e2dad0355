import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countRows, gauge, gaugeLine, gaugeText, statusText, summarize, tooltipMarkdown } from '../../../../src/core/counts/summary';
import { ENGLISH, makeLocale, substitute } from '../../../../src/core/util/locale';
import { quotePrice } from '../../../../src/core/counts/cost';

test('status text names the scope, the count and the tokenizer', () => {
  assert.equal(statusText(summarize('cl100k_base', 'document', ['x'], 12345)), '$(symbol-numeric) 12,345 tokens · cl100k_base');
  assert.equal(statusText(summarize('o200k_base', 'selection', ['a', 'b'], 1)), '$(symbol-numeric) 1 selected token · o200k_base');
});

test('tooltip has tokens, characters, characters per token and the other encodings', () => {
  const summary = summarize('gpt2', 'selection', ['👍👍', 'abcd'], 3);
  summary.comparisons = [{ tokenizer: 'cl100k_base', tokens: 2 }];
  const tooltip = tooltipMarkdown(summary);
  assert.match(tooltip, /2 selections/);
  assert.match(tooltip, /\| Tokens \| 3 \|/);
  assert.match(tooltip, /\| Characters \| 6 \|/);
  assert.match(tooltip, /\| Characters per token \| 2\.00 \|/);
  assert.match(tooltip, /\| cl100k_base \| 2 \|/);
  assert.match(tooltipMarkdown(summarize('gpt2', 'document', [''], 0)), /per token \| – \|/);
});

test('singular and plural: 1 token, 1 character, 1 selection', () => {
  const one = summarize('cl100k_base', 'document', ['a'], 1);
  assert.equal(statusText(one), '$(symbol-numeric) 1 token · cl100k_base');
  const rows = countRows(one);
  assert.equal(rows[0]!.label, '$(symbol-numeric) 1 token');
  assert.equal(rows[1]!.label, '$(whole-word) 1 character');
  assert.equal(rows[2]!.label, '$(dashboard) 1.00');
  const two = summarize('cl100k_base', 'selection', ['ab', 'c'], 2);
  assert.equal(rows.length, 4);
  assert.match(rows[3]!.detail!, /^No price for cl100k_base/, 'without a price, the row says why');
  assert.match(countRows(two)[1]!.label, /3 characters$/);
  assert.match(tooltipMarkdown(two), /2 selections/);
  assert.match(tooltipMarkdown(summarize('x', 'selection', ['a'], 1)), /· Selection ·/);
});

test('the count result has one row per metric and per other encoding, with the number to copy', () => {
  const summary = summarize('o200k_base', 'document', ['Hello world'], 2);
  summary.comparisons = [
    { tokenizer: 'cl100k_base', tokens: 2 },
    { tokenizer: 'gpt2', tokens: 12345 },
  ];
  const rows = countRows(summary, ENGLISH, quotePrice('o200k_base', { o200k_base: { input: 2.5 } }));
  assert.deepEqual(
    rows.map((r) => r.description),
    [
      'o200k_base (current tokenizer)',
      'Unicode characters',
      'characters per token',
      'cost as input, at $2.50 per 1M tokens',
      'cl100k_base',
      'gpt2',
    ],
  );
  assert.equal(rows[3]!.label, '$(credit-card) $0.0000050');
  assert.equal(rows[3]!.detail, 'Your price for o200k_base in tokenLens.prices.');
  assert.equal(rows[3]!.value, '0.000005');
  assert.equal(rows[5]!.label, '$(symbol-numeric) 12,345 tokens');
  assert.equal(rows[5]!.value, '12345');
  assert.equal(rows[2]!.value, '5.50');
});

test('numbers follow the locale; translations replace whole phrases', () => {
  const german = makeLocale((message, ...args) => substitute(message === '{0} tokens' ? '{0} Token' : message, ...args), 'de-DE');
  const summary = summarize('gpt2', 'document', ['x'.repeat(12345)], 12345);
  assert.equal(statusText(summary, german), '$(symbol-numeric) 12.345 Token · gpt2');
  assert.match(tooltipMarkdown({ ...summary, tokens: 4000 }, german), /Characters per token \| 3,09 \|/);
  assert.equal(makeLocale(substitute, 'not a language!').number(1234), '1,234', 'an unknown language falls back to English');
});

test('the context-window gauge: share of the window less the reserve, warning from the threshold, error past 100 %', () => {
  const window = { size: 128_000, reserve: 0, warnAt: 80 };
  assert.equal(gauge(5, { ...window, size: 0 }), undefined, 'size 0: no gauge');
  const g = gauge(12_345, window)!;
  assert.equal(gaugeText(12_345, g), '12,345 / 128,000 · 9.6 %');
  assert.equal(g.level, 'ok');
  assert.equal(gaugeLine(g, window), '115,655 tokens left of a 128,000-token context window (9.6 % used)');
  assert.equal(gauge(80, { size: 120, reserve: 20, warnAt: 80 })!.level, 'warning', '80 of 100 usable');
  assert.equal(gauge(79, { size: 120, reserve: 20, warnAt: 80 })!.level, 'ok');
  const over = gauge(150, { size: 120, reserve: 20, warnAt: 80 })!;
  assert.equal(over.level, 'error');
  assert.equal(
    gaugeLine(over, { size: 120, reserve: 20, warnAt: 80 }),
    '**50 tokens over** of a 120-token context window less 20 reserved for the answer',
  );
  assert.equal(
    gauge(1, { size: 10, reserve: 50, warnAt: 80 })!.usable,
    1,
    'a reserve beyond the window leaves one token, never zero or less',
  );
  const summary = { tokenizer: 'o200k_base', scope: 'document' as const, selections: 0, tokens: 1, characters: 4, comparisons: [] };
  assert.equal(statusText(summary, undefined, { size: 8192, reserve: 0, warnAt: 80 }), '$(symbol-numeric) 1 / 8,192 · 0.0 % · o200k_base');
});

test("a model's name from its file is text everywhere it is shown: no icon, no link, no code span to break out of", () => {
  const name = '$(alert) `x` [run](command:workbench.action.terminal.new) **bold**';
  const summary = summarize(name, 'document', ['x'], 1);
  const text = statusText(summary);
  assert.doesNotMatch(text.slice(text.indexOf('·')), /\$\(/, text);
  assert.doesNotMatch(text, /\]\(/, text);
  const header = tooltipMarkdown(summary).split('\n')[0]!;
  assert.match(header, /\\\[run\\\]\(command:/, header);
  assert.match(header, /\\`x\\`/, header);
  assert.doesNotMatch(header, /(^|[^\\])\*\*bold/, header);
  assert.doesNotMatch(countRows(summary)[0]!.description, /\$\(|\]\(/);
});
