/**
 * Tokenizes the inspected text without blocking the extension host: big texts are walked in chunks that end at
 * the tokenizer's own piece ends (where its scan restarts exactly), each chunk on its own turn of the event loop,
 * so a 1 MB document never holds the host for more than a few tens of milliseconds, a newer request cancels an
 * older one between chunks, and the tokens are those the status bar counts. Pure (engine only, no VS Code).
 */
import type { Tokenizer, TokenSpan } from '../tokenizers/index';
import { WHITE_SPACE } from '../tokenizers/pattern';
import { yieldToEventLoop as yieldTurn } from '../util/yield';
import {
  buildSegmentTable,
  isGraphemeBoundary,
  joinTables,
  toWireTable,
  type SegmentTable,
  type TablePart,
  type WireTable,
} from './segments';

/** Texts up to this many UTF-16 units are tokenized in one call (up to ~25 ms cold). */
export const SLICE_THRESHOLD = 24_000;
/** Target chunk size for the sliced path. */
export const CHUNK = 16_000;

export interface Cancellation {
  cancelled: boolean;
}

/** Spaces to both regex engines: JavaScript's \s and Unicode White_Space (Rust's \s, which adds U+0085). */
const SPACE = `\\s${WHITE_SPACE}`;

/**
 * Safe cut points: after a newline that has a non-space on each side (and no "/" after it), or
 * between a lowercase ASCII letter and a space followed by a lowercase ASCII letter (" word"). No
 * tiktoken pre-tokenizer piece, special token or character-tokenizer token crosses such a point,
 * and none of them looks beyond it, so tokenizing each side alone gives the same tokens as
 * tokenizing the whole. The conditions matter: in "  \n\nX" the older encodings split the run
 * before its last newline only because X follows, and o200k's punctuation pieces take "\n/" along.
 */
export const SAFE_CUT = new RegExp(`(?<=[^${SPACE}])\\n(?=[^${SPACE}/])|[a-z](?= [a-z])`, 'g');

/** Whether chunking is exact for this tokenizer (the whitespace tokenizer numbers words by first appearance in the whole text). */
export function canSlice(tokenizer: Tokenizer): boolean {
  return tokenizer.info.kind !== 'whitespace';
}

/**
 * The segment table of text from `from` (0 or a piece end), offsets relative to `from`, up to the first piece end
 * that no character straddles and `stop` accepts (the text's end otherwise).
 */
export function chunkTable(
  tokenizer: Tokenizer,
  text: string,
  from: number,
  stop: (end: number) => boolean,
): { table: SegmentTable; end: number } {
  const spans: TokenSpan[] = [];
  const end = tokenizer.spansFrom(text, from, spans, (e) => isGraphemeBoundary(text, e) && stop(e));
  for (const span of spans) {
    span.start -= from;
    span.end -= from;
  }
  return { table: buildSegmentTable(text.slice(from, end), spans), end };
}

/** Restart points are kept about this far apart: an edit tokenizes again about this much on each side of it. */
export const ANCHOR_GAP = 256;

/** A table of text[from, end), its offsets relative to `from`, and the piece ends in it a later walk may restart at. */
export interface WalkedTable {
  table: WireTable;
  end: number;
  /** Ascending offsets in the text (not relative to `from`): piece ends that are segment boundaries. */
  anchors: number[];
}

/**
 * The segment table of text from `from` (0 or an anchor), on the walk the counts take (Tokenizer.spansFrom): chunk
 * by chunk, each chunk on its own turn of the event loop and ending at a piece end that no character straddles, so
 * chunks tokenized apart are the whole text tokenized at once. Goes on until `stop` accepts such a piece end, else
 * to the text's end; undefined when cancelled.
 */
export async function walkTable(
  tokenizer: Tokenizer,
  text: string,
  from: number,
  cancellation: Cancellation = { cancelled: false },
  stop: (end: number) => boolean = () => false,
): Promise<WalkedTable | undefined> {
  const parts: TablePart[] = [];
  const anchors: number[] = [];
  const oneCall = text.length - from <= SLICE_THRESHOLD || !canSlice(tokenizer);
  let pos = from;
  let stopped = false;
  while (pos < text.length && !stopped) {
    if (!oneCall) await yieldTurn();
    if (cancellation.cancelled) return undefined;
    const limit = oneCall ? Infinity : pos + CHUNK;
    let anchor = pos;
    const chunk = chunkTable(tokenizer, text, pos, (e) => {
      stopped = stop(e);
      if (stopped || e >= limit) return true;
      if (e - anchor >= ANCHOR_GAP) anchors.push((anchor = e));
      return false;
    });
    const end = chunk.end;
    const table = toWireTable(chunk.table);
    parts.push({ table, first: 0, last: table.bounds.length - 1, shift: pos - from });
    if (end < text.length) anchors.push(end);
    pos = end;
  }
  return { table: joinTables(parts), end: pos, anchors };
}

/** The segment table of `text`, built from scratch; undefined when cancelled. */
export async function tableSliced(
  tokenizer: Tokenizer,
  text: string,
  cancellation: Cancellation = { cancelled: false },
): Promise<WireTable | undefined> {
  return (await walkTable(tokenizer, text, 0, cancellation))?.table;
}
