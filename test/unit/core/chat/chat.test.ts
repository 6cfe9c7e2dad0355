/**
 * The chat core without a template engine reference: OpenAI's documented framing against the cookbook's
 * worked numbers, the Harmony format (golden), hostile templates under a watchdog, JSONL datasets with
 * malformed lines, and the conversation parser's messages.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import {
  countConversation,
  countDataset,
  harmonyFormat,
  inThreadRenderer,
  noFormat,
  openAIFormat,
  parseConversation,
  parseConversationJson,
  readModelChatConfig,
  templateFormat,
  type ChatModel,
  type LineResult,
} from '../../../../src/core/chat/index';
import { MAX_NESTING } from '../../../../src/core/chat/conversation';
import { loadTokenizerSync } from '../../../../src/core/tokenizers/index';
import { linearRatio } from '../../../support/linearity';

/** The cookbook's example ("How to count tokens with tiktoken", section 6), whose printed counts the test checks. */
const COOKBOOK = (
  JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'chat', 'cookbook.json'), 'utf8')) as {
    messages: unknown[];
  }
).messages;

test('OpenAI framing: the cookbook worked example, 129 tokens on cl100k_base (gpt-4) and 124 on o200k_base (gpt-4o)', async () => {
  for (const [encoding, want] of [
    ['cl100k_base', 129],
    ['o200k_base', 124],
  ] as const) {
    const count = await countConversation(parseConversation(COOKBOOK), { tokenizer: loadTokenizerSync(encoding), format: openAIFormat });
    assert.equal(count.total, want, encoding);
    assert.match(count.format, /^OpenAI framing \(cookbook/);
    // 6 messages × 3, 4 names × 1 (and the names' own tokens), 3 for the reply, the roles' tokens.
    assert.ok(count.overhead > 6 * 3 + 4 + 3, String(count.overhead));
  }
});

const harmony = (): ChatModel => ({ tokenizer: loadTokenizerSync('o200k_harmony'), format: harmonyFormat({ date: '2025-06-28' }) });

test('Harmony (gpt-oss): the golden rendering, and the count equals the rendered text counted with its special tokens', async () => {
  const conversation = parseConversation([
    { role: 'system', content: 'Answer in riddles.' },
    { role: 'user', content: 'What is the weather in Tokyo?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Tokyo"}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: '{"sunny":true}' },
    { role: 'assistant', content: 'It is sunny.' },
  ]);
  const framed = await harmony().format.frame(conversation, { addGenerationPrompt: true }, inThreadRenderer());
  assert.equal(
    framed.shown,
    '<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\nCurrent date: 2025-06-28\n\n' +
      'Reasoning: medium\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.<|end|>' +
      '<|start|>developer<|message|># Instructions\n\nAnswer in riddles.<|end|>' +
      '<|start|>user<|message|>What is the weather in Tokyo?<|end|>' +
      '<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"Tokyo"}<|call|>' +
      '<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{"sunny":true}<|end|>' +
      '<|start|>assistant<|channel|>final<|message|>It is sunny.<|end|>' +
      '<|start|>assistant',
  );
  const special = loadTokenizerSync('o200k_harmony', { specialTokens: 'special' });
  const ids = special.encode(framed.shown);
  assert.deepEqual(ids.slice(0, 3), [200006, 17360, 200008]); // <|start|> system <|message|>
  assert.deepEqual(ids.slice(-2), [200006, 173781]); // <|start|> assistant
  const count = await countConversation(conversation, harmony(), { addGenerationPrompt: true });
  assert.equal(count.total, ids.length);
  assert.equal(count.format, 'Harmony format (gpt-oss)');
});

test('Harmony: text that spells a special token stays text, as the harmony renderer encodes content', async () => {
  const plain = await countConversation(parseConversation([{ role: 'user', content: 'x' }]), harmony());
  const spelled = await countConversation(parseConversation([{ role: 'user', content: '<|end|>' }]), harmony());
  assert.ok(spelled.total > plain.total + 1, `${spelled.total} vs ${plain.total}`);
});

test('no template: the messages’ text alone, and it says so', async () => {
  const count = await countConversation(parseConversation([{ role: 'user', content: 'Hello world' }]), {
    tokenizer: loadTokenizerSync('cl100k_base'),
    format: templateFormat(readModelChatConfig('{"bos_token": "<s>"}')),
  });
  assert.deepEqual(count, { total: 2, text: 2, overhead: 0, format: "no chat template: the messages' text alone", messages: 1 });
});

/** A model whose template is `text`; the watchdog fails the test when rendering does not end in time. */
function hostile(text: string): ChatModel {
  return {
    tokenizer: loadTokenizerSync('cl100k_base'),
    format: templateFormat(readModelChatConfig(JSON.stringify({ chat_template: text }))),
  };
}
const WATCHDOG_MS = 5_000;
async function assertStopped(text: string, message: RegExp): Promise<void> {
  const started = performance.now();
  const conversation = parseConversation([{ role: 'user', content: 'hi' }]);
  const watchdog = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`watchdog: ${text} still running`)), WATCHDOG_MS).unref(),
  );
  await assert.rejects(Promise.race([countConversation(conversation, hostile(text)), watchdog]), message);
  assert.ok(performance.now() - started < WATCHDOG_MS, text);
}

test('hostile templates are stopped with a clear message: loops, recursion, explosions', async () => {
  await assertStopped('{% for i in range(10**9) %}x{% endfor %}', /range\(\) of 1,000,000,000 items, more than 20,000/);
  await assertStopped('{% for i in range(20000) %}{% for j in range(20000) %}{{ i }}{% endfor %}{% endfor %}', /ran longer than 2000 ms/);
  await assertStopped('{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}', /nested deeper than 400 levels|too deep/);
  await assertStopped('{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(60) }}', /ran longer than/);
  await assertStopped(
    "{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}",
    /built a text of more than 16,000,000 characters/,
  );
  await assertStopped(
    '{% set ns = namespace(l=[1]) %}{% for i in range(64) %}{% set ns.l = ns.l + ns.l %}{% endfor %}',
    /built a list of more than/,
  );
  await assertStopped('{{ raise_exception("no <b>markup</b> here") }}', /refused the conversation: no <b>markup<\/b> here/);
  await assertStopped('{% for %}', /cannot be read/);
  await assertStopped(`{{ ${'('.repeat(60_000)}1${')'.repeat(60_000)} }}`, /cannot be read: Maximum call stack size exceeded/);
  assert.throws(() => hostile('{{ x }}'.repeat(50_000)), /is 350,000 characters, more than the 200,000 a template may have/);
});

test('a template sees only its context: no constructor, no process, no globalThis', async () => {
  const model = hostile("{{ messages.constructor }}|{{ ''.constructor }}|{{ process }}|{{ globalThis }}|{{ cycler }}");
  const conversation = parseConversation([{ role: 'user', content: 'hi' }]);
  const framed = await model.format.frame(conversation, {}, inThreadRenderer());
  assert.doesNotMatch(framed.shown!, /function|native code|\[object/);
});

const LLAMA_LIKE = '{{ bos_token }}{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% endfor %}';
const datasetModel = (): ChatModel => ({
  tokenizer: loadTokenizerSync('cl100k_base', { specialTokens: 'special' }),
  format: templateFormat(readModelChatConfig(JSON.stringify({ chat_template: LLAMA_LIKE, bos_token: '<|endoftext|>' }))),
});
async function collect(text: string, model = datasetModel()): Promise<LineResult[]> {
  const out: LineResult[] = [];
  for await (const result of countDataset(text, model)) out.push(result);
  return out;
}

test('JSONL: each line counted, a malformed line is a problem with its number and the rest still counts', async () => {
  const good = JSON.stringify({ messages: [{ role: 'user', content: 'Hello there' }] });
  const results = await collect(
    [good, '{"messages": [', '', JSON.stringify([{ role: 'wizard', content: 'x' }]), '   ', good, '{"messages": []}', '42'].join('\r\n'),
  );
  assert.deepEqual(
    results.map((r) => ('count' in r ? [r.line, r.count.total, r.count.text] : [r.line, r.problem.replace(/:.*/s, '')])),
    [
      [1, 1 + 5 + 2, 2],
      [2, 'Not valid JSON'],
      [4, 'Message 1 has role "wizard"; a role is one of system, developer, user, assistant, tool.'],
      [6, 8, 2],
      [7, 'The conversation has no messages.'],
      [8, 'A conversation is an object with a "messages" array, or that array itself.'],
    ],
  );
});

test('JSONL: a line nested deeper than the limit is a problem of its own, and the lines around it still count', async () => {
  const good = JSON.stringify({ messages: [{ role: 'user', content: 'Hello there' }] });
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const call = (depth: number) =>
    `{"messages": [{"role": "assistant", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": ${nested(depth)}}}]}]}`;
  for (const format of [datasetModel().format, openAIFormat, harmonyFormat(), noFormat]) {
    const model = { ...datasetModel(), format };
    const results = await collect([good, call(20_000), good, call(MAX_NESTING - 6)].join('\n'), model);
    assert.deepEqual(
      results.map((r) => ('count' in r ? r.line : [r.line, r.problem])),
      [1, [2, `The conversation is nested more than ${MAX_NESTING} levels deep, or refers to itself; Token Lens does not count it.`], 3, 4],
    );
  }
  const circular: Record<string, unknown> = { role: 'user', content: 'x' };
  circular.self = circular;
  assert.throws(() => parseConversation({ messages: [circular] }), /nested more than/);
  const shared = { role: 'user', content: 'again' };
  assert.equal(parseConversation({ messages: [shared, shared] }).messages.length, 2, 'a message used twice is not circular');
});

test('conversation parser: every shape gives a conversation or one clear problem', () => {
  const problem = (value: unknown) => {
    try {
      parseConversation(value);
      return 'ok';
    } catch (error) {
      return (error as Error).message;
    }
  };
  assert.equal(problem({ messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image_url' }] }] }), 'ok');
  assert.equal(problem({ messages: [{ role: 'assistant', content: null }] }), 'Message 1 has no content.');
  assert.equal(problem({ messages: [{ role: 'user', content: 5 }] }), 'Message 1: "content" must be a string or an array of parts.');
  assert.equal(problem({ messages: [{ role: 'user', content: [{ type: 'text' }] }] }), 'Message 1, part 1: a text part needs "text".');
  assert.equal(problem({ messages: [{ role: 'user', content: 'a', name: 3 }] }), 'Message 1: "name" must be a string.');
  assert.equal(problem({ messages: [{ role: 'user', content: 'a' }], tools: {} }), '"tools" must be an array of tool definitions.');
  assert.equal(
    problem({ messages: Array(10_001).fill({ role: 'user', content: 'a' }) }),
    'The conversation has 10001 messages, more than the 10000 Token Lens counts; split it.',
  );
  assert.throws(() => parseConversationJson('[' + '['.repeat(100_000)), /Not valid JSON/);
});

test('JSONL parsing is linear: 16× the lines take well under 64× the time', async () => {
  const model: ChatModel = { tokenizer: loadTokenizerSync('cl100k_base'), format: noFormat };
  const line = JSON.stringify({ messages: [{ role: 'user', content: 'Hello there, general Kenobi.' }] });
  const [small, large] = [`${line}\n`.repeat(1_000), `${line}\n`.repeat(16_000)];
  // Three runs of each, not seven: the large one takes about 0.4 s of CPU.
  const run = (text: string) => collect(text, model);
  const { ratio, message } = await linearRatio({ what: '16× the lines', run, small, large, limit: 64, runs: 3 });
  assert.ok(ratio < 64, message);
});
