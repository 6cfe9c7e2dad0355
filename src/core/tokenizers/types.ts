import type { TokenizerInfo } from './registry';

/** Spec 2.2, field for field. */
export interface TokenizeResult {
  tokenizer: string;
  text: string;
  n_tokens: number;
  n_chars: number;
  tokens: string[];
  token_ids: number[];
}

/**
 * One token with its exact bytes and where it sits in the text.
 * start/end are UTF-16 offsets of the smallest run of whole characters holding the token's bytes:
 * tokens that each hold part of one character (an emoji split in two) have overlapping ranges,
 * and `partial` is true for them.
 */
export interface TokenSpan {
  id: number;
  /** The token's bytes; may be the tokenizer's own (shared by every span of the id): read only. */
  bytes: Uint8Array;
  start: number;
  end: number;
  partial: boolean;
}

export type SpecialTokenMode = 'text' | 'special';

export interface EngineOptions {
  /** 'text' (default): special-token strings are ordinary text. 'special': each is its one special token. */
  specialTokens?: SpecialTokenMode;
}

/** loadTokenizerSync, as a family built on another family's tokenizer is handed it (families.ts). */
export type LoadSync = (name: string, options: EngineOptions) => Tokenizer;

/**
 * scanUntilHeavy's answer when a pattern of the model (a tokenizer.json's Split or Replace) ran out of its work
 * budget for this call (regex/matcher.ts): the caller may yield, then scans again from the last end, and the pattern
 * goes on with its work where it stopped.
 */
export const SCAN_PAUSED: unique symbol = Symbol('scan paused');

/** Why scanUntilHeavy stopped early: a heavy piece to prepare, or SCAN_PAUSED; undefined when emit stopped it or the text ended. */
export type ScanStop = string | typeof SCAN_PAUSED | undefined;

/** Where a walk stopped between two tokens of one long piece; given back to spansUntilHeavy, it goes on from there. */
export interface PieceResume {
  readonly end: number;
}

/**
 * Where spansUntilHeavy stopped and why (why undefined: `stop` accepted `end`, or the text ended there). With
 * `resume`, `end` is inside a piece: only that resume goes on from it (it is no restart point for anything else).
 */
export interface SpansStop {
  end: number;
  why: ScanStop;
  resume?: PieceResume;
}

/** Asked at each piece end, and between the parts of a long piece's tokens (`inPiece`); true stops the walk there. */
export type SpansStopAt = (end: number, inPiece: boolean) => boolean;

export interface Tokenizer {
  readonly info: TokenizerInfo;
  readonly options: Required<EngineOptions>;
  /**
   * Its ids number the tokens across the whole text (the whitespace tokenizer's, in order of first appearance), so a
   * part tokenized alone gets other ids: the inspector never cuts the text for it (canSlice).
   */
  readonly wholeTextIds?: boolean;
  count(text: string): number;
  encode(text: string): number[];
  spans(text: string): TokenSpan[];
  /**
   * The spans of the pieces from `from` (0 or a piece end, as for scan) on, appended to `out`, until a piece
   * end that `stop` accepts; returns that end (text.length when none does). Spans from 0 to the end are spans(text):
   * what the inspector tokenizes in chunks and again after an edit, on the walk the counts take.
   */
  spansFrom(text: string, from: number, out: TokenSpan[], stop: (end: number) => boolean): number;
  /**
   * spansFrom for time-sliced callers, as scanUntilHeavy is to scan: it also stops after the last piece before a heavy
   * piece, or when its patterns' work budget runs out (SCAN_PAUSED), and says which; `end` is then the last piece end
   * it reached (`from` when none), where the caller walks on after preparing the piece or yielding. A long piece's
   * tokens are given in parts, `stop` asked between them: stopped there, the answer's `resume` goes on.
   */
  spansUntilHeavy(text: string, from: number, out: TokenSpan[], stop: SpansStopAt, resume?: PieceResume): SpansStop;
  tokenize(text: string): TokenizeResult;
  /**
   * Splits text into pieces that are tokenized independently (tiktoken's pre-tokenizer pieces, special
   * tokens, lines, words): calls emit(end, tokens in the piece) for each piece from `from` on, until
   * it returns false. `from` must be 0 or the end of an earlier piece; scanning is deterministic from
   * there, which is what makes incremental and time-sliced counting exact.
   */
  scan(text: string, from: number, emit: (end: number, count: number) => boolean): void;
  /**
   * For time-sliced callers: scans like `scan`, but stops before a piece whose tokenization could hold
   * the thread for long (a huge run of one letter) and returns it; `prepare(piece)` then tokenizes it
   * in resumable steps and caches it, and the scan continues from the same boundary. Its patterns run on a work
   * budget: when it runs out the scan stops and returns SCAN_PAUSED (a few milliseconds of work at most per call).
   */
  scanUntilHeavy(text: string, from: number, emit: (end: number, count: number) => boolean): ScanStop;
  prepare(piece: string): Generator<void, void>;
  /** How many characters before an edit a piece can change (the longest special token, in 'special' mode). */
  readonly lookbehind: number;
}
