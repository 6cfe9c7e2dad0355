/**
 * The count-tokens tool's input, checked before anything is read, and its answer as text for a model.
 * Pure.
 */
import { findTokenizer, tokenizerNames } from '../../core/tokenizers/registry';
import type { Estimate } from '../../core/tokenizers/estimate/estimates';
import { inputCost, noPriceReason, priceOrigin, usd, type PriceQuote } from '../../core/counts/cost';
import { ENGLISH } from '../../core/util/locale';

export const TOOL_NAME = 'tokenLens_countTokens';
/** More paths than this in one call are refused: a model should ask for a folder's files in batches. */
export const MAX_PATHS = 200;

export interface ToolInput {
  text?: string;
  /** A conversation in OpenAI's chat format, counted as the model reads it (its chat template or framing). */
  messages?: unknown[];
  tools?: unknown[];
  paths?: string[];
  activeSelection?: boolean;
  tokenizer?: string;
  contextWindow?: number;
}

export interface CheckedInput {
  text?: string;
  /** The conversation as given ({messages, tools}); parsed where it is counted. */
  conversation?: { messages: unknown[]; tools?: unknown[] };
  paths: string[];
  activeSelection: boolean;
  tokenizer: string;
  contextWindow?: number;
}

/** The input made whole, or a message that tells the model how to call the tool right. */
export function checkInput(input: unknown, defaultTokenizer: string): CheckedInput | string {
  const rec = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const { text, paths, activeSelection, tokenizer, contextWindow, messages, tools } = rec;
  if (text !== undefined && typeof text !== 'string') return '"text" must be a string.';
  if (messages !== undefined && !Array.isArray(messages)) return '"messages" must be a list of chat messages ({role, content}).';
  if (tools !== undefined && !Array.isArray(tools)) return '"tools" must be a list of tool definitions.';
  if (tools !== undefined && messages === undefined) return '"tools" are counted with "messages": give the conversation too.';
  if (paths !== undefined && !(Array.isArray(paths) && paths.every((p) => typeof p === 'string' && p.trim())))
    return '"paths" must be a list of file paths.';
  if (Array.isArray(paths) && paths.length > MAX_PATHS)
    return `At most ${MAX_PATHS} paths per call (got ${paths.length}); count the rest in another call.`;
  if (activeSelection !== undefined && typeof activeSelection !== 'boolean') return '"activeSelection" must be true or false.';
  if (text === undefined && !paths?.length && !activeSelection && messages === undefined)
    return 'Give "text", "messages", "paths" or "activeSelection": true: there is nothing to count.';
  const name = tokenizer === undefined ? defaultTokenizer : tokenizer;
  if (typeof name !== 'string' || !findTokenizer(name))
    return `Unknown tokenizer ${JSON.stringify(name)}. Valid tokenizers: ${tokenizerNames().join(', ')}.`;
  if (contextWindow !== undefined && !(typeof contextWindow === 'number' && Number.isInteger(contextWindow) && contextWindow > 0))
    return '"contextWindow" must be a positive whole number of tokens.';
  return {
    ...(text !== undefined ? { text } : {}),
    ...(Array.isArray(messages) ? { conversation: { messages, ...(Array.isArray(tools) ? { tools } : {}) } } : {}),
    paths: (paths as string[] | undefined) ?? [],
    activeSelection: activeSelection === true,
    tokenizer: name,
    ...(contextWindow !== undefined ? { contextWindow } : {}),
  };
}

export interface CountedItem {
  /** "text", "selection in prompt.md", "docs/a.md" */
  label: string;
  tokens?: number;
  chars?: number;
  /** Why it was not counted. */
  problem?: string;
}

/**
 * The answer: one line per item, the total, and whether it fits the context window. With `estimate`
 * (a closed model's), every number is marked ≈ and a note says it is an estimate, how it is made and how far off it was measured.
 */
export function answerText(
  items: readonly CountedItem[],
  tokenizer: string,
  contextWindow?: number,
  estimate?: Estimate,
  price?: PriceQuote,
): string {
  const counted = items.filter((i) => i.tokens !== undefined);
  const total = counted.reduce((sum, i) => sum + i.tokens!, 0);
  const approx = estimate ? '≈' : '';
  const lines = items.map((i) =>
    i.tokens !== undefined ? `${i.label}: ${approx}${i.tokens} tokens, ${i.chars} characters` : `${i.label}: not counted (${i.problem})`,
  );
  if (items.length > 1) lines.push(`Total: ${approx}${total} tokens in ${counted.length} of ${items.length} items`);
  if (estimate) {
    lines.unshift(
      `Estimated token counts with ${tokenizer} (estimate: true; not exact, no public tokenizer exists for this model):`,
      `Method: ${estimate.method}. Error: ${estimate.error}. Source: ${estimate.source}.`,
    );
  } else lines.unshift(`Exact token counts with ${tokenizer}:`);
  if (contextWindow !== undefined) {
    lines.push(
      total <= contextWindow
        ? `Fits a ${contextWindow}-token context window: ${contextWindow - total} tokens left (${((100 * total) / contextWindow).toFixed(1)}% used).`
        : `Does not fit a ${contextWindow}-token context window: ${total - contextWindow} tokens over.`,
    );
  }
  if (counted.length) lines.push(costLine(total, tokenizer, price, !!estimate));
  return lines.join('\n');
}

/** What the counted tokens cost as input, with where the price comes from, or why there is none. */
function costLine(tokens: number, tokenizer: string, price: PriceQuote | undefined, estimated: boolean): string {
  const asInput = inputCost(price, tokens);
  if (!price || !asInput) return noPriceReason(tokenizer, ENGLISH);
  const amount = `${estimated ? '≈' : ''}${usd(asInput.amount, ENGLISH)}`;
  return `Cost as input: ${amount} at ${usd(asInput.perMillion, ENGLISH)} per 1M tokens. ${priceOrigin(price, tokenizer, ENGLISH)}`;
}
