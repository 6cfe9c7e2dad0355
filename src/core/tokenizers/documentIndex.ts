import { scanSliced } from './sliced';
import type { Tokenizer } from './types';

/** One change as VS Code reports it: offsets are into the document as it is after the changes before it. */
export interface TextChange {
  offset: number;
  length: number;
  text: string;
}

/** The old range [start, oldEnd) became [start, newEnd) in the new text. */
export interface EditEnvelope {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/** Folds a batch of sequential changes (multiple cursors, a format) into one envelope. */
export function mergeChanges(changes: readonly TextChange[]): EditEnvelope | undefined {
  let envelope: { start: number; end: number; oldLength: number } | undefined;
  for (const change of changes) {
    const changeEnd = change.offset + change.length;
    const growth = change.text.length - change.length;
    if (!envelope) {
      envelope = { start: change.offset, end: changeEnd + growth, oldLength: change.length };
      continue;
    }
    const start = Math.min(envelope.start, change.offset);
    const end = Math.max(envelope.end, changeEnd);
    // What the union adds around the envelope is text that had not changed before this change.
    const oldLength = envelope.oldLength + (envelope.start - start) + (end - envelope.end);
    envelope = { start, end: end + growth, oldLength };
  }
  return envelope && { start: envelope.start, oldEnd: envelope.start + envelope.oldLength, newEnd: envelope.end };
}

/**
 * Pieces a scan can change before an edit: a tiktoken pattern looks at most a few pieces ahead
 * (a whitespace run examines the character after it), so restarting this far back is safe.
 */
const RESCAN_PIECES = 8;

/**
 * The token count of a document kept up to date by re-tokenizing only the pieces an edit touches.
 * The rescan starts a few pieces before the edit and stops as soon as a piece boundary after the edit
 * coincides with an old one: from there on the text, and so the scan, is the same as before.
 */
export class DocumentIndex {
  private lengths: number[] = [];
  private counts: number[] = [];
  private total = 0;

  private constructor(readonly tokenizer: Tokenizer) {}

  static buildSync(tokenizer: Tokenizer, text: string): DocumentIndex {
    const index = new DocumentIndex(tokenizer);
    let start = 0;
    tokenizer.scan(text, 0, (end, count) => {
      index.append(end - start, count);
      start = end;
      return true;
    });
    return index;
  }

  /** Builds in time slices; rejects with CancelledError when the signal aborts. */
  static async build(tokenizer: Tokenizer, text: string, signal?: AbortSignal): Promise<DocumentIndex> {
    const index = new DocumentIndex(tokenizer);
    let start = 0;
    await scanSliced(
      tokenizer,
      text,
      (end, count) => {
        index.append(end - start, count);
        start = end;
      },
      signal,
    );
    return index;
  }

  get count(): number {
    return this.total;
  }

  private append(length: number, count: number): void {
    this.lengths.push(length);
    this.counts.push(count);
    this.total += count;
  }

  update(start: number, oldEnd: number, newEnd: number, newText: string): void {
    const lengths = this.lengths;
    const from = Math.max(0, start - this.tokenizer.lookbehind - 1);
    let first = 0;
    let restart = 0;
    while (first < lengths.length && restart + lengths[first]! <= from) restart += lengths[first++]!;
    for (let k = Math.min(RESCAN_PIECES, first); k > 0; k--) restart -= lengths[--first]!;

    const delta = newEnd - oldEnd;
    const newLengths: number[] = [];
    const newCounts: number[] = [];
    let oldNext = first;
    let oldBoundary = restart;
    let pieceStart = restart;
    this.tokenizer.scan(newText, restart, (end, count) => {
      newLengths.push(end - pieceStart);
      newCounts.push(count);
      pieceStart = end;
      if (end < newEnd) return true;
      while (oldNext < lengths.length && oldBoundary < end - delta) oldBoundary += lengths[oldNext++]!;
      return oldBoundary !== end - delta;
    });
    const last = pieceStart === newText.length ? lengths.length : oldNext;
    for (let k = first; k < last; k++) this.total -= this.counts[k]!;
    for (const count of newCounts) this.total += count;
    this.lengths = replaceRange(lengths, first, last, newLengths);
    this.counts = replaceRange(this.counts, first, last, newCounts);
  }
}

function replaceRange(items: number[], from: number, to: number, replacement: number[]): number[] {
  if (replacement.length < 10_000) {
    items.splice(from, to - from, ...replacement);
    return items;
  }
  return items.slice(0, from).concat(replacement, items.slice(to));
}
