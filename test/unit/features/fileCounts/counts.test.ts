import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerText, checkInput, MAX_PATHS } from '../../../../src/features/chatTool/input';
import { countTree, decodeText, markdownTable, MAX_FILE_BYTES, sorted, type FileCount } from '../../../../src/features/fileCounts/counts';

const FILES: FileCount[] = [
  { path: 'a/x.md', tokens: 10, chars: 40 },
  { path: 'a/b/y.txt', tokens: 5, chars: 20 },
  { path: 'a/b/z.bin', skipped: 'binary' },
  { path: 'top.md', tokens: 7, chars: 30 },
];

test('text, BOM dropped; a NUL in the first 8,000 bytes is binary, later it is not; too large is skipped', () => {
  assert.deepEqual(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69])), { text: 'hi' });
  assert.deepEqual(decodeText(new Uint8Array([0x50, 0, 0x47])), { skip: 'binary' });
  const late = new Uint8Array(9000).fill(0x61);
  late[8500] = 0;
  assert.ok('text' in decodeText(late));
  assert.deepEqual(decodeText({ length: MAX_FILE_BYTES + 1 } as Uint8Array), { skip: 'too large' });
});

test('folders hold the sums of everything under them; skipped files are counted apart', () => {
  const root = countTree(FILES);
  assert.equal(root.tokens, 22);
  assert.equal(root.files, 3);
  assert.equal(root.skipped, 1);
  const a = root.children!.find((c) => c.name === 'a')!;
  assert.deepEqual([a.tokens, a.chars, a.files, a.skipped], [15, 60, 2, 1]);
  const b = a.children!.find((c) => c.name === 'b')!;
  assert.equal(b.path, 'a/b');
  assert.deepEqual([b.tokens, b.files, b.skipped], [5, 1, 1]);
  assert.equal(b.children!.find((c) => c.name === 'z.bin')!.skip, 'binary');
});

test('sorted: folders first, then most tokens or by name', () => {
  const root = countTree(FILES);
  assert.deepEqual(
    sorted(root.children!, 'tokens').map((n) => n.name),
    ['a', 'top.md'],
  );
  const a = root.children!.find((c) => c.name === 'a')!;
  assert.deepEqual(
    sorted(a.children!, 'tokens').map((n) => n.name),
    ['b', 'x.md'],
  );
  assert.deepEqual(
    sorted(
      [
        ...countTree([
          { path: 'b', tokens: 1 },
          { path: 'a', tokens: 2 },
          { path: 'c', tokens: 3 },
        ]).children!,
      ],
      'name',
    ).map((n) => n.name),
    ['a', 'b', 'c'],
  );
});

test('the Markdown table: largest first, skipped files with the reason, a total; pipes in names escaped', () => {
  const table = markdownTable([...FILES, { path: 'we|ird`.md', tokens: 1, chars: 1 }], 'cl100k_base');
  assert.equal(
    table,
    [
      '| File | Tokens (cl100k_base) | Characters |',
      '| --- | ---: | ---: |',
      '| a/x.md | 10 | 40 |',
      '| top.md | 7 | 30 |',
      '| a/b/y.txt | 5 | 20 |',
      '| we\\|ird\\`.md | 1 | 1 |',
      '| a/b/z.bin | skipped: binary | |',
      '| **Total (4 files)** | **23** | **91** |',
      '',
    ].join('\n'),
  );
});

test("the chat tool's input is checked with messages a model can act on", () => {
  assert.deepEqual(checkInput({ text: 'hi' }, 'o200k_base'), { text: 'hi', paths: [], activeSelection: false, tokenizer: 'o200k_base' });
  assert.equal(checkInput({}, 'cl100k_base'), 'Give "text", "messages", "paths" or "activeSelection": true: there is nothing to count.');
  const messages = [{ role: 'user', content: 'Hi' }];
  assert.deepEqual(checkInput({ messages, tools: [] }, 'cl100k_base'), {
    conversation: { messages, tools: [] },
    paths: [],
    activeSelection: false,
    tokenizer: 'cl100k_base',
  });
  assert.equal(checkInput({ messages: 'Hi' }, 'cl100k_base'), '"messages" must be a list of chat messages ({role, content}).');
  assert.equal(checkInput({ text: 'x', tools: [] }, 'cl100k_base'), '"tools" are counted with "messages": give the conversation too.');
  assert.match(
    checkInput({ text: 'x', tokenizer: 'gpt-5' }, 'cl100k_base') as string,
    /^Unknown tokenizer "gpt-5"\. Valid tokenizers: cl100k_base, o200k_base/,
  );
  assert.equal(checkInput({ paths: 'a.md' }, 'cl100k_base'), '"paths" must be a list of file paths.');
  assert.match(
    checkInput({ paths: Array.from({ length: MAX_PATHS + 1 }, () => 'a') }, 'cl100k_base') as string,
    /^At most 200 paths per call \(got 201\)/,
  );
  assert.equal(checkInput({ text: 'x', contextWindow: 1.5 }, 'cl100k_base'), '"contextWindow" must be a positive whole number of tokens.');
  assert.deepEqual(checkInput({ activeSelection: true, contextWindow: 8192, tokenizer: 'model-4o' }, 'cl100k_base'), {
    paths: [],
    activeSelection: true,
    tokenizer: 'model-4o',
    contextWindow: 8192,
  });
});

test("the chat tool's answer: a line per item, a total, and the context-window verdict", () => {
  const items = [
    { label: 'text', tokens: 12, chars: 50 },
    { label: 'a.bin', problem: 'binary file' },
    { label: 'b.md', tokens: 8, chars: 30 },
  ];
  assert.equal(
    answerText(items, 'cl100k_base', 25),
    [
      'Exact token counts with cl100k_base:',
      'text: 12 tokens, 50 characters',
      'a.bin: not counted (binary file)',
      'b.md: 8 tokens, 30 characters',
      'Total: 20 tokens in 2 of 3 items',
      'Fits a 25-token context window: 5 tokens left (80.0% used).',
      'No price for cl100k_base: Token Lens ships prices for the OpenAI, Claude and Gemini tokenizers only (open models cost what their host charges); set one in tokenLens.prices.',
    ].join('\n'),
  );
  assert.equal(answerText(items.slice(0, 1), 'gpt2', 10).split('\n').at(-2), 'Does not fit a 10-token context window: 2 tokens over.');
});
