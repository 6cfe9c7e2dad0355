import { runSliced as runSlicedSteps, type Steps } from '../util/steps';
import { yieldToEventLoop } from '../util/yield';
import { countChars } from './engine/utf8';
import { tokenText } from './engine/base';
import { SCAN_PAUSED, type PieceResume, type TokenizeResult, type Tokenizer, type TokenSpan } from './types';

/** How long one synchronous slice of counting may hold the event loop. */
export const SLICE_MS = 8;

export class CancelledError extends Error {
  constructor() {
    super('Counting was cancelled.');
    this.name = 'CancelledError';
  }
}

/**
 * Scans `text` from `from` in slices of about SLICE_MS, yielding to the event loop between them.
 * Piece boundaries are valid restart points, so a slice ends after any piece; a pattern that runs out of its work
 * budget (SCAN_PAUSED) ends the scan call in the middle of a piece, and the next call goes on with its work.
 */
export async function scanSliced(
  tokenizer: Pick<Tokenizer, 'scanUntilHeavy' | 'prepare'>,
  text: string,
  emit: (end: number, count: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  let pos = 0;
  let deadline = performance.now() + SLICE_MS;
  while (pos < text.length) {
    if (signal?.aborted) throw new CancelledError();
    let checks = 0;
    const stop = tokenizer.scanUntilHeavy(text, pos, (end, count) => {
      emit(end, count);
      pos = end;
      return (++checks & 63) !== 0 || performance.now() < deadline;
    });
    if (typeof stop === 'string') await runSliced(tokenizer.prepare(stop), signal);
    else if (pos >= text.length || (stop === SCAN_PAUSED && performance.now() < deadline)) continue;
    else await yieldToEventLoop();
    deadline = performance.now() + SLICE_MS;
  }
}

/** Drives a resumable computation, yielding to the event loop whenever a slice's time is up. */
export function runSliced<T>(steps: Steps<T>, signal?: AbortSignal): Promise<T> {
  return runSlicedSteps(steps, { sliceMs: SLICE_MS, signal, cancelled: () => new CancelledError() });
}

/** The same number as tokenizer.count(text), without ever blocking the event loop for long. */
export async function countAsync(tokenizer: Tokenizer, text: string, options: { signal?: AbortSignal } = {}): Promise<number> {
  let total = 0;
  await scanSliced(tokenizer, text, (_end, count) => (total += count), options.signal);
  return total;
}

/** The same as tokenizer.tokenize(text), in slices as countAsync counts. */
export async function tokenizeAsync(tokenizer: Tokenizer, text: string, options: { signal?: AbortSignal } = {}): Promise<TokenizeResult> {
  const spans: TokenSpan[] = [];
  // The whitespace tokenizer numbers words from the text's start: it is walked in one go (it has no patterns to pause).
  const sliceable = tokenizer.info.kind !== 'whitespace';
  let pos = 0;
  let resume: PieceResume | undefined;
  while (pos < text.length) {
    if (options.signal?.aborted) throw new CancelledError();
    const deadline = performance.now() + SLICE_MS;
    let checks = 0;
    const late = (_end: number, inPiece: boolean) => sliceable && (inPiece || (++checks & 63) === 0) && performance.now() >= deadline;
    const { end, why, resume: inPiece } = tokenizer.spansUntilHeavy(text, pos, spans, late, resume);
    pos = end;
    resume = inPiece;
    if (typeof why === 'string') await runSliced(tokenizer.prepare(why), options.signal);
    else if (pos < text.length) await yieldToEventLoop();
  }
  const result: TokenizeResult = { tokenizer: tokenizer.info.name, text, n_tokens: spans.length, n_chars: 0, tokens: [], token_ids: [] };
  await runSliced(fillResult(result, spans), options.signal);
  return result;
}

/** tokenizeResult's token strings and ids, a thousand tokens per step: a million of them take longer than a slice. */
function* fillResult(result: TokenizeResult, spans: readonly TokenSpan[]): Generator<void, void> {
  result.n_chars = countChars(result.text);
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    result.tokens.push(tokenText(result.text, span));
    result.token_ids.push(span.id);
    if ((i & 1023) === 1023) yield;
  }
}
