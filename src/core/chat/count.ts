/**
 * The public API for counting conversations: one conversation, or a JSONL dataset counted line by line in
 * time slices, each line's result as it is ready. A malformed line is a problem with its number; the rest
 * still counts.
 */
import { CancelledError, countAsync, SLICE_MS, type Tokenizer } from '../tokenizers/index';
import { yieldToEventLoop } from '../util/yield';
import { ConversationError, messageText, parseConversationJson, type Conversation } from './conversation';
import { inThreadRenderer, type ChatFormat, type FrameOptions, type Renderer } from './format';
import { ChatConfigError } from './template';
import { TemplateError } from './render';

/** How one model reads conversations: its tokenizer ('special' mode for a template's special tokens) and its format. */
export interface ChatModel {
  tokenizer: Tokenizer;
  format: ChatFormat;
  /** Where templates render; in this thread, within its limits, by default. */
  render?: Renderer;
}

export interface ConversationCount {
  /** Tokens as the model reads the conversation. */
  total: number;
  /** Tokens of the messages' text alone (content and tool-call arguments, each counted on its own). */
  text: number;
  /** total - text: what the format adds (headers, special tokens, the generation prompt); may be negative when text merges across pieces. */
  overhead: number;
  /** How it was read: the template's source and name, OpenAI framing, Harmony, or no template. */
  format: string;
  messages: number;
}

export interface CountOptions extends FrameOptions {
  signal?: AbortSignal;
}

/** A line's count or problem, by the line's text: an edited dataset counts only the lines that changed. */
export interface LineCache {
  get(raw: string): LineOutcome | undefined;
  set(raw: string, outcome: LineOutcome): void;
}
export type LineOutcome = { count: ConversationCount } | { problem: string };

export async function countConversation(
  conversation: Conversation,
  model: ChatModel,
  options: CountOptions = {},
): Promise<ConversationCount> {
  const framed = await model.format.frame(conversation, options, model.render ?? inThreadRenderer());
  const count = (pieces: string[]) => sumCounts(model.tokenizer, pieces, options.signal);
  const total = framed.extra + (await count(framed.pieces));
  const text = await count(conversation.messages.flatMap(messageText));
  return { total, text, overhead: total - text, format: framed.label ?? model.format.label, messages: conversation.messages.length };
}

/** A piece this short, without a piece the engine calls heavy (a long run of one letter), counts in a few milliseconds. */
const SYNC_CHARS = 8_000;

/** The pieces' counts summed: short light ones at once, the others in slices; the event loop runs between slices. */
async function sumCounts(tokenizer: Tokenizer, pieces: string[], signal: AbortSignal | undefined): Promise<number> {
  let sum = 0;
  let deadline = performance.now() + SLICE_MS;
  for (const piece of pieces) {
    sum += countIfLight(tokenizer, piece) ?? (await countAsync(tokenizer, piece, signal ? { signal } : {}));
    if (performance.now() > deadline) {
      await yieldToEventLoop();
      if (signal?.aborted) throw new CancelledError();
      deadline = performance.now() + SLICE_MS;
    }
  }
  return sum;
}

/** The count at once, without a slice's promises, when the piece is short and light; else undefined. */
function countIfLight(tokenizer: Tokenizer, piece: string): number | undefined {
  if (piece.length > SYNC_CHARS) return undefined;
  let total = 0;
  let pos = 0;
  const heavy = tokenizer.scanUntilHeavy(piece, 0, (end, count) => {
    total += count;
    pos = end;
    return true;
  });
  return heavy === undefined && pos === piece.length ? total : undefined;
}

export type LineResult = LineOutcome & { line: number };

/** Blank lines are skipped; a line over this length is a problem (a conversation that size is no training example). */
export const MAX_LINE_CHARS = 16_000_000;

/**
 * Counts a JSONL dataset, one conversation per line, yielding each line's result (1-based line numbers).
 * Lines are found by scanning for "\n" (linear); counting runs in time slices (countAsync) and the loop
 * yields to the event loop between lines, so a large dataset never holds the thread for long.
 */
export async function* countDataset(
  text: string,
  model: ChatModel,
  options: CountOptions & { cache?: LineCache } = {},
): AsyncGenerator<LineResult> {
  let deadline = performance.now() + SLICE_MS;
  for (let start = 0, line = 1; start < text.length; line++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const raw = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    if (raw.trim() === '') continue;
    let outcome = options.cache?.get(raw);
    if (!outcome) {
      outcome = await countLine(raw, model, options);
      options.cache?.set(raw, outcome);
    }
    yield { line, ...outcome };
    if (performance.now() > deadline) {
      await yieldToEventLoop();
      if (options.signal?.aborted) throw new CancelledError();
      deadline = performance.now() + SLICE_MS;
    }
  }
}

async function countLine(raw: string, model: ChatModel, options: CountOptions): Promise<LineOutcome> {
  if (raw.length > MAX_LINE_CHARS)
    return {
      problem: `The line is ${raw.length.toLocaleString('en-US')} characters, more than the ${MAX_LINE_CHARS.toLocaleString('en-US')} counted.`,
    };
  try {
    return { count: await countConversation(parseConversationJson(raw), model, options) };
  } catch (error) {
    if (error instanceof ConversationError || error instanceof TemplateError || error instanceof ChatConfigError)
      return { problem: error.message };
    throw error;
  }
}
