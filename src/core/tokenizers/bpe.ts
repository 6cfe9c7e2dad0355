import type { RankTable } from './rankTable';

/**
 * Byte-pair merging exactly as tiktoken does it: repeatedly merge the adjacent pair with the lowest
 * rank, the leftmost one on ties. Short pieces use tiktoken's own linear scan; long pieces (hostile
 * runs such as 100,000 identical letters) use a heap, O(n log n) instead of O(n²).
 */
const NONE = 0x7fffffff;
const HEAP_THRESHOLD = 128;

const positions = new Int32Array(HEAP_THRESHOLD + 2);
const pairRanks = new Int32Array(HEAP_THRESHOLD + 2);

/** Pops between the points where a long merge may pause. */
const STEP = 4096;

/** Token ids of bytes[0, n), which is known not to be a single token. */
export function bytePairEncode(table: RankTable, bytes: Uint8Array, n: number): number[] {
  if (n <= HEAP_THRESHOLD) return mergeShort(table, bytes, n);
  const steps = mergeLong(table, bytes, n);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The same merge as a generator that pauses every few thousand steps, for callers that slice their work. */
export function bytePairEncodeSteps(table: RankTable, bytes: Uint8Array, n: number): Generator<void, number[]> {
  return mergeLong(table, bytes, n);
}

function rankOf(table: RankTable, bytes: Uint8Array, start: number, mid: number, end: number): number {
  const rank = table.pairRanked ? table.pairRank(bytes, start, mid, end) : table.get(bytes, start, end);
  return rank < 0 ? NONE : rank;
}

/** UTF-8 length of the character whose lead byte is b (1 for a stray continuation byte). */
function charLength(b: number): number {
  return b < 0xc0 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
}

/**
 * Calls part(start) for each initial part of bytes[0, n) for a SentencePiece-style table (byte-level
 * BPE starts from every byte): every character, and each byte of a character the vocabulary lacks
 * when the model falls back to bytes (else the character stays whole and becomes the unknown token).
 */
function initialParts(table: RankTable, bytes: Uint8Array, n: number, part: (start: number) => void): void {
  for (let i = 0; i < n;) {
    const end = Math.min(n, i + charLength(bytes[i]!));
    if (end - i === 1 || !table.hasByteFallback || table.get(bytes, i, end) >= 0) part(i);
    else for (let b = i; b < end; b++) part(b);
    i = end;
  }
}

function mergeShort(table: RankTable, bytes: Uint8Array, n: number): number[] {
  const pos = positions;
  const rk = pairRanks;
  let m = 0; // boundaries; part i is bytes[pos[i], pos[i+1]), pair i joins parts i and i+1
  if (table.charLevel) initialParts(table, bytes, n, (start) => (pos[m++] = start));
  else for (; m < n; m++) pos[m] = m;
  pos[m++] = n;
  for (let i = 0; i < m - 2; i++) rk[i] = rankOf(table, bytes, pos[i]!, pos[i + 1]!, pos[i + 2]!);
  for (;;) {
    let min = NONE;
    let at = -1;
    for (let i = 0; i < m - 2; i++) {
      if (rk[i]! < min) {
        min = rk[i]!;
        at = i;
      }
    }
    if (at < 0) break;
    for (let j = at + 1; j < m - 1; j++) {
      pos[j] = pos[j + 1]!;
      rk[j] = rk[j + 1]!;
    }
    m--;
    rk[at] = at + 2 < m ? rankOf(table, bytes, pos[at]!, pos[at + 1]!, pos[at + 2]!) : NONE;
    if (at > 0) rk[at - 1] = rankOf(table, bytes, pos[at - 1]!, pos[at]!, pos[at + 1]!);
  }
  const ids = new Array<number>(m - 1);
  for (let i = 0; i < m - 1; i++) ids[i] = table.idOf(bytes, pos[i]!, pos[i + 1]!);
  return ids;
}

/** Parts are named by their start offset; the heap orders pairs by (rank, start), so ties merge leftmost first. */
function* mergeLong(table: RankTable, bytes: Uint8Array, n: number): Generator<void, number[]> {
  const next = new Int32Array(n + 1);
  const prev = new Int32Array(n + 1);
  const pairRank = new Int32Array(n + 1).fill(NONE);
  const heap = new PairHeap(n);
  for (let i = 0; i <= n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  if (table.charLevel) {
    let last = -1;
    initialParts(table, bytes, n, (start) => {
      if (last >= 0) next[last] = start;
      prev[start] = last;
      last = start;
    });
    next[last] = n;
    prev[n] = last;
  }
  const rankPair = (start: number): number => {
    const mid = next[start]!;
    const end = mid < n ? next[mid]! : n + 1;
    return (pairRank[start] = end <= n ? rankOf(table, bytes, start, mid, end) : NONE);
  };
  for (let i = 0, seen = 0; i < n; i = next[i]!) {
    const rank = rankPair(i);
    if (rank !== NONE) heap.add(rank, i);
    if (++seen % STEP === 0) yield;
  }
  for (let i = (heap.size >> 1) - 1; i >= 0; i--) {
    heap.siftDownAt(i);
    if (i % STEP === 0) yield;
  }
  let steps = 0;
  while (heap.size > 0) {
    if (++steps % STEP === 0) yield;
    const rank = heap.topRank();
    const start = heap.pop();
    if (pairRank[start] !== rank) continue; // stale entry
    const removed = next[start]!;
    const after = next[removed]!;
    next[start] = after;
    if (after <= n) prev[after] = start;
    pairRank[removed] = NONE;
    const merged = rankPair(start);
    if (merged !== NONE) heap.push(merged, start);
    if (start > 0) {
      const before = prev[start]!;
      const rank = rankPair(before);
      if (rank !== NONE) heap.push(rank, before);
    }
  }
  const ids: number[] = [];
  for (let s = 0; s < n; s = next[s]!) {
    ids.push(table.idOf(bytes, s, next[s]!));
    if (ids.length % STEP === 0) yield;
  }
  return ids;
}

/** A binary min-heap of (rank, start) pairs in two Int32Arrays. */
class PairHeap {
  private ranks: Int32Array;
  private starts: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.ranks = new Int32Array(Math.max(16, capacity * 2));
    this.starts = new Int32Array(this.ranks.length);
  }

  /** Appends without ordering; then siftDownAt(i) for i from size/2 - 1 down to 0 makes it a heap. */
  add(rank: number, start: number): void {
    if (this.size === this.ranks.length) this.grow();
    this.ranks[this.size] = rank;
    this.starts[this.size++] = start;
  }

  siftDownAt(i: number): void {
    this.siftDown(i, this.ranks[i]!, this.starts[i]!);
  }

  topRank(): number {
    return this.ranks[0]!;
  }

  push(rank: number, start: number): void {
    if (this.size === this.ranks.length) this.grow();
    const r = this.ranks;
    const s = this.starts;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (r[parent]! < rank || (r[parent] === rank && s[parent]! < start)) break;
      r[i] = r[parent]!;
      s[i] = s[parent]!;
      i = parent;
    }
    r[i] = rank;
    s[i] = start;
  }

  /** Removes the smallest pair and returns its start. */
  pop(): number {
    const top = this.starts[0]!;
    const last = --this.size;
    if (last > 0) this.siftDown(0, this.ranks[last]!, this.starts[last]!);
    return top;
  }

  private siftDown(i: number, rank: number, start: number): void {
    const r = this.ranks;
    const s = this.starts;
    const size = this.size;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      const right = child + 1;
      if (right < size && (r[right]! < r[child]! || (r[right] === r[child] && s[right]! < s[child]!))) child = right;
      if (r[child]! > rank || (r[child] === rank && s[child]! > start)) break;
      r[i] = r[child]!;
      s[i] = s[child]!;
      i = child;
    }
    r[i] = rank;
    s[i] = start;
  }

  private grow(): void {
    const ranks = new Int32Array(this.ranks.length * 2);
    const starts = new Int32Array(ranks.length);
    ranks.set(this.ranks);
    starts.set(this.starts);
    this.ranks = ranks;
    this.starts = starts;
  }
}
