/**
 * The one parser of Oniguruma patterns (the syntax Hugging Face tokenizers compile Split and Replace patterns
 * with: ONIG_SYNTAX_ONIGURUMA, UTF-8, Unicode semantics) into a RegexNode, construct by construct. What it cannot
 * represent exactly it refuses with a PatternError naming the construct; both back ends then agree.
 *
 * Read: literals (astral included), \t \n \r \f \v \a \e \xHH \x{…} \uHHHH, escaped punctuation, `.` (anything but
 * \n), classes with ranges and negation, \s \S (Unicode White_Space, which JavaScript's \s is not), \d \D (Nd),
 * \h \H (hex digits), \p{…} \P{…} \p{^…} with Oniguruma's property and script names, groups, alternation,
 * greedy and lazy * + ? {n} {n,} {n,m} {,m} (and Oniguruma's X{n}? = (?:X{n})?, X{n,m}+ = (?:X{n,m})+),
 * lookahead, fixed-length lookbehind, and (?i:…) around alternatives of literal text, each letter expanded with
 * Unicode simple case folding (Oniguruma folds 'ſ' to 's').
 * Refused: anchors, \b \w \G \A \z, back-references, atomic groups and possessive quantifiers, nested classes
 * and && intersections, a quantifier on a quantifier or on a bare lookaround ((?=a)*, which Oniguruma refuses
 * too), a counted repeat (not * + ?) of something that can match empty text, variable-length lookbehind, and
 * case-insensitive text that a multi-character fold could match (Oniguruma matches (?i:ss) on 'ß').
 */
import { alternativesOf, fixedLength, nullable, type CharSet, type ClassItem, type RegexNode } from './ast';

export class PatternError extends Error {
  constructor(pattern: string, reason: string) {
    super(`Cannot use the pattern ${JSON.stringify(pattern.length > 200 ? pattern.slice(0, 200) + '…' : pattern)}: ${reason}.`);
    this.name = 'PatternError';
  }
}

/** Groups nested deeper than this are refused (the parser recurses once per group). */
const MAX_DEPTH = 64;
/** Oniguruma's own limit on a repeat count (ONIG_MAX_REPEAT_NUM). */
const MAX_REPEAT = 100_000;

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 9, n: 10, r: 13, f: 12, v: 11, a: 7, e: 0x1b };
const UNSUPPORTED_ESCAPES: Readonly<Record<string, string>> = {
  b: 'word boundaries (\\b)',
  B: 'word boundaries (\\B)',
  w: 'word characters (\\w)',
  W: 'word characters (\\W)',
  G: 'the \\G anchor',
  A: 'the \\A anchor',
  z: 'the \\z anchor',
  Z: 'the \\Z anchor',
  k: 'back-references',
  g: 'subexpression calls',
  K: '\\K',
  X: '\\X',
  R: '\\R',
  N: '\\N',
  O: '\\O',
  y: '\\y',
  Y: '\\Y',
};
const HEX_DIGITS: readonly ClassItem[] = [
  { lo: 0x30, hi: 0x39 },
  { lo: 0x41, hi: 0x46 },
  { lo: 0x61, hi: 0x66 },
];
const PROPERTY_ALIASES: Readonly<Record<string, string>> = {
  l: 'L',
  letter: 'L',
  n: 'N',
  number: 'N',
  p: 'P',
  punct: 'P',
  punctuation: 'P',
  s: 'S',
  symbol: 'S',
  m: 'M',
  mark: 'M',
  z: 'Z',
  separator: 'Z',
  c: 'C',
  other: 'C',
};

/** Characters related by simple case folding in ways toLowerCase/toUpperCase of an ASCII letter do not show. */
const FOLD_CANDIDATES = Array.from(
  '\u017f\u212a\u212b\u00b5\u0345\u03c2\u03d0\u03d1\u03d5\u03d6\u03f0\u03f1\u03f4\u03f5\u1e9b\u1e9e\u1fbe\u2126' +
    '\u1c80\u1c81\u1c82\u1c83\u1c84\u1c85\u1c86\u1c87\u1c88\u01c4\u01c5\u01c6\u01c7\u01c8\u01c9\u01ca\u01cb\u01cc\u01f1\u01f2\u01f3',
);

type Escaped = number | CharSet;

export function parseOnigRegex(pattern: string): RegexNode {
  const parser = new Parser(pattern);
  const node = parser.alternation(0, false);
  if (parser.i < pattern.length) parser.fail('an unbalanced ")"');
  return node;
}

class Parser {
  i = 0;
  constructor(private readonly src: string) {}

  fail(reason: string): never {
    throw new PatternError(this.src, reason);
  }

  alternation(depth: number, fold: boolean): RegexNode {
    const alts = [this.sequence(depth, fold)];
    while (this.src[this.i] === '|') {
      this.i++;
      alts.push(this.sequence(depth, fold));
    }
    return alts.length === 1 ? alts[0]! : { type: 'alt', alts };
  }

  private sequence(depth: number, fold: boolean): RegexNode {
    const items: RegexNode[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') items.push(this.quantified(depth, fold));
    return items.length === 1 ? items[0]! : { type: 'seq', items };
  }

  /** An atom and its quantifiers: one, or a {…} one and then * + ? (Oniguruma's X{n}+ is (?:X{n})+). */
  private quantified(depth: number, fold: boolean): RegexNode {
    // Oniguruma refuses (?=a)* but takes ((?=a))*.
    const bareLook = /^\(\?<?[=!]/.test(this.src.slice(this.i, this.i + 4));
    let node = this.atom(depth, fold);
    for (let count = 0, braced = false; ; count++) {
      const q = this.quantifier();
      if (!q) return node;
      if (fold) this.fail('quantifiers inside a case-insensitive group');
      if (bareLook) this.fail('a quantified lookaround');
      if (count > 1 || (count === 1 && (!braced || q.braced))) this.fail('a quantifier on a quantifier');
      // Oniguruma checks counted repeats for empty iterations or not by their compiled size (regcomp.c).
      if (q.max > 1 && !(q.max === Infinity && q.min <= 1) && nullable(node))
        this.fail('a counted repeat of something that can match empty text');
      braced = q.braced && q.greedy;
      node = { type: 'repeat', body: node, min: q.min, max: q.max, greedy: q.greedy };
    }
  }

  /** The quantifier at i, if one is there. */
  private quantifier(): { min: number; max: number; greedy: boolean; braced: boolean } | undefined {
    const c = this.src[this.i];
    const brace = c === '{' ? /^\{(\d*)(,?)(\d*)\}/.exec(this.src.slice(this.i, this.i + 20)) : null;
    if (brace && (brace[1] || (brace[2] && brace[3]))) return this.counted(brace);
    if (c !== '*' && c !== '+' && c !== '?') return undefined;
    this.i++;
    const lazy = this.src[this.i] === '?';
    if (lazy) this.i++;
    else if (this.src[this.i] === '+') this.fail('possessive quantifiers');
    return { min: c === '+' ? 1 : 0, max: c === '?' ? 1 : Infinity, greedy: !lazy, braced: false };
  }

  private counted(brace: RegExpExecArray): { min: number; max: number; greedy: boolean; braced: boolean } {
    this.i += brace[0].length;
    const min = Number(brace[1] || '0');
    const max = brace[2] ? (brace[3] ? Number(brace[3]) : Infinity) : min;
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) this.fail(`a repeat count above ${MAX_REPEAT}`);
    if (min > max) this.fail(`the repeat {${brace[1]},${brace[3]}}, whose minimum exceeds its maximum`);
    // X{n,m}? is lazy; X{n}? is (?:X{n})?, left to the next quantifier.
    const lazy = this.src[this.i] === '?' && min !== max;
    if (lazy) this.i++;
    return { min, max, greedy: !lazy, braced: true };
  }

  private atom(depth: number, fold: boolean): RegexNode {
    const cp = this.src.codePointAt(this.i)!;
    const c = String.fromCodePoint(cp);
    if (fold && (c === '(' || c === '[' || c === '.')) this.fail('anything but literal text inside a case-insensitive group');
    switch (c) {
      case '(':
        return this.group(depth);
      case '[':
        return { type: 'set', set: this.charClass() };
      case '\\': {
        const escaped = this.escape(false);
        if (typeof escaped === 'number') return { type: 'char', cp: escaped };
        if (fold) this.fail('anything but literal text inside a case-insensitive group');
        return { type: 'set', set: escaped };
      }
      case '.':
        this.i++;
        return { type: 'set', set: { negate: true, items: [{ lo: 10, hi: 10 }] } };
      case '^':
      case '$':
        return this.fail(`the line anchor "${c}"`);
      case '*':
      case '+':
      case '?':
        return this.fail(`a quantifier "${c}" with nothing before it`);
    }
    if (cp >= 0xd800 && cp <= 0xdfff) this.fail('a lone surrogate');
    this.i += c.length;
    return { type: 'char', cp };
  }

  private group(depth: number): RegexNode {
    if (depth >= MAX_DEPTH) this.fail(`groups nested more than ${MAX_DEPTH} deep`);
    const rest = this.src.slice(this.i, this.i + 4);
    let look: { behind: boolean; negate: boolean } | undefined;
    let fold = false;
    if (rest.startsWith('(?i:')) fold = true;
    else if (rest.startsWith('(?=') || rest.startsWith('(?!')) look = { behind: false, negate: rest[2] === '!' };
    else if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) look = { behind: true, negate: rest[3] === '!' };
    else if (rest.startsWith('(?>')) this.fail('atomic groups');
    else if (rest.startsWith('(?') && !rest.startsWith('(?:')) this.fail(`the group syntax "${rest}"`);
    // A capturing group: captures do not matter to a split.
    this.i += rest.startsWith('(?<') || fold ? 4 : rest.startsWith('(?') ? 3 : 1;
    const body = this.alternation(depth + 1, fold);
    if (this.src[this.i] !== ')') this.fail('an unclosed group');
    this.i++;
    if (fold) return this.folded(body);
    if (!look) return body;
    if (look.behind && alternativesOf(body).some((alt) => fixedLength(alt) === undefined)) this.fail('variable-length lookbehind');
    return { type: 'look', ...look, body };
  }

  /** (?i:…) of alternatives of literal text: each character becomes the class of those that fold to it. */
  private folded(body: RegexNode): RegexNode {
    const texts = alternativesOf(body).map((alt) =>
      (alt.type === 'seq' ? alt.items : [alt]).map((item) => (item.type === 'char' ? item.cp : -1)),
    );
    if (texts.some((text) => text.includes(-1))) this.fail('anything but literal text inside a case-insensitive group');
    const multi = multiCharFolds();
    for (const text of texts) {
      const folded = text.map((cp) => simpleFold(String.fromCodePoint(cp))).join('');
      const hit = multi.find((m) => folded.includes(m.folded) || text.includes(m.cp));
      if (hit) this.fail(`case-insensitive text that Oniguruma also matches as ${JSON.stringify(String.fromCodePoint(hit.cp))}`);
    }
    const foldedAlts = texts.map((text): RegexNode => {
      const items = text.map(foldNode);
      return items.length === 1 ? items[0]! : { type: 'seq', items };
    });
    return foldedAlts.length === 1 ? foldedAlts[0]! : { type: 'alt', alts: foldedAlts };
  }

  /** An escape at i (a backslash): a code point, or a set. inClass: as a class member. */
  private escape(inClass: boolean): Escaped {
    const next = this.src[this.i + 1];
    if (next === undefined) return this.fail('a trailing backslash');
    const braced = /^\\([pPx])\{(\^?)([^}]*)\}/.exec(this.src.slice(this.i, this.i + 100));
    if (braced) {
      this.i += braced[0].length;
      if (braced[1] === 'x') return this.codePoint(braced[2] + braced[3]!);
      const negate = (braced[1] === 'P') !== (braced[2] === '^');
      return { negate: false, items: [{ prop: this.propertyName(braced[3]!), negate }] };
    }
    this.i += 2;
    if (next in CONTROL_ESCAPES) return CONTROL_ESCAPES[next]!;
    if (next in UNSUPPORTED_ESCAPES) return this.fail(UNSUPPORTED_ESCAPES[next]!);
    const named = this.namedSet(next, inClass);
    if (named) return named;
    if (next === 'x' || next === 'u') return this.hexEscape(next);
    if (/[0-9]/.test(next)) return this.fail('back-references and octal escapes');
    if (/[A-Za-z]/.test(next)) return this.fail(`the escape \\${next}`);
    const cp = this.src.codePointAt(this.i - 1)!;
    if (cp >= 0xd800 && cp <= 0xdfff) this.fail('a lone surrogate');
    this.i += String.fromCodePoint(cp).length - 1;
    return cp;
  }

  private namedSet(letter: string, inClass: boolean): CharSet | undefined {
    const prop = (name: string, negate: boolean): CharSet => ({ negate: false, items: [{ prop: name, negate }] });
    switch (letter) {
      case 's':
        return prop('White_Space', false);
      case 'S':
        return prop('White_Space', true);
      case 'd':
        return prop('Nd', false);
      case 'D':
        return prop('Nd', true);
      case 'h':
        return { negate: false, items: HEX_DIGITS };
      case 'H':
        if (inClass) this.fail('\\H inside a class');
        return { negate: true, items: HEX_DIGITS };
    }
    return undefined;
  }

  private hexEscape(letter: string): number {
    const hex = (letter === 'x' ? /^[0-9A-Fa-f]{1,2}/ : /^[0-9A-Fa-f]{4}/).exec(this.src.slice(this.i, this.i + 4))?.[0];
    if (!hex) return this.fail(letter === 'x' ? 'an empty \\x escape' : 'a \\u escape without four hex digits');
    this.i += hex.length;
    return this.codePoint(hex);
  }

  private codePoint(hex: string): number {
    const cp = Number.parseInt(hex, 16);
    if (!/^[0-9A-Fa-f]{1,6}$/.test(hex) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return this.fail(`the code point \\x{${hex}}`);
    return cp;
  }

  /** Oniguruma accepts general categories, scripts and binary properties by their short or long names. */
  private propertyName(name: string): string {
    const bare = name.replace(/[\s_-]/g, '').toLowerCase();
    const candidates = [name, PROPERTY_ALIASES[bare], `Script=${name}`].filter((x): x is string => !!x);
    for (const candidate of candidates) {
      if (!/^[A-Za-z_=]+$/.test(candidate)) continue;
      try {
        new RegExp(`\\p{${candidate}}`, 'u');
        return candidate;
      } catch {
        // try the next spelling
      }
    }
    return this.fail(`the property \\p{${name}}`);
  }

  /** A bracketed class at i. */
  private charClass(): CharSet {
    this.i++;
    const negate = this.src[this.i] === '^';
    if (negate) this.i++;
    const items: ClassItem[] = [];
    for (let first = true; ; first = false) {
      if (this.i >= this.src.length) return this.fail('an unclosed character class');
      const c = this.src[this.i];
      if (c === ']' && !first) {
        this.i++;
        return { negate, items };
      }
      if (c === '[') this.fail('nested character classes ([…[…]…])');
      if (c === '&' && this.src[this.i + 1] === '&') this.fail('class intersections (&&)');
      const member = this.classMember();
      if (typeof member !== 'number') items.push(...member.items.map((item) => negated(item, member.negate)));
      else if (this.src[this.i] === '-' && this.i + 1 < this.src.length && this.src[this.i + 1] !== ']') {
        this.i++;
        const hi = this.classMember();
        if (typeof hi !== 'number') this.fail('a range that ends in a set');
        if (hi < member) this.fail('a range whose end comes before its start');
        items.push({ lo: member, hi });
      } else items.push({ lo: member, hi: member });
    }
  }

  private classMember(): Escaped {
    if (this.src[this.i] === '\\') return this.escape(true);
    const cp = this.src.codePointAt(this.i)!;
    if (cp >= 0xd800 && cp <= 0xdfff) this.fail('a lone surrogate');
    this.i += String.fromCodePoint(cp).length;
    return cp;
  }
}

/** A class member that is a negated set (only \H, refused inside classes, would need it). */
function negated(item: ClassItem, negate: boolean): ClassItem {
  return negate && 'prop' in item ? { prop: item.prop, negate: !item.negate } : item;
}

/** The character Unicode simple case folding maps c to, as far as JavaScript tells (ſ → s, K → k). */
function simpleFold(c: string): string {
  const up = c.toUpperCase();
  return [...up].length === 1 ? up.toLowerCase() : c.toLowerCase();
}

/** A literal under (?i:): the class of every character that folds as it does, or the character alone. */
function foldNode(cp: number): RegexNode {
  const c = String.fromCodePoint(cp);
  const same = new RegExp(`^[\\u{${cp.toString(16)}}]$`, 'iu');
  const candidates = new Set([c, c.toLowerCase(), c.toUpperCase(), ...FOLD_CANDIDATES]);
  const members = [...candidates].filter((x) => [...x].length === 1 && same.test(x)).map((x) => x.codePointAt(0)!);
  if (members.length === 1) return { type: 'char', cp };
  return { type: 'set', set: { negate: false, items: members.sort((a, b) => a - b).map((m) => ({ lo: m, hi: m })) } };
}

let multiCache: { cp: number; folded: string }[] | undefined;

/** Characters whose full case folding is more than one character (ß → ss, ﬁ → fi), found with the runtime's data. */
function multiCharFolds(): { cp: number; folded: string }[] {
  if (multiCache) return multiCache;
  multiCache = [];
  for (let cp = 0x80; cp < 0x10000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCharCode(cp);
    const folded = [c.toUpperCase().toLowerCase(), c.toLowerCase()].find((f) => [...f].length > 1);
    if (folded) multiCache.push({ cp, folded: [...folded].map(simpleFold).join('') });
  }
  return multiCache;
}
