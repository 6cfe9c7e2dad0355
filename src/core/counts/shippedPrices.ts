/**
 * The prices Token Lens ships, as data: US dollars per 1 million tokens for the models its tokenizers stand for,
 * copied from LiteLLM's transcription of the providers' price pages (the pages themselves are out of this
 * project's reach). Never fetched at run time; a user's entry in tokenLens.prices replaces a shipped one.
 * test/unit/core/counts/shippedPrices.test.ts checks every number against the source's rows (test/fixtures/prices/).
 *
 * Source: github.com/BerriAI/litellm, model_prices_and_context_window.json at commit
 * 00035b69f416be24e2e323c13198d9b7d2d1bdf9. The commit's own date could not be read here; its newest dated row
 * is gpt-image-2-2026-04-21, so the table is of 2026-04-21 or later.
 */

export const PRICES_SOURCE = {
  repository: 'BerriAI/litellm',
  path: 'model_prices_and_context_window.json',
  commit: '00035b69f416be24e2e323c13198d9b7d2d1bdf9',
  /** As the README and tooltips state it. */
  date: '2026-04-21',
} as const;

/** A shipped price: the model it is the price of (LiteLLM's key), input and output per 1M tokens. */
export interface ShippedPrice {
  readonly model: string;
  readonly input: number;
  readonly output: number;
  /** A longer prompt is billed at other prices for all its tokens (Claude's and Gemini's over 200,000). */
  readonly long?: { readonly over: number; readonly input: number; readonly output: number };
}

const GPT_4: ShippedPrice = { model: 'gpt-4', input: 30, output: 60 };
const GPT_35: ShippedPrice = { model: 'gpt-3.5-turbo', input: 0.5, output: 1.5 };
const GPT_4O: ShippedPrice = { model: 'gpt-4o', input: 2.5, output: 10 };

/**
 * By tokenizer name. An encoding stands for the model its description names first (cl100k_base: GPT-4); the
 * estimates for the model their error was measured on (estimates.ts: Claude Sonnet 4.5, Gemini 2.5 Pro).
 * None for open-weights models (each host sells them at its own price), gpt-oss, the retired encodings
 * (p50k, r50k, gpt2) or the comparison tokenizers.
 */
export const SHIPPED_PRICES: Readonly<Record<string, ShippedPrice>> = {
  cl100k_base: GPT_4,
  'model-4': GPT_4,
  'model-3.5-turbo': GPT_35,
  o200k_base: GPT_4O,
  // The service's alias: counted with cl100k_base as its specification says, priced as the model it names.
  'model-4o': GPT_4O,
  'model-4o (o200k)': GPT_4O,
  'claude (estimate)': { model: 'claude-sonnet-4-5', input: 3, output: 15, long: { over: 200_000, input: 6, output: 22.5 } },
  'gemini (estimate)': { model: 'gemini/gemini-2.5-pro', input: 1.25, output: 10, long: { over: 200_000, input: 2.5, output: 15 } },
};
