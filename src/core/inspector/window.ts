/**
 * The tokens of the part of a document the editor shows: tokenized from a safe cut before the visible
 * text to one after it, so the boundaries on screen are the whole document's, at a cost that depends on
 * what is visible, not on the document's size. Grouped into whole-character segments, so a token that
 * holds part of an emoji or a CJK character never splits it on screen. Pure.
 */
import type { SegmentTable } from './segments';
import { canSlice, chunkTable, SAFE_CUT } from './tokenize';
import type { Tokenizer } from '../tokenizers/index';

/** How far to look for a safe cut on each side of the visible text. */
export const LOOK = 65_536;
/** Most characters of one visible range decorated (a minified file's one visible line can be 1 MB). */
export const MAX_VISIBLE = 200_000;

function firstCutFrom(text: string, from: number): number | undefined {
  SAFE_CUT.lastIndex = from;
  const match = SAFE_CUT.exec(text);
  return match ? match.index + 1 : undefined;
}

/** The last safe cut at or before `at` (0 when the text starts within reach). */
export function cutBefore(text: string, at: number): number {
  let from = Math.max(0, at - LOOK);
  let found = from === 0 ? 0 : undefined;
  for (let cut = firstCutFrom(text, from); cut !== undefined && cut <= at; cut = firstCutFrom(text, from)) {
    found = cut;
    from = cut;
  }
  // No cut within reach: the boundaries this far before the visible text are synchronised again by the time it starts.
  return found ?? Math.max(0, at - LOOK);
}

/** The first safe cut at or after `at` (the text's end when it ends within reach). */
export function cutAfter(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const cut = firstCutFrom(text, at);
  return cut !== undefined && cut - at <= LOOK ? cut : Math.min(text.length, at + LOOK);
}

export interface BoundaryWindow {
  /** Offset of the table's text in the document. */
  from: number;
  text: string;
  table: SegmentTable;
  /** False when the model's patterns or a heavy piece took longer than WINDOW_MS: the table stops short of the window. */
  complete: boolean;
}

/** How long one window may take: a tokenizer.json's slow pattern shows fewer boundaries instead of freezing the editor. */
export const WINDOW_MS = 150;

/** The segments covering [start, end) of `text`; the whitespace tokenizer, whose ids depend on the whole text, is tokenized from the start. */
export function boundaryWindow(tokenizer: Tokenizer, text: string, start: number, end: number): BoundaryWindow {
  const visibleEnd = Math.min(end, start + MAX_VISIBLE);
  const from = canSlice(tokenizer) ? cutBefore(text, start) : 0;
  const to = cutAfter(text, visibleEnd);
  // Walked in the whole text, not the slice alone: a slice would start a new text (a Prepend normalizer's ▁ again).
  const chunk = chunkTable(tokenizer, text, from, (e) => e >= to, performance.now() + WINDOW_MS);
  return { from, text: text.slice(from, chunk.end), table: chunk.table, complete: chunk.why === undefined };
}
