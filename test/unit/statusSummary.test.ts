import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statusText, summarize, tooltipMarkdown } from '../../src/statusBar/summary';

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
