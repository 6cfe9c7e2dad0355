/**
 * A conversation in OpenAI's chat fine-tuning format: `{messages: [...], tools?: [...]}`, or the messages
 * array itself. Parsing is total (any JSON value gives a conversation or one problem) and linear in the
 * input; what reaches a template is a fresh copy of the fields below, never the parsed object itself.
 */
import { isRecord, type Rec } from '../util/guards';

export const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
export type Role = (typeof ROLES)[number];

/** More messages than any real conversation holds; the cap keeps a template's work bounded before it starts. */
export const MAX_MESSAGES = 10_000;
/**
 * Deeper than this is not a conversation (tool-call arguments and tool schemas included): JSON.stringify and the
 * template renderer recurse on it, and a 20,000-deep line overflowed the stack and stopped a whole dataset's count.
 */
export const MAX_NESTING = 64;
/** More objects and arrays than a line of MAX_LINE_CHARS can hold: only shared parts met again and again get here. */
const MAX_VISITS = 10_000_000;

/**
 * Whether objects and arrays nest deeper than MAX_NESTING, depth first and without recursion. One that contains itself
 * is as deep as its path: it is caught within MAX_NESTING levels. Shared (not circular) parts are walked each time they
 * are met, up to a budget of visits.
 */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  let visits = 0;
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth > MAX_NESTING || ++visits > MAX_VISITS) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

export interface TextPart {
  type: 'text';
  text: string;
}
/** A part a template may name (an image, an audio clip): passed on as its type, never counted as text. */
export interface OtherPart {
  type: string;
}
export type Content = string | null | (TextPart | OtherPart)[];

export interface ToolCall {
  id?: string;
  type?: string;
  function: { name: string; arguments: unknown };
}

export interface Message {
  role: Role;
  /** Absent when the message has none (a template tells `content is none` from an undefined content, as Python does). */
  content?: Content;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface Conversation {
  messages: Message[];
  /** Tool (function) definitions as given: JSON values a template may print. */
  tools?: unknown[];
}

export class ConversationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversationError';
  }
}

const fail = (message: string): never => {
  throw new ConversationError(message);
};

/** A conversation from a parsed JSON value; a ConversationError says what is wrong and where. */
export function parseConversation(value: unknown): Conversation {
  if (tooDeep(value))
    return fail(`The conversation is nested more than ${MAX_NESTING} levels deep, or refers to itself; Token Lens does not count it.`);
  if (Array.isArray(value)) return { messages: parseMessages(value) };
  if (!isRecord(value)) return fail('A conversation is an object with a "messages" array, or that array itself.');
  if (!Array.isArray(value.messages)) return fail('The conversation has no "messages" array.');
  const messages = parseMessages(value.messages);
  if (value.tools === undefined || value.tools === null) return { messages };
  if (!Array.isArray(value.tools)) return fail('"tools" must be an array of tool definitions.');
  return { messages, tools: value.tools };
}

/** A conversation from JSON text; malformed JSON is a ConversationError with the parser's reason. */
export function parseConversationJson(text: string): Conversation {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(`Not valid JSON: ${(error as Error).message}`);
  }
  return parseConversation(value);
}

function parseMessages(list: unknown[]): Message[] {
  if (list.length === 0) return fail('The conversation has no messages.');
  if (list.length > MAX_MESSAGES)
    return fail(`The conversation has ${list.length} messages, more than the ${MAX_MESSAGES} Token Lens counts; split it.`);
  return list.map((item, i) => parseMessage(item, i + 1));
}

function parseMessage(item: unknown, n: number): Message {
  if (!isRecord(item)) return fail(`Message ${n} is not an object.`);
  const role = item.role;
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role))
    return fail(`Message ${n} has role ${JSON.stringify(role) ?? 'undefined'}; a role is one of ${ROLES.join(', ')}.`);
  const message: Message = { role: role as Role };
  if (item.content !== undefined) message.content = parseContent(item.content, n);
  const name = optionalString(item, 'name', n);
  if (name !== undefined) message.name = name;
  const callId = optionalString(item, 'tool_call_id', n);
  if (callId !== undefined) message.tool_call_id = callId;
  if (item.tool_calls !== undefined && item.tool_calls !== null) message.tool_calls = parseToolCalls(item.tool_calls, n);
  if ((message.content ?? null) === null && !message.tool_calls) return fail(`Message ${n} has no content.`);
  return message;
}

function optionalString(item: Rec, key: string, n: number): string | undefined {
  const value = item[key];
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : fail(`Message ${n}: "${key}" must be a string.`);
}

function parseContent(content: unknown, n: number): Content {
  if (content === null) return null;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return fail(`Message ${n}: "content" must be a string or an array of parts.`);
  return content.map((part, j) => {
    if (!isRecord(part) || typeof part.type !== 'string') return fail(`Message ${n}, part ${j + 1}: a part is an object with a "type".`);
    if (part.type !== 'text') return { type: part.type };
    return typeof part.text === 'string'
      ? { type: 'text', text: part.text }
      : fail(`Message ${n}, part ${j + 1}: a text part needs "text".`);
  });
}

function parseToolCalls(value: unknown, n: number): ToolCall[] {
  if (!Array.isArray(value)) return fail(`Message ${n}: "tool_calls" must be an array.`);
  return value.map((call, j) => {
    const fn = isRecord(call) ? call.function : undefined;
    if (!isRecord(call) || !isRecord(fn) || typeof fn.name !== 'string')
      return fail(`Message ${n}, tool call ${j + 1}: a tool call is {type, function: {name, arguments}}.`);
    const out: ToolCall = {
      function: { name: fn.name, arguments: fn.arguments },
    };
    if (typeof call.type === 'string') out.type = call.type;
    if (typeof call.id === 'string') out.id = call.id;
    return out;
  });
}

/**
 * The text a message carries, as pieces counted one by one: its content (the string, or each text part) and
 * its tool calls' arguments (a string as given, an object as JSON). Role names, headers and separators are not text.
 */
export function messageText(message: Message): string[] {
  const { content } = message;
  const parts =
    content === null || content === undefined
      ? []
      : typeof content === 'string'
        ? [content]
        : content.flatMap((p) => ('text' in p ? [p.text] : []));
  for (const call of message.tool_calls ?? []) {
    const args = call.function.arguments;
    if (args !== undefined) parts.push(typeof args === 'string' ? args : JSON.stringify(args));
  }
  return parts;
}

/** A conversation as a format frames it for the model: what format.ts's formats answer. */
export interface Framed {
  /** Texts counted one by one with the model's tokenizer. */
  pieces: string[];
  /** Tokens that are no text: OpenAI's per-message constants, Harmony's special tokens. */
  extra: number;
  /** The prompt as one text, where the format has one (a rendered template, Harmony). */
  shown?: string;
  /** The template this conversation was rendered with, when the format chose among several. */
  label?: string;
}
