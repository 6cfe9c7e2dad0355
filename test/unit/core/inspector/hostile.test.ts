/**
 * The inspector's and the API's paths to a model's tokens, on tokenizer.json files whose patterns backtrack or cost
 * thousands of steps a character (hostilePatterns.ts): the inspector's sliced table (walkTable), the API's and the
 * service comparison's tokenize (tokenizeAsync) and the editor's boundary window (boundaryWindow, synchronous) must
 * give every token (one per ASCII character for these models) without holding the event loop over BLOCK_MS, and the
 * window must give up within its time with what it has, flagged incomplete, instead of freezing the editor.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tableSliced } from '../../../../src/core/inspector/tokenize';
import { boundaryWindow, WINDOW_MS } from '../../../../src/core/inspector/window';
import { segmentCount } from '../../../../src/core/inspector/segments';
import { loadTokenizer, registerModel, tokenizeAsync, type Tokenizer } from '../../../../src/core/tokenizers/index';
import { withHeartbeat } from '../../../bench/heartbeat';
import { CASES, tokenizerJson } from '../../../support/hostilePatterns';
import { leastUnder } from '../../../support/linearity';

const BLOCK_MS = 150;
/**
 * The split patterns that cut a run of a into one-character pieces at thousands of steps a character. (A pattern that
 * never matches makes the whole run one piece: the inspector then builds that piece's 100,000 spans in one turn, a
 * cost of the piece's size, not of the pattern, and not sliced yet.)
 */
const SPLITS = CASES.filter(([, step]) => step.split?.endsWith('|a'));

let models = 0;

async function withModel<T>(json: string, fn: (tokenizer: Tokenizer) => Promise<T>): Promise<T> {
  const name = `inspector-hostile-${++models}`;
  const remove = registerModel({ name, description: '', source: `/tmp/${name}/tokenizer.json`, load: () => Promise.resolve(json) });
  try {
    return await fn(await loadTokenizer(name));
  } finally {
    remove();
  }
}

/** The smaller of two tries' longest hold: a busy machine can stall this thread once, a pattern that holds it does so every time. */
async function held(fn: () => Promise<void>): Promise<number> {
  return (await leastUnder(async () => (await withHeartbeat(fn)).maxCpuGapMs, BLOCK_MS, 2)).least;
}

/**
 * 30,000 characters: seconds of pattern work unbudgeted, while the one-turn assembly of the answer (the table's typed
 * arrays, tokenize's strings), linear in the tokens, stays well under BLOCK_MS even on a loaded machine.
 */
const LENGTH = 30_000;

for (const [what, step, whole] of SPLITS) {
  const text = whole.slice(0, LENGTH);
  test(`inspector and API on ${what} (${step.split!.slice(0, 60)}): every token, the event loop held under ${BLOCK_MS} ms`, async () => {
    await withModel(tokenizerJson(step), async (tokenizer) => {
      const inspected = await held(async () => {
        const table = (await tableSliced(tokenizer, text))!;
        assert.equal(table.ids.length, text.length, 'the inspector shows one token per character');
        assert.equal(table.bounds[table.bounds.length - 1], text.length, 'its table covers the whole text');
      });
      assert.ok(inspected < BLOCK_MS, `the inspector held the event loop ${inspected.toFixed(0)} ms`);
      const tokenized = await held(async () => {
        const result = await tokenizeAsync(tokenizer, text);
        assert.equal(result.n_tokens, text.length, 'tokenize gives one token per character');
        assert.equal(result.tokens.join(''), text, 'and its tokens spell the text');
      });
      assert.ok(tokenized < BLOCK_MS, `tokenize held the event loop ${tokenized.toFixed(0)} ms`);
    });
  });
}

test('the boundary window gives up on a pattern that backtracks within its time, flagged incomplete, with whole tokens', async () => {
  const [, step, text] = CASES[0]!; // (a+)+b on a run of a: every start position scans to the end
  await withModel(tokenizerJson(step), async (tokenizer) => {
    const started = performance.now();
    const window = boundaryWindow(tokenizer, text, 50_000, 50_100);
    const took = performance.now() - started;
    assert.ok(took < WINDOW_MS + BLOCK_MS, `the window took ${took.toFixed(0)} ms (its budget is ${WINDOW_MS} ms)`);
    if (window.complete) assert.ok(window.from + window.text.length >= 50_100, 'a complete window reaches past what is visible');
    else assert.ok(window.text.length < text.length - window.from, 'an incomplete window stops short');
    assert.equal(segmentCount(window.table), window.text.length, 'each character its own token, up to where it stopped');
  });
});

test("the boundary window of an ordinary model is complete and holds the whole text's tokens", async () => {
  const tokenizer = await loadTokenizer('cl100k_base');
  const text = 'The quick brown fox jumps over the lazy dog.\n'.repeat(2_000);
  const window = boundaryWindow(tokenizer, text, 40_000, 40_500);
  assert.equal(window.complete, true);
  const end = window.from + window.text.length;
  assert.ok(window.from <= 40_000 && end >= 40_500, 'it covers what is visible');
  const whole = tokenizer.spans(text).filter((span) => span.start >= window.from && span.end <= end);
  assert.equal(window.table.tokenIndex[segmentCount(window.table)], whole.length, 'the same tokens as the whole text there');
});
