/**
 * Finds tokens that are matched whole before pre-tokenization (tiktoken's special tokens, Hugging
 * Face's added tokens): leftmost, and the longest at that place, as Hugging Face's Aho-Corasick
 * search does. A trie, so that Gemma's 6,000 added tokens cost no more than two.
 */
interface Node {
  next: Map<number, Node>;
  id: number;
}

export interface TokenMatch {
  start: number;
  end: number;
  id: number;
}

export class TokenMatcher {
  private readonly root: Node = { next: new Map(), id: -1 };
  private readonly first: RegExp;
  /** The distinct lengths of the tokens, for endsAt. */
  private readonly lengths: number[];
  readonly longest: number;

  constructor(private readonly tokens: ReadonlyMap<string, number>) {
    const firsts = new Set<number>();
    for (const [content, id] of tokens) {
      if (!content) continue;
      let node = this.root;
      for (let i = 0; i < content.length; i++) {
        const c = content.charCodeAt(i);
        let child = node.next.get(c);
        if (!child) node.next.set(c, (child = { next: new Map(), id: -1 }));
        node = child;
      }
      node.id = id;
      firsts.add(content.charCodeAt(0));
    }
    const units = [...firsts].map((c) => `\\u${c.toString(16).padStart(4, '0')}`).join('');
    this.first = new RegExp(units ? `[${units}]` : '[^\\s\\S]', 'g');
    this.lengths = [...new Set([...tokens.keys()].map((t) => t.length))].filter((n) => n > 0);
    this.longest = Math.max(0, ...this.lengths);
  }

  get size(): number {
    return this.tokens.size;
  }

  /** The first token in text[from, end), the longest one where several start at the same place. */
  find(text: string, from: number, end = text.length): TokenMatch | undefined {
    const first = this.first;
    first.lastIndex = from;
    // test, not exec: no match array; the class matches one unit, so the match starts just before lastIndex.
    while (first.test(text)) {
      const start = first.lastIndex - 1;
      if (start >= end) break;
      let node: Node | undefined = this.root;
      let found: TokenMatch | undefined;
      for (let i = start; i < end; i++) {
        node = node.next.get(text.charCodeAt(i));
        if (!node) break;
        if (node.id >= 0) found = { start, end: i + 1, id: node.id };
      }
      if (found) return found;
    }
    return undefined;
  }

  /** Whether some token ends exactly at pos (a restart there begins a new segment). */
  endsAt(text: string, pos: number): boolean {
    return this.lengths.some((n) => n <= pos && this.tokens.has(text.slice(pos - n, pos)));
  }
}
