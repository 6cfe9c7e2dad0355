/**
 * Closed models (issue 21): the estimates are choosable, scaled from their base encoding, never
 * claim to be exact, never hand out tokens, and are not in the service's list.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ALL_ENCODINGS,
  allTokenizers,
  ENCODING_NAMES,
  ESTIMATE_TOKENIZERS,
  ESTIMATES,
  exactTokenizerNames,
  findTokenizer,
  loadTokenizer,
  loadTokenizerSync,
  NotExactError,
  registerModel,
  scaleCount,
  tokenizerNames,
  TOKENIZER_NAMES,
  TOKENIZERS,
  UnknownTokenizerError,
} from '../../../../../src/core/tokenizers/index';
import { statusText, summarize, tooltipMarkdown, countRows } from '../../../../../src/core/counts/summary';
import { answerText } from '../../../../../src/features/chatTool/input';

const SAMPLES = [
  '',
  'Hello, world!',
  'The quick brown fox jumps over the lazy dog.\n'.repeat(40),
  'function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'Grüße aus Köln — 東京の天気は晴れです。 🎉🎉 ﬁne',
];
const GEMINI = 'gemini (estimate)';
const CLAUDE = 'claude (estimate)';

test('gemini (estimate) counts round(o200k_base count × 1.08) on sample texts', async () => {
  const gemini = await loadTokenizer(GEMINI);
  const o200k = loadTokenizerSync('o200k_base');
  for (const text of SAMPLES) {
    const base = o200k.count(text);
    assert.equal(gemini.count(text), base, 'the tokenizer itself counts the base encoding');
    assert.equal(scaleCount(gemini.info.estimate!, gemini.count(text)), Math.round(base * 1.08));
    assert.equal(summarize(GEMINI, 'document', [text], gemini.count(text)).tokens, Math.round(base * 1.08));
  }
  assert.equal(scaleCount(gemini.info.estimate!, 1000), 1080);
  assert.equal(scaleCount(gemini.info.estimate!, 7), 8); // 7.56 rounds to 8
});

test('an estimate states its method, error and source, and never hands out tokens', () => {
  for (const info of ESTIMATE_TOKENIZERS) {
    const { estimate } = info;
    assert.ok(estimate, info.name);
    assert.match(info.name, /\(estimate\)$/);
    assert.ok(estimate.method && estimate.error && estimate.source, info.name);
    assert.match(estimate.error, /%/);
    assert.match(estimate.source, /ai-tokenizer/);
    const tokenizer = loadTokenizerSync(info.name);
    assert.throws(() => tokenizer.tokenize('hello'), NotExactError);
    assert.throws(() => tokenizer.spans('hello'), NotExactError);
    assert.throws(
      () => tokenizer.encode('hello'),
      (e: Error) => e instanceof NotExactError && /needs? an exact tokenizer/.test(e.message),
    );
  }
  // The built-ins are exact.
  for (const info of TOKENIZERS) assert.equal(info.estimate, undefined, info.name);
});

test('estimate names do not collide with built-ins, are not in the service list, and cannot be taken by a model', () => {
  for (const e of ESTIMATES) {
    assert.ok(!TOKENIZER_NAMES.includes(e.name), e.name);
    assert.ok(tokenizerNames().includes(e.name), 'choosable');
    assert.ok(!exactTokenizerNames().includes(e.name), 'not in the inspector list');
    assert.equal(findTokenizer(e.name)?.estimate, e.estimate);
    assert.throws(() => registerModel({ name: e.name, description: '', source: 'x', load: async () => '' }), /built-in/);
  }
  assert.equal(new Set(allTokenizers().map((t) => t.name)).size, allTokenizers().length, 'no name twice');
});

test('context windows: Gemini 1,048,576, Claude 200,000', () => {
  assert.equal(findTokenizer(GEMINI)?.contextWindow, 1_048_576);
  assert.equal(findTokenizer(CLAUDE)?.contextWindow, 200_000);
  assert.equal(findTokenizer(CLAUDE)?.family, 'Claude');
});

test('claude (estimate) counts with a vocabulary that is no tokenizer of its own: not choosable, not among the exact encodings', async () => {
  const claude = await loadTokenizer(CLAUDE);
  assert.equal(claude.info.kind, 'claude');
  assert.ok(claude.count('The quick brown fox jumps over the lazy dog.') > 5);
  assert.throws(() => loadTokenizerSync('claude'), UnknownTokenizerError);
  assert.ok(!tokenizerNames().includes('claude'));
  assert.ok(!ENCODING_NAMES.includes('claude'), 'not compared with in the tooltip, not in the differential tests against tiktoken');
  assert.deepEqual(ALL_ENCODINGS, [...ENCODING_NAMES, 'claude']);
});

test("claude (estimate): ≈ round(base × 1.1), and its tooltip names Anthropic's vocabulary, the multiplier and the measured error", () => {
  const summary = summarize(CLAUDE, 'document', ['some text'], 1000);
  assert.equal(summary.tokens, 1100);
  assert.equal(summarize(CLAUDE, 'document', ['x'], 5).tokens, 6); // 5.5 rounds up, as ai-tokenizer's Math.round does
  assert.match(statusText(summary), /^≈ 1,100 tokens · claude \(estimate\)$/);
  const tooltip = tooltipMarkdown(summary);
  assert.match(tooltip, /\| Tokens \| ≈1,100 \|/);
  assert.match(tooltip, /Estimate, not an exact count/);
  assert.match(tooltip, /Claude vocabulary count × 1\.1, rounded/);
  assert.match(tooltip, /@anthropic-ai\/tokenizer/);
  assert.match(tooltip, /Claude Sonnet 4\.5 98\.48 % \/ 98\.91 % \/ 99\.70 % accurate at ~500 \/ 5k \/ 50k tokens/);
  assert.match(tooltip, /ai-tokenizer/);
});

test('the status bar text starts with ≈ and its tooltip names the method, the error and the source', () => {
  const summary = summarize(GEMINI, 'document', ['some text'], 1000);
  assert.equal(summary.tokens, 1080);
  assert.match(statusText(summary), /^≈ 1,080 tokens · gemini \(estimate\)$/);
  const tooltip = tooltipMarkdown(summary);
  assert.match(tooltip, /\| Tokens \| ≈1,080 \|/);
  assert.match(tooltip, /Estimate, not an exact count/);
  assert.match(tooltip, /o200k_base count × 1\.08/);
  assert.match(tooltip, /98\.37 %/);
  assert.match(tooltip, /ai-tokenizer/);
  assert.match(countRows(summary)[0]!.label, /^≈ 1,080 tokens/);
  // An exact tokenizer's text is unchanged.
  assert.match(statusText(summarize('o200k_base', 'document', ['x'], 1000)), /^\$\(symbol-numeric\) 1,000 tokens/);
});

test("the chat tool's answer marks an estimate", () => {
  const estimate = findTokenizer(GEMINI)!.estimate!;
  const text = answerText(
    [
      { label: 'a', tokens: 108, chars: 400 },
      { label: 'b', tokens: 54, chars: 200 },
    ],
    GEMINI,
    undefined,
    estimate,
  );
  assert.match(text, /^Estimated token counts with gemini \(estimate\) \(estimate: true;/);
  assert.match(text, /a: ≈108 tokens/);
  assert.match(text, /Total: ≈162 tokens/);
  assert.match(text, /Method: o200k_base count × 1\.08/);
  assert.doesNotMatch(text, /Exact/);
  assert.match(answerText([{ label: 'a', tokens: 1, chars: 1 }], 'o200k_base'), /^Exact token counts/);
  const claude = answerText([{ label: 'a', tokens: 110, chars: 400 }], CLAUDE, undefined, findTokenizer(CLAUDE)!.estimate);
  assert.match(claude, /^Estimated token counts with claude \(estimate\) \(estimate: true;/);
  assert.match(claude, /a: ≈110 tokens/);
  assert.match(claude, /Method: Claude vocabulary count × 1\.1/);
});
