/**
 * Re-tokenizing only what an edit touched. Between the previous text and the new one, the common prefix and suffix
 * are unchanged; the walk restarts at an anchor (a piece end the previous walk kept, see tokenize.ts) before the
 * edit and stops at the first piece end after it where the previous walk had an anchor too: the walk is
 * deterministic from a piece end, so from there on the tokens, and the segments, are the previous ones shifted.
 * Pure (no VS Code).
 */
import type { Tokenizer } from '../tokenizers/index';
import { joinTables, type WireTable } from './segments';
import { canSlice, walkTable, type Cancellation } from './tokenize';

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

/** The last anchor at or before `limit`, or 0. */
function anchorBefore(anchors: readonly number[], limit: number): number {
  let lo = 0;
  let hi = anchors.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (anchors[mid]! <= limit) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? anchors[lo - 1]! : 0;
}

/** Whether `value` (> 0) is one of the ascending `anchors`. */
function isAnchor(anchors: readonly number[], value: number): boolean {
  return anchorBefore(anchors, value) === value;
}

/**
 * How far before an edit the walk restarts, beyond the longest special token: a piece that ends before the edit can
 * still change when the pattern that made it looked ahead into the edit (a run of spaces looks at what follows it).
 */
const SLACK = 32;

function indexOf(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] === value) return mid;
    if (sorted[mid]! < value) lo = mid + 1;
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

interface Walked {
  text: string;
  table: WireTable;
  anchors: number[];
}

/**
 * The last text and table per tokenizer (in wire form, ready to post): the next text is walked again from an anchor
 * before what changed until the walk ends on an anchor of the previous one after it, from where the rest is the same.
 */
export class IncrementalTables {
  private last = new Map<string, Walked>();

  /** The table of `text` under `tokenizer` (cached as `key`); undefined when cancelled. */
  async table(
    key: string,
    tokenizer: Tokenizer,
    text: string,
    cancellation: Cancellation = { cancelled: false },
  ): Promise<WireTable | undefined> {
    const previous = this.last.get(key);
    let walked: Walked | undefined;
    if (previous && canSlice(tokenizer)) {
      if (previous.text === text) return previous.table;
      walked = await this.update(previous, tokenizer, text, cancellation);
      if (cancellation.cancelled) return undefined;
    }
    if (!walked) {
      const whole = await walkTable(tokenizer, text, 0, cancellation);
      walked = whole && { text, table: whole.table, anchors: whole.anchors };
    }
    if (walked) this.last.set(key, walked);
    return walked?.table;
  }

  /** The previous walk with what changed walked again; undefined when cancelled or when its table cannot be spliced. */
  private async update(previous: Walked, tokenizer: Tokenizer, text: string, cancellation: Cancellation): Promise<Walked | undefined> {
    const range = this.range(previous, tokenizer, text);
    const delta = text.length - previous.text.length;
    const resync = (end: number): boolean => end >= range.newEnd && isAnchor(previous.anchors, end - delta);
    const middle = await walkTable(tokenizer, text, range.start, cancellation, resync);
    if (!middle) return undefined;
    const changed = { start: range.start, oldEnd: middle.end - delta, newEnd: middle.end };
    const table = spliceTable(previous.table, changed, middle.table);
    if (!table) return undefined;
    const anchors = [
      ...previous.anchors.filter((a) => a <= range.start),
      ...middle.anchors.filter((a) => a > range.start && a < middle.end),
      ...previous.anchors.filter((a) => a >= changed.oldEnd).map((a) => a + delta),
    ];
    return { text, table, anchors };
  }

  /** Where the walk restarts (an anchor before the edit) and where the new text is the old one again (and looks back no further). */
  private range(previous: Walked, tokenizer: Tokenizer, text: string): ChangedRange {
    const { prefix, suffix } = commonEnds(previous.text, text);
    const start = anchorBefore(previous.anchors, prefix - tokenizer.lookbehind - SLACK);
    return { start, oldEnd: previous.text.length - suffix, newEnd: Math.min(text.length, text.length - suffix + tokenizer.lookbehind) };
  }

  /** How many characters `table` would tokenize for `text` at least: from the restart to the end of what changed, or all of it without a table to reuse. */
  cost(key: string, tokenizer: Tokenizer, text: string): number {
    const previous = this.last.get(key);
    if (!previous || !canSlice(tokenizer)) return text.length;
    if (previous.text === text) return 0;
    const range = this.range(previous, tokenizer, text);
    return range.newEnd - range.start;
  }

  /** Forgets every tokenizer but these. */
  keepOnly(keys: readonly string[]): void {
    for (const key of [...this.last.keys()]) if (!keys.includes(key)) this.last.delete(key);
  }
}
