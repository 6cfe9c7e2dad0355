/**
 * The inspector's rows, pure: the text cut into lines, and lines wrapped at segment boundaries when wider than
 * the pane, with room for the ids badge after a segment. One linear pass; tested in test/unit/webviews/pages/inspector/rows.test.ts.
 */
import type { TableView } from '../../../core/inspector/segments';

export function charWidth(code: number): number {
  if (code === 9) return 4;
  if (code >= 0xdc00 && code <= 0xdfff) return 0; // second half of a pair: counted with the first
  if (code >= 0x300 && code < 0x370) return 0; // combining marks
  if ((code >= 0x200b && code <= 0x200f) || (code >= 0xfe00 && code <= 0xfe0f)) return 0; // ZWJ, variation selectors
  return code >= 0x1100 ? 2 : 1;
}

export interface Rows {
  /** rowStarts[r] is the text offset row r starts at; rowSegs[r] the segment containing it. */
  rowStarts: number[];
  rowSegs: number[];
}

/** Rows of at most `cols` columns (a segment wider than that is cut at code points). */
export function cutRows(text: string, table: TableView, cols: number, showIds: boolean): Rows {
  const { bounds, tokenIndex, ids } = table;
  const n = bounds.length - 1;
  const rowStarts: number[] = [0];
  const rowSegs: number[] = [0];
  const max = cols;
  const idWidth = showIds;
  let col = 0;
  for (let s = 0; s < n; s++) {
    const start = bounds[s]!;
    const end = bounds[s + 1]!;
    let width = 0;
    let newline = -1;
    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code === 10) {
        newline = i;
        break;
      }
      width += charWidth(code);
    }
    // The ids badge after the segment's last piece: digits and commas at 0.75em, after a 2px margin.
    let badge = 0;
    if (idWidth && tokenIndex[s + 1]! > tokenIndex[s]!) {
      badge = 0.5;
      for (let t = tokenIndex[s]!; t < tokenIndex[s + 1]!; t++) badge += (String(ids[t]).length + 1) * 0.75;
    }
    // A segment that starts with a newline stays on its row, unless its badge does not fit there.
    if (col > 0 && col + width + (newline < 0 ? badge : 0) > max && (newline !== start || col + badge > max)) {
      rowStarts.push(start);
      rowSegs.push(s);
      col = 0;
    }
    if (newline < 0) {
      if (width + badge > max) {
        // One segment wider than the pane (a long run of spaces or a huge word): cut it at code points,
        // short enough that the badge still fits after the last piece.
        const limit = badge < max ? max - badge : max;
        let w = col;
        for (let i = start; i < end; i++) {
          const code = text.charCodeAt(i);
          const cw = charWidth(code);
          if (w + cw > limit && w > 0 && !(code >= 0xdc00 && code <= 0xdfff)) {
            rowStarts.push(i);
            rowSegs.push(s);
            w = 0;
          }
          w += cw;
        }
        col = w + badge;
      } else {
        col += width + badge;
      }
      continue;
    }
    // Every newline inside the segment ends a row; the next row starts after it.
    for (let i = newline; i < end; i++) {
      if (text.charCodeAt(i) === 10 && i + 1 < text.length) {
        rowStarts.push(i + 1);
        rowSegs.push(i + 1 < end ? s : s + 1);
      }
    }
    col = 0;
    let tail = end;
    while (tail > start && text.charCodeAt(tail - 1) !== 10) tail--;
    for (let i = tail; i < end; i++) col += charWidth(text.charCodeAt(i));
    col += badge;
  }
  return { rowStarts, rowSegs };
}

/** The row (or line) holding text offset `offset`, given where each starts (binary search). */
export function rowAt(rowStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = rowStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (rowStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
