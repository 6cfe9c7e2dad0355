/**
 * Exact token counts from the providers of closed models, on request: Anthropic's token-counting endpoint
 * (POST /v1/messages/count_tokens, docs.anthropic.com "Token counting") and Google's for Gemini
 * (POST /v1beta/models/{model}:countTokens, ai.google.dev "Count tokens"). Pure: what each request holds and
 * how each answer is read; the HTTP client, the consent and the key live in the editor (features/providers).
 */
import { messageText, type Conversation, type Message } from '../chat/conversation';
import { conversationInJson } from '../chat/documents';
import { isRecord } from '../util/guards';

export type ProviderId = 'anthropic' | 'gemini';

/** What is counted: a text (sent as one user message), or a conversation with its roles and tools. */
export type ProviderInput = { text: string } | { conversation: Conversation };

export interface Provider {
  id: ProviderId;
  /** "Anthropic", "Google (Gemini)". */
  label: string;
  /** The estimate this provider's exact count replaces (estimates.ts). */
  estimate: string;
  defaultEndpoint: string;
  defaultModel: string;
  /** The path of the counting endpoint for a model, below the endpoint's URL. */
  path(model: string): string;
  /** The headers that carry the key (never a URL parameter: URLs are logged by proxies). */
  headers(key: string): Record<string, string>;
  body(model: string, input: ProviderInput): unknown;
  /** The count in an answer; undefined when the answer holds none. */
  read(answer: unknown): number | undefined;
}

const naturalCount = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/** The text of a conversation's messages of some roles, joined as the providers' system fields take it. */
const textOf = (messages: Message[]): string => messages.flatMap(messageText).join('\n\n');

const isSystem = (m: Message): boolean => m.role === 'system' || m.role === 'developer';

/** OpenAI function tools ({type: 'function', function: {name, description, parameters}}) in Anthropic's shape. */
function anthropicTools(tools: unknown[]): unknown[] {
  return tools.map((tool) => {
    const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : isRecord(tool) ? tool : {};
    return {
      name: typeof fn.name === 'string' ? fn.name : 'tool',
      ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
      input_schema: isRecord(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
    };
  });
}

export const ANTHROPIC: Provider = {
  id: 'anthropic',
  label: 'Anthropic',
  estimate: 'claude (estimate)',
  defaultEndpoint: 'https://api.anthropic.com',
  defaultModel: 'claude-sonnet-4-5',
  path: () => '/v1/messages/count_tokens',
  headers: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
  body(model, input) {
    if ('text' in input) return { model, messages: [{ role: 'user', content: input.text }] };
    const { messages, tools } = input.conversation;
    const system = textOf(messages.filter(isSystem));
    // Anthropic has two roles; a tool's answer is the user's turn.
    const turns = messages
      .filter((m) => !isSystem(m))
      .map((m) => ({ role: m.role === 'assistant' ? 'assistant' : 'user', content: textOf([m]) || ' ' }));
    return {
      model,
      ...(system ? { system } : {}),
      messages: turns.length ? turns : [{ role: 'user', content: ' ' }],
      ...(tools?.length ? { tools: anthropicTools(tools) } : {}),
    };
  },
  read: (answer) => (isRecord(answer) ? naturalCount(answer.input_tokens) : undefined),
};

export const GEMINI: Provider = {
  id: 'gemini',
  label: 'Google (Gemini)',
  estimate: 'gemini (estimate)',
  defaultEndpoint: 'https://generativelanguage.googleapis.com',
  defaultModel: 'gemini-2.5-pro',
  path: (model) => `/v1beta/models/${encodeURIComponent(model)}:countTokens`,
  headers: (key) => ({ 'x-goog-api-key': key }),
  body(model, input) {
    if ('text' in input) return { contents: [{ role: 'user', parts: [{ text: input.text }] }] };
    const { messages } = input.conversation;
    const system = textOf(messages.filter(isSystem));
    const contents = messages
      .filter((m) => !isSystem(m))
      .map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: textOf([m]) }] }));
    // A system instruction is counted only inside a whole generateContent request (the API takes one or the other).
    return system
      ? { generateContentRequest: { model: `models/${model}`, contents, systemInstruction: { parts: [{ text: system }] } } }
      : { contents };
  },
  read: (answer) => (isRecord(answer) ? naturalCount(answer.totalTokens) : undefined),
};

export const PROVIDERS: readonly Provider[] = [ANTHROPIC, GEMINI];

export function providerById(id: string): Provider | undefined {
  return PROVIDERS.find((p) => p.id === id);
}

/** The provider whose exact count stands for a tokenizer's estimate, if any. */
export function providerForEstimate(tokenizer: string): Provider | undefined {
  return PROVIDERS.find((p) => p.estimate === tokenizer);
}

/**
 * A content hash for the exact-count cache (64 bits of FNV-1a over the UTF-16 units, with the length): the same
 * text asked again is not sent again. Not a secret and not a security boundary: a collision only shows a count
 * of another text.
 */
export function contentKey(parts: readonly string[]): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  let length = 0;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    a = Math.imul(a ^ 0xffff, 0x01000193); // a separator between parts
    length += part.length + 1;
  }
  return `${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}:${length}`;
}

/** What a text is sent as: the conversation it holds (a JSON document or selection), else the text as one user message. */
export function providerInput(text: string): ProviderInput {
  const found = conversationInJson(text);
  return found && 'conversation' in found ? { conversation: found.conversation } : { text };
}
