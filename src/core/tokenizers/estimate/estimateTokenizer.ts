import type { TokenizerInfo } from '../registry';
import type { EngineOptions, ScanStop, SpansStop, TokenizeResult, Tokenizer, TokenSpan } from '../types';

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
