/**
 * Re-tokenizing only what an edit touched. Between the previous text and the new one, the common
 * prefix and suffix are unchanged; a safe cut point (see tokenize.ts) inside each of them bounds the
 * stretch to tokenize again, and the previous segment table is reused on both sides of it. Exact:
 * no token or segment crosses a safe cut, and none looks beyond it. Pure (no VS Code).
 */
import type { Tokenizer } from '../tokenizers/index';
import { joinTables, type WireTable } from './segments';
import { canSlice, CHUNK, SAFE_CUT, tableSliced, type Cancellation } from './tokenize';

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

/**
 * The previous table with segments [range.start, range.oldEnd) replaced by `middle` (the table of the
 * new text's [range.start, range.newEnd), offsets relative to range.start) and the rest shifted.
 * Undefined when a range end is not a segment boundary of the previous table (then rebuild it whole).
 */
export function spliceTable(previous: WireTable, range: ChangedRange, middle: WireTable): WireTable | undefined {
  const first = indexOf(previous.bounds, range.start);
  const last = indexOf(previous.bounds, range.oldEnd);
  if (first < 0 || last < first) return undefined;
  return joinTables([
    { table: previous, first: 0, last: first, shift: 0 },
    { table: middle, first: 0, last: middle.bounds.length - 1, shift: range.start },
    { table: previous, first: last, last: previous.bounds.length - 1, shift: range.newEnd - range.oldEnd },
  ]);
}

/** The last text and table per tokenizer (in wire form, ready to post): the next text re-tokenizes only what changed since. */
export class IncrementalTables {
  private last = new Map<string, { text: string; table: WireTable }>();

  /** The table of `text` under `tokenizer` (cached as `key`); undefined when cancelled. */
  async table(
    key: string,
    tokenizer: Tokenizer,
    text: string,
    cancellation: Cancellation = { cancelled: false },
  ): Promise<WireTable | undefined> {
    const previous = this.last.get(key);
    let table: WireTable | undefined;
    if (previous && canSlice(tokenizer)) {
      const range = changedRange(previous.text, text);
      if (!range) return previous.table;
      const middleText = text.slice(range.start, range.newEnd);
      const middle = await tableSliced(tokenizer, middleText, cancellation);
      if (!middle) return undefined;
      table = spliceTable(previous.table, range, middle);
    }
    table ??= await tableSliced(tokenizer, text, cancellation);
    if (table) this.last.set(key, { text, table });
    return table;
  }

  /** How many characters `table` would tokenize for `text`: the changed stretch, or all of it without a table to reuse. */
  cost(key: string, tokenizer: Tokenizer, text: string): number {
    const previous = this.last.get(key);
    if (!previous || !canSlice(tokenizer)) return text.length;
    const range = changedRange(previous.text, text);
    return range ? range.newEnd - range.start : 0;
  }

  /** Forgets every tokenizer but these. */
  keepOnly(keys: readonly string[]): void {
    for (const key of [...this.last.keys()]) if (!keys.includes(key)) this.last.delete(key);
  }
}
