/**
 * Hugging Face tokenizers compile a Split pattern with Oniguruma (Ruby syntax, UTF-8, Unicode
 * semantics); this translates one into a JavaScript RegExp source for the `u` flag, construct by
 * construct, and refuses what it cannot translate exactly, naming it.
 *
 * Translated: \s \S (Unicode White_Space, which JavaScript's \s is not: it adds U+FEFF, lacks U+0085),
 * \d \D (Nd), \h (hex digit), \p{…} \P{…} \p{^…} with Oniguruma's property and script names,
 * \x{…}, `.` (anything but \n), {,n}, Oniguruma's non-possessive X{n}+, and (?i:…) groups of
 * literals, expanded with Unicode simple case folding (Oniguruma folds 'ſ' to 's'; a JS engine
 * asked for ASCII folding would not). Refused: anchors, \b \w \G \A \z, back-references, atomic
 * groups and possessive quantifiers, nested classes and && intersections, case-insensitive classes.
 */

const WHITE_SPACE = '\\p{White_Space}';
const NOT_WHITE_SPACE = '\\P{White_Space}';
const SYNTAX = new Set('^$\\.*+?()[]{}|/');
const CONTROL_ESCAPES: Readonly<Record<string, string>> = { t: '\\t', n: '\\n', r: '\\r', f: '\\f', v: '\\v', a: '\\x07', e: '\\x1b' };
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

/** Characters related by simple case folding in ways toLowerCase/toUpperCase of an ASCII letter do not show. */
const FOLD_CANDIDATES = [
  '\u017f',
  '\u212a',
  '\u212b',
  '\u00b5',
  '\u0345',
  '\u03c2',
  '\u03d0',
  '\u03d1',
  '\u03d5',
  '\u03d6',
  '\u03f0',
  '\u03f1',
  '\u03f4',
  '\u03f5',
  '\u1e9b',
  '\u1e9e',
  '\u1fbe',
  '\u2126',
  '\u1c80',
  '\u1c81',
  '\u1c82',
  '\u1c83',
  '\u1c84',
  '\u1c85',
  '\u1c86',
  '\u1c87',
  '\u1c88',
  '\u01c4',
  '\u01c5',
  '\u01c6',
  '\u01c7',
  '\u01c8',
  '\u01c9',
  '\u01ca',
  '\u01cb',
  '\u01cc',
  '\u01f1',
  '\u01f2',
  '\u01f3',
];

export class PatternError extends Error {
  constructor(pattern: string, reason: string) {
    super(
      `Cannot translate the pre-tokenizer pattern ${JSON.stringify(pattern.length > 200 ? pattern.slice(0, 200) + '…' : pattern)}: ${reason}.`,
    );
    this.name = 'PatternError';
  }
}

interface State {
  readonly src: string;
  i: number;
  out: string;
  /** Depth of (?i: groups open, and the group stack (true for a case-insensitive group). */
  fold: number;
  groups: boolean[];
  /** Where the last atom began in `out`, for X{n}+ rewriting; -1 when no atom precedes. */
  atom: number;
  lookbehind: boolean;
}

/** The JavaScript source (for flags 'gu') and whether it looks behind (then it must see only its own subject). */
export function translateOnigRegex(pattern: string): { source: string; lookbehind: boolean } {
  const st: State = { src: pattern, i: 0, out: '', fold: 0, groups: [], atom: -1, lookbehind: false };
  const fail = (reason: string): never => {
    throw new PatternError(pattern, reason);
  };
  while (st.i < pattern.length) step(st, fail);
  if (st.groups.length) fail('an unclosed group');
  try {
    new RegExp(st.out, 'gu');
  } catch (e) {
    fail(`JavaScript rejects the translation (${(e as Error).message})`);
  }
  return { source: st.out, lookbehind: st.lookbehind };
}

function step(st: State, fail: (reason: string) => never): void {
  const c = String.fromCodePoint(st.src.codePointAt(st.i)!);
  switch (c) {
    case '\\':
      return atom(st, escape(st, fail, false));
    case '[':
      return atom(st, charClass(st, fail));
    case '(':
      return openGroup(st, fail);
    case ')':
      if (!st.groups.length) fail('an unbalanced ")"');
      if (st.groups.pop()) st.fold--;
      st.out += ')';
      st.i++;
      st.atom = -1; // a quantified group needs no rewriting: only X{n}+ does, and groups are never X here
      return;
    case '|':
      st.out += '|';
      st.i++;
      st.atom = -1;
      return;
    case '^':
    case '$':
      return fail(`the line anchor "${c}"`);
    case '.':
      st.i++;
      return atom(st, '[^\\n]', true);
    case '*':
    case '+':
    case '?':
      return quantifier(st, fail);
    case '{':
      return brace(st, fail);
    default:
      st.i += c.length;
      return atom(st, literal(st, c), true);
  }
}

function atom(st: State, text: string, consumed = true): void {
  if (!consumed) return;
  st.atom = st.out.length;
  st.out += text;
}

function literal(st: State, c: string): string {
  if (st.fold > 0) return foldClass(c);
  if (SYNTAX.has(c)) return `\\${c}`;
  return c;
}

/** All characters that Unicode simple case folding makes equal to c, as a class (or c itself). */
function foldClass(c: string): string {
  const candidates = new Set([c, c.toLowerCase(), c.toUpperCase(), ...FOLD_CANDIDATES]);
  const same = new RegExp(`^${SYNTAX.has(c) ? '\\' + c : c}$`, 'iu');
  const members = [...candidates].filter((x) => [...x].length === 1 && same.test(x));
  if (members.length === 1) return SYNTAX.has(c) ? `\\${c}` : c;
  return `[${members.map((x) => (SYNTAX.has(x) || x === '-' ? '\\' + x : x)).join('')}]`;
}

function openGroup(st: State, fail: (reason: string) => never): void {
  const rest = st.src.slice(st.i, st.i + 4);
  let open = '(?:';
  let fold = false;
  if (rest.startsWith('(?i:')) {
    fold = true;
    st.i += 4;
  } else if (rest.startsWith('(?:')) st.i += 3;
  else if (rest.startsWith('(?=') || rest.startsWith('(?!')) {
    open = rest.slice(0, 3);
    st.i += 3;
  } else if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) {
    open = rest;
    st.i += 4;
    st.lookbehind = true;
  } else if (rest.startsWith('(?>')) fail('atomic groups');
  else if (rest.startsWith('(?')) fail(`the group syntax "${rest}"`);
  else st.i += 1; // a capturing group: captures do not matter to a split
  if (fold) st.fold++;
  st.groups.push(fold);
  st.out += open;
  st.atom = -1;
}

function quantifier(st: State, fail: (reason: string) => never): void {
  st.out += st.src[st.i];
  st.i++;
  const next = st.src[st.i];
  if (next === '+') fail('possessive quantifiers');
  if (next === '?') {
    st.out += '?';
    st.i++;
  }
  st.atom = -1;
}

/** {n} {n,} {n,m} {,m}; a brace that is no quantifier is a literal, as in Oniguruma. X{n}+ is (?:X{n})+ there. */
function brace(st: State, fail: (reason: string) => never): void {
  const m = /^\{(\d*)(,?)(\d*)\}/.exec(st.src.slice(st.i));
  if (!m || (!m[1] && !m[3]) || st.atom < 0) {
    st.i++;
    return atom(st, '\\{');
  }
  const body = `{${m[1] || '0'}${m[2]}${m[3]}}`;
  st.i += m[0].length;
  const after = st.src[st.i];
  if (after === '+' || after === '*') {
    st.out = `${st.out.slice(0, st.atom)}(?:${st.out.slice(st.atom)}${body})${after}`;
    st.i++;
  } else {
    st.out += body;
    if (after === '?') {
      st.out += '?';
      st.i++;
    }
  }
  if (st.src[st.i] === '+') fail('possessive quantifiers');
  st.atom = -1;
}

/** An escape at st.i (a backslash); inClass: as a class member (a set must not be bracketed). */
function escape(st: State, fail: (reason: string) => never, inClass: boolean): string {
  const next = st.src[st.i + 1];
  if (next === undefined) return fail('a trailing backslash');
  const braced = /^\\([pPx])\{(\^?)([^}]*)\}/.exec(st.src.slice(st.i));
  if (braced) {
    st.i += braced[0].length;
    if (braced[1] === 'x') return codePoint(braced[3]!, fail);
    const negate = (braced[1] === 'P') !== (braced[2] === '^');
    return `\\${negate ? 'P' : 'p'}{${propertyName(braced[3]!, fail)}}`;
  }
  st.i += 2;
  if (next in CONTROL_ESCAPES) return CONTROL_ESCAPES[next]!;
  if (next in UNSUPPORTED_ESCAPES) return fail(UNSUPPORTED_ESCAPES[next]!);
  switch (next) {
    case 's':
      return WHITE_SPACE;
    case 'S':
      return NOT_WHITE_SPACE;
    case 'd':
      return '\\p{Nd}';
    case 'D':
      return '\\P{Nd}';
    case 'h':
      return inClass ? '0-9A-Fa-f' : '[0-9A-Fa-f]';
    case 'H':
      if (inClass) return fail('\\H inside a class');
      return '[^0-9A-Fa-f]';
    case 'x': {
      const hex = /^[0-9A-Fa-f]{1,2}/.exec(st.src.slice(st.i))?.[0];
      if (!hex) return fail('an empty \\x escape');
      st.i += hex.length;
      return codePoint(hex, fail);
    }
    case 'u': {
      const hex = /^[0-9A-Fa-f]{4}/.exec(st.src.slice(st.i))?.[0];
      if (!hex) return fail('a \\u escape without four hex digits');
      st.i += 4;
      return codePoint(hex, fail);
    }
  }
  if (/[0-9]/.test(next)) return fail('back-references and octal escapes');
  if (/[A-Za-z]/.test(next)) return fail(`the escape \\${next}`);
  const c = String.fromCodePoint(st.src.codePointAt(st.i - 1)!);
  st.i += c.length - 1;
  if (!inClass && st.fold > 0) return foldClass(c);
  return SYNTAX.has(c) || (inClass && c === '-') ? `\\${c}` : c;
}

function codePoint(hex: string, fail: (reason: string) => never): string {
  const cp = Number.parseInt(hex, 16);
  if (!/^[0-9A-Fa-f]{1,6}$/.test(hex) || cp > 0x10ffff) return fail(`the code point \\x{${hex}}`);
  return `\\u{${cp.toString(16)}}`;
}

/** Oniguruma accepts general categories, scripts and binary properties by their short or long names. */
function propertyName(name: string, fail: (reason: string) => never): string {
  const bare = name.replace(/[\s_-]/g, '').toLowerCase();
  const aliases: Record<string, string> = {
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
  const candidates = [name, aliases[bare], `Script=${name}`].filter((x): x is string => !!x);
  for (const candidate of candidates) {
    if (!/^[A-Za-z_=]+$/.test(candidate)) continue;
    try {
      new RegExp(`\\p{${candidate}}`, 'u');
      return candidate;
    } catch {
      // try the next spelling
    }
  }
  return fail(`the property \\p{${name}}`);
}

/** A bracketed class at st.i, translated member by member. */
function charClass(st: State, fail: (reason: string) => never): string {
  if (st.fold > 0) fail('character classes inside a case-insensitive group');
  let out = '[';
  st.i++;
  if (st.src[st.i] === '^') {
    out += '^';
    st.i++;
  }
  let first = true;
  for (;;) {
    if (st.i >= st.src.length) return fail('an unclosed character class');
    const c = String.fromCodePoint(st.src.codePointAt(st.i)!);
    if (c === ']' && !first) {
      st.i++;
      return out + ']';
    }
    first = false;
    if (c === '[') return fail('nested character classes ([…[…]…])');
    if (c === '&' && st.src[st.i + 1] === '&') return fail('class intersections (&&)');
    if (c === '\\') {
      out += escape(st, fail, true);
      continue;
    }
    st.i += c.length;
    out += c === ']' || c === '\\' || c === '/' ? `\\${c}` : c;
  }
}
