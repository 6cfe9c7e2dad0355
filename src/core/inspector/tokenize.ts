/**
 * Tokenizes the inspected text without blocking the extension host: big texts are cut into chunks at
 * points where every tokenizer's pieces are independent, each chunk tokenized on its own turn of the
 * event loop, so a 1 MB document never holds the host for more than a few tens of milliseconds and a
 * newer request cancels an older one between chunks. Pure (engine only, no VS Code).
 */
import type { Tokenizer } from '../tokenizers/index';
import { WHITE_SPACE } from '../tokenizers/pattern';
import { buildSegmentTable, joinTables, toWireTable, type TablePart, type WireTable } from './segments';

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

/** Where to cut `text` into chunks of about `size` units (positions, ascending, excluding 0 and text.length). */
export function cutPoints(text: string, size = CHUNK): number[] {
  const cuts: number[] = [];
  let from = size;
  while (from < text.length) {
    SAFE_CUT.lastIndex = from;
    const match = SAFE_CUT.exec(text);
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

import { yieldToEventLoop as yieldTurn } from '../util/yield';

/** The segment table of `text`, built from scratch; undefined when cancelled. */
export async function tableSliced(
  tokenizer: Tokenizer,
  text: string,
  cancellation: Cancellation = { cancelled: false },
): Promise<WireTable | undefined> {
  const tableOf = (chunk: string): WireTable => toWireTable(buildSegmentTable(chunk, tokenizer.spans(chunk)));
  if (text.length <= SLICE_THRESHOLD || !canSlice(tokenizer)) return tableOf(text);
  // No token and no segment crosses a cut: each chunk's table is built on its own turn of the event loop.
  const parts: TablePart[] = [];
  let start = 0;
  for (const end of [...cutPoints(text), text.length]) {
    await yieldTurn();
    if (cancellation.cancelled) return undefined;
    const table = tableOf(text.slice(start, end));
    parts.push({ table, first: 0, last: table.bounds.length - 1, shift: start });
    start = end;
  }
  return joinTables(parts);
}
