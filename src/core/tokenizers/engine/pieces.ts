/**
 * Pre-tokenization: how a BPE tokenizer cuts ordinary text (between special or added tokens) into
 * the pieces it encodes one by one. tiktoken: one pattern, every match a piece. Hugging Face:
 * normalizers, then a sequence of Split steps each cutting the pieces of the one before; a step's pattern is a
 * Matcher (a RegExp for our own patterns, the linear matcher of regex/ for a file's).
 */
import { compilePattern } from './pattern';
import { scannerFor, scannerForSplits, type PieceScanner } from './scanner';
import { normalizeAll, type NormalizeStep, type Normalized } from './normalize';
import { execOrPause, type Matcher } from './regex';

/**
 * A piece of text[start, end) and the string the model encodes (the normalized text). `final` is false
 * when the piece ends where no offset of the original text corresponds (inside a composed character):
 * the tokenizer then reports it together with the pieces after it, up to the next final one, whose
 * start and end are then the only offsets that matter (start is -1 in between).
 */
export type PieceVisit = (start: number, end: number, piece: string, final: boolean) => boolean;

/** Pieces that are a scanner's matches over subject[from, to), each at offset base + its index in the text. */
export interface DirectPieces {
  subject: string;
  from: number;
  to: number;
  base: number;
  matchEnd: PieceScanner;
}

/** Visits the pieces of a DirectPieces. */
function walkDirect(d: DirectPieces, visit: PieceVisit): boolean {
  for (let i = d.from; i < d.to;) {
    const e = d.matchEnd(d.subject, i, d.to);
    if (!visit(d.base + i, d.base + e, d.subject.slice(i, e), true)) return false;
    i = e;
  }
  return true;
}

export interface PieceSource {
  /**
   * Visits the pieces of text[start, end) in order until visit returns false (then returns false).
   * atStart: `start` begins a segment (the text's start or just after an added token).
   */
  walk(text: string, start: number, end: number, atStart: boolean, visit: PieceVisit): boolean;
  /** Whether walk needs atStart (a prefix is added at segment starts). */
  readonly usesSegmentStart: boolean;
  /** The same pieces as walk, as a scanner's matches, when they are (callers then loop without a callback). */
  direct(text: string, start: number, end: number, atStart: boolean): DirectPieces | undefined;
}

/** tiktoken: pieces are the pattern's matches (its patterns match every character, so nothing falls between). */
export class PatternPieces implements PieceSource {
  readonly usesSegmentStart = false;
  /** The pattern's RegExp, where it has no scanner. */
  private readonly pattern: RegExp | undefined;
  private readonly scanner: PieceScanner | undefined;

  constructor(patStr: string) {
    this.scanner = scannerFor(patStr);
    this.pattern = this.scanner ? undefined : compilePattern(patStr);
  }

  direct(text: string, start: number, end: number): DirectPieces | undefined {
    return this.scanner && { subject: text, from: start, to: end, base: 0, matchEnd: this.scanner };
  }

  walk(text: string, start: number, end: number, _atStart: boolean, visit: PieceVisit): boolean {
    const direct = this.direct(text, start, end);
    if (direct) return walkDirect(direct, visit);
    // A prefix keeps offsets intact and is O(1) in V8 (a sliced string).
    const subject = end === text.length ? text : text.slice(0, end);
    const pattern = this.pattern!; // set whenever there is no scanner
    pattern.lastIndex = start;
    let match: RegExpExecArray | null;
    while ((match = pattern.exec(subject)) !== null) {
      const piece = match[0];
      if (!visit(match.index, match.index + piece.length, piece, true)) return false;
    }
    return true;
  }
}

export type SplitBehavior = 'Isolated' | 'Removed' | 'MergedWithPrevious' | 'MergedWithNext';

export interface SplitStep {
  /** A 'gu' RegExp (literals, our own patterns) or a file's pattern on the linear matcher. */
  regex: Matcher;
  behavior: SplitBehavior;
  /** The pattern looks behind: it must see only the piece it splits, not the text before it. */
  lookbehind: boolean;
  /** A match at `at` that must not cut norm[a, b) (see safeCuts in huggingFace.ts). */
  keep?: (norm: string, at: number, a: number, b: number) => boolean;
  /** The pattern is this literal text (a {"String": …} pattern). */
  literal?: string;
  /** The pattern is this Regex, as tokenizer.json writes it (scanner.ts knows the common ones). */
  source?: string;
  /** The pattern matches exactly the runs of this UTF-16 unit (not a surrogate), as `▁+` does. */
  unitRun?: number;
}

interface Segment extends Normalized {
  source: string;
  start: number;
  end: number;
  atStart: boolean;
}

/** How much text normalizing with unit steps does at once; a scan of later and later segments reuses it. */
const CHUNK = 1 << 16;

/** source[start, end) normalized: text[i - start] stands for source[i]. */
interface Chunk {
  source: string;
  start: number;
  end: number;
  text: string;
}

/** Hugging Face: normalizers, then Split steps (Sequence pre-tokenizers applied one after another). */
export class SplitPieces implements PieceSource {
  readonly usesSegmentStart: boolean;
  /** The last segment normalized: a sliced scan asks for the same segment from later and later starts. */
  private last: Segment | undefined;
  /** Every normalizer is a unit step (or there are none): text is normalized by chunks, not segment by segment. */
  private readonly unitSteps: boolean;
  private chunk: Chunk | undefined;
  /** The one split is MergedWithNext on the runs of a unit (Gemma's cuts before ▁), on text normalized by unit steps. */
  private readonly runsOnly: boolean;
  private readonly runMark: string;

  /** Gives the same pieces as the splits (scanner.ts), used where normalizing kept the offsets. */
  private readonly scanner: PieceScanner | undefined;

  constructor(
    private readonly normalizers: readonly NormalizeStep[],
    private readonly splits: readonly SplitStep[],
  ) {
    this.usesSegmentStart = normalizers.some((step) => step.atSegmentStart);
    this.scanner = scannerForSplits(splits);
    const only = splits.length === 1 ? splits[0]! : undefined;
    this.isolatedOnly = only?.behavior === 'Isolated' && !only.lookbehind && !only.keep;
    this.unitSteps = normalizers.every((step) => step.unit);
    this.runsOnly = this.unitSteps && only?.behavior === 'MergedWithNext' && only.unitRun !== undefined;
    this.runMark = String.fromCharCode(only?.unitRun ?? 0);
  }

  direct(text: string, start: number, end: number, atStart: boolean): DirectPieces | undefined {
    const matchEnd = this.scanner;
    if (!matchEnd) return undefined;
    const segment = this.segment(text, start, end, atStart);
    if (segment.map) return undefined;
    const from = this.normalizedOffset(segment, start);
    return { subject: segment.text, from, to: segment.text.length, base: segment.start, matchEnd };
  }

  walk(text: string, start: number, end: number, atStart: boolean, visit: PieceVisit): boolean {
    const direct = this.direct(text, start, end, atStart);
    if (direct) return walkDirect(direct, visit);
    if (this.runsOnly) return this.walkRuns(text, start, end, visit);
    const segment = this.unitSteps ? this.chunkSegment(text, start, end, atStart) : this.segment(text, start, end, atStart);
    const from = this.normalizedOffset(segment, start);
    if (this.isolatedOnly && !segment.map) return this.walkIsolated(segment, from, visit);
    const norm = segment.text;
    const toOriginal = (i: number): number => {
      const m = segment.map ? segment.map[i]! : i;
      return m < 0 ? -1 : segment.start + m;
    };
    const emit = (a: number, b: number, removed?: boolean): boolean => {
      const pieceEnd = toOriginal(b);
      return visit(toOriginal(a), pieceEnd, removed ? '' : norm.slice(a, b), pieceEnd >= 0);
    };
    return this.split(norm, 0, from, norm.length, emit);
  }

  /**
   * One Isolated split (Llama 3, Qwen, DeepSeek, gpt-oss) on a segment whose offsets normalizing left alone (no map):
   * each match is a piece and so is each gap between matches, with no offset to translate.
   */
  private readonly isolatedOnly: boolean;

  private walkIsolated(segment: Segment, from: number, visit: PieceVisit): boolean {
    const regex = this.splits[0]!.regex;
    const norm = segment.text;
    const base = segment.start;
    let pending = from;
    regex.lastIndex = from;
    for (let m = execOrPause(regex, norm); m; m = execOrPause(regex, norm)) {
      const piece = m[0];
      const ms = m.index;
      if (piece.length === 0) {
        regex.lastIndex = ms + ((norm.codePointAt(ms) ?? 0) > 0xffff ? 2 : 1);
        continue;
      }
      if (pending < ms && !visit(base + pending, base + ms, norm.slice(pending, ms), true)) return false;
      pending = ms + piece.length;
      if (!visit(base + ms, base + pending, piece, true)) return false;
    }
    return pending >= norm.length || visit(base + pending, base + norm.length, norm.slice(pending), true);
  }

  /**
   * MergedWithNext on the runs of one unit: each run starts a piece that goes on to the next run, unless `keep`
   * holds it; text before the first run is a piece of its own. As split() does it, without a RegExp, closures
   * or a normalized copy of each segment.
   */
  private walkRuns(text: string, start: number, end: number, visit: PieceVisit): boolean {
    const { unitRun, keep } = this.splits[0]!;
    const chunk = this.normalizedChunk(text, start, end);
    const norm = chunk.text;
    const base = chunk.start;
    const a = start - base;
    const b = end - base;
    const mark = this.runMark;
    const emit = (x: number, y: number): boolean => visit(base + x, base + y, norm.slice(x, y), true);
    let pending = a; // start of the text not yet handed on
    let carry = -1; // start of the run waiting for the text after it
    for (let ms = norm.indexOf(mark, a); ms >= 0 && ms < b;) {
      let me = ms + 1;
      while (me < b && norm.charCodeAt(me) === unitRun) me++;
      if (!keep?.(norm, ms, a, b)) {
        if (carry >= 0 ? !emit(carry, ms) : pending < ms && !emit(pending, ms)) return false;
        carry = ms;
        pending = me;
      }
      ms = norm.indexOf(mark, me);
    }
    if (carry >= 0) return emit(carry, b);
    return pending >= b || emit(pending, b);
  }

  /** text[start, end) normalized by unit steps, in a chunk normalized at once (with no steps, the text itself). */
  private normalizedChunk(text: string, start: number, end: number): Chunk {
    const chunk = this.chunk;
    if (chunk && chunk.source === text && chunk.start <= start && end <= chunk.end) return chunk;
    if (!this.normalizers.length) return (this.chunk = { source: text, start: 0, end: text.length, text });
    const to = Math.max(end, Math.min(text.length, start + CHUNK));
    const normalized = normalizeAll(this.normalizers, text.slice(start, to), false, false).text;
    return (this.chunk = { source: text, start, end: to, text: normalized });
  }

  /**
   * text[start, end) normalized by unit steps, as the end of a segment that starts at the chunk's start: a scan
   * that goes on from a later start in the same segment hands the patterns the same subject (a pattern that looks
   * behind is run on its piece alone, see split), so their matchers go on with their work and memo (regex/matcher.ts).
   */
  private chunkSegment(text: string, start: number, end: number, atStart: boolean): Segment {
    const chunk = this.normalizedChunk(text, start, end);
    const last = this.chunkEnd;
    // The same string object again, so the matcher knows its subject without comparing it unit by unit.
    const norm =
      last?.chunk === chunk && last.end === end
        ? last.norm
        : chunk.text.length === end - chunk.start
          ? chunk.text
          : chunk.text.slice(0, end - chunk.start);
    this.chunkEnd = { chunk, end, norm };
    return { text: norm, map: undefined, source: text, start: chunk.start, end, atStart };
  }

  private chunkEnd: { chunk: Chunk; end: number; norm: string } | undefined;

  private segment(text: string, start: number, end: number, atStart: boolean): Segment {
    if (this.unitSteps) {
      const chunk = this.normalizedChunk(text, start, end);
      const norm = chunk.text.slice(start - chunk.start, end - chunk.start);
      return { text: norm, map: undefined, source: text, start, end, atStart };
    }
    const last = this.last;
    if (last && last.end === end && start >= last.start && (start > last.start || last.atStart === atStart) && last.source === text) {
      if (this.normalizedOffset(last, start) >= 0) return last;
    }
    const normalized = normalizeAll(this.normalizers, text.slice(start, end), atStart, start === 0);
    return (this.last = { ...normalized, source: text, start, end, atStart });
  }

  /** The offset in the normalized segment that corresponds to `offset` in the text, or -1. */
  private normalizedOffset(segment: Segment, offset: number): number {
    const target = offset - segment.start;
    const map = segment.map;
    // The segment's start is its normalized text's, even where normalizing deleted what stood there (map[0] > 0).
    if (!map || target === 0) return target;
    // Defined entries increase; a -1 entry is ranked as the next defined one.
    const at = (i: number): number => {
      while (map[i]! < 0) i++;
      return i;
    };
    let lo = 0;
    let hi = map.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (map[at(mid)]! < target) lo = mid + 1;
      else hi = mid;
    }
    const found = at(lo);
    return map[found] === target ? found : -1;
  }

  /** Level `level` splits norm[a, b) and hands each part to the next level; the last level emits. */
  private split(norm: string, level: number, a: number, b: number, emit: (a: number, b: number, removed?: boolean) => boolean): boolean {
    if (level === this.splits.length) return emit(a, b);
    const { regex, behavior, lookbehind, keep } = this.splits[level]!;
    const base = lookbehind ? a : 0;
    const subject = lookbehind ? norm.slice(a, b) : b === norm.length ? norm : norm.slice(0, b);
    const next = (x: number, y: number): boolean => this.split(norm, level + 1, x, y, emit);
    let pending = a; // start of the text not yet handed on
    let carry = -1; // MergedWithNext: start of a delimiter waiting for the text after it
    regex.lastIndex = a - base;
    for (let m = execOrPause(regex, subject); m; m = execOrPause(regex, subject)) {
      const ms = m.index + base;
      const me = ms + m[0].length;
      if (me === ms) {
        regex.lastIndex = m.index + ((subject.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
        continue;
      }
      if (keep?.(norm, ms, a, b)) continue;
      let ok = true;
      if (behavior === 'Isolated') ok = (pending >= ms || next(pending, ms)) && next(ms, me);
      else if (behavior === 'Removed') ok = (pending >= ms || next(pending, ms)) && emit(ms, me, true);
      else if (behavior === 'MergedWithPrevious') ok = next(pending < ms ? pending : ms, me);
      else {
        if (carry >= 0) ok = next(carry, ms > pending ? ms : pending);
        else if (pending < ms) ok = next(pending, ms);
        carry = ms;
      }
      if (!ok) return false;
      pending = me;
    }
    if (carry >= 0) return next(carry, b);
    return pending >= b || next(pending, b);
  }
}
