/**
 * What a count costs: the user's prices (tokenLens.prices, US dollars per 1 million tokens, by tokenizer name)
 * read totally, and the cost of a text as input or of a fine-tuning set (tokens × epochs × training price).
 * Token Lens ships no prices: they change, and are never fetched.
 */
import { isRecord } from '../util/guards';
import type { Locale } from '../util/locale';

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
