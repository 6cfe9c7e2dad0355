/**
 * Hand-written scanners for the two pre-tokenizer patterns nearly every byte-level BPE model uses:
 * cl100k's (GPT-4, Llama 3, Qwen 2.5/3, Phi-4) and o200k's (GPT-4o, gpt-oss, Mistral's Tekken). Each
 * returns exactly the matches the pattern's RegExp returns, one linear pass with a table lookup per
 * character instead of a backtracking regex; scanner.test.ts compares them with the RegExp on
 * corpora, random and hostile text. A pattern not listed here keeps its RegExp.
 *
 * Matching is the regex's: the first alternative that matches at a place wins, quantifiers take as
 * much as they can and give back only what a later part needs. Classes are the runtime's own Unicode
 * data (the same \p{…} the RegExp uses), each character's looked up once and kept in a table.
 */

/** Calls visit(start, end) for each match in text[start, end), seen as ending at `end`, until visit returns false. */
export interface PieceScanner {
  scan(text: string, start: number, end: number, visit: (start: number, end: number) => boolean): boolean;
}

// One bit per class; a code point has exactly one.
const OTHER = 1;
const UPPER = 2; // Lu, Lt
const LOWER = 4; // Ll
const LETTER = 8; // Lm, Lo
const MARK = 16; // M
const DIGIT = 32; // N
const SPACE = 64; // White_Space but \r and \n
const NEWLINE = 128; // \r, \n

const L = UPPER | LOWER | LETTER;
/** [^\r\n\p{L}\p{N}] */
const PREFIX = OTHER | MARK | SPACE;
/** [^\s\p{L}\p{N}] */
const PUNCT = OTHER | MARK;
/** o200k's [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] and [\p{Ll}\p{Lm}\p{Lo}\p{M}] */
const CASED_UPPER = UPPER | LETTER | MARK;
const CASED_LOWER = LOWER | LETTER | MARK;

/** Each UTF-16 unit's class, filled in as units are met (0: not yet); a surrogate on its own is OTHER. */
const bmp = new Uint8Array(0x10000);
const CLASS_OF = /(\p{Lu}|\p{Lt})|(\p{Ll})|(\p{Lm}|\p{Lo})|(\p{M})|(\p{N})|([\r\n])|(\p{White_Space})/u;
const CLASS_BITS = [OTHER, UPPER, LOWER, LETTER, MARK, DIGIT, NEWLINE, SPACE];

function classify(codePoint: number): number {
  const m = CLASS_OF.exec(String.fromCodePoint(codePoint));
  return m ? CLASS_BITS[m.findIndex((g, k) => k > 0 && g !== undefined)]! : OTHER;
}

function unitClass(c: number): number {
  return bmp[c] || (bmp[c] = classify(c));
}

const astralCache = new Map<number, number>();
const ASTRAL_CACHE_LIMIT = 4096;

function astralClass(cp: number): number {
  let bit = astralCache.get(cp);
  if (bit !== undefined) return bit;
  bit = classify(cp);
  if (astralCache.size < ASTRAL_CACHE_LIMIT) astralCache.set(cp, bit);
  return bit;
}

/** The class bit of the code point at i (text seen as ending at end), and its UTF-16 width times 256. */
function classAt(text: string, i: number, end: number): number {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= end) return unitClass(c) | 256;
  const d = text.charCodeAt(i + 1);
  if (d < 0xdc00 || d > 0xdfff) return OTHER | 256;
  return astralClass(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000) | 512;
}

/** The end of the run from i of code points whose class is in `mask`. */
function runEnd(text: string, i: number, end: number, mask: number): number {
  while (i < end) {
    const v = classAt(text, i, end);
    if ((v & mask) === 0) break;
    i += v >> 8;
  }
  return i;
}

/** The length of a contraction ('s 't 're 've 'm 'll 'd, any case; 'ſ too where the pattern folds case as Unicode does) at i, or 0. */
function contraction(text: string, i: number, end: number, longS: boolean): number {
  if (i + 1 >= end || text.charCodeAt(i) !== 0x27) return 0;
  const a = text.charCodeAt(i + 1) | 0x20;
  if (a === 0x73 || a === 0x74 || a === 0x6d || a === 0x64) return 2; // s t m d
  if (longS && text.charCodeAt(i + 1) === 0x17f) return 2;
  if (i + 2 >= end) return 0;
  const b = text.charCodeAt(i + 2) | 0x20;
  if ((a === 0x72 || a === 0x76) && b === 0x65) return 3; // re ve
  return a === 0x6c && b === 0x6c ? 3 : 0; // ll
}

/** \p{N}{1,max} at i (a digit is there). */
function digitsEnd(text: string, i: number, end: number, max: number): number {
  for (let n = 0; n < max && i < end; n++) {
    const v = classAt(text, i, end);
    if ((v & DIGIT) === 0) break;
    i += v >> 8;
  }
  return i;
}

/** ` ?[^\s\p{L}\p{N}]+[\r\n]*` (o200k, slash: `[\r\n/]*`) at i, or -1. */
function punctuationEnd(text: string, i: number, end: number, bit: number, slash: boolean): number {
  let p = i;
  if (text.charCodeAt(i) === 0x20 && i + 1 < end && (classAt(text, i + 1, end) & PUNCT) !== 0) p = i + 1;
  else if ((bit & PUNCT) === 0) return -1;
  let j = runEnd(text, p, end, PUNCT);
  for (; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c !== 10 && c !== 13 && !(slash && c === 0x2f)) break;
  }
  return j;
}

/** `\s*[\r\n]+|\s+(?!\S)|\s+` at i (a white-space character is there; all are one UTF-16 unit). */
function whiteSpaceEnd(text: string, i: number, end: number): number {
  let j = i;
  let lastNewline = -1;
  for (; j < end; j++) {
    const bit = unitClass(text.charCodeAt(j));
    if (bit === NEWLINE) lastNewline = j;
    else if (bit !== SPACE) break;
  }
  if (lastNewline >= 0) return lastNewline + 1;
  return j === end || j - i === 1 ? j : j - 1;
}

interface Options {
  /** \p{N}{1,3} or \p{N} */
  digits: number;
  /** o200k: whether the words end in optional contractions (Tekken's do not). */
  contractions: boolean;
  /** The contractions are written (?i:…), which Rust's regex folds as Unicode does: 'ſ is 's. */
  longS: boolean;
}

/** `'s|…|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+` */
function cl100kEnd(o: Options, text: string, i: number, end: number): number {
  const n = contraction(text, i, end, o.longS);
  if (n) return i + n;
  const v = classAt(text, i, end);
  const bit = v & 255;
  if (bit & L) return runEnd(text, i + (v >> 8), end, L);
  if (bit & PREFIX) {
    const p = i + (v >> 8);
    if (p < end && (classAt(text, p, end) & L) !== 0) return runEnd(text, p, end, L);
  }
  if (bit & DIGIT) return digitsEnd(text, i, end, o.digits);
  const e = punctuationEnd(text, i, end, bit, false);
  return e >= 0 ? e : whiteSpaceEnd(text, i, end);
}

/** o200k's `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+` at p, or -1. */
function upperThenLowerEnd(text: string, p: number, end: number): number {
  let q = p;
  let lastBothEnd = -1; // the end of the last code point in both classes: where the second part can take over
  while (q < end) {
    const v = classAt(text, q, end);
    if ((v & CASED_UPPER) === 0) break;
    q += v >> 8;
    if ((v & (LETTER | MARK)) !== 0) lastBothEnd = q;
  }
  if (q < end && (classAt(text, q, end) & LOWER) !== 0) return runEnd(text, q, end, CASED_LOWER);
  return lastBothEnd;
}

/** o200k's `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*` at p, or -1. */
function upperRunEnd(text: string, p: number, end: number): number {
  const q = runEnd(text, p, end, CASED_UPPER);
  return q === p ? -1 : runEnd(text, q, end, CASED_LOWER);
}

/** The two word alternatives of o200k, each with its optional prefix tried first, then the contraction. */
function o200kWordEnd(o: Options, text: string, i: number, end: number, v: number): number {
  const prefixed = (v & PREFIX) !== 0 ? i + (v >> 8) : -1;
  let e = prefixed >= 0 ? upperThenLowerEnd(text, prefixed, end) : -1;
  if (e < 0) e = upperThenLowerEnd(text, i, end);
  if (e < 0 && prefixed >= 0) e = upperRunEnd(text, prefixed, end);
  if (e < 0) e = upperRunEnd(text, i, end);
  return e >= 0 && o.contractions ? e + contraction(text, e, end, o.longS) : e;
}

/** `<word>|<word>|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+` */
function o200kEnd(o: Options, text: string, i: number, end: number): number {
  const v = classAt(text, i, end);
  const bit = v & 255;
  if (bit & (CASED_UPPER | CASED_LOWER | PREFIX)) {
    const e = o200kWordEnd(o, text, i, end, v);
    if (e >= 0) return e;
  }
  if (bit & DIGIT) return digitsEnd(text, i, end, o.digits);
  const e = punctuationEnd(text, i, end, bit, true);
  return e >= 0 ? e : whiteSpaceEnd(text, i, end);
}

function scanner(matchEnd: (text: string, i: number, end: number) => number): PieceScanner {
  return {
    scan(text, start, end, visit) {
      for (let i = start; i < end;) {
        const e = matchEnd(text, i, end);
        if (!visit(i, e)) return false;
        i = e;
      }
      return true;
    },
  };
}

const TIKTOKEN_CONTRACTIONS = "('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)";
const FOLDED_CONTRACTIONS = "(?i:'s|'t|'re|'ve|'m|'ll|'d)";
const WORD_UPPER = '[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]';
const WORD_LOWER = '[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]';
const SPACES = '|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+';

/** The pattern's source, as js-tiktoken's rank files and tokenizer.json files write it. */
export function cl100kPattern(contractions: string, digits: string): string {
  return `${contractions}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}${digits}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*${SPACES}`;
}

export function o200kPattern(contractions: string, digits: string): string {
  const c = contractions ? `${contractions}?` : '';
  const prefix = '[^\\r\\n\\p{L}\\p{N}]?';
  return `${prefix}${WORD_UPPER}*${WORD_LOWER}+${c}|${prefix}${WORD_UPPER}+${WORD_LOWER}*${c}|\\p{N}${digits}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*${SPACES}`;
}

interface ScannedPattern {
  pattern: string;
  kind: 'cl100k' | 'o200k';
  options: Options;
}

/** Every pattern with a scanner, as written in the files, with the options it means. */
export const SCANNED_PATTERNS: readonly ScannedPattern[] = (() => {
  const out: ScannedPattern[] = [];
  for (const [digits, n] of [
    ['{1,3}', 3],
    ['', 1],
  ] as const) {
    for (const [contractions, longS] of [
      [TIKTOKEN_CONTRACTIONS, false],
      [FOLDED_CONTRACTIONS, true],
    ] as const) {
      const options = { digits: n, contractions: true, longS };
      out.push({ pattern: cl100kPattern(contractions, digits), kind: 'cl100k', options });
      out.push({ pattern: o200kPattern(contractions, digits), kind: 'o200k', options });
    }
    out.push({ pattern: o200kPattern('', digits), kind: 'o200k', options: { digits: n, contractions: false, longS: false } });
  }
  return out;
})();

const scanners = new Map<string, PieceScanner>();

/** The scanner for a pre-tokenizer pattern as written in a rank file or tokenizer.json, if it has one. */
export function scannerFor(pattern: string): PieceScanner | undefined {
  let found = scanners.get(pattern);
  if (found) return found;
  const entry = SCANNED_PATTERNS.find((p) => p.pattern === pattern);
  if (!entry) return undefined;
  const o = entry.options;
  found =
    entry.kind === 'cl100k' ? scanner((text, i, end) => cl100kEnd(o, text, i, end)) : scanner((text, i, end) => o200kEnd(o, text, i, end));
  scanners.set(pattern, found);
  return found;
}
