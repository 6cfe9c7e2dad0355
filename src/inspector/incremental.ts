/**
 * Re-tokenizing only what an edit touched. Between the previous text and the new one, the common
 * prefix and suffix are unchanged; a safe cut point (see tokenize.ts) inside each of them bounds the
 * stretch to tokenize again, and the previous segment table is reused on both sides of it. Exact:
 * no token or segment crosses a safe cut, and none looks beyond it. Pure (no VS Code).
 */
import type { Tokenizer } from '../tokenizers';
import { buildSegmentTable, toWireTable, type WireTable } from './segments';
import { canSlice, CHUNK, SAFE_CUT, spansSliced, type Cancellation } from './tokenize';

/** Where the texts differ: [start, oldEnd) of the old text became [start, newEnd) of the new one. */
export interface ChangedRange {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/** Lengths of the common prefix and suffix of a and b, never overlapping in either text. */
export function commonEnds(a: string, b: string): { prefix: number; suffix: number } {
  const max = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < max && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  const room = max - prefix;
  while (suffix < room && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix++;
  return { prefix, suffix };
}

/** The last safe cut c with c + 2 <= limit (its lookahead inside [0, limit)), searching back at most `window`; 0 when none. */
function safeCutBefore(text: string, limit: number, window = CHUNK): number {
  let best = 0;
  const cut = new RegExp(SAFE_CUT.source, 'g');
  cut.lastIndex = Math.max(0, limit - window);
  for (let m = cut.exec(text); m && m.index + 3 <= limit; m = cut.exec(text)) best = m.index + 1;
  return best;
}

/** The first safe cut c with c - 2 >= from (every character it looks at, its lookbehind too, at or after `from`); text.length when none. */
function safeCutAfter(text: string, from: number): number {
  const cut = new RegExp(SAFE_CUT.source, 'g');
  cut.lastIndex = from + 1;
  const m = cut.exec(text);
  return m ? m.index + 1 : text.length;
}

/**
 * The stretch of `next` to tokenize again after `previous` was tokenized, bounded by safe cuts that
 * lie in the unchanged prefix and suffix; undefined when the texts are equal.
 */
export function changedRange(previous: string, next: string): ChangedRange | undefined {
  if (previous === next) return undefined;
  const { prefix, suffix } = commonEnds(previous, next);
  const start = safeCutBefore(previous, prefix);
  const oldEnd = suffix > 0 ? safeCutAfter(previous, previous.length - suffix) : previous.length;
  return { start, oldEnd, newEnd: oldEnd + next.length - previous.length };
}

function indexOf(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] === value) return mid;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** before[0, cut) + middle + before[rest, end): the token arrays, copied as memory. */
function joined(before: Int32Array, cut: number, middle: Int32Array, rest: number): Int32Array {
  const out = new Int32Array(cut + middle.length + before.length - rest);
  out.set(before.subarray(0, cut));
  out.set(middle, cut);
  out.set(before.subarray(rest), cut + middle.length);
  return out;
}

/**
 * The previous table with segments [range.start, range.oldEnd) replaced by `middle` (the table of the
 * new text's [range.start, range.newEnd), offsets relative to range.start) and the rest shifted.
 * Undefined when a range end is not a segment boundary of the previous table (then rebuild it whole).
 */
export function spliceTable(previous: WireTable, range: ChangedRange, middle: WireTable): WireTable | undefined {
  const first = indexOf(previous.bounds, range.start);
  const last = indexOf(previous.bounds, range.oldEnd);
  if (first < 0 || last < first) return undefined;
  const tokenFirst = previous.tokenIndex[first];
  const tokenLast = previous.tokenIndex[last];
  const shiftText = range.newEnd - range.oldEnd;
  const shiftTokens = tokenFirst + middle.ids.length - tokenLast;

  const length = first + middle.bounds.length + previous.bounds.length - last - 1;
  const bounds = new Int32Array(length);
  const tokenIndex = new Int32Array(length);
  bounds.set(previous.bounds.subarray(0, first + 1));
  tokenIndex.set(previous.tokenIndex.subarray(0, first + 1));
  let k = first + 1;
  for (let i = 1; i < middle.bounds.length; i++, k++) {
    bounds[k] = middle.bounds[i] + range.start;
    tokenIndex[k] = middle.tokenIndex[i] + tokenFirst;
  }
  for (let i = last + 1; i < previous.bounds.length; i++, k++) {
    bounds[k] = previous.bounds[i] + shiftText;
    tokenIndex[k] = previous.tokenIndex[i] + shiftTokens;
  }
  return {
    bounds,
    tokenIndex,
    ids: joined(previous.ids, tokenFirst, middle.ids, tokenLast),
    byteLengths: joined(previous.byteLengths, tokenFirst, middle.byteLengths, tokenLast),
  };
}

/** The segment table of `text` from scratch, tokenized in slices; undefined when cancelled. */
async function fullTable(tokenizer: Tokenizer, text: string, cancellation: Cancellation): Promise<WireTable | undefined> {
  const spans = await spansSliced(tokenizer, text, cancellation);
  return spans && toWireTable(buildSegmentTable(text, spans));
}

/** The last text and table per tokenizer (in wire form, ready to post): the next text re-tokenizes only what changed since. */
export class IncrementalTables {
  private last = new Map<string, { text: string; table: WireTable }>();

  /** The table of `text` under `tokenizer` (cached as `key`); undefined when cancelled. */
  async table(key: string, tokenizer: Tokenizer, text: string, cancellation: Cancellation = { cancelled: false }): Promise<WireTable | undefined> {
    const previous = this.last.get(key);
    let table: WireTable | undefined;
    if (previous && canSlice(tokenizer)) {
      const range = changedRange(previous.text, text);
      if (!range) return previous.table;
      const middleText = text.slice(range.start, range.newEnd);
      const middle = await fullTable(tokenizer, middleText, cancellation);
      if (!middle) return undefined;
      table = spliceTable(previous.table, range, middle);
    }
    table ??= await fullTable(tokenizer, text, cancellation);
    if (table) this.last.set(key, { text, table });
    return table;
  }

  /** Forgets every tokenizer but these. */
  keepOnly(keys: readonly string[]): void {
    for (const key of [...this.last.keys()]) if (!keys.includes(key)) this.last.delete(key);
  }
}
