import { TokenizerBase } from './base';
import { bytePairEncode, bytePairEncodeSteps } from './bpe';
import { compilePattern } from './pattern';
import type { RankFile, RankTable } from './rankTable';
import type { TokenizerInfo } from './registry';
import type { EngineOptions, TokenSpan } from './types';
import { ByteBuffer, codePointAt } from './utf8';

type Ids = number | number[];
type Visit = (start: number, end: number, ids: Ids) => boolean;

const CACHE_LIMIT = 100_000;
/** Pieces longer than this (UTF-16 units) may take milliseconds to merge; sliced scans prepare them in steps. */
const HEAVY_PIECE = 8192;
const HEAVY_CACHE_LIMIT = 16;
const NO_SPECIALS: ReadonlyMap<string, number> = new Map();

/** A tiktoken encoding: regex pre-tokenizer, per-piece cache, exact byte-pair merges. */
export class BpeTokenizer extends TokenizerBase {
  readonly lookbehind: number;
  private readonly pattern: RegExp;
  private readonly specials: ReadonlyMap<string, number>;
  private readonly specialPattern: RegExp | undefined;
  /** Two generations: when the young map fills it becomes the old one, whose hits move back; eviction is O(1). */
  private cache = new Map<string, Ids>();
  private oldCache = new Map<string, Ids>();
  /** Long pieces apart, so that a full cache clearing never drops a piece that a sliced scan just prepared. */
  private readonly heavyCache = new Map<string, Ids>();
  private readonly scratch = new ByteBuffer();

  constructor(
    info: TokenizerInfo,
    options: EngineOptions,
    private readonly table: RankTable,
    file: Omit<RankFile, 'bpe_ranks'>,
  ) {
    super(info, options);
    this.pattern = compilePattern(file.pat_str);
    this.specials = this.options.specialTokens === 'special' ? new Map(Object.entries(file.special_tokens)) : NO_SPECIALS;
    const names = [...this.specials.keys()];
    this.specialPattern = names.length ? new RegExp(names.map((s) => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')).join('|'), 'g') : undefined;
    this.lookbehind = Math.max(0, ...names.map((s) => s.length));
  }

  scan(text: string, from: number, emit: (end: number, count: number) => boolean): void {
    this.walk(text, from, (_start, end, ids) => emit(end, typeof ids === 'number' ? 1 : ids.length));
  }

  override scanUntilHeavy(text: string, from: number, emit: (end: number, count: number) => boolean): string | undefined {
    let heavy: string | undefined;
    this.walk(
      text,
      from,
      (_start, end, ids) => emit(end, typeof ids === 'number' ? 1 : ids.length),
      (piece) => {
        heavy = piece;
      },
    );
    return heavy;
  }

  override *prepare(piece: string): Generator<void, void> {
    if (this.heavyCache.has(piece)) return;
    const n = this.scratch.encode(piece);
    const bytes = this.scratch.bytes.slice(0, n); // the scratch buffer may be reused while paused
    const whole = this.table.get(bytes, 0, n);
    this.remember(piece, whole >= 0 ? whole : yield* bytePairEncodeSteps(this.table, bytes, n));
  }

  override encode(text: string): number[] {
    const out: number[] = [];
    this.walk(text, 0, (_start, _end, ids) => {
      if (typeof ids === 'number') out.push(ids);
      else for (const id of ids) out.push(id);
      return true;
    });
    return out;
  }

  spans(text: string): TokenSpan[] {
    const out: TokenSpan[] = [];
    this.walk(text, 0, (start, end, ids) => {
      if (typeof ids === 'number') out.push({ id: ids, bytes: this.bytesOf(ids), start, end, partial: false });
      else this.splitPiece(text, start, ids, out);
      return true;
    });
    return out;
  }

  private bytesOf(id: number): Uint8Array {
    const bytes = this.table.bytesOf(id);
    if (bytes) return bytes.slice();
    const special = [...this.specials].find(([, v]) => v === id)?.[0] ?? '';
    return new TextEncoder().encode(special);
  }

  /** Gives each token of a piece its bytes and the whole characters they touch. */
  private splitPiece(text: string, pieceStart: number, ids: number[], out: TokenSpan[]): void {
    let char = pieceStart; // UTF-16 offset of the character holding byte `charByte`
    let charByte = 0;
    let cp = codePointAt(text, char);
    let byte = 0;
    for (const id of ids) {
      const bytes = this.bytesOf(id);
      const tokenEnd = byte + bytes.length;
      while (charByte + cp.bytes <= byte) {
        charByte += cp.bytes;
        char += cp.units;
        cp = codePointAt(text, char);
      }
      const start = char;
      const startsClean = charByte === byte;
      let endChar = char;
      let endByte = charByte;
      let endCp = cp;
      while (endByte + endCp.bytes < tokenEnd) {
        endByte += endCp.bytes;
        endChar += endCp.units;
        endCp = codePointAt(text, endChar);
      }
      const endsClean = endByte + endCp.bytes === tokenEnd;
      out.push({ id, bytes, start, end: endChar + endCp.units, partial: !startsClean || !endsClean });
      byte = tokenEnd;
    }
  }

  /** Calls visit for every piece from `from` (a piece boundary) on, special tokens included, until it returns false. */
  private walk(text: string, from: number, visit: Visit, stopAtHeavy?: (piece: string) => void): void {
    const specialPattern = this.specialPattern;
    if (!specialPattern) {
      this.walkOrdinary(text, from, text.length, visit, stopAtHeavy);
      return;
    }
    let pos = from;
    while (pos < text.length) {
      specialPattern.lastIndex = pos;
      const special = specialPattern.exec(text);
      const segmentEnd = special ? special.index : text.length;
      if (segmentEnd > pos && !this.walkOrdinary(text, pos, segmentEnd, visit, stopAtHeavy)) return;
      if (!special) return;
      pos = special.index + special[0].length;
      if (!visit(special.index, pos, this.specials.get(special[0])!)) return;
    }
  }

  private walkOrdinary(text: string, start: number, end: number, visit: Visit, stopAtHeavy?: (piece: string) => void): boolean {
    // A prefix keeps offsets intact and is O(1) in V8 (a sliced string).
    const subject = end === text.length ? text : text.slice(0, end);
    const pattern = this.pattern;
    pattern.lastIndex = start;
    let match: RegExpExecArray | null;
    while ((match = pattern.exec(subject)) !== null) {
      const piece = match[0];
      if (stopAtHeavy && piece.length > HEAVY_PIECE && !this.heavyCache.has(piece)) {
        stopAtHeavy(piece);
        return false;
      }
      if (!visit(match.index, match.index + piece.length, this.idsOf(piece))) return false;
    }
    return true;
  }

  private idsOf(piece: string): Ids {
    let ids = piece.length > HEAVY_PIECE ? this.heavyCache.get(piece) : this.cache.get(piece);
    if (ids !== undefined) return ids;
    ids = this.oldCache.get(piece);
    if (ids !== undefined) return this.remember(piece, ids);
    const n = this.scratch.encode(piece);
    const bytes = this.scratch.bytes;
    const whole = this.table.get(bytes, 0, n);
    return this.remember(piece, whole >= 0 ? whole : bytePairEncode(this.table, bytes, n));
  }

  private remember(piece: string, ids: Ids): Ids {
    if (piece.length > HEAVY_PIECE) {
      if (this.heavyCache.size >= HEAVY_CACHE_LIMIT) this.heavyCache.delete(this.heavyCache.keys().next().value!);
      this.heavyCache.set(piece, ids);
    } else {
      if (this.cache.size >= CACHE_LIMIT) {
        this.oldCache = this.cache;
        this.cache = new Map();
      }
      this.cache.set(piece, ids);
    }
    return ids;
  }
}
