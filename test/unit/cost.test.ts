/** Prices as the user sets them (tokenLens.prices), the cost of a count, and the status bar tooltip's line for it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cost, readPrices, usd } from '../../src/core/counts/cost';
import { summarize, tooltipMarkdown } from '../../src/core/counts/summary';
import { ENGLISH, makeLocale, substitute } from '../../src/core/util/locale';

test('prices: finite non-negative numbers of the three kinds kept, anything else dropped, never a throw', () => {
  const prices = readPrices({
    o200k_base: { input: 2.5, output: 10, training: 25, cached: 1 },
    ' gpt2 ': { input: -1, output: 'cheap', training: 0 },
    broken: 'free',
    empty: {},
    huge: { input: 1e300, output: NaN },
    list: [1, 2],
  });
  assert.deepEqual(
    [...prices],
    [
      ['o200k_base', { input: 2.5, output: 10, training: 25 }],
      ['gpt2', { training: 0 }],
    ],
  );
  for (const value of [undefined, null, 3, 'x', []]) assert.equal(readPrices(value).size, 0);
});

test('cost: tokens × epochs × the price per million, in dollars written as the user reads them', () => {
  assert.equal(cost(1_000_000, 2.5), 2.5);
  assert.equal(cost(250_000, 25, 3), 18.75);
  assert.equal(usd(18.75, ENGLISH), '$18.75');
  assert.equal(usd(1234.5, ENGLISH), '$1,234.50');
  assert.equal(usd(0, ENGLISH), '$0.00');
  assert.equal(usd(cost(17, 2.5), ENGLISH), '$0.000043', 'a short prompt: two significant digits');
  assert.equal(usd(0.0042, ENGLISH), '$0.0042');
  assert.equal(usd(12.5, makeLocale(substitute, 'de-DE')), '$12,50');
});

test('tooltip: the cost as input with the price it used, ≈ for an estimate, nothing without an input price', () => {
  const summary = summarize('o200k_base', 'document', ['Hello world'], 400_000);
  const tooltip = tooltipMarkdown(summary, ENGLISH, undefined, { input: 2.5 });
  assert.match(tooltip, /\| Cost as input \| \$1\.00 \(at \$2\.50 per 1M tokens, tokenLens\.prices\) \|/);
  assert.doesNotMatch(tooltipMarkdown(summary, ENGLISH, undefined, { training: 25 }), /Cost/);
  assert.doesNotMatch(tooltipMarkdown(summary), /Cost/);
  const estimate = summarize('claude (estimate)', 'document', ['Hello world'], 1000);
  assert.match(tooltipMarkdown(estimate, ENGLISH, undefined, { input: 3 }), /\| Cost as input \| ≈\$0\.00\d+ /);
});
