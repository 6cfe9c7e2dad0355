/**
 * An Oniguruma pattern (parsed by regex/parse.ts, which refuses what it cannot read exactly) written as a
 * JavaScript RegExp source for the `u` flag. V8 backtracks, so only trusted patterns run this way: the built-in
 * GPT-2 pattern, and the tests that compare scanner.ts with a RegExp. A pattern from a file runs on the linear
 * matcher (regex/matcher.ts). A quantifier on something that can match empty text is refused here: JavaScript
 * fails an empty iteration where Oniguruma leaves the loop.
 */
import { alternativesOf, looksBehind, nullable, someNode, type CharSet, type ClassItem, type RegexNode } from '../engine/regex/ast';
import { parseOnigRegex, PatternError } from '../engine/regex/parse';

export { PatternError };

/** The JavaScript source (for flags 'gu') and whether it looks behind (then it must see only its own subject). */
export function translateOnigRegex(pattern: string): { source: string; lookbehind: boolean } {
  const node = parseOnigRegex(pattern);
  // JavaScript fails an iteration that matches empty; Oniguruma leaves the loop after it.
  if (someNode(node, (n) => n.type === 'repeat' && nullable(n.body)))
    throw new PatternError(pattern, "a quantifier on something that can match empty text, which JavaScript's RegExp repeats differently");
  return { source: sourceOf(node), lookbehind: looksBehind(node) };
}

function sourceOf(node: RegexNode): string {
  switch (node.type) {
    case 'char':
      return escapeCp(node.cp);
    case 'set':
      return setSource(node.set);
    case 'seq':
      return node.items.map((item) => (item.type === 'alt' ? `(?:${sourceOf(item)})` : sourceOf(item))).join('');
    case 'alt':
      return alternativesOf(node).map(sourceOf).join('|');
    case 'look':
      return `(?${node.behind ? '<' : ''}${node.negate ? '!' : '='}${sourceOf(node.body)})`;
    case 'repeat': {
      const body = node.body.type === 'char' || node.body.type === 'set' ? sourceOf(node.body) : `(?:${sourceOf(node.body)})`;
      return body + quantifierOf(node.min, node.max) + (node.greedy ? '' : '?');
    }
  }
}

function quantifierOf(min: number, max: number): string {
  if (max === Infinity) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  if (min === 0 && max === 1) return '?';
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

/** A code point as it reads in the source (letters, digits and space), or as \u{…}. */
function escapeCp(cp: number): string {
  return /^[A-Za-z0-9 ]$/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : `\\u{${cp.toString(16)}}`;
}

function setSource(set: CharSet): string {
  const only = set.items[0];
  if (!set.negate && set.items.length === 1 && only && 'prop' in only) return itemSource(only);
  return `[${set.negate ? '^' : ''}${set.items.map(itemSource).join('')}]`;
}

function itemSource(item: ClassItem): string {
  if ('prop' in item) return `\\${item.negate ? 'P' : 'p'}{${item.prop}}`;
  return item.lo === item.hi ? escapeCp(item.lo) : `${escapeCp(item.lo)}-${escapeCp(item.hi)}`;
}
