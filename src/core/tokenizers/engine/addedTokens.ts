/**
 * Finds tokens that are matched whole before pre-tokenization (tiktoken's special tokens, Hugging
 * Face's added tokens): leftmost, and the longest at that place, as Hugging Face's Aho-Corasick
 * search does (MatchKind::LeftmostLongest). An Aho-Corasick automaton too: a search reads each unit
 * once and then at most the longest token's length past the match it returns, however the tokens
 * overlap, so a long token that almost matches everywhere costs no more than a short one.
 */
export interface TokenMatch {
  start: number;
  end: number;
  id: number;
}

/** Edges are keyed by node * UNITS + UTF-16 unit, in one map. */
const UNITS = 0x10000;
const ROOT = 0;

export class TokenMatcher {
  private readonly edges = new Map<number, number>();
  private readonly first: RegExp;
  /** The distinct lengths of the tokens, for endsAt. */
  private readonly lengths: number[];
  readonly longest: number;
  /** Per node: its depth, its failure link, and the longest token that ends it (its length, 0 for none, and id). */
  private readonly depth: Int32Array;
  private readonly fail: Int32Array;
  private readonly outLength: Int32Array;
  private readonly outId: Int32Array;
  /** The last search: a sliced scan asks again from later and later places before the match it found. */
  private last: { text: string; from: number; end: number; match: TokenMatch | undefined } | undefined;

  constructor(private readonly tokens: ReadonlyMap<string, number>) {
    const parents: number[] = [-1];
    const units: number[] = [-1];
    const ids: number[] = [-1];
    const firsts = new Set<number>();
    for (const [content, id] of tokens) {
      if (!content) continue;
      let node = ROOT;
      for (let i = 0; i < content.length; i++) {
        const key = node * UNITS + content.charCodeAt(i);
        let child = this.edges.get(key);
        if (child === undefined) {
          child = parents.length;
          this.edges.set(key, child);
          parents.push(node);
          units.push(content.charCodeAt(i));
          ids.push(-1);
        }
        node = child;
      }
      ids[node] = id;
      firsts.add(content.charCodeAt(0));
    }
    this.lengths = [...new Set([...tokens.keys()].map((t) => t.length))].filter((n) => n > 0);
    this.longest = Math.max(0, ...this.lengths);
    const count = parents.length;
    this.depth = new Int32Array(count);
    for (let node = 1; node < count; node++) this.depth[node] = this.depth[parents[node]!]! + 1; // parents come first
    this.fail = new Int32Array(count);
    this.outLength = new Int32Array(count);
    this.outId = new Int32Array(count).fill(-1);
    for (const node of this.byDepth()) {
      const parent = parents[node]!;
      this.fail[node] = parent === ROOT ? ROOT : this.next(this.fail[parent]!, units[node]!);
      const own = ids[node]! >= 0;
      this.outLength[node] = own ? this.depth[node]! : this.outLength[this.fail[node]]!;
      this.outId[node] = own ? ids[node]! : this.outId[this.fail[node]]!;
    }
    const firstUnits = [...firsts].map((c) => `\\u${c.toString(16).padStart(4, '0')}`).join('');
    this.first = new RegExp(firstUnits ? `[${firstUnits}]` : '[^\\s\\S]', 'g');
  }

  get size(): number {
    return this.tokens.size;
  }

  /** The nodes but the root, shallowest first (a failure link always points to a shallower node). */
  private byDepth(): Int32Array {
    const count = this.depth.length;
    const starts = new Int32Array(this.longest + 2);
    for (let node = 1; node < count; node++) starts[this.depth[node]! + 1]!++;
    for (let d = 1; d < starts.length; d++) starts[d]! += starts[d - 1]!;
    const order = new Int32Array(count - 1);
    for (let node = 1; node < count; node++) order[starts[this.depth[node]!]!++] = node;
    return order;
  }

  /** The automaton's move from `node` on `unit`: the longest token prefix that the text read so far ends with. */
  private next(node: number, unit: number): number {
    for (;;) {
      const child = this.edges.get(node * UNITS + unit);
      if (child !== undefined) return child;
      if (node === ROOT) return ROOT;
      node = this.fail[node]!;
    }
  }

  /** The first token in text[from, end), the longest one where several start at the same place. */
  find(text: string, from: number, end = text.length): TokenMatch | undefined {
    const last = this.last;
    if (last && last.text === text && last.end === end && from >= last.from && from <= (last.match?.start ?? end)) return last.match;
    const match = this.search(text, from, end);
    this.last = { text, from, end, match };
    return match;
  }

  private search(text: string, from: number, end: number): TokenMatch | undefined {
    const { depth, outLength, first } = this;
    let best: TokenMatch | undefined;
    let node = ROOT;
    for (let i = from; i < end; i++) {
      if (node === ROOT) {
        // Nothing in progress: skip to the next unit a token starts with (test, not exec: no match array).
        first.lastIndex = i;
        if (!first.test(text)) break;
        i = first.lastIndex - 1;
        if (i >= end) break;
      }
      node = this.next(node, text.charCodeAt(i));
      // Every token that could still match begins at or after `begin`: past the best start, the best is final.
      if (best && i + 1 - depth[node]! > best.start) break;
      const length = outLength[node]!;
      if (length && (!best || i + 1 - length <= best.start)) best = { start: i + 1 - length, end: i + 1, id: this.outId[node]! };
    }
    return best;
  }

  /** Whether some token ends exactly at pos (a restart there begins a new segment). */
  endsAt(text: string, pos: number): boolean {
    return this.lengths.some((n) => n <= pos && this.tokens.has(text.slice(pos - n, pos)));
  }
}
