/**
 * The parsed form of an Oniguruma pattern (parse.ts), which both back ends read: onigRegex.ts writes it as a
 * JavaScript RegExp source (for the trusted built-in pattern), compile.ts as the linear matcher's program.
 * Captures do not matter to a split, so groups leave no node; every quantifier is a `repeat`.
 */
export type RegexNode =
  | { readonly type: 'char'; readonly cp: number }
  | { readonly type: 'set'; readonly set: CharSet }
  | { readonly type: 'seq'; readonly items: readonly RegexNode[] }
  | { readonly type: 'alt'; readonly alts: readonly RegexNode[] }
  | { readonly type: 'repeat'; readonly body: RegexNode; readonly min: number; readonly max: number; readonly greedy: boolean }
  | { readonly type: 'look'; readonly behind: boolean; readonly negate: boolean; readonly body: RegexNode };

/** One code point in [lo, hi], or with (or, negate, without) a Unicode property by its JavaScript name. */
export type ClassItem = { readonly lo: number; readonly hi: number } | { readonly prop: string; readonly negate: boolean };

/** A class of code points: any of the items, or (negate) none of them. */
export interface CharSet {
  readonly negate: boolean;
  readonly items: readonly ClassItem[];
}

/** Whether the node can match the empty string. */
export function nullable(node: RegexNode): boolean {
  switch (node.type) {
    case 'char':
    case 'set':
      return false;
    case 'seq':
      return node.items.every(nullable);
    case 'alt':
      return node.alts.some(nullable);
    case 'repeat':
      return node.min === 0 || nullable(node.body);
    case 'look':
      return true;
  }
}

/** How many code points the node always matches, or undefined when that varies. */
export function fixedLength(node: RegexNode): number | undefined {
  switch (node.type) {
    case 'char':
    case 'set':
      return 1;
    case 'look':
      return 0;
    case 'seq': {
      let total = 0;
      for (const item of node.items) {
        const n = fixedLength(item);
        if (n === undefined) return undefined;
        total += n;
      }
      return total;
    }
    case 'alt': {
      const lengths = new Set(node.alts.map(fixedLength));
      return lengths.size === 1 ? [...lengths][0] : undefined;
    }
    case 'repeat': {
      const n = fixedLength(node.body);
      return n !== undefined && node.min === node.max ? n * node.min : n === 0 ? 0 : undefined;
    }
  }
}

/** The alternatives of a node (itself when it is no alternation). */
export const alternativesOf = (node: RegexNode): readonly RegexNode[] => (node.type === 'alt' ? node.alts : [node]);

/** Whether the node or any node inside it passes the test. */
export function someNode(node: RegexNode, test: (node: RegexNode) => boolean): boolean {
  if (test(node)) return true;
  switch (node.type) {
    case 'seq':
      return node.items.some((item) => someNode(item, test));
    case 'alt':
      return node.alts.some((alt) => someNode(alt, test));
    case 'repeat':
    case 'look':
      return someNode(node.body, test);
    default:
      return false;
  }
}

/** Whether the node holds a lookbehind (then a split must run it on its piece alone, as tokenizers does). */
export const looksBehind = (node: RegexNode): boolean => someNode(node, (n) => n.type === 'look' && n.behind);
