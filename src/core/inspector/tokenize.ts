/**
 * Tokenizes the inspected text without blocking the extension host: big texts are walked in chunks that end at
 * the tokenizer's own piece ends (where its scan restarts exactly), each chunk on its own turn of the event loop,
 * so a 1 MB document never holds the host for more than a few tens of milliseconds, a newer request cancels an
 * older one between chunks, and the tokens are those the status bar counts. Pure (engine only, no VS Code).
 */
import type { Tokenizer, TokenSpan } from '../tokenizers/index';
import { runSliced } from '../tokenizers/sliced';
import type { PieceResume, ScanStop, SpansStop, SpansStopAt } from '../tokenizers/types';
import { WHITE_SPACE } from '../tokenizers/engine/pattern';
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
/**
 * The longest heavy piece a chunk with a deadline takes in (UTF-16 units): its spans are built in one go after it is
 * prepared (about 3 µs a token), so a longer one ends the chunk there, incomplete, instead of overrunning the deadline.
 */
export const SYNC_HEAVY_PIECE = 32_768;
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

/** Whether chunking is exact for this tokenizer: not when its ids depend on the whole text (Tokenizer.wholeTextIds). */
export function canSlice(tokenizer: Tokenizer): boolean {
  return !tokenizer.wholeTextIds;
}

/** A chunk's table, where it ends, and why it ended early (a heavy piece to prepare, SCAN_PAUSED; undefined when done). */
export interface Chunk {
  table: SegmentTable;
  end: number;
  why: ScanStop;
  /** Set when the chunk ends inside a long piece: the next chunk goes on from `end` with it (no restart point). */
  resume?: PieceResume;
}

/**
 * The segment table of text from `from` (0 or a piece end, or inside a piece with `resume`), offsets relative to
 * `from`, up to the first point that no character straddles, where a token ends, and that `stop` accepts (the text's
 * end otherwise): a piece end, or a point between the parts of a long piece's tokens (`inPiece`). The model's
 * patterns work on a budget: the chunk may end early, at a piece end, before a heavy piece or when the budget runs
 * out, and says why; until `deadline` (performance.now()) it prepares the piece (up to SYNC_HEAVY_PIECE) or walks on.
 */
export function chunkTable(
  tokenizer: Tokenizer,
  text: string,
  from: number,
  stop: SpansStopAt,
  deadline = -Infinity,
  resume?: PieceResume,
): Chunk {
  const spans: TokenSpan[] = [];
  let walked = walkSpans(tokenizer, text, from, stop, spans, resume);
  while (walked.why !== undefined && performance.now() < deadline) {
    if (typeof walked.why === 'string' && walked.why.length > SYNC_HEAVY_PIECE) break;
    if (typeof walked.why === 'string') drain(tokenizer.prepare(walked.why), deadline);
    walked = walkSpans(tokenizer, text, walked.end, stop, spans, walked.resume);
  }
  for (const span of spans) {
    span.start -= from;
    span.end -= from;
  }
  const table = buildSegmentTable(text.slice(from, walked.end), spans);
  return { table, end: walked.end, why: walked.why, ...(walked.resume ? { resume: walked.resume } : {}) };
}

/** One budgeted walk appending to spans; cut back, when it ends early, to the last piece end where a chunk may end. */
function walkSpans(
  tokenizer: Tokenizer,
  text: string,
  from: number,
  stop: SpansStopAt,
  spans: TokenSpan[],
  resume?: PieceResume,
): SpansStop {
  const before = spans.length;
  let safe = resume ? -1 : from;
  const walked = tokenizer.spansUntilHeavy(
    text,
    from,
    spans,
    (e, inPiece) => {
      // Only where a token ends: cut inside text no token holds, the chunks would hold two segments where the whole has one.
      if (spans[spans.length - 1]?.end !== e || !isGraphemeBoundary(text, e)) return false;
      if (!inPiece) safe = e;
      return stop(e, inPiece);
    },
    resume,
  );
  if (walked.why === undefined) return walked;
  if (safe < 0) {
    // Resumed inside a piece, then stopped before any point to end at: tried again from the same place.
    spans.length = before;
    return { end: from, why: walked.why, ...(resume ? { resume } : {}) };
  }
  const past = spans.findIndex((span, i) => i >= before && span.start >= safe && span.end > safe);
  if (past >= 0) spans.length = past;
  return { end: safe, why: walked.why };
}

/** Runs a preparation's steps until it is done or the deadline passes. */
function drain(steps: Generator<void, void>, deadline: number): void {
  while (performance.now() < deadline && !steps.next().done);
}

/** Deals with why a chunk ended early: prepares the heavy piece in slices, or just yields for a paused pattern. */
async function resume(tokenizer: Tokenizer, why: ScanStop): Promise<void> {
  if (typeof why === 'string') await runSliced(tokenizer.prepare(why));
  else await yieldTurn();
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
  let why: ScanStop;
  let inPiece: PieceResume | undefined;
  while (pos < text.length && !stopped) {
    if (why !== undefined) await resume(tokenizer, why);
    else if (!oneCall) await yieldTurn();
    if (cancellation.cancelled) return undefined;
    const limit = oneCall ? Infinity : pos + CHUNK;
    let anchor = pos;
    const chunk = chunkTable(
      tokenizer,
      text,
      pos,
      (e, withinPiece) => {
        if (withinPiece) return e >= limit; // a restart point for this walk alone: no anchor, no resync
        stopped = stop(e);
        if (stopped || e >= limit) return true;
        if (e - anchor >= ANCHOR_GAP) anchors.push((anchor = e));
        return false;
      },
      -Infinity,
      inPiece,
    );
    why = chunk.why;
    inPiece = chunk.resume;
    if (chunk.end > pos) {
      const table = toWireTable(chunk.table);
      parts.push({ table, first: 0, last: table.bounds.length - 1, shift: pos - from });
      if (chunk.end < text.length && !inPiece) anchors.push(chunk.end);
    }
    pos = chunk.end;
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
