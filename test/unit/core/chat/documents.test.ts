/**
 * Where the editor finds conversations (a JSON document or selection, a JSON Lines dataset), how a tokenizer's
 * model reads them (formatFor), the line cache an edited dataset counts with, and the tooltip's part on them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  conversationInJson,
  countDataset,
  formatFor,
  isConversationDataset,
  readModelChatConfig,
  type LineCache,
  type LineOutcome,
} from '../../../../src/core/chat/index';
import { summarize, tooltipMarkdown } from '../../../../src/core/counts/summary';
import { loadTokenizerSync } from '../../../../src/core/tokenizers/index';

const hello = { messages: [{ role: 'user', content: 'Hello there' }] };

test('a JSON text is a conversation when it holds a "messages" array or is an array of messages', () => {
  assert.deepEqual(conversationInJson(JSON.stringify(hello)), { conversation: { messages: [{ role: 'user', content: 'Hello there' }] } });
  assert.deepEqual(conversationInJson(JSON.stringify(hello.messages)), { conversation: { messages: hello.messages } });
  for (const other of ['{"name": "package"}', '[1, 2]', '[]', '"messages"', 'not json', '{"messages": [', '  ']) {
    assert.equal(conversationInJson(other), undefined, other);
  }
  // Looks like one, is not: the reason, so the status bar can say why it counts text.
  assert.deepEqual(conversationInJson('{"messages": [{"role": "wizard", "content": "x"}]}'), {
    problem: 'Message 1 has role "wizard"; a role is one of system, developer, user, assistant, tool.',
  });
  assert.deepEqual(conversationInJson('{"messages": []}'), { problem: 'The conversation has no messages.' });
});

test('a JSON Lines text is a dataset when its first non-blank line holds a "messages" array', () => {
  const line = JSON.stringify(hello);
  assert.ok(isConversationDataset(`${line}\n${line}\n`));
  assert.ok(isConversationDataset(`\n\n  ${line}\nnot json`));
  assert.ok(!isConversationDataset('{"prompt": "a", "completion": "b"}\n'));
  assert.ok(!isConversationDataset('{"text": "the word \\"messages\\" in a value"}'));
  assert.ok(!isConversationDataset(''));
  assert.ok(!isConversationDataset('[1]\n'));
  // A first line too long to parse is judged by its key alone, and never parsed whole.
  assert.ok(isConversationDataset(`{"messages": [{"role": "user", "content": "${'x'.repeat(1_100_000)}"}]}`));
});

test('any text: detection never throws, and a dataset of conversations is always found', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), (text) => {
      conversationInJson(text);
      isConversationDataset(text);
    }),
    { numRuns: 2000, seed: 30 },
  );
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 30 }), { minLength: 1, maxLength: 5 }), (contents) => {
      const lines = contents.map((content) => JSON.stringify({ messages: [{ role: 'user', content }] }));
      assert.ok(isConversationDataset(lines.join('\n')));
    }),
    { numRuns: 300, seed: 31 },
  );
});

test('how each tokenizer reads conversations: its template, else OpenAI framing or Harmony, else the text alone', () => {
  const withTemplate = readModelChatConfig(JSON.stringify({ chat_template: '{{ messages[0].content }}' }));
  assert.deepEqual(
    [formatFor('huggingface', withTemplate), formatFor('huggingface', readModelChatConfig(undefined))].map((f) => [
      f.format.kind,
      f.specialTokens,
    ]),
    [
      ['template', 'special'],
      ['none', 'text'],
    ],
  );
  assert.deepEqual(
    ['cl100k_base', 'o200k_base', 'o200k_harmony', 'p50k_base', 'estimate'].map((kind) => formatFor(kind, undefined).format.kind),
    ['openai', 'openai', 'harmony', 'none', 'none'],
  );
});

test('an edited dataset counts only the lines whose text changed, with the same results as counting afresh', async () => {
  const model = { tokenizer: loadTokenizerSync('cl100k_base'), format: formatFor('cl100k_base', undefined).format };
  const lines = ['Hello', 'How are you?', 'Fine'].map((content) => JSON.stringify({ messages: [{ role: 'user', content }] }));
  const seen = new Map<string, LineOutcome>();
  let misses = 0;
  const cache: LineCache = {
    get: (raw) => seen.get(raw) ?? void misses++,
    set: (raw, outcome) => void seen.set(raw, outcome),
  };
  const run = async (text: string, withCache: boolean) => {
    const out = [];
    for await (const r of countDataset(text, model, withCache ? { cache } : {})) out.push(r);
    return out;
  };
  const first = await run(lines.join('\n'), true);
  assert.equal(misses, 3);
  const edited = [lines[0], '{"messages": [', lines[2], lines[1]].join('\n');
  const again = await run(edited, true);
  assert.equal(misses, 4, 'only the new line is counted');
  assert.deepEqual(again, await run(edited, false));
  assert.deepEqual(again[0], first[0]);
  assert.deepEqual(again[3]!.line, 4);
});

test("the tooltip says how the model read the conversation: the messages' text and what the format added", () => {
  const summary = {
    ...summarize('cl100k_base', 'document', ['{}'], 27),
    conversation: { conversations: 3, text: 20, problems: 1, format: 'OpenAI [framing](command:x)' },
  };
  const tooltip = tooltipMarkdown(summary);
  // Outside text as text: the brackets escaped, so no link and no command.
  assert.ok(tooltip.includes('**As the model reads it** · OpenAI \\[framing\\](command:x)'));
  assert.match(tooltip, /\| Conversations \| 3 \|/);
  assert.match(tooltip, /\| The messages' text \| 20 \|/);
  assert.match(tooltip, /\| Added by the format \| 7 \(25\.9 %\) \|/);
  assert.match(tooltip, /1 line is no conversation and is not counted/);
  const invalid = tooltipMarkdown({ ...summary, conversation: { problem: 'Message 1 has role "wizard".' } });
  assert.match(invalid, /Counted as text, not as a conversation: Message 1 has role "wizard"\./);
});
