/**
 * A Hugging Face BPE model's merges as tokenizers' own BPE keeps them (bpe/model.rs: a map from the pair of
 * token ids to the merge's rank and the merged token's id), and the ids a piece starts from. The merge loop
 * (bpe.ts mergeIds) then works on ids: one probe per pair, no byte hashing, no search for the split point.
 */
const EMPTY = -1;
const FIELDS = 4; // left, right, rank, merged

/** An open-addressing table of (left id, right id) → (rank, merged id), interleaved so that a probe reads one cache line. */
export class PairMerges {
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(count: number) {
    let capacity = 16;
    while (capacity * 3 < count * 4) capacity <<= 1; // load at most 3/4
    this.slots = new Int32Array(capacity * FIELDS).fill(EMPTY);
    this.mask = capacity - 1;
  }

  private home(left: number, right: number): number {
    let h = Math.imul(left ^ Math.imul(right, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 15;
    return h & this.mask;
  }

  /** Adds a merge; a pair given again takes the later rank, as tokenizers' map does. */
  set(left: number, right: number, rank: number, merged: number): void {
    const s = this.slots;
    let i = this.home(left, right);
    while (s[i * FIELDS] !== EMPTY && (s[i * FIELDS] !== left || s[i * FIELDS + 1] !== right)) i = (i + 1) & this.mask;
    const at = i * FIELDS;
    s[at] = left;
    s[at + 1] = right;
    s[at + 2] = rank;
    s[at + 3] = merged;
  }

  /** Where the pair is (for rankAt and mergedAt), or -1 when no merge joins it. */
  find(left: number, right: number): number {
    const s = this.slots;
    for (let i = this.home(left, right); ; i = (i + 1) & this.mask) {
      const at = i * FIELDS;
      const l = s[at]!;
      if (l === EMPTY) return -1;
      if (l === left && s[at + 1] === right) return at;
    }
  }

  rankAt(at: number): number {
    return this.slots[at + 2]!;
  }

  mergedAt(at: number): number {
    return this.slots[at + 3]!;
  }

  get byteSize(): number {
    return this.slots.byteLength;
  }
}

/** UTF-8 length of code point c. */
function utf8Length(c: number): number {
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/**
 * The ids a piece starts from. Byte-level BPE: one per UTF-8 byte. SentencePiece-style: one per character,
 * and for a character outside the vocabulary the ids of its bytes' <0xXX> tokens when the model falls back to
 * bytes (else -1, one unknown part; so is a byte without its token).
 */
export class InitialSymbols {
  /** Byte-level: the id of each byte. */
  private readonly byteIds: Int32Array | undefined;
  /** SentencePiece-style: the id of each one-character token, BMP by code unit, the rest by code point. */
  private readonly bmp: Int32Array | undefined;
  private readonly astral = new Map<number, number>();
  private readonly byteFallback: Int32Array | undefined;

  /** tokens: the vocabulary's strings and ids (one-character ones are read); byteIds for a byte-level model. */
  constructor(tokens: Iterable<[string, number]>, byteIds: Int32Array | undefined, byteFallback: Int32Array | undefined) {
    this.byteIds = byteIds;
    this.byteFallback = byteFallback;
    if (byteIds) return;
    this.bmp = new Int32Array(0x10000).fill(-1);
    for (const [token, id] of tokens) {
      if (token.length === 1) this.bmp[token.charCodeAt(0)] = id;
      else if (token.length === 2 && token.codePointAt(0)! > 0xffff) this.astral.set(token.codePointAt(0)!, id);
    }
  }

  /** Byte-level: the ids of bytes[0, n) into out (room for n). */
  ofBytes(bytes: Uint8Array, n: number, out: Int32Array): number {
    const ids = this.byteIds!;
    for (let i = 0; i < n; i++) out[i] = ids[bytes[i]!]!;
    return n;
  }

  /** SentencePiece-style: the ids of piece's characters into out (room for 4 per code unit); the piece has no lone surrogate. */
  ofCharacters(piece: string, out: Int32Array): number {
    const bmp = this.bmp!;
    let m = 0;
    for (let i = 0; i < piece.length; i++) {
      let c = piece.charCodeAt(i);
      let id: number;
      if (c >= 0xd800 && c <= 0xdbff) {
        c = piece.codePointAt(i++)!;
        id = this.astral.get(c) ?? -1;
      } else id = bmp[c]!;
      if (id >= 0 || !this.byteFallback) out[m++] = id;
      else m = this.fallBack(c, out, m);
    }
    return m;
  }

  /** The <0xXX> ids of code point c's UTF-8 bytes (-1 for a byte without one) at out[m…]; returns the new length. */
  private fallBack(c: number, out: Int32Array, m: number): number {
    const ids = this.byteFallback!;
    const n = utf8Length(c);
    if (n === 1) {
      out[m] = ids[c]!;
      return m + 1;
    }
    const lead = n === 2 ? 0xc0 : n === 3 ? 0xe0 : 0xf0;
    out[m] = ids[lead | (c >> (6 * (n - 1)))]!;
    for (let k = 1; k < n; k++) out[m + k] = ids[0x80 | ((c >> (6 * (n - 1 - k))) & 0x3f)]!;
    return m + n;
  }
}
