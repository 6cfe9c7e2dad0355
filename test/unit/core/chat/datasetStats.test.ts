/**
 * A dataset's numbers (core/chat/datasetStats.ts) and the overview's words for them (webviews/dataset/view.ts).
 * The percentiles are NumPy's: the expected values below were printed by numpy 1.24.2's numpy.percentile
 * (default method "linear") for the same lists.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countDataset, openAIFormat, type ChatModel } from '../../../../src/core/chat/index';
import { DatasetTally, histogram, MAX_LISTED, percentile } from '../../../../src/core/chat/datasetStats';
import { loadTokenizerSync } from '../../../../src/core/tokenizers/index';
import { ENGLISH } from '../../../../src/core/util/locale';
import { datasetView } from '../../../../src/webviews/dataset/view';
import { quotePrice } from '../../../../src/core/counts/cost';
import { isDatasetView } from '../../../../src/webviews/dataset/protocol';

const sorted = (values: number[]) => Float64Array.from(values).sort();

test('percentiles: numpy.percentile’s linear interpolation, to the last digit it printed', () => {
  const a = sorted([12, 7, 3, 40, 40, 9, 1000, 55, 18, 21, 6]);
  const numpy = [18, 55, 527.5, 905.5000000000003];
  [50, 90, 95, 99].forEach((p, i) => assert.ok(Math.abs(percentile(a, p) - numpy[i]!) < 1e-9, `p${p}: ${percentile(a, p)}`));
  const b = sorted([5, 1, 3, 2]);
  const expected = [1, 2.5, 4.4, 4.699999999999999, 4.9399999999999995, 5];
  [0, 50, 90, 95, 99, 100].forEach((p, i) => assert.ok(Math.abs(percentile(b, p) - expected[i]!) < 1e-12, `p${p}: ${percentile(b, p)}`));
  assert.ok(Number.isNaN(percentile(new Float64Array(0), 50)));
  assert.equal(percentile(sorted([7]), 99), 7);
});

test('histogram: equal whole-token bins from the least to the most, every value in one bin', () => {
  const bins = histogram(sorted([10, 11, 19, 20, 29, 100]), 10);
  assert.equal(bins[0]!.from, 10);
  assert.equal(bins[0]!.to - bins[0]!.from, 10, 'width ceil(91 / 10)');
  assert.deepEqual(
    bins.map((b) => b.count),
    [3, 2, 0, 0, 0, 0, 0, 0, 0, 1],
  );
  assert.equal(
    bins.reduce((n, b) => n + b.count, 0),
    6,
  );
  assert.deepEqual(histogram(sorted([5, 5, 5]), 40), [{ from: 5, to: 6, count: 3 }]);
  assert.deepEqual(histogram(new Float64Array(0), 40), []);
});

const model = (): ChatModel => ({ tokenizer: loadTokenizerSync('cl100k_base'), format: openAIFormat });
const line = (content: string) =>
  JSON.stringify({
    messages: [
      { role: 'user', content },
      { role: 'assistant', content: 'ok' },
    ],
  });

async function tally(text: string, usable?: number): Promise<DatasetTally> {
  const out = new DatasetTally(usable);
  for await (const result of countDataset(text, model())) out.add(result);
  return out;
}

test('a dataset tallied as countDataset yields it: totals, the lines over the window, the malformed lines', async () => {
  const text = [
    line('hi'),
    '{"messages": [',
    '',
    line('word '.repeat(200)),
    line('hello there'),
    '{"messages":[{"role":"wizard","content":"x"}]}',
  ].join('\n');
  const results = [];
  for await (const r of countDataset(text, model())) results.push(r);
  const counts = results.flatMap((r) => ('count' in r ? [r.count.total] : []));
  const stats = (await tally(text, 100)).stats();
  assert.equal(stats.conversations, 3);
  assert.equal(
    stats.tokens,
    counts.reduce((a, b) => a + b, 0),
  );
  assert.equal(stats.distribution!.max, Math.max(...counts));
  assert.equal(stats.distribution!.median, [...counts].sort((a, b) => a - b)[1]);
  assert.deepEqual(stats.over, [{ line: 4, tokens: counts[1]! }]);
  assert.deepEqual(
    stats.problems.map((p) => p.line),
    [2, 6],
  );
  assert.match(stats.problems[1]!.problem, /wizard/);
  const progress = (await tally(text, 100)).stats(40, false);
  assert.equal(progress.distribution, undefined, 'progress while counting sorts nothing');
  assert.equal(progress.tokens, stats.tokens);
});

test('lists are capped, counts are not', async () => {
  const text = Array.from({ length: MAX_LISTED + 5 }, () => 'not json').join('\n');
  const stats = (await tally(text)).stats();
  assert.equal(stats.problemCount, MAX_LISTED + 5);
  assert.equal(stats.problems.length, MAX_LISTED);
});

test('the view: counts and percentiles as the user reads them, the cost with its price, "set a price" without one', async () => {
  const text = [line('hi'), line('word '.repeat(200)), 'junk'].join('\n');
  const stats = (await tally(text, 100)).stats();
  const input = {
    fileName: 'train.jsonl',
    tokenizer: 'cl100k_base',
    format: 'OpenAI framing',
    state: 'done' as const,
    elapsedMs: 1234,
    stats,
    epochs: 3,
    key: 'file:///data/train.jsonl',
  };
  const view = datasetView({ ...input, price: { price: { training: 25 }, from: 'setting' } }, ENGLISH);
  assert.ok(isDatasetView(view), 'the page accepts it');
  assert.equal(view.title, 'Dataset: train.jsonl');
  assert.equal(view.status, '3 lines counted in 1.2 s · cl100k_base');
  const row = (label: string) => view.summary.rows.find((r) => r[0] === label)?.[1];
  assert.equal(row('Conversations'), '2');
  assert.equal(row('Tokens as the model reads them'), stats.tokens.toLocaleString('en-US'));
  assert.equal(row('Lines that are no conversation'), '1');
  assert.equal(row('Over the usable context window'), '1');
  const [low, high] = [stats.distribution!.min, stats.distribution!.max];
  assert.equal(stats.distribution!.median, (low + high) / 2, 'two conversations: the median is their mean');
  const shown = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en-US') : n.toFixed(1));
  assert.deepEqual(
    view.distribution!.rows.find((r) => r[0] === 'Median'),
    ['Median', shown((low + high) / 2)],
  );
  assert.deepEqual(
    view.distribution!.rows.find((r) => r[0] === 'p99'),
    ['p99', shown(low + 0.99 * (high - low))],
  );
  const cost = (stats.tokens * 3 * 25) / 1e6;
  assert.deepEqual(view.cost.rows.at(-1), ['Estimated cost', cost >= 0.01 ? `$${cost.toFixed(2)}` : view.cost.rows.at(-1)![1]]);
  assert.equal(view.priceAction, undefined);
  assert.deepEqual(
    view.over!.rows.map((r) => r.line),
    [2],
  );
  assert.deepEqual(
    view.problems!.rows.map((r) => r.line),
    [3],
  );

  assert.match(view.cost.note!, /^Your price for cl100k_base in tokenLens\.prices\.$/);
  assert.deepEqual(view.epochs, { label: 'Epochs', value: 3, min: 1, max: 100 });
  assert.equal(view.key, 'file:///data/train.jsonl');

  const unpriced = datasetView({ ...input, tokenizer: 'p50k_base' }, ENGLISH);
  assert.equal(unpriced.priceAction, 'Set a price in tokenLens.prices');
  assert.deepEqual(unpriced.cost.rows, []);
  assert.match(unpriced.cost.note!, /^No price for p50k_base: Token Lens ships prices for the OpenAI, Claude and Gemini tokenizers only/);
  assert.ok(isDatasetView(unpriced));

  // The shipped price of cl100k_base (GPT-4's): the set once as input, and no training price (LiteLLM lists none).
  const shipped = datasetView({ ...input, price: quotePrice('cl100k_base', {}) }, ENGLISH);
  assert.deepEqual(shipped.cost.rows, [
    ['All conversations once as input', `$${((stats.tokens * 30) / 1e6).toPrecision(2)} (at $30.00 per 1M tokens)`],
  ]);
  assert.match(
    shipped.cost.note!,
    /^gpt-4's price of 2026-04-21 from LiteLLM's table of the providers' price pages \(BerriAI\/litellm, commit 00035b69\)/,
  );
  assert.match(shipped.cost.note!, /No training price for cl100k_base/);
  assert.equal(shipped.priceAction, 'Set a price in tokenLens.prices');
});
