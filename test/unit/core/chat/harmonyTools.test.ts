/**
 * Harmony's tool definitions against the harmony renderer's own documented output: openai/harmony at commit
 * ec7606df9e87e3d0a1fec9f50928c1e407f0c438, tests/test_harmony.py `test_render_functions_with_parameters` (its
 * tools, below as an OpenAI chat request's `tools`) and the text it asserts, test-data/
 * test_render_functions_with_parameters.txt (GOLDEN, as written there; docs/format.md "Function calling" shows
 * its first three functions).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countConversation, harmonyFormat, inThreadRenderer, parseConversation } from '../../../../src/core/chat/index';
import { functionTools, harmonyToolsSection } from '../../../../src/core/chat/harmonyTools';
import { loadTokenizerSync } from '../../../../src/core/tokenizers/index';

const fn = (name: string, description: string, parameters?: unknown) => ({
  type: 'function',
  function: { name, description, ...(parameters ? { parameters } : {}) },
});
const FORMAT = { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' };
const TOOLS = [
  fn('get_location', 'Gets the location of the user.'),
  fn('get_current_weather', 'Gets the current weather in the provided location.', {
    type: 'object',
    properties: { location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' }, format: FORMAT },
    required: ['location'],
  }),
  fn('get_multiple_weathers', 'Gets the current weather in the provided list of locations.', {
    type: 'object',
    properties: {
      locations: {
        type: 'array',
        items: { type: 'string' },
        description: 'List of city and state, e.g. ["San Francisco, CA", "New York, NY"]',
      },
      format: FORMAT,
    },
    required: ['locations'],
  }),
  fn('kitchensink', 'A function with various complex schemas.', {
    description: 'params object',
    type: 'object',
    properties: {
      string: { type: 'string', title: 'STRING', description: 'A string', examples: ['hello', 'world'] },
      string_nullable: { type: 'string', nullable: true, description: 'A nullable string', default: 'the default' },
      string_enum: { type: 'string', enum: ['a', 'b', 'c'] },
      oneof_string_or_number: {
        oneOf: [
          { type: 'string', default: 'default_string_in_oneof' },
          { type: 'number', description: 'numbers can happen too' },
        ],
        description: 'a oneof',
        default: 20,
      },
    },
  }),
];

const GOLDEN = `<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.
Knowledge cutoff: 2024-06
Current date: 2025-06-28

Reasoning: high

# Valid channels: analysis, commentary, final. Channel must be included for every message.
Calls to these tools must go to the commentary channel: 'functions'.<|end|><|start|>developer<|message|># Instructions

Always respond in riddles

# Tools

## functions

namespace functions {

// Gets the location of the user.
type get_location = () => any;

// Gets the current weather in the provided location.
type get_current_weather = (_: {
// The city and state, e.g. San Francisco, CA
location: string,
format?: "celsius" | "fahrenheit", // default: celsius
}) => any;

// Gets the current weather in the provided list of locations.
type get_multiple_weathers = (_: {
// List of city and state, e.g. ["San Francisco, CA", "New York, NY"]
locations: string[],
format?: "celsius" | "fahrenheit", // default: celsius
}) => any;

// A function with various complex schemas.
type kitchensink = (_: // params object
{
// STRING
//
// A string
// Examples:
// - "hello"
// - "world"
string?: string,
// A nullable string
string_nullable?: string | null, // default: "the default"
string_enum?: "a" | "b" | "c",
// a oneof
// default: 20
oneof_string_or_number?:
 | string // default: "default_string_in_oneof"
 | number // numbers can happen too
,
}) => any;

} // namespace functions<|end|><|start|>user<|message|>What is the weather like in SF?<|end|><|start|>assistant`;

const format = harmonyFormat({ date: '2025-06-28', reasoning: 'high' });
const conversation = parseConversation({
  messages: [
    { role: 'system', content: 'Always respond in riddles' },
    { role: 'user', content: 'What is the weather like in SF?' },
  ],
  tools: TOOLS,
});

test("Harmony with tools: exactly the harmony renderer's documented text, and the count is that text's tokens", async () => {
  const framed = await format.frame(conversation, { addGenerationPrompt: true }, inThreadRenderer());
  assert.equal(framed.shown, GOLDEN);
  const tokenizer = loadTokenizerSync('o200k_harmony');
  const count = await countConversation(conversation, { tokenizer, format }, { addGenerationPrompt: true });
  assert.equal(count.total, loadTokenizerSync('o200k_harmony', { specialTokens: 'special' }).encode(GOLDEN).length);
});

test('Harmony with tools and no system message: the tools get a developer message of their own', async () => {
  const bare = parseConversation({ messages: [{ role: 'user', content: 'Hi' }], tools: [TOOLS[0]] });
  const framed = await format.frame(bare, {}, inThreadRenderer());
  assert.match(
    framed.shown!,
    /'functions'\.<\|end\|><\|start\|>developer<\|message\|># Tools\n\n## functions\n\nnamespace functions \{\n\n/,
  );
  assert.match(
    framed.shown!,
    /type get_location = \(\) => any;\n\n\} \/\/ namespace functions<\|end\|><\|start\|>user<\|message\|>Hi<\|end\|>$/,
  );
});

test('tools: the chat format and the bare function both read, other tool kinds and nameless ones skipped', () => {
  const tools = functionTools([
    { type: 'function', function: { name: 'a', description: 'A', parameters: { type: 'object' } } },
    { name: 'b', parameters: null },
    { type: 'web_search' },
    { type: 'function', function: { description: 'no name' } },
    'junk',
  ]);
  assert.deepEqual(tools, [
    { name: 'a', description: 'A', parameters: { type: 'object' } },
    { name: 'b', description: '' },
  ]);
  assert.equal(harmonyToolsSection([]), '# Tools\n\n## functions\n\nnamespace functions {\n\n} // namespace functions');
});

test('hostile schemas: deep nesting renders as any past the limit, odd values as any, never a throw', () => {
  let deep: unknown = { type: 'string' };
  for (let i = 0; i < 5000; i++) deep = { type: 'array', items: deep };
  const section = harmonyToolsSection([{ name: 'f', description: '', parameters: deep }]);
  assert.match(section, /type f = \(_: any(\[\])+\) => any;/);
  const odd = harmonyToolsSection([{ name: 'g', description: 'x\r\ny\n', parameters: { type: 7, properties: [1] } }]);
  assert.match(odd, /\/\/ x\n\/\/ y\ntype g = \(_: any\) => any;/);
});
