import type { TokenizerInfo } from '../registry';
import type { EngineOptions, ScanStop, SpansStop, SpansStopAt, TokenizeResult, Tokenizer, TokenSpan } from '../types';
import { countChars } from './utf8';

const utf8 = new TextDecoder();
const never = (): boolean => false;

/** What every tokenizer derives from its scan and its spans. */
export abstract class TokenizerBase implements Tokenizer {
  readonly options: Required<EngineOptions>;

  constructor(
    readonly info: TokenizerInfo,
    options: EngineOptions,
  ) {
    this.options = { specialTokens: options.specialTokens ?? 'text' };
  }

  abstract readonly lookbehind: number;
  abstract scan(text: string, from: number, emit: (end: number, count: number) => boolean): void;
  abstract spansFrom(text: string, from: number, out: TokenSpan[], stop: (end: number) => boolean): number;

  spans(text: string): TokenSpan[] {
    const out: TokenSpan[] = [];
    this.spansFrom(text, 0, out, never);
    return out;
  }

  /** Only BPE pieces can be heavy; other tokenizers are linear per piece. */
  scanUntilHeavy(text: string, from: number, emit: (end: number, count: number) => boolean): ScanStop {
    this.scan(text, from, emit);
    return undefined;
  }

  spansUntilHeavy(text: string, from: number, out: TokenSpan[], stop: SpansStopAt): SpansStop {
    return { end: this.spansFrom(text, from, out, (end) => stop(end, false)), why: undefined };
  }

  *prepare(_piece: string): Generator<void, void> {}

  count(text: string): number {
    let total = 0;
    this.scan(text, 0, (_end, count) => {
      total += count;
      return true;
    });
    return total;
  }

  encode(text: string): number[] {
    return this.spans(text).map((span) => span.id);
  }

  /** Spec 2.2. A token holding part of a character decodes with U+FFFD, as the service's decode does. */
  tokenize(text: string): TokenizeResult {
    return tokenizeResult(this.info.name, text, this.spans(text));
  }
}

/** Spec 2.2's answer for text from its spans. */
export function tokenizeResult(tokenizer: string, text: string, spans: readonly TokenSpan[]): TokenizeResult {
  return {
    tokenizer,
    text,
    n_tokens: spans.length,
    n_chars: countChars(text),
    tokens: spans.map((s) => tokenText(text, s)),
    token_ids: spans.map((s) => s.id),
  };
}

/** A token as text: its slice of the text, or its bytes decoded (U+FFFD for a part of a character). */
export function tokenText(text: string, span: TokenSpan): string {
  return span.partial ? utf8.decode(span.bytes) : text.slice(span.start, span.end);
}
