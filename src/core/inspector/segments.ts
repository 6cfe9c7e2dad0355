/**
 * Groups tokens into what the inspector highlights. Pure: no VS Code, no DOM; used by the extension
 * (to build the table it posts) and by the webview (to read it back).
 *
 * A segment is the smallest run of whole characters that holds whole tokens:
 * - tokens whose character ranges overlap (each holds part of one character: an emoji split into
 *   byte tokens, a CJK character split in two) are one segment carrying all their ids;
 * - a boundary that falls inside a user-perceived character (a ZWJ family, a flag, a letter with a
 *   combining mark, CR LF) is not drawn either, since breaking the highlight there breaks the glyph;
 * - text no token covers (the whitespace tokenizer skips spaces) is a segment with no ids.
 * A segment's text is always text.slice(start, end): never decoded bytes, so never U+FFFD, and the
 * offsets are the editor's UTF-16 offsets, so they never drift.
 */

/** The structural part of a TokenSpan (src/core/tokenizers/types.ts) the segmentation needs. */
export interface SpanLike {
  id: number;
  bytes: Uint8Array;
  start: number;
  end: number;
}

/**
 * Segments in compact form: segment i covers text [bounds[i], bounds[i+1]) and tokens
 * [tokenIndex[i], tokenIndex[i+1]). Plain arrays while built and spliced; Int32Arrays on the way to
 * the webview (WireTable), which postMessage carries as binary instead of JSON.
 */
export interface SegmentTable<A extends ArrayLike<number> = number[]> {
  bounds: A;
  tokenIndex: A;
  ids: A;
  /** UTF-8 length of each token; the bytes themselves are the UTF-8 of the segment text, cut at these lengths. */
  byteLengths: A;
}

export type WireTable = SegmentTable<Int32Array>;
/** Either form, for code that only reads. */
export type TableView = SegmentTable<ArrayLike<number>>;

export function toWireTable(table: SegmentTable): WireTable {
  return {
    bounds: Int32Array.from(table.bounds),
    tokenIndex: Int32Array.from(table.tokenIndex),
    ids: Int32Array.from(table.ids),
    byteLengths: Int32Array.from(table.byteLengths),
  };
}

/** Segments [first, last) of `table`, their text offsets moved by `shift`. */
export interface TablePart {
  table: WireTable;
  first: number;
  last: number;
  shift: number;
}

/**
 * One table from consecutive parts (each part's text starts where the previous one's ends): how
 * chunks tokenized apart become one table, and how an edit's stretch is spliced into the old one.
 */
export function joinTables(parts: readonly TablePart[]): WireTable {
  let segments = 0;
  let tokens = 0;
  for (const { table, first, last } of parts) {
    segments += last - first;
    tokens += table.tokenIndex[last]! - table.tokenIndex[first]!;
  }
  const bounds = new Int32Array(segments + 1);
  const tokenIndex = new Int32Array(segments + 1);
  const ids = new Int32Array(tokens);
  const byteLengths = new Int32Array(tokens);
  let s = 0;
  let t = 0;
  for (const { table, first, last, shift } of parts) {
    const t0 = table.tokenIndex[first]!;
    const t1 = table.tokenIndex[last]!;
    for (let i = first; i < last; i++, s++) {
      bounds[s] = table.bounds[i]! + shift;
      tokenIndex[s] = table.tokenIndex[i]! - t0 + t;
    }
    ids.set(table.ids.subarray(t0, t1), t);
    byteLengths.set(table.byteLengths.subarray(t0, t1), t);
    t += t1 - t0;
  }
  const end = parts[parts.length - 1];
  bounds[s] = end ? end.table.bounds[end.last]! + end.shift : 0;
  tokenIndex[s] = t;
  return { bounds, tokenIndex, ids, byteLengths };
}

/** One segment, expanded: what a user hovers. */
export interface Segment {
  start: number;
  end: number;
  ids: number[];
  /** Each token's bytes as hex, e.g. ["20 f0 9f 91", "8d"]. */
  tokenBytesHex: string[];
  /** All the segment's bytes as hex. */
  bytesHex: string;
  text: string;
}

export interface SegmentOptions {
  /** Also join segments whose boundary falls inside a grapheme cluster (default true). */
  graphemes?: boolean;
}

/** Builds the segment table for spans in token order (as Tokenizer.spans returns them). */
export function buildSegmentTable(text: string, spans: readonly SpanLike[], options: SegmentOptions = {}): SegmentTable {
  const graphemes = options.graphemes ?? true;
  const bounds: number[] = [0];
  const tokenIndex: number[] = [0];
  const ids = new Array<number>(spans.length);
  const byteLengths = new Array<number>(spans.length);
  const length = text.length;
  let pos = 0;

  // Closes the segment that ends at `end` (exclusive) with tokens up to `token` (exclusive).
  const close = (end: number, token: number): void => {
    const last = bounds.length - 1;
    if (graphemes && last > 0 && !isGraphemeBoundary(text, bounds[last]!)) {
      // The previous segment's end is inside a grapheme: extend it instead of starting a new one.
      bounds[last] = end;
      tokenIndex[last] = token;
    } else {
      bounds.push(end);
      tokenIndex.push(token);
    }
  };

  let i = 0;
  while (i < spans.length) {
    const first = spans[i]!;
    const start = Math.min(Math.max(first.start, pos), length);
    if (start > pos) close(start, i); // uncovered text
    let end = Math.max(first.end, start);
    ids[i] = first.id;
    byteLengths[i] = first.bytes.length;
    let j = i + 1;
    while (j < spans.length && spans[j]!.start < end) {
      end = Math.max(end, spans[j]!.end);
      ids[j] = spans[j]!.id;
      byteLengths[j] = spans[j]!.bytes.length;
      j++;
    }
    end = Math.min(end, length);
    // Tokens with empty ranges at the very end (none are expected) still belong to the last segment.
    if (end > pos || bounds.length === 1) {
      close(Math.max(end, pos), j);
    } else {
      tokenIndex[tokenIndex.length - 1] = j;
    }
    pos = Math.max(end, pos);
    i = j;
  }
  if (pos < length) close(length, spans.length);
  return { bounds, tokenIndex, ids, byteLengths };
}

export function segmentCount(table: TableView): number {
  return table.bounds.length - 1;
}

/** Index of the segment containing UTF-16 offset `offset` (the last segment for offset == text length), or -1 when empty. */
export function segmentAt(table: TableView, offset: number): number {
  const n = table.bounds.length - 1;
  if (n <= 0) return -1;
  if (offset <= 0) return 0;
  if (offset >= table.bounds[n]!) return n - 1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (table.bounds[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Segments the editor range [start, end) touches, as [first, last] inclusive; for an empty range (a
 * cursor) the segment after the cursor, or the one before it at the end of a line or the text.
 */
export function segmentsInRange(table: TableView, start: number, end: number): [number, number] | undefined {
  const n = table.bounds.length - 1;
  if (n <= 0) return undefined;
  const total = table.bounds[n]!;
  if (start > total || end < 0) return undefined;
  if (end <= start) {
    const at = segmentAt(table, start);
    return [at, at];
  }
  const first = segmentAt(table, start);
  const last = segmentAt(table, end - 1);
  return [first, last];
}

const encoder = new TextEncoder();

function hex(bytes: Uint8Array, from: number, to: number): string {
  let out = '';
  for (let k = from; k < to; k++) out += (k > from ? ' ' : '') + bytes[k]!.toString(16).padStart(2, '0');
  return out;
}

/** Expands segment `index`. */
export function getSegment(text: string, table: TableView, index: number): Segment {
  const start = table.bounds[index]!;
  const end = table.bounds[index + 1]!;
  const segmentText = text.slice(start, end);
  const bytes = encoder.encode(segmentText);
  const ids: number[] = [];
  const tokenBytesHex: string[] = [];
  let offset = 0;
  for (let t = table.tokenIndex[index]!; t < table.tokenIndex[index + 1]!; t++) {
    ids.push(table.ids[t]!);
    const next = Math.min(bytes.length, offset + table.byteLengths[t]!);
    tokenBytesHex.push(hex(bytes, offset, next));
    offset = next;
  }
  return { start, end, ids, tokenBytesHex, bytesHex: hex(bytes, 0, bytes.length), text: segmentText };
}

/** All segments, expanded (tests, small texts). */
export function getSegments(text: string, table: TableView): Segment[] {
  const out: Segment[] = [];
  for (let i = 0; i < table.bounds.length - 1; i++) out.push(getSegment(text, table, i));
  return out;
}

/** Convenience: spans straight to expanded segments. */
export function segment(text: string, spans: readonly SpanLike[], options?: SegmentOptions): Segment[] {
  return getSegments(text, buildSegmentTable(text, spans, options));
}

// ---- Grapheme boundaries (UAX #29, the rules that matter for highlighting) -----------------------

const EXTEND = /^[\p{Grapheme_Extend}\p{Emoji_Modifier}\p{Mc}\u200d]$/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const CONTROL = /^[\p{Cc}\p{Zl}\p{Zp}]$/u;

function isRegionalIndicator(cp: number): boolean {
  return cp >= 0x1f1e6 && cp <= 0x1f1ff;
}

function codePointBefore(text: string, i: number): number {
  const c = text.charCodeAt(i - 1);
  if (c >= 0xdc00 && c <= 0xdfff && i >= 2) {
    const h = text.charCodeAt(i - 2);
    if (h >= 0xd800 && h <= 0xdbff) return 0x10000 + ((h - 0xd800) << 10) + (c - 0xdc00);
  }
  return c;
}

function unitsBefore(cp: number): number {
  return cp > 0xffff ? 2 : 1;
}

/**
 * Whether a user-perceived character may end at UTF-16 offset i: CR LF stay together, nothing breaks
 * before a combining mark, variation selector, skin tone or ZWJ, nor after a ZWJ that joins a
 * pictograph, nor inside a regional-indicator pair (a flag). Hangul jamo sequences and prepended
 * marks are not handled (precomposed Hangul is one code point and needs nothing).
 */
export function isGraphemeBoundary(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return true;
  const a = text.charCodeAt(i - 1);
  const b = text.charCodeAt(i);
  if (a < 0x300 && b < 0x300) return !(a === 13 && b === 10);
  if (b >= 0xdc00 && b <= 0xdfff && a >= 0xd800 && a <= 0xdbff) return false; // inside a surrogate pair
  const prev = codePointBefore(text, i);
  const next = text.codePointAt(i)!;
  const prevChar = String.fromCodePoint(prev);
  const nextChar = String.fromCodePoint(next);
  if (CONTROL.test(prevChar) || CONTROL.test(nextChar)) return true;
  if (EXTEND.test(nextChar)) return false;
  if (prev === 0x200d && PICTOGRAPHIC.test(nextChar)) return false;
  if (isRegionalIndicator(prev) && isRegionalIndicator(next)) {
    let count = 0;
    let k = i;
    while (k > 0) {
      const cp = codePointBefore(text, k);
      if (!isRegionalIndicator(cp)) break;
      count++;
      k -= unitsBefore(cp);
    }
    return count % 2 === 0;
  }
  return true;
}
