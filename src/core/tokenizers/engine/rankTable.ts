/**
 * An encoding's mergeable ranks as one byte array and an open-addressing hash table.
 * Building a JS Map of 200,000 strings costs ~90 ms; this costs a fraction, and lookups
 * take a byte range, so the merge loop allocates no substrings.
 */
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
  private readonly longest: number = 0;

  constructor(
    bpeRanks: string | TokenBytes,
    symbols?: ModelSymbols,
    private readonly base?: RankTable,
  ) {
    const parsed: TokenBytes = typeof bpeRanks === 'string' ? RankTable.decode(bpeRanks) : bpeRanks;
    this.data = parsed.data;
    this.start = parsed.start;
    this.length = parsed.length;
    this.offset = parsed.first ?? 0;
    this.size = parsed.count + (base?.size ?? 0);
    this.pairs = symbols?.pairs;
    this.initial = symbols?.initial;
    this.charLevel = symbols?.charLevel ?? false;
    this.byteFallback = symbols?.byteFallback;
    let capacity = 1;
    while (capacity < parsed.count * 2) capacity <<= 1;
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
    const fallback = new Set(this.byteFallback ?? []);
    for (let k = 0; k < this.start.length; k++) {
      if (this.length[k]! < 0 || fallback.has(k + this.offset)) continue; // a byte-fallback token has bytes but is never looked up
      const s = this.start[k]!;
      this.longest = Math.max(this.longest, this.length[k]!);
      let slot = hashBytes(this.data, s, s + this.length[k]!) & this.mask;
      while (this.slots[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.slots[slot] = k;
    }
  }

  /** js-tiktoken's format: lines of "<ignored> <first rank> <base64 token> <base64 token> …", ranks consecutive. */
  private static decode(text: string) {
    const data = new Uint8Array(text.length);
    const starts: number[] = [];
    const lengths: number[] = [];
    let count = 0;
    let o = 0;
    for (const line of text.split('\n')) {
      if (!line) continue;
      const first = line.indexOf(' ');
      const second = line.indexOf(' ', first + 1);
      let rank = Number.parseInt(line.slice(first + 1, second), 10);
      let tokenStart = o;
      let acc = 0;
      let bits = 0;
      for (let i = second + 1; i <= line.length; i++) {
        const c = i < line.length ? line.charCodeAt(i) : 32;
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
        } else if (c !== 61) {
          acc = ((acc & 0xffff) << 6) | BASE64[c]!;
          bits += 6;
          if (bits >= 8) {
            bits -= 8;
            data[o++] = (acc >> bits) & 255;
          }
        }
      }
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
