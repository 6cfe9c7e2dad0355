/** Prices as the user sets them (tokenLens.prices), the cost of a count, and the status bar tooltip's line for it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cost, quotePrice, readPrices, usd } from '../../../../src/core/counts/cost';
import { summarize, tooltipMarkdown } from '../../../../src/core/counts/summary';
import { ENGLISH, makeLocale, substitute } from '../../../../src/core/util/locale';
import { answerText } from '../../../../src/features/chatTool/input';

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

test('tooltip: the cost as input at the price it used and where that price comes from, ≈ for an estimate', () => {
  const summary = summarize('o200k_base', 'document', ['Hello world'], 400_000);
  const yours = tooltipMarkdown(summary, ENGLISH, undefined, quotePrice('o200k_base', { o200k_base: { input: 2.5 } }));
  assert.match(yours, /\| Cost as input \| \$1\.00 \(at \$2\.50 per 1M tokens\) \|/);
  assert.match(yours, /\nYour price for o200k\\_base in tokenLens\.prices\./);
  const shipped = tooltipMarkdown(summary, ENGLISH, undefined, quotePrice('o200k_base', {}));
  assert.match(shipped, /\| Cost as input \| \$1\.00 \(at \$2\.50 per 1M tokens\) \|/);
  assert.match(
    shipped,
    /gpt-4o's price of 2026-04-21 from LiteLLM's table of the providers' price pages \(BerriAI\/litellm, commit 00035b69\); override it in tokenLens\.prices\./,
  );
  assert.doesNotMatch(
    tooltipMarkdown(summary, ENGLISH, undefined, quotePrice('o200k_base', { o200k_base: { training: 25 } })),
    /Cost/,
    'your entry without an input price replaces the shipped one: no cost as input',
  );

  const unpriced = tooltipMarkdown(summarize('p50k_base', 'document', ['Hello world'], 1000), ENGLISH, undefined, undefined);
  assert.match(unpriced, /\| Cost as input \| – \|/);
  assert.match(unpriced, /No price for p50k\\_base: Token Lens ships prices for the OpenAI, Claude and Gemini tokenizers only/);

  const estimate = summarize('claude (estimate)', 'document', ['Hello world'], 1000);
  const claude = tooltipMarkdown(estimate, ENGLISH, undefined, quotePrice('claude (estimate)', {}));
  assert.match(claude, /\| Cost as input \| ≈\$0\.0033 \(at \$3\.00 per 1M tokens\) \|/, '1,100 tokens (1,000 × 1.1) at $3');
  assert.match(claude, /claude-sonnet-4-5's price .* Prompts over 200,000 tokens: \$6\.00 per 1M input tokens\./);
  const long = tooltipMarkdown({ ...estimate, tokens: 300_000 }, ENGLISH, undefined, quotePrice('claude (estimate)', {}));
  assert.match(long, /\| Cost as input \| ≈\$1\.80 \(at \$6\.00 per 1M tokens\) \|/, 'a long prompt at the long prompts’ price');
});

test("the chat tool's answer ends with the cost as input and the price's origin, or why there is none", () => {
  const items = [{ label: 'text', tokens: 1_000_000, chars: 4_000_000 }];
  const shipped = answerText(items, 'o200k_base', undefined, undefined, quotePrice('o200k_base', {}));
  assert.match(shipped, /\nCost as input: \$2\.50 at \$2\.50 per 1M tokens\. gpt-4o's price of 2026-04-21 from LiteLLM's table/);
  const yours = answerText(items, 'o200k_base', undefined, undefined, quotePrice('o200k_base', { o200k_base: { input: 1 } }));
  assert.match(yours, /\nCost as input: \$1\.00 at \$1\.00 per 1M tokens\. Your price for o200k_base in tokenLens\.prices\.$/);
  assert.match(answerText(items, 'llama3', undefined, undefined, undefined), /\nNo price for llama3: .*set one in tokenLens\.prices\.$/);
  assert.doesNotMatch(answerText([{ label: 'a', problem: 'binary file' }], 'o200k_base'), /Cost|price/, 'nothing counted, no cost');
});
