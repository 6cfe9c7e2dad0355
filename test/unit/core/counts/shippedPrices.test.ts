/**
 * The shipped prices (shippedPrices.ts) against the rows of LiteLLM's table they were copied from
 * (test/fixtures/prices/: the rows verbatim, with their repository, commit and date), and how a user's setting
 * replaces them.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { inputPrice, quotePrice } from '../../../../src/core/counts/cost';
import { PRICES_SOURCE, SHIPPED_PRICES } from '../../../../src/core/counts/shippedPrices';
import { TOKENIZER_NAMES, tokenizerNames } from '../../../../src/core/tokenizers/index';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'prices');
const rows = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'litellm-rows.json'), 'utf8')) as Record<string, Record<string, number>>;

/** Dollars per token as LiteLLM writes them, per 1M tokens, without the float noise of the multiplication. */
const perMillion = (perToken: number | undefined): number | undefined =>
  perToken === undefined ? undefined : Number((perToken * 1e6).toPrecision(12));

test('every shipped price is the per-1M value of its model row in LiteLLM’s table at the recorded commit', () => {
  const readme = fs.readFileSync(path.join(FIXTURES, 'README.md'), 'utf8');
  assert.ok(readme.includes(PRICES_SOURCE.commit) && readme.includes(PRICES_SOURCE.repository), 'the excerpt names its origin');
  assert.ok(readme.includes(PRICES_SOURCE.path) && readme.includes(PRICES_SOURCE.date));
  for (const [tokenizer, shipped] of Object.entries(SHIPPED_PRICES)) {
    const row = rows[shipped.model];
    assert.ok(row, `${tokenizer}: the source has a row ${shipped.model}`);
    assert.equal(shipped.input, perMillion(row.input_cost_per_token), `${tokenizer} input`);
    assert.equal(shipped.output, perMillion(row.output_cost_per_token), `${tokenizer} output`);
    assert.equal(shipped.long?.input, perMillion(row.input_cost_per_token_above_200k_tokens), `${tokenizer} long input`);
    assert.equal(shipped.long?.output, perMillion(row.output_cost_per_token_above_200k_tokens), `${tokenizer} long output`);
    if (shipped.long) assert.equal(shipped.long.over, 200_000, 'LiteLLM names the threshold in the key: above_200k_tokens');
  }
  const used = new Set(Object.values(SHIPPED_PRICES).map((p) => p.model));
  assert.deepEqual(Object.keys(rows).sort(), [...used].sort(), 'the excerpt holds the shipped rows and no others');
});

test('shipped prices only under names a user can choose', () => {
  const names = new Set([...TOKENIZER_NAMES, ...tokenizerNames()]);
  for (const name of Object.keys(SHIPPED_PRICES)) assert.ok(names.has(name), name);
});

test('a user entry replaces the shipped one whole; no entry and no shipped price: no quote', () => {
  assert.deepEqual(quotePrice('o200k_base', undefined), { price: { input: 2.5, output: 10 }, from: 'shipped', model: 'gpt-4o' });
  assert.deepEqual(quotePrice(' o200k_base ', { o200k_base: { training: 25 } }), { price: { training: 25 }, from: 'setting' });
  assert.deepEqual(quotePrice('o200k_base', { o200k_base: { input: 'free' } })?.from, 'shipped', 'an entry that is no price is dropped');
  assert.equal(quotePrice('p50k_base', {}), undefined);
  assert.equal(quotePrice('constructor', {}), undefined, 'a name every object inherits is no shipped entry');
  assert.deepEqual(quotePrice('p50k_base', { p50k_base: { input: 1 } }), { price: { input: 1 }, from: 'setting' });
});

test('a long prompt costs the long prompts’ price for all its tokens where the source gives one', () => {
  const claude = quotePrice('claude (estimate)', {})!;
  assert.equal(inputPrice(claude, 200_000), 3);
  assert.equal(inputPrice(claude, 200_001), 6);
  assert.equal(inputPrice(quotePrice('o200k_base', {})!, 5_000_000), 2.5);
  assert.equal(inputPrice(quotePrice('claude (estimate)', { 'claude (estimate)': { input: 4 } })!, 300_000), 4, 'yours as you set it');
});
