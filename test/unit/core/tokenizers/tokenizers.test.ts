import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  countChars,
  loadTokenizer,
  loadTokenizerSync,
  resolveTokenizer,
  TOKENIZER_NAMES,
  UnknownTokenizerError,
} from '../../../../src/core/tokenizers/index';

test('every name of spec 4.1, and o200k_harmony, resolves, aliases to their encodings', () => {
  const expected: Record<string, string> = {
    cl100k_base: 'cl100k_base',
    o200k_base: 'o200k_base',
    o200k_harmony: 'o200k_harmony',
    p50k_base: 'p50k_base',
    p50k_edit: 'p50k_edit',
    r50k_base: 'r50k_base',
    gpt2: 'gpt2',
    'model-4': 'cl100k_base',
    'model-4o': 'cl100k_base',
    'model-3.5-turbo': 'cl100k_base',
    'model-4o (o200k)': 'o200k_base',
    'model-2': 'gpt2',
    character: 'character',
    whitespace: 'whitespace',
  };
  assert.deepEqual([...TOKENIZER_NAMES].sort(), Object.keys(expected).sort());
  for (const [name, kind] of Object.entries(expected)) assert.equal(resolveTokenizer(name).kind, kind);
  assert.equal(resolveTokenizer(undefined).name, 'cl100k_base', 'rule 1: omitted means cl100k_base');
});

test('an unknown name is a clear error listing the valid ones', async () => {
  for (const bad of ['CL100K_BASE', 'gpt-4', '', 'model-4o(o200k)']) {
    assert.throws(
      () => loadTokenizerSync(bad),
      (e: unknown) =>
        e instanceof UnknownTokenizerError &&
        e.message.includes(`"${bad}"`) &&
        e.message.includes('model-4o (o200k)') &&
        e.message.includes('whitespace'),
    );
  }
  await assert.rejects(loadTokenizer('nope'), UnknownTokenizerError);
});

test('aliases give the same ids as their encoding and echo the name as sent', () => {
  const text = 'Aliases resolve to encodings.';
  assert.deepEqual(loadTokenizerSync('model-4').encode(text), loadTokenizerSync('cl100k_base').encode(text));
  assert.deepEqual(loadTokenizerSync('model-4o (o200k)').encode(text), loadTokenizerSync('o200k_base').encode(text));
  assert.deepEqual(loadTokenizerSync('model-2').encode(text), loadTokenizerSync('gpt2').encode(text));
  assert.equal(loadTokenizerSync('model-3.5-turbo').tokenize(text).tokenizer, 'model-3.5-turbo');
});

test('n_chars counts code points, as the service does', () => {
  assert.equal(countChars('👍'), 1);
  assert.equal(countChars('👨‍👩‍👧'), 5); // three people joined by two ZWJs
  assert.equal(countChars('e\u0301'), 2);
  assert.equal(countChars('\ud800x'), 2, 'a lone surrogate is one character');
  assert.equal(loadTokenizerSync('cl100k_base').tokenize('héllo 👍').n_chars, 7);
});

test('character: one token per code point, the id is the code point', () => {
  const result = loadTokenizerSync('character').tokenize('a👍\r\n中');
  assert.deepEqual(result.tokens, ['a', '👍', '\r', '\n', '中']);
  assert.deepEqual(result.token_ids, [0x61, 0x1f44d, 13, 10, 0x4e2d]);
  assert.equal(result.n_tokens, result.n_chars);
});

test('whitespace: words and single punctuation marks, separators dropped, ids by first appearance', () => {
  const result = loadTokenizerSync('whitespace').tokenize('Hello, world!  Hello\tthere... café_1 👍');
  assert.deepEqual(result.tokens, ['Hello', ',', 'world', '!', 'Hello', 'there', '.', '.', '.', 'café_1', '👍']);
  assert.deepEqual(result.token_ids, [0, 1, 2, 3, 0, 4, 5, 5, 5, 6, 7]);
  assert.equal(result.n_tokens, result.tokens.length);
});

test('special-token text counts as ordinary text by default and as one token in special mode', () => {
  const text = 'end <|endoftext|> here';
  const plain = loadTokenizerSync('cl100k_base');
  const special = loadTokenizerSync('cl100k_base', { specialTokens: 'special' });
  assert.ok(!plain.encode(text).includes(100257));
  assert.ok(special.encode(text).includes(100257));
  assert.equal(special.tokenize(text).tokens.filter((t) => t === '<|endoftext|>').length, 1);
  assert.ok(plain.count(text) > special.count(text));
});

test('result shape follows spec 2.2 and rules 2-4', () => {
  for (const name of TOKENIZER_NAMES) {
    const text = "It's 2024: naïve café, 中文, 👍🏽!\n";
    const r = loadTokenizerSync(name).tokenize(text);
    assert.deepEqual(Object.keys(r), ['tokenizer', 'text', 'n_tokens', 'n_chars', 'tokens', 'token_ids'], name);
    assert.equal(r.n_tokens, r.tokens.length, name);
    assert.equal(r.n_tokens, r.token_ids.length, name);
    assert.equal(r.text, text);
  }
});

test('tokens that split a character: exact bytes, overlapping whole-character ranges, U+FFFD only in the 2.2 text', () => {
  const tokenizer = loadTokenizerSync('cl100k_base');
  const text = 'a👍b';
  const spans = tokenizer.spans(text);
  const bytes = Buffer.concat(spans.map((s) => Buffer.from(s.bytes)));
  assert.deepEqual([...bytes], [...Buffer.from(text)]);
  const partial = spans.filter((s) => s.partial);
  assert.ok(partial.length >= 2, 'the emoji is split across tokens');
  for (const s of partial) assert.deepEqual([s.start, s.end], [1, 3]);
  assert.ok(tokenizer.tokenize(text).tokens.some((t) => t.includes('\ufffd')));
});
