/**
 * What a count costs: the user's prices (tokenLens.prices, US dollars per 1 million tokens, by tokenizer name)
 * read totally, else the shipped ones (shippedPrices.ts, never fetched), and the cost of a text as input or of a
 * fine-tuning set (tokens × epochs × training price).
 */
import { isRecord } from '../util/guards';
import type { Locale } from '../util/locale';
import { own } from '../util/own';
import { PRICES_SOURCE, SHIPPED_PRICES, type ShippedPrice } from './shippedPrices';

/** US dollars per 1 million tokens; a kind the user did not set is absent. */
export interface Price {
  input?: number;
  output?: number;
  training?: number;
}

const KINDS = ['input', 'output', 'training'] as const;

/** More than any price per million tokens: a value past it is a typo, not a price. */
const MAX_PRICE = 1_000_000;

/** The prices in a setting's value: each entry an object of finite, non-negative numbers; anything else is dropped. */
export function readPrices(value: unknown): ReadonlyMap<string, Price> {
  const prices = new Map<string, Price>();
  if (!isRecord(value)) return prices;
  for (const [name, entry] of Object.entries(value)) {
    if (!isRecord(entry)) continue;
    const price: Price = {};
    for (const kind of KINDS) {
      const n = entry[kind];
      if (typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= MAX_PRICE) price[kind] = n;
    }
    if (Object.keys(price).length > 0) prices.set(name.trim(), price);
  }
  return prices;
}

/** The price a count is costed at and where it comes from: the user's setting, or the shipped table. */
export type PriceQuote =
  | { readonly price: Price; readonly from: 'setting' }
  | { readonly price: Price; readonly from: 'shipped'; readonly model: string; readonly long?: ShippedPrice['long'] };

/** The tokenizer `name`'s price: the user's entry in `setting` (it replaces a shipped one whole), else the shipped one. */
export function quotePrice(name: string, setting: unknown): PriceQuote | undefined {
  const key = name.trim();
  const yours = readPrices(setting).get(key);
  if (yours) return { price: yours, from: 'setting' };
  const shipped = own(SHIPPED_PRICES, key);
  if (!shipped) return undefined;
  const { model, input, output, long } = shipped;
  return { price: { input, output }, from: 'shipped', model, ...(long ? { long } : {}) };
}

/** The input price of a prompt of `tokens`: past a shipped long-prompt threshold, the long prompts' price. */
export function inputPrice(quote: PriceQuote, tokens: number): number | undefined {
  return quote.from === 'shipped' && quote.long && tokens > quote.long.over ? quote.long.input : quote.price.input;
}

/** What `tokens` cost as input at the quote's price, and that price; undefined without a quote or an input price. */
export function inputCost(quote: PriceQuote | undefined, tokens: number): { perMillion: number; amount: number } | undefined {
  const perMillion = quote && inputPrice(quote, tokens);
  return perMillion === undefined ? undefined : { perMillion, amount: cost(tokens, perMillion) };
}

/** Where a quote's prices come from, in words ("gpt-4o's price in LiteLLM's table … 2026-04-21"). */
export function priceOrigin(quote: PriceQuote, tokenizer: string, locale: Locale): string {
  const { t } = locale;
  if (quote.from === 'setting') return t('Your price for {0} in tokenLens.prices.', tokenizer);
  const long = quote.long
    ? ` ${t('Prompts over {0} tokens: {1} per 1M input tokens.', locale.number(quote.long.over), usd(quote.long.input, locale))}`
    : '';
  return (
    t(
      "{0}'s price of {1} from LiteLLM's table of the providers' price pages ({2}, commit {3}); override it in tokenLens.prices.",
      quote.model,
      PRICES_SOURCE.date,
      PRICES_SOURCE.repository,
      PRICES_SOURCE.commit.slice(0, 8),
    ) + long
  );
}

/** Why no cost is shown for the tokenizer `name`. */
export function noPriceReason(tokenizer: string, locale: Locale): string {
  return locale.t(
    'No price for {0}: Token Lens ships prices for the OpenAI, Claude and Gemini tokenizers only (open models cost what their host charges); set one in tokenLens.prices.',
    tokenizer,
  );
}

/** US dollars for `tokens` at `perMillion` dollars per 1M tokens, `times` over (a training set's epochs). */
export function cost(tokens: number, perMillion: number, times = 1): number {
  return (tokens * times * perMillion) / 1_000_000;
}

/** "$12.34", "$0.0042": cents where they say enough, else two significant digits (a short prompt costs fractions of a cent). */
export function usd(amount: number, locale: Locale): string {
  if (amount === 0 || amount >= 0.01) return `$${locale.number(amount, 2)}`;
  const digits = Math.min(10, Math.ceil(-Math.log10(amount)) + 1);
  return `$${locale.number(amount, digits)}`;
}
