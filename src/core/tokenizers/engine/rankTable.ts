/**
 * An encoding's mergeable ranks as one byte array and an open-addressing hash table.
 * Building a JS Map of 200,000 strings costs ~90 ms; this costs a fraction, and lookups
 * take a byte range, so the merge loop allocates no substrings.
 */
import { runToEnd } from '../../util/steps';
import type { InitialSymbols, PairMerges } from './pairMerges';

export interface RankFile {
  pat_str: string;
  special_tokens: Record<string, number>;
  bpe_ranks: string;
}

const BASE64 = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 64; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

const EMPTY = -1;

export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** Token bytes back to back, as RankTable stores them; token `id` is data[start[id], start[id] + length[id]), length -1 for a gap. */
export interface TokenBytes {
  data: Uint8Array;
  start: Int32Array;
  length: Int32Array;
  count: number;
  /** The id of entry 0 (0 unless the ids below belong to a shared base table). */
  first?: number;
}

/** Where each token sits in a table's hash index (RankTable.indexSteps), and the longest token's length in bytes. */
export interface TokenIndex {
  slots: Int32Array;
  longest: number;
}

/** What a Hugging Face BPE model adds to a table of tokens: merges by pair of ids, and the ids a piece starts from. */
export interface ModelSymbols {
  /** Initial symbols are whole characters (SentencePiece) rather than bytes (byte-level BPE). */
  charLevel: boolean;
  /** For a character not in the vocabulary: the id of each of its UTF-8 bytes, or -1. */
  byteFallback?: Int32Array;
  pairs: PairMerges;
  initial: InitialSymbols;
}

export class RankTable {
  /** Token bytes, back to back; token `rank` is bytes[start[rank], start[rank] + length[rank]). */
  private readonly data: Uint8Array;
  private readonly start: Int32Array;
  private readonly length: Int32Array;
  private readonly slots: Int32Array;
  private readonly mask: number;
  readonly size: number;
  readonly charLevel: boolean;
  /** A Hugging Face model's merges, which rank pairs of ids (bpe.ts mergeIds); tiktoken ranks the token a merge makes. */
  readonly pairs: PairMerges | undefined;
  readonly initial: InitialSymbols | undefined;
  /** SentencePiece-style: the <0xXX> token of each byte, when the model falls back to bytes. */
  readonly byteFallback: Int32Array | undefined;
  /** Ids below `offset` are the base table's (a vocabulary that begins with a built-in one); entry k here is id offset + k. */
  private readonly offset: number;
  /** The longest token's length in bytes: a longer run is no token, without hashing it (a piece may be megabytes). */
  private readonly longest: number;

  constructor(
    bpeRanks: string | TokenBytes,
    symbols?: ModelSymbols,
    private readonly base?: RankTable,
    prebuilt?: TokenIndex,
  ) {
    const parsed: TokenBytes = typeof bpeRanks === 'string' ? runToEnd(RankTable.decodeSteps(bpeRanks)) : bpeRanks;
    this.data = parsed.data;
    this.start = parsed.start;
    this.length = parsed.length;
    this.offset = parsed.first ?? 0;
    this.size = parsed.count + (base?.size ?? 0);
    this.pairs = symbols?.pairs;
    this.initial = symbols?.initial;
    this.charLevel = symbols?.charLevel ?? false;
    this.byteFallback = symbols?.byteFallback;
    const index = prebuilt ?? runToEnd(RankTable.indexSteps(parsed, symbols?.byteFallback));
    this.slots = index.slots;
    this.mask = index.slots.length - 1;
    this.longest = index.longest;
  }

  /**
   * The open-addressing index of a table's tokens (a byte-fallback token has bytes but is never looked up), in steps
   * that pause every `every` tokens.
   */
  static *indexSteps(parsed: TokenBytes, byteFallback?: Int32Array, every = Infinity): Generator<void, TokenIndex> {
    let capacity = 1;
    while (capacity < parsed.count * 2) capacity <<= 1;
    const slots = new Int32Array(capacity).fill(EMPTY);
    const mask = capacity - 1;
    const offset = parsed.first ?? 0;
    const fallback = new Set(byteFallback ?? []);
    let longest = 0;
    let budget = every;
    for (let k = 0; k < parsed.start.length; k++) {
      if (--budget <= 0) {
        budget = every;
        yield;
      }
      const n = parsed.length[k]!;
      if (n < 0 || fallback.has(k + offset)) continue;
      const s = parsed.start[k]!;
      longest = Math.max(longest, n);
      let slot = hashBytes(parsed.data, s, s + n) & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = k;
    }
    return { slots, longest };
  }

  /**
   * js-tiktoken's format: lines of "<ignored> <first rank> <base64 token> <base64 token> …", ranks consecutive. The
   * shipped files are one line of 0.5-2.3 MB, so the steps pause inside a line, every `every` tokens.
   */
  static *decodeSteps(text: string, every = Infinity): Generator<void, TokenBytes> {
    const data = new Uint8Array(text.length);
    const starts: number[] = [];
    const lengths: number[] = [];
    let count = 0;
    let o = 0;
    let budget = every;
    for (let pos = 0; pos < text.length;) {
      const newline = text.indexOf('\n', pos);
      const end = newline < 0 ? text.length : newline;
      const first = text.indexOf(' ', pos);
      const second = text.indexOf(' ', first + 1);
      let rank = Number.parseInt(text.slice(first + 1, second), 10);
      let tokenStart = o;
      let acc = 0;
      let bits = 0;
      for (let i = second + 1; end > pos && i <= end; i++) {
        const c = i < end ? text.charCodeAt(i) : 32;
        if (c === 32) {
          while (starts.length < rank) {
            starts.push(0);
            lengths.push(-1);
          }
          starts[rank] = tokenStart;
          lengths[rank] = o - tokenStart;
          rank++;
          count++;
          tokenStart = o;
          acc = 0;
          bits = 0;
          if (--budget <= 0) {
            budget = every;
            yield;
          }
        } else if (c !== 61) {
          acc = ((acc & 0xffff) << 6) | BASE64[c]!;
          bits += 6;
          if (bits >= 8) {
            bits -= 8;
            data[o++] = (acc >> bits) & 255;
          }
        }
      }
      pos = end + 1;
    }
    return { data: data.slice(0, o), start: Int32Array.from(starts), length: Int32Array.from(lengths), count };
  }

  /** The rank of bytes[start, end), or -1. */
  get(bytes: Uint8Array, start: number, end: number): number {
    if (this.base) {
      const shared = this.base.get(bytes, start, end);
      if (shared >= 0) return shared;
    }
    const n = end - start;
    if (n > this.longest) return -1;
    let slot = hashBytes(bytes, start, end) & this.mask;
    for (;;) {
      const k = this.slots[slot]!;
      if (k === EMPTY) return -1;
      if (this.length[k] === n) {
        const s = this.start[k]!;
        let i = 0;
        while (i < n && this.data[s + i] === bytes[start + i]) i++;
        if (i === n) return k + this.offset;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** The id of a final part: its token, or for a lone byte of a character outside the vocabulary its byte-fallback token; -1 if none. */
  idOf(bytes: Uint8Array, start: number, end: number): number {
    const id = this.get(bytes, start, end);
    if (id >= 0 || !this.byteFallback || end - start !== 1) return id;
    return this.byteFallback[bytes[start]!]!;
  }

  /** The byte length of a rank, or -1 if it has no bytes. */
  byteLength(rank: number): number {
    if (rank < this.offset) return this.base?.byteLength(rank) ?? -1;
    return this.length[rank - this.offset] ?? -1;
  }

  /** The bytes of a rank (a view; do not modify). */
  bytesOf(rank: number): Uint8Array | undefined {
    if (rank < this.offset) return this.base?.bytesOf(rank);
    const n = this.length[rank - this.offset];
    if (n === undefined || n < 0) return undefined;
    const s = this.start[rank - this.offset]!;
    return this.data.subarray(s, s + n);
  }

  /** The table this one's first ids are shared with, if any. */
  get sharedBase(): RankTable | undefined {
    return this.base;
  }

  /** Approximate memory held, in bytes (a shared base table's not counted: it is held anyway). */
  get byteSize(): number {
    const pairs = this.pairs?.byteSize ?? 0;
    return this.data.byteLength + this.start.byteLength + this.length.byteLength + this.slots.byteLength + pairs;
  }
}
