/**
 * Closed models (issue 21): no public exact tokenizer, so an estimate, clearly labelled, never shown as exact.
 * The method is ai-tokenizer's (github.com/coder/ai-tokenizer, MIT): an open vocabulary's count × the
 * content multiplier it measured for the model. Pure data and arithmetic; estimateTokenizer.ts counts.
 */

/**
 * The vocabularies an estimate counts with: a built-in encoding, or one only estimates read (`claude`, Anthropic's
 * published Claude tokenizer: the package carries its rank file, but it is no tokenizer of its own).
 */
export type EstimateBase = 'o200k_base' | 'claude';

/** How an estimate is made and how far off it was measured to be. */
export interface Estimate {
  /** The open vocabulary whose count is scaled. */
  readonly base: EstimateBase;
  /** The multiplier applied to the base count (then rounded to a whole token). */
  readonly factor: number;
  /** The method in words, for tooltips and the chat tool. */
  readonly method: string;
  /** The measured error in words. */
  readonly error: string;
  /** Where the method and the measurement come from. */
  readonly source: string;
}

/** An estimate a user can choose: its name (never a built-in's), the model family and its context window. */
export interface EstimateEntry {
  readonly name: string;
  readonly description: string;
  readonly family: string;
  readonly contextWindow: number;
  readonly estimate: Estimate;
}

const AI_TOKENIZER = 'ai-tokenizer 1.0.6 (github.com/coder/ai-tokenizer, MIT), its README\'s "Accuracy" table';

export const ESTIMATES: readonly EstimateEntry[] = [
  {
    name: 'gemini (estimate)',
    description: 'estimate for Gemini models: o200k_base count × 1.08',
    family: 'Gemini',
    contextWindow: 1_048_576,
    estimate: {
      base: 'o200k_base',
      factor: 1.08,
      method: "o200k_base count × 1.08, rounded (ai-tokenizer's content multiplier for Gemini)",
      error:
        "measured against the Gemini API by ai-tokenizer's authors: Gemini 2.5 Pro 98.37 % / 99.42 % / 99.82 % accurate " +
        'at ~500 / 5k / 50k tokens (other Gemini models 92.5-99.9 %)',
      source: AI_TOKENIZER,
    },
  },
  {
    name: 'claude (estimate)',
    description: "estimate for Claude models: Anthropic's published Claude vocabulary count × 1.1",
    family: 'Claude',
    contextWindow: 200_000,
    estimate: {
      base: 'claude',
      factor: 1.1,
      method:
        "Claude vocabulary count × 1.1, rounded (ai-tokenizer's content multiplier for Claude; the vocabulary is the one Anthropic published, @anthropic-ai/tokenizer's claude.json)",
      error:
        "measured against the API's counts by ai-tokenizer's authors: Claude Sonnet 4.5 98.48 % / 98.91 % / 99.70 % accurate " +
        'at ~500 / 5k / 50k tokens (other Claude models 97.61-99.98 %)',
      source: AI_TOKENIZER,
    },
  },
];

/** The estimated count from the base encoding's count: round(base × factor). */
export function scaleCount(estimate: Estimate, baseCount: number): number {
  return Math.round(baseCount * estimate.factor);
}

/** The count a tokenizer's users see: an estimate's base count scaled, any other count as it is. */
export function shownCount(info: { readonly estimate?: Estimate }, counted: number): number {
  return info.estimate ? scaleCount(info.estimate, counted) : counted;
}

/** A count as shown: "≈1,234" for an estimate, the plain number otherwise. */
export function approx(estimated: boolean, formatted: string): string {
  return estimated ? `≈${formatted}` : formatted;
}
