import type { PairMerges } from './pairMerges';
import type { RankTable } from './rankTable';
import { runToEnd } from '../../util/steps';

/**
 * Byte-pair merging: repeatedly merge the adjacent pair with the lowest rank, the leftmost one on ties.
 * tiktoken (bytePairEncode) ranks the token a merge makes and starts from bytes; a Hugging Face model
 * (mergeIds) ranks the pair of ids, as tokenizers' bpe/word.rs does. Short pieces use tiktoken's own
 * linear scan; long pieces (hostile runs such as 100,000 identical letters) use a heap, O(n log n)
 * instead of O(n²).
 */
const NONE = 0x7fffffff;
const HEAP_THRESHOLD = 128;

const positions = new Int32Array(HEAP_THRESHOLD + 2);
const pairRanks = new Int32Array(HEAP_THRESHOLD + 2);
const pairSlots = new Int32Array(HEAP_THRESHOLD + 2);

/** Pops between the points where a long merge may pause. */
const STEP = 4096;

/** Token ids of bytes[0, n), which is known not to be a single token. */
export function bytePairEncode(table: RankTable, bytes: Uint8Array, n: number): number[] {
  if (n <= HEAP_THRESHOLD) return mergeShort(table, bytes, n);
  return runToEnd(bytePairEncodeSteps(table, bytes, n));
}

/** The same merge as a generator that pauses every few thousand steps, for callers that slice their work. */
export function bytePairEncodeSteps(table: RankTable, bytes: Uint8Array, n: number): Generator<void, number[]> {
  return mergeLong(
    n,
    (start, _mid, end) => rankOf(table, bytes, start, end),
    undefined,
    (start, end) => table.idOf(bytes, start, end),
  );
}

/** A Hugging Face model's ids for a piece whose initial ids are ids[0, m) (-1 for a part outside the vocabulary); ids is overwritten. */
export function mergeIds(pairs: PairMerges, ids: Int32Array, m: number): number[] {
  if (m <= HEAP_THRESHOLD) return mergeIdsShort(pairs, ids, m);
  return runToEnd(mergeIdsSteps(pairs, ids, m));
}

/** mergeIds as a generator that pauses every few thousand steps. */
export function mergeIdsSteps(pairs: PairMerges, ids: Int32Array, m: number): Generator<void, number[]> {
  return mergeLong(
    m,
    (left, right) => pairRankOf(pairs, ids[left]!, ids[right]!),
    (left, right) => (ids[left] = pairs.mergedAt(pairs.find(ids[left]!, ids[right]!))),
    (part) => ids[part]!,
  );
}

function rankOf(table: RankTable, bytes: Uint8Array, start: number, end: number): number {
  const rank = table.get(bytes, start, end);
  return rank < 0 ? NONE : rank;
}

function pairRankOf(pairs: PairMerges, left: number, right: number): number {
  const at = pairs.find(left, right);
  return at < 0 ? NONE : pairs.rankAt(at);
}

/** The index of the lowest of ranks[0, n) below NONE, the first on ties; -1 if none. */
function lowest(ranks: Int32Array, n: number): number {
  let min = NONE;
  let at = -1;
  for (let i = 0; i < n; i++) {
    if (ranks[i]! < min) {
      min = ranks[i]!;
      at = i;
    }
  }
  return at;
}

function mergeShort(table: RankTable, bytes: Uint8Array, n: number): number[] {
  const pos = positions;
  const rk = pairRanks;
  let m = 0; // boundaries; part i is bytes[pos[i], pos[i+1]), pair i joins parts i and i+1
  for (; m <= n; m++) pos[m] = m;
  for (let i = 0; i < m - 2; i++) rk[i] = rankOf(table, bytes, pos[i]!, pos[i + 2]!);
  for (;;) {
    const at = lowest(rk, m - 2);
    if (at < 0) break;
    for (let j = at + 1; j < m - 1; j++) {
      pos[j] = pos[j + 1]!;
      rk[j] = rk[j + 1]!;
    }
    m--;
    rk[at] = at + 2 < m ? rankOf(table, bytes, pos[at]!, pos[at + 2]!) : NONE;
    if (at > 0) rk[at - 1] = rankOf(table, bytes, pos[at - 1]!, pos[at + 1]!);
  }
  const ids = new Array<number>(m - 1);
  for (let i = 0; i < m - 1; i++) ids[i] = table.idOf(bytes, pos[i]!, pos[i + 1]!);
  return ids;
}

/** Where the pair of ids i and i + 1 sits in the pair table (pairSlots) and its rank (pairRanks). */
function ratePair(pairs: PairMerges, ids: Int32Array, i: number): void {
  const slot = pairs.find(ids[i]!, ids[i + 1]!);
  pairSlots[i] = slot;
  pairRanks[i] = slot < 0 ? NONE : pairs.rankAt(slot);
}

/**
 * mergeShort on ids: pair i joins ids[i] and ids[i + 1], at[i] is where the pair table holds it (-1: no merge);
 * a merge puts the merged id in place of the left one.
 */
function mergeIdsShort(pairs: PairMerges, ids: Int32Array, m: number): number[] {
  const rk = pairRanks;
  const at = pairSlots;
  for (let i = 0; i < m - 1; i++) ratePair(pairs, ids, i);
  for (;;) {
    const best = lowest(rk, m - 1);
    if (best < 0) break;
    ids[best] = pairs.mergedAt(at[best]!);
    for (let j = best + 1; j < m - 1; j++) {
      ids[j] = ids[j + 1]!;
      rk[j] = rk[j + 1]!;
      at[j] = at[j + 1]!;
    }
    m--;
    if (best + 1 < m) ratePair(pairs, ids, best);
    else rk[best] = NONE;
    if (best > 0) ratePair(pairs, ids, best - 1);
  }
  const out = new Array<number>(m);
  for (let i = 0; i < m; i++) out[i] = ids[i]!;
  return out;
}

/**
 * The heap merge over parts 0 .. n - 1 (n: the end), each named by where it starts. rank(start, mid, end):
 * the rank of joining the parts [start, mid) and [mid, end), or NONE; join(start, mid): they were joined;
 * idOf(start, end): a final part's id. The heap orders pairs by (rank, start), so ties merge leftmost first.
 */
function* mergeLong(
  n: number,
  rank: (start: number, mid: number, end: number) => number,
  join: ((start: number, mid: number) => void) | undefined,
  idOf: (start: number, end: number) => number,
): Generator<void, number[]> {
  const next = new Int32Array(n + 1);
  const prev = new Int32Array(n + 1);
  const pairRank = new Int32Array(n + 1);
  const heap = new PairHeap(n);
  for (let i = 0; i <= n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    pairRank[i] = NONE;
    if ((i + 1) % (STEP * 16) === 0) yield; // a piece may be millions of parts: even this pass is paused
  }
  const rankPair = (start: number): number => {
    const mid = next[start]!;
    const end = mid < n ? next[mid]! : n + 1;
    return (pairRank[start] = end <= n ? rank(start, mid, end) : NONE);
  };
  for (let i = 0; i < n; i++) {
    const r = rankPair(i);
    if (r !== NONE) heap.add(r, i);
    if ((i + 1) % STEP === 0) yield;
  }
  for (let i = (heap.size >> 1) - 1; i >= 0; i--) {
    heap.siftDownAt(i);
    if (i % STEP === 0) yield;
  }
  let steps = 0;
  while (heap.size > 0) {
    if (++steps % STEP === 0) yield;
    const top = heap.topRank();
    const start = heap.pop();
    if (pairRank[start] !== top) continue; // stale entry
    const removed = next[start]!;
    join?.(start, removed);
    const after = next[removed]!;
    next[start] = after;
    if (after <= n) prev[after] = start;
    pairRank[removed] = NONE;
    const merged = rankPair(start);
    if (merged !== NONE) heap.push(merged, start);
    if (start > 0) {
      const before = prev[start]!;
      const r = rankPair(before);
      if (r !== NONE) heap.push(r, before);
    }
  }
  const ids: number[] = [];
  for (let s = 0; s < n; s = next[s]!) {
    ids.push(idOf(s, next[s]!));
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
