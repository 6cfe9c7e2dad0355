import { ENCODING_NAMES, type TokenizerInfo } from '../registry';
import { encodingTokenizer } from '../tiktoken/encoding';
import type { EngineOptions, LoadSync, ScanStop, SpansStop, TokenizeResult, Tokenizer, TokenSpan } from '../types';
import type { Estimate } from './estimates';

/** Token boundaries, ids and the inspector need an exact tokenizer; an estimate has none to show. */
export class NotExactError extends Error {
  constructor(readonly tokenizer: string) {
    super(
      `Showing tokens (the inspector, token boundaries, ids) needs an exact tokenizer; "${tokenizer}" is an estimate (a scaled count of another vocabulary), ` +
        'so it has no tokens of its own to show. Choose an exact tokenizer for this.',
    );
    this.name = 'NotExactError';
  }
}

/**
 * An estimate (info.estimate): scans and counts with its base encoding, so count() and the pieces scan()
 * emits are the BASE count; scaleCount (estimates.ts) turns the total into the estimate where it is shown.
 * It never hands out tokens: spans, encode and tokenize throw NotExactError.
 */
export class EstimateTokenizer implements Tokenizer {
  readonly options: Required<EngineOptions>;
  readonly lookbehind: number;

  constructor(
    readonly info: TokenizerInfo,
    private readonly base: Tokenizer,
  ) {
    this.options = base.options;
    this.lookbehind = base.lookbehind;
  }

  count(text: string): number {
    return this.base.count(text);
  }

  scan(text: string, from: number, emit: (end: number, count: number) => boolean): void {
    this.base.scan(text, from, emit);
  }

  scanUntilHeavy(text: string, from: number, emit: (end: number, count: number) => boolean): ScanStop {
    return this.base.scanUntilHeavy(text, from, emit);
  }

  prepare(piece: string): Generator<void, void> {
    return this.base.prepare(piece);
  }

  encode(): number[] {
    throw new NotExactError(this.info.name);
  }

  spans(): TokenSpan[] {
    throw new NotExactError(this.info.name);
  }

  spansFrom(): number {
    throw new NotExactError(this.info.name);
  }

  spansUntilHeavy(): SpansStop {
    throw new NotExactError(this.info.name);
  }

  tokenize(): TokenizeResult {
    throw new NotExactError(this.info.name);
  }
}

/**
 * An estimate's tokenizer: what it counts with is a built-in encoding's own tokenizer (`loadSync`: its piece cache
 * shared with counts in that encoding), or for a vocabulary no tokenizer name stands for (claude) one built from its
 * encoding.
 */
export function estimateTokenizer(info: TokenizerInfo, estimate: Estimate, options: EngineOptions, loadSync: LoadSync): Tokenizer {
  const { base } = estimate;
  const counted = ENCODING_NAMES.includes(base) ? loadSync(base, options) : encodingTokenizer(info, base, options.specialTokens ?? 'text');
  return new EstimateTokenizer(info, counted);
}
