import { TokenMatcher } from './addedTokens';
import { TokenizerBase } from './base';
import { bytePairEncode, bytePairEncodeSteps, mergeIds, mergeIdsSteps } from './bpe';
import type { DirectPieces, PieceSource } from './pieces';
import type { RankTable } from './rankTable';
import type { TokenizerInfo } from '../registry';
import { withWorkBudget, WorkPaused } from './regex';
import {
  SCAN_PAUSED,
  type EngineOptions,
  type PieceResume,
  type ScanStop,
  type SpansStop,
  type SpansStopAt,
  type TokenSpan,
} from '../types';
import { ByteBuffer, codePointAt, utf8Length } from './utf8';
import { PieceCursor, type TokenBytes, type TokenParts } from './pieceCursor';

type Ids = number | number[];
/** piece: the string the ids encode, when it lines up with text[start, end) unit for unit. */
type Visit = (start: number, end: number, ids: Ids, piece: string | undefined) => boolean;

/** What a BPE tokenizer is made of besides its table: tiktoken's encodings and Hugging Face models alike. */
export interface BpeModel {
  /** Cuts ordinary text into the pieces encoded one by one. */
  pieces: PieceSource;
  /** Strings that are one token wherever they appear, matched before the pieces. */
  specials: ReadonlyMap<string, number>;
  /** A piece that is one token whole is that token, whatever the merges (tiktoken; Hugging Face's ignore_merges). */
  wholePieces: boolean;
  /** Characters outside the vocabulary without a byte fallback: their id, and whether a run of them is one token. */
  unknown?: { id: number; fuse: boolean };
}

const CACHE_LIMIT = 100_000;
/** Pieces longer than this (UTF-16 units) may take milliseconds to merge; sliced scans prepare them in steps. */
const HEAVY_PIECE = 8192;
const HEAVY_CACHE_LIMIT = 16;
/** A piece with more tokens gives its spans this many at a time (about 1 ms), a walk stopping between parts. */
const SPANS_PART = 4096;
/**
 * How long a file's patterns may work in one scanUntilHeavy call (milliseconds): a pattern whose per-character
 * cost is thousands of steps then pauses the scan (SCAN_PAUSED) instead of holding the event loop for seconds.
 */
const SCAN_MS = 4;
const NO_IDS: number[] = [];
const UTF8 = new TextEncoder();
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Whether piece holds a surrogate that is not half of a pair (a loop: this runs on every piece a SentencePiece model merges). */
function hasLoneSurrogate(piece: string): boolean {
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    if ((c & 0xf800) !== 0xd800) continue;
    if (c >= 0xdc00) return true;
    const next = piece.charCodeAt(++i); // NaN past the end
    if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
  }
  return false;
}

/** A BPE tokenizer: pre-tokenizer, per-piece cache, exact byte-pair merges. */
export class BpeTokenizer extends TokenizerBase {
  readonly lookbehind: number;
  private readonly pieces: PieceSource;
  private readonly specials: ReadonlyMap<string, number>;
  private readonly matcher: TokenMatcher | undefined;
  /** Two generations: when the young map fills it becomes the old one, whose hits move back; eviction is O(1). */
  private cache = new Map<string, Ids>();
  private oldCache = new Map<string, Ids>();
  /** Long pieces apart, so that a full cache clearing never drops a piece that a sliced scan just prepared. */
  private readonly heavyCache = new Map<string, Ids>();
  private readonly scratch = new ByteBuffer();
  /** A Hugging Face model's initial ids of the piece being merged. */
  private symbols = new Int32Array(256);
  /** bytesOf's views, by id. */
  private readonly tokenBytes: Uint8Array[] = [];

  constructor(
    info: TokenizerInfo,
    options: EngineOptions,
    private readonly table: RankTable,
    private readonly model: BpeModel,
  ) {
    super(info, options);
    this.pieces = model.pieces;
    this.specials = model.specials;
    this.matcher = this.specials.size ? new TokenMatcher(this.specials) : undefined;
    this.lookbehind = this.matcher?.longest ?? 0;
  }

  scan(text: string, from: number, emit: (end: number, count: number) => boolean): void {
    this.walk(text, from, (_start, end, ids) => emit(end, typeof ids === 'number' ? 1 : ids.length));
  }

  override scanUntilHeavy(text: string, from: number, emit: (end: number, count: number) => boolean): ScanStop {
    return this.walkBudgeted(text, from, (_start, end, ids) => emit(end, typeof ids === 'number' ? 1 : ids.length));
  }

  override spansUntilHeavy(text: string, from: number, out: TokenSpan[], stop: SpansStopAt, resume?: PieceResume): SpansStop {
    if (resume) {
      const cursor = resume instanceof PieceCursor && resume.text === text && resume.end === from ? resume.copy() : undefined;
      if (!cursor) throw new Error(`A walk resumed at ${from} with another walk's place.`);
      if (this.pushParts(cursor, out, stop)) return { end: cursor.end, why: undefined, resume: cursor };
      if (stop(cursor.pieceEnd, false) || cursor.pieceEnd >= text.length) return { end: cursor.pieceEnd, why: undefined };
      from = cursor.pieceEnd;
    }
    let reached = from;
    let accepted = false;
    let paused: PieceCursor | undefined;
    const why = this.walkBudgeted(text, from, (start, end, ids, piece) => {
      const long = typeof ids !== 'number' && ids.length > SPANS_PART && piece?.length === end - start;
      const parts = long ? this.byteLengths(piece, ids) : undefined;
      const cursor = parts && new PieceCursor(text, piece!, start, end, parts);
      if (cursor && this.pushParts(cursor, out, stop)) paused = cursor;
      else if (!cursor) this.pushSpans(text, start, end, ids, piece, out);
      reached = end;
      accepted = !paused && stop(end, false);
      return !accepted && !paused;
    });
    if (paused) return { end: paused.end, why: undefined, resume: paused };
    return { end: accepted || why !== undefined ? reached : text.length, why };
  }

  /** Gives a long piece's spans SPANS_PART tokens at a time, asking `stop` between parts; true when it stopped there. */
  private pushParts(cursor: PieceCursor, out: TokenSpan[], stop: SpansStopAt): boolean {
    while (!cursor.done) if (cursor.push(out, SPANS_PART, this.spanBytes) && !cursor.done && stop(cursor.end, true)) return true;
    return false;
  }

  /** walk, stopping before a heavy piece not prepared yet (returned) or when the patterns' work budget runs out. */
  private walkBudgeted(text: string, from: number, visit: Visit): ScanStop {
    let heavy: string | undefined;
    try {
      withWorkBudget(Infinity, () => this.walk(text, from, visit, (piece) => (heavy = piece)), SCAN_MS);
    } catch (error) {
      if (error instanceof WorkPaused) return SCAN_PAUSED;
      throw error;
    }
    return heavy;
  }

  override *prepare(piece: string): Generator<void, void> {
    if (this.heavyCache.has(piece)) return;
    if (this.table.charLevel && hasLoneSurrogate(piece)) {
      this.remember(piece, this.encodeCharacters(piece));
      return;
    }
    yield; // each pass below is linear in a piece that may be millions of units long
    const n = this.scratch.encode(piece);
    const whole = this.model.wholePieces ? this.table.get(this.scratch.bytes, 0, n) : -1;
    if (whole >= 0) {
      this.remember(piece, whole);
      return;
    }
    // Copies: the scratch buffers may be reused while paused.
    const pairs = this.table.pairs;
    const m = pairs ? this.initialIds(piece, n) : 0;
    const symbols = pairs ? this.symbols.slice(0, m) : undefined;
    const bytes = pairs ? undefined : this.scratch.bytes.slice(0, n);
    yield;
    const ids = symbols ? yield* mergeIdsSteps(pairs!, symbols, m) : yield* bytePairEncodeSteps(this.table, bytes!, n);
    this.remember(piece, this.resolve(ids));
  }

  override count(text: string): number {
    let total = 0;
    this.walk(text, 0, (_start, _end, ids) => {
      total += typeof ids === 'number' ? 1 : ids.length;
      return true;
    });
    return total;
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

  spansFrom(text: string, from: number, out: TokenSpan[], stop: (end: number) => boolean): number {
    let stoppedAt = text.length;
    this.walk(text, from, (start, end, ids, piece) => {
      this.pushSpans(text, start, end, ids, piece, out);
      if (!stop(end)) return true;
      stoppedAt = end;
      return false;
    });
    return stoppedAt;
  }

  /** The spans of one piece's tokens (piece: its normalized text; undefined for a special token). */
  private pushSpans(text: string, start: number, end: number, ids: Ids, piece: string | undefined, out: TokenSpan[]): void {
    // A special token has the bytes of the text it matched (o200k_harmony gives <|endofprompt|> and <|reserved_200018|> one
    // id), and so has the unknown token: the inspector shows a token's bytes as the text's, cut at each token's length.
    if (typeof ids === 'number') {
      const own = piece === undefined || ids === this.model.unknown?.id;
      out.push({ id: ids, bytes: own ? UTF8.encode(text.slice(start, end)) : this.bytesOf(ids), start, end, partial: false });
      return;
    }
    const parts = piece !== undefined && piece.length === end - start ? this.byteLengths(piece, ids) : undefined;
    if (parts) new PieceCursor(text, piece!, start, end, parts).push(out, Infinity, this.spanBytes);
    else for (const id of ids) out.push({ id, bytes: this.bytesOf(id), start, end, partial: true }); // normalized: no finer mapping
  }

  /** A token's bytes: one shared view per id (TokenSpan.bytes is read-only), made once, as a long piece repeats its ids. */
  private bytesOf(id: number): Uint8Array {
    const known = this.tokenBytes[id];
    if (known) return known;
    const bytes = this.table.bytesOf(id) ?? new TextEncoder().encode([...this.specials].find(([, v]) => v === id)?.[0] ?? '');
    if (id >= 0 && id < 1 << 24) this.tokenBytes[id] = bytes;
    return bytes;
  }

  /**
   * Each token's UTF-8 length in the piece. Where the model left a character outside its vocabulary (a
   * SentencePiece model without byte fallback) the ids say nothing of its length: they are merged again without
   * resolving the unknown parts, each of which holds one character (id -1 where no token stands for it).
   * Undefined when the lengths do not add up to the piece's (the tokens then share the piece's whole range).
   */
  private byteLengths(piece: string, ids: number[]): TokenParts | undefined {
    const unknown = this.model.unknown;
    const total = utf8Length(piece);
    const lengths = new Int32Array(ids.length);
    let bytes = 0;
    for (let i = 0; i < ids.length; i++) bytes += lengths[i] = Math.max(this.table.byteLength(ids[i]!), 0);
    const resolved = !this.table.charLevel || (bytes === total && !(unknown && ids.includes(unknown.id)));
    const parts = resolved ? { ids, lengths, bytes } : this.unknownLengths(piece);
    return parts.bytes === total ? parts : undefined;
  }

  /**
   * The piece's ids before unknown parts are resolved, each with its UTF-8 length: an unknown part is a character
   * (a byte where the model falls back to bytes and lacks that byte's token); then resolved as resolve() does.
   */
  private unknownLengths(piece: string): TokenParts {
    const raw = hasLoneSurrogate(piece) ? this.characterIds(piece) : this.encodeRun(piece);
    const unknown = this.model.unknown;
    const ids: number[] = [];
    const lengths: number[] = [];
    let byte = 0;
    let char = 0; // the character holding byte `byte` starts at piece[char], its first byte at `charByte`
    let charByte = 0;
    let previousUnknown = false;
    for (const id of raw) {
      for (let c = codePointAt(piece, char); charByte + c.bytes <= byte && char < piece.length; c = codePointAt(piece, char)) {
        charByte += c.bytes;
        char += c.units;
      }
      const length = id >= 0 ? Math.max(this.table.byteLength(id), 0) : this.table.byteFallback ? 1 : codePointAt(piece, char).bytes;
      if (id < 0 && unknown?.fuse && previousUnknown) lengths[lengths.length - 1]! += length;
      else {
        ids.push(id >= 0 ? id : unknown ? unknown.id : -1);
        lengths.push(length);
      }
      previousUnknown = id < 0;
      byte += length;
    }
    return { ids, lengths, bytes: byte };
  }

  /** A token's bytes: the text's own for the unknown token (it stands for any), else its id's. */
  private readonly spanBytes: TokenBytes = (id, text, start, end) =>
    id === this.model.unknown?.id ? UTF8.encode(text.slice(start, end)) : this.bytesOf(id);

  /** Calls visit for every piece from `from` (a piece boundary) on, special tokens included, until it returns false. */
  private walk(text: string, from: number, visit: Visit, stopAtHeavy?: (piece: string) => void): void {
    const matcher = this.matcher;
    let atStart = from === 0 || (this.pieces.usesSegmentStart && !!matcher?.endsAt(text, from));
    if (!matcher) {
      this.walkOrdinary(text, from, text.length, atStart, visit, stopAtHeavy);
      return;
    }
    let pos = from;
    while (pos < text.length) {
      const special = matcher.find(text, pos);
      const segmentEnd = special ? special.start : text.length;
      if (segmentEnd > pos && !this.walkOrdinary(text, pos, segmentEnd, atStart, visit, stopAtHeavy)) return;
      if (!special) return;
      pos = special.end;
      if (!visit(special.start, pos, special.id, undefined)) return;
      atStart = true;
    }
  }

  /** Pieces that end where the text has no offset (inside a normalized character) are reported with the ones after them. */
  private walkOrdinary(
    text: string,
    start: number,
    end: number,
    atStart: boolean,
    visit: Visit,
    stopAtHeavy?: (piece: string) => void,
  ): boolean {
    const direct = this.pieces.direct(text, start, end, atStart);
    if (direct) return this.walkDirect(direct, visit, stopAtHeavy);
    let groupStart = -1;
    let group: number[] = [];
    return this.pieces.walk(text, start, end, atStart, (pieceStart, pieceEnd, piece, final) => {
      if (this.stopsAt(piece, stopAtHeavy)) return false;
      const ids = this.idsOf(piece);
      if (final && groupStart < 0) return visit(pieceStart, pieceEnd, ids, piece);
      if (groupStart < 0) groupStart = pieceStart;
      if (typeof ids === 'number') group.push(ids);
      else for (const id of ids) group.push(id);
      if (!final) return true;
      const all = group;
      const from = groupStart;
      group = [];
      groupStart = -1;
      return visit(from, pieceEnd, all, undefined);
    });
  }

  /** walkOrdinary's loop where the pieces are a scanner's (nearly every model): no callback between scanner and cache. */
  private walkDirect(d: DirectPieces, visit: Visit, stopAtHeavy?: (piece: string) => void): boolean {
    const { subject, to, base, matchEnd } = d;
    for (let i = d.from; i < to;) {
      const e = matchEnd(subject, i, to);
      const piece = subject.slice(i, e);
      if (this.stopsAt(piece, stopAtHeavy)) return false;
      if (!visit(base + i, base + e, this.idsOf(piece), piece)) return false;
      i = e;
    }
    return true;
  }

  /** A sliced scan stops before a heavy piece not prepared yet, and hands it to stopAtHeavy. */
  private stopsAt(piece: string, stopAtHeavy: ((piece: string) => void) | undefined): boolean {
    if (!stopAtHeavy || piece.length <= HEAVY_PIECE || this.heavyCache.has(piece)) return false;
    stopAtHeavy(piece);
    return true;
  }

  private idsOf(piece: string): Ids {
    if (!piece) return NO_IDS;
    let ids = piece.length > HEAVY_PIECE ? this.heavyCache.get(piece) : this.cache.get(piece);
    if (ids !== undefined) return ids;
    ids = this.oldCache.get(piece);
    if (ids !== undefined) return this.remember(piece, ids);
    return this.remember(piece, this.encodePiece(piece));
  }

  /** The ids of a piece not in the cache: its token if the model takes whole pieces, else its merges. */
  private encodePiece(piece: string): Ids {
    const table = this.table;
    if (table.charLevel && hasLoneSurrogate(piece)) return this.encodeCharacters(piece);
    const wholePieces = this.model.wholePieces;
    // A SentencePiece-style model merges characters: the UTF-8 bytes only serve a whole-piece lookup.
    const n = table.charLevel && !wholePieces ? 0 : this.scratch.encode(piece);
    const whole = wholePieces ? table.get(this.scratch.bytes, 0, n) : -1;
    if (whole >= 0) return whole;
    if (!table.pairs) return bytePairEncode(table, this.scratch.bytes, n);
    const m = this.initialIds(piece, n); // before reading this.symbols, which it may replace
    return this.resolve(mergeIds(table.pairs, this.symbols, m));
  }

  /** A Hugging Face model's initial ids of the piece (n: its UTF-8 length in the scratch bytes, for a byte-level model) in this.symbols. */
  private initialIds(piece: string, n: number): number {
    const charLevel = this.table.charLevel;
    const room = charLevel ? piece.length * 4 : n;
    if (this.symbols.length < room) this.symbols = new Int32Array(room * 2);
    const initial = this.table.initial!;
    return charLevel ? initial.ofCharacters(piece, this.symbols) : initial.ofBytes(this.scratch.bytes, n, this.symbols);
  }

  /**
   * A SentencePiece-style model sees characters, and a lone surrogate (which JavaScript strings allow
   * and Rust's do not) is one that no vocabulary holds: it merges with nothing, so the text on each
   * side is merged apart, and it falls back to the bytes TextEncoder gives it (those of U+FFFD).
   */
  private encodeCharacters(piece: string): Ids {
    return this.resolve(this.characterIds(piece));
  }

  /** encodeCharacters' ids before resolve (-1 for each unknown part). */
  private characterIds(piece: string): number[] {
    const out: number[] = [];
    const add = (ids: number[]) => out.push(...ids);
    let from = 0;
    for (const lone of piece.matchAll(LONE_SURROGATE)) {
      if (lone.index > from) add(this.encodeRun(piece.slice(from, lone.index)));
      const replacement = [0xef, 0xbf, 0xbd].map((b) => this.table.idOf(Uint8Array.of(b), 0, 1));
      if (replacement.every((id) => id >= 0)) out.push(...replacement);
      else out.push(-1);
      from = lone.index + 1;
    }
    if (from < piece.length) add(this.encodeRun(piece.slice(from)));
    return out;
  }

  /** Ids of a run, unknown parts left as -1 (no whole-piece shortcut: the piece it is part of is no token). */
  private encodeRun(run: string): number[] {
    const m = this.initialIds(run, 0);
    return mergeIds(this.table.pairs!, this.symbols, m);
  }

  /** Parts outside the vocabulary (SentencePiece models without a byte for them) become the unknown token, or nothing. */
  private resolve(ids: number[]): Ids {
    if (!this.table.charLevel || !ids.includes(-1)) return ids;
    const unknown = this.model.unknown;
    const out: number[] = [];
    let previousUnknown = false;
    for (const id of ids) {
      if (id >= 0) out.push(id);
      else if (unknown && !(unknown.fuse && previousUnknown)) out.push(unknown.id);
      previousUnknown = id < 0;
    }
    return out;
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
