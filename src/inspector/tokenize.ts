/**
 * Tokenizes the inspected text without blocking the extension host: big texts are cut into chunks at
 * points where every tokenizer's pieces are independent, each chunk tokenized on its own turn of the
 * event loop, so a 1 MB document never holds the host for more than a few tens of milliseconds and a
 * newer request cancels an older one between chunks. Pure (engine only, no VS Code).
 */
import type { SpanLike } from './segments';
import type { Tokenizer, TokenSpan } from '../tokenizers';

/** Texts up to this many UTF-16 units are tokenized in one call (a few ms to ~50 ms). */
export const SLICE_THRESHOLD = 60_000;
/** Target chunk size for the sliced path. */
export const CHUNK = 32_000;

export interface Cancellation {
  cancelled: boolean;
}

/**
 * Safe cut points: after a newline followed by a non-space character, or between a lowercase ASCII
 * letter and a space followed by a lowercase ASCII letter (" word"). No tiktoken pre-tokenizer
 * piece, special token or character-tokenizer token crosses such a point, and none of them looks
 * beyond it, so tokenizing each side alone gives the same tokens as tokenizing the whole.
 */
const CUT = /\n(?=[^\s])|[a-z](?= [a-z])/g;

/** Where to cut `text` into chunks of about `size` units (positions, ascending, excluding 0 and text.length). */
export function cutPoints(text: string, size = CHUNK): number[] {
  const cuts: number[] = [];
  let from = size;
  while (from < text.length) {
    CUT.lastIndex = from;
    const match = CUT.exec(text);
    if (!match) break;
    const cut = match.index + 1;
    if (cut >= text.length) break;
    cuts.push(cut);
    from = cut + size;
  }
  return cuts;
}

/** Whether chunking is exact for this tokenizer (the whitespace tokenizer numbers words by first appearance in the whole text). */
export function canSlice(tokenizer: Tokenizer): boolean {
  return tokenizer.info.kind !== 'whitespace';
}

const yieldTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** All spans of `text`, as tokenizer.spans(text) returns them; undefined when cancelled. */
export async function spansSliced(tokenizer: Tokenizer, text: string, cancellation: Cancellation = { cancelled: false }): Promise<SpanLike[] | undefined> {
  if (text.length <= SLICE_THRESHOLD || !canSlice(tokenizer)) return tokenizer.spans(text);
  const cuts = [...cutPoints(text), text.length];
  const out: TokenSpan[] = [];
  let start = 0;
  for (const end of cuts) {
    await yieldTurn();
    if (cancellation.cancelled) return undefined;
    const spans = tokenizer.spans(text.slice(start, end));
    for (const span of spans) {
      span.start += start;
      span.end += start;
      out.push(span);
    }
    start = end;
  }
  return out;
}
