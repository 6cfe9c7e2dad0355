/**
 * model.vocab read straight into token bytes: each token's characters are written as the bytes the engine merges
 * (GPT-2's byte alphabet mapped back, or UTF-8) and found again by those bytes, so loading makes no Map of 260,000
 * strings and no string per merge (modelTables.ts looks its pairs up here). The key bytes of a token are one-to-one with
 * its string (lone surrogates as WTF-8, a <0xXX> token by its text), so a token given twice is found, and the last
 * one wins, as in the parsed object. A byte-level token outside the alphabet (an added token's text) has no bytes:
 * it is kept by its string, for merges and unk_token to name.
 */
import type { TokenBytes } from '../engine/rankTable';
import { hashBytes } from '../engine/rankTable';
import { TokenizerJsonError } from './modelLimits';
import { utf8Into } from '../engine/utf8';

export const MAX_ID = 1 << 24;
const SPACE_MARK = 0x2581;
/** More tokens with a ▁ inside than this, and the safe cuts are not worth their checks (huggingFace.ts safeCuts). */
export const MAX_CROSSING = 256;

/** GPT-2's alphabet: printable Latin-1 bytes stand for themselves, the other bytes for U+0100 on. */
const BYTE_OF: Int16Array = (() => {
  const byteOf = new Int16Array(0x144).fill(-1);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    byteOf[printable ? b : 0x100 + extra++] = b;
  }
  return byteOf;
})();

/** Writes s[start, end) through GPT-2's alphabet at out[o…]; returns the end, or -1 for a character outside it. */
function byteLevelInto(s: string, start: number, end: number, out: Uint8Array, o: number): number {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    const b = c < 0x144 ? BYTE_OF[c]! : -1;
    if (b < 0) return -1;
    out[o++] = b;
  }
  return o;
}

const BYTE_TOKEN = /^<0x([0-9A-Fa-f]{2})>$/;

function grown(a: Int32Array, need: number, fill: number): Int32Array {
  if (need <= a.length) return a;
  let n = a.length;
  while (n < need) n *= 2;
  const b = new Int32Array(n).fill(fill);
  b.set(a);
  return b;
}

/** A vocabulary being read, token by token (add), then the tables made of it. */
export class Vocab {
  /** Key bytes, then table bytes where they differ, of every token added, back to back. */
  private data = new Uint8Array(1 << 16);
  private used = 0;
  /** Per token added (an entry): its key bytes and id (-1 once the same token came again). */
  private keyStart: Int32Array;
  private keyLength: Int32Array;
  private entryId: Int32Array;
  private entries = 0;
  /** Open addressing by key bytes: (entry, hash) per slot, so that a probe reads one cache line and most misses no more. */
  private slots: Int32Array;
  /** Per entry: the bytes the table holds for it in data (its key bytes but for a <0xXX> token or a lone surrogate). */
  private tableStart: Int32Array;
  private tableLength: Int32Array;
  private maxId = -1;
  private live = 0;
  /** Byte-level tokens outside the alphabet, by string: no bytes, but merges and unk_token may name them. */
  private readonly unmapped = new Map<string, number>();
  /** entryById's answer, until the next token. */
  private byId: Int32Array | undefined;
  /** Tokens of one or two units (SentencePiece-style: the initial symbols are found among them). */
  readonly short: [string, number][] = [];
  /** SentencePiece-style: tokens with a ▁ after another character, and where (undefined: more than MAX_CROSSING). */
  crossing: [string, number][] | undefined = [];
  /** Scratch for idOf. */
  private scratch = new Uint8Array(1024);

  constructor(
    readonly byteLevel: boolean,
    /** SentencePiece-style with byte_fallback: filled with the id of each byte's <0xXX> token. */
    readonly byteFallback: Int32Array | undefined,
    /** How many tokens are coming, when known: the arrays are made that large at once. */
    capacity = 1024,
  ) {
    const n = Math.max(16, capacity);
    this.keyStart = new Int32Array(n);
    this.keyLength = new Int32Array(n);
    this.entryId = new Int32Array(n);
    this.tableStart = new Int32Array(n);
    this.tableLength = new Int32Array(n);
    let slots = 32;
    while (slots < 2 * n) slots <<= 1;
    this.slots = new Int32Array(2 * slots).fill(-1);
  }

  /** How many tokens the vocabulary holds. */
  get size(): number {
    return this.live + this.unmapped.size;
  }

  /** Adds token s[start, end) with its id; the same token again replaces the first (as a parsed object keeps the last). */
  add(s: string, start: number, end: number, id: number): void {
    this.reserve(3 * (end - start));
    const o = this.used;
    let keyEnd = this.byteLevel ? byteLevelInto(s, start, end, this.data, o) : utf8Into(s, start, end, this.data, o, 'wtf8');
    if (this.byteLevel && keyEnd < 0) return this.addUnmapped(s.slice(start, end), id);
    const lone = keyEnd < 0;
    if (lone) keyEnd = -keyEnd - 1;
    const hash = hashBytes(this.data, o, keyEnd) | 0;
    const found = this.entries ? this.lookup(this.data, o, keyEnd, hash) : -1;
    if (found >= 0) this.forget(found);
    const slot = found >= 0 ? this.slotOf(found, hash) : this.freeSlot(hash);
    this.slots[slot] = this.newEntry(o, keyEnd - o, id);
    this.slots[slot + 1] = hash;
    this.used = keyEnd;
    this.setTable(s, start, end, id, lone);
    this.byId = undefined;
    if (!this.byteLevel) this.noteCharacters(s, start, end, id);
  }

  /** The id of token s[start, end), or -1. */
  idOf(s: string, start = 0, end = s.length): number {
    if (this.scratch.length < 3 * (end - start)) this.scratch = new Uint8Array(3 * (end - start));
    const k = this.keyInto(s, start, end, this.scratch, 0);
    return k < 0 ? (this.unmapped.get(s.slice(start, end)) ?? -1) : this.idAt(this.scratch, 0, k);
  }

  /** The key bytes of s[start, end) at out[o…] (room for 3 per unit); returns the end, or -1 outside the byte alphabet. */
  keyInto(s: string, start: number, end: number, out: Uint8Array, o: number): number {
    if (this.byteLevel) return byteLevelInto(s, start, end, out, o);
    const k = utf8Into(s, start, end, out, o, 'wtf8');
    return k < 0 ? -k - 1 : k;
  }

  /** The id of the token whose key bytes are bytes[start, end), or -1. */
  idAt(bytes: Uint8Array, start: number, end: number): number {
    const entry = this.lookup(bytes, start, end, hashBytes(bytes, start, end) | 0);
    return entry < 0 ? -1 : this.entryId[entry]!;
  }

  private lookup(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const { data, slots } = this;
    const n = end - start;
    const mask = slots.length - 2;
    for (let slot = (hash << 1) & mask; ; slot = (slot + 2) & mask) {
      const entry = slots[slot]!;
      if (entry < 0) return -1;
      if (slots[slot + 1] !== hash || this.keyLength[entry] !== n) continue;
      const s = this.keyStart[entry]!;
      let i = 0;
      while (i < n && data[s + i] === bytes[start + i]) i++;
      if (i === n) return entry;
    }
  }

  private slotOf(entry: number, hash: number): number {
    const mask = this.slots.length - 2;
    let slot = (hash << 1) & mask;
    while (this.slots[slot] !== entry) slot = (slot + 2) & mask;
    return slot;
  }

  /** An empty slot for a new hash, the table doubled first when it would be half full. */
  private freeSlot(hash: number): number {
    if ((this.entries + 1) * 4 > this.slots.length) this.rehash();
    const mask = this.slots.length - 2;
    let slot = (hash << 1) & mask;
    while (this.slots[slot]! >= 0) slot = (slot + 2) & mask;
    return slot;
  }

  private rehash(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2).fill(-1);
    const mask = this.slots.length - 2;
    for (let k = 0; k < old.length; k += 2) {
      if (old[k]! < 0) continue;
      let slot = (old[k + 1]! << 1) & mask;
      while (this.slots[slot]! >= 0) slot = (slot + 2) & mask;
      this.slots[slot] = old[k]!;
      this.slots[slot + 1] = old[k + 1]!;
    }
  }

  /** Room for n more bytes in data. */
  private reserve(n: number): void {
    if (this.used + n <= this.data.length) return;
    let size = this.data.length * 2;
    while (size < this.used + n) size *= 2;
    const data = new Uint8Array(size);
    data.set(this.data.subarray(0, this.used));
    this.data = data;
  }

  private newEntry(start: number, length: number, id: number): number {
    const e = this.entries++;
    this.keyStart = grown(this.keyStart, this.entries, 0);
    this.keyLength = grown(this.keyLength, this.entries, 0);
    this.entryId = grown(this.entryId, this.entries, -1);
    this.keyStart[e] = start;
    this.keyLength[e] = length;
    this.entryId[e] = id;
    this.tableStart = grown(this.tableStart, this.entries, 0);
    this.tableLength = grown(this.tableLength, this.entries, 0);
    this.tableStart[e] = start;
    this.tableLength[e] = length;
    this.maxId = Math.max(this.maxId, id);
    this.live++;
    return e;
  }

  /** The same token came again: its first entry and id go (a parsed object keeps only the last). */
  private forget(entry: number): void {
    this.entryId[entry] = -1;
    this.live--;
  }

  private addUnmapped(token: string, id: number): void {
    this.unmapped.set(token, id);
    this.maxId = Math.max(this.maxId, id);
    this.byId = undefined;
  }

  /**
   * Each id's entry (-1: none), checked once every token is read, as the parsed object holds them: an id given to
   * two tokens is refused (the smallest such id named, whatever the order of the file).
   */
  private entryById(): Int32Array {
    if (this.byId) return this.byId;
    const byId = new Int32Array(this.maxId + 1).fill(-1);
    let twice = MAX_ID;
    for (let e = 0; e < this.entries; e++) {
      const id = this.entryId[e]!;
      if (id < 0) continue;
      if (byId[id] !== -1) twice = Math.min(twice, id);
      byId[id] = e;
    }
    for (const id of this.unmapped.values()) {
      if (byId[id] !== -1) twice = Math.min(twice, id);
      byId[id] = -2;
    }
    if (twice < MAX_ID) throw new TokenizerJsonError(`model.vocab gives id ${twice} to more than one token.`);
    return (this.byId = byId);
  }

  /** The bytes the table holds for the token: its key bytes, but a <0xXX> token's byte, and U+FFFD for a lone surrogate. */
  private setTable(s: string, start: number, end: number, id: number, lone: boolean): void {
    const e = this.entries - 1;
    const fallback = this.byteFallback && end - start === 6 && s.charCodeAt(start) === 0x3c && BYTE_TOKEN.exec(s.slice(start, end));
    if (fallback) {
      const b = Number.parseInt(fallback[1]!, 16);
      this.byteFallback[b] = id;
      this.reserve(1);
      this.data[this.used] = b;
      this.tableStart[e] = this.used++;
      this.tableLength[e] = 1;
    } else if (lone) {
      this.reserve(3 * (end - start));
      const tableEnd = -utf8Into(s, start, end, this.data, this.used, 'fffd') - 1;
      this.tableStart[e] = this.used;
      this.tableLength[e] = tableEnd - this.used;
      this.used = tableEnd;
    }
  }

  /** SentencePiece-style: the short tokens (initial symbols) and those with a ▁ after another character. */
  private noteCharacters(s: string, start: number, end: number, id: number): void {
    if (end - start <= 2) this.short.push([s.slice(start, end), id]);
    for (let i = start + 1; this.crossing && i < end; i++) {
      if (s.charCodeAt(i) === SPACE_MARK && s.charCodeAt(i - 1) !== SPACE_MARK) {
        this.crossing.push([s.slice(start, end), i - start]);
        if (this.crossing.length > MAX_CROSSING) this.crossing = undefined;
      }
    }
  }

  /** A byte-level vocabulary's id for each byte; it must hold all 256. */
  singleBytes(): Int32Array {
    const ids = new Int32Array(256).fill(-1);
    const byId = this.entryById();
    for (let id = 0; id < byId.length; id++) {
      const e = byId[id]!;
      if (e >= 0 && this.tableLength[e] === 1) ids[this.data[this.tableStart[e]!]!] = id;
    }
    if (ids.includes(-1)) throw new TokenizerJsonError('a byte-level vocabulary must hold all 256 bytes.');
    return ids;
  }

  /** The table bytes of the tokens from id `first` on (0: all; more: those below are a shared base table's), packed. */
  tokens(first = 0): TokenBytes {
    const byId = this.entryById();
    const n = Math.max(0, byId.length - first);
    const length = new Int32Array(n).fill(-1);
    const start = new Int32Array(n);
    let total = 0;
    let count = 0;
    for (let k = 0; k < n; k++) {
      const e = byId[k + first]!;
      if (e < 0) continue;
      length[k] = this.tableLength[e]!;
      total += length[k]!;
      count++;
    }
    const data = new Uint8Array(total);
    for (let k = 0, o = 0; k < n; k++) {
      const e = byId[k + first]!;
      if (e < 0) continue;
      start[k] = o;
      for (let i = this.tableStart[e]!, end = i + length[k]!; i < end; i++) data[o++] = this.data[i]!;
    }
    return { data, start, length, count, first };
  }
}
