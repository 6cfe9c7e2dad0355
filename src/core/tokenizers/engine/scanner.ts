/**
 * Hand-written scanners for the pre-tokenizer patterns nearly every byte-level BPE model uses: cl100k's
 * (GPT-4, Llama 3, Qwen 2.5/3, Phi-4), o200k's (GPT-4o, gpt-oss, Mistral's Tekken) and DeepSeek V3's three
 * splits. Each
 * returns exactly the matches the pattern's RegExp returns, one linear pass with a table lookup per
 * character instead of a backtracking regex; scanner.test.ts compares them with the RegExp on
 * corpora, random and hostile text. A pattern listed here runs as a V8 RegExp where a split cannot use its
 * scanner (isScannedPattern); any other pattern from a file runs on the linear matcher (regex/).
 *
 * Matching is the regex's: the first alternative that matches at a place wins, quantifiers take as
 * much as they can and give back only what a later part needs. Classes are the runtime's own Unicode
 * data (the same \p{…} the RegExp uses), each character's looked up once and kept in a table.
 */

/** The end of the match at i in text seen as ending at `end` (i < end; the patterns match every character). */
export type PieceScanner = (text: string, i: number, end: number) => number;

// One bit per class; a code point has exactly one.
const SYMBOL = 1; // P, S
const UPPER = 2; // Lu, Lt
const LOWER = 4; // Ll
const LETTER = 8; // Lm, Lo
const MARK = 16; // M
const DIGIT = 32; // N
const SPACE = 64; // White_Space but \r and \n
const NEWLINE = 128; // \r, \n
const CONTROL = 256; // C (surrogates on their own too)
const CLASS_MASK = 0xfff;
const WIDTH_SHIFT = 12;
const ONE_UNIT = 1 << WIDTH_SHIFT;
const TWO_UNITS = 2 << WIDTH_SHIFT;

const L = UPPER | LOWER | LETTER;
/** [^\r\n\p{L}\p{N}] */
const PREFIX = SYMBOL | CONTROL | MARK | SPACE;
/** [^\s\p{L}\p{N}] */
const PUNCT = SYMBOL | CONTROL | MARK;
/** o200k's [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] and [\p{Ll}\p{Lm}\p{Lo}\p{M}] */
const CASED_UPPER = UPPER | LETTER | MARK;
const CASED_LOWER = LOWER | LETTER | MARK;

/**
 * Each UTF-16 unit's class, filled in as units are met (0: not yet); a surrogate on its own is CONTROL. ASCII is
 * filled at once, so that ASCII text never compiles CLASS_OF (its \p{…} tables take milliseconds to build).
 */
const bmp = new Uint16Array(0x10000);
for (let c = 0; c < 0x80; c++) {
  const letter = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
  bmp[c] = letter
    ? c < 0x60
      ? UPPER
      : LOWER
    : c >= 0x30 && c <= 0x39
      ? DIGIT
      : c === 10 || c === 13
        ? NEWLINE
        : (c >= 9 && c <= 12) || c === 0x20
          ? SPACE
          : c < 0x20 || c === 0x7f
            ? CONTROL
            : SYMBOL;
}
const CLASS_OF = /(\p{Lu}|\p{Lt})|(\p{Ll})|(\p{Lm}|\p{Lo})|(\p{M})|(\p{N})|([\r\n])|(\p{White_Space})|(\p{P}|\p{S})/u;
const CLASS_BITS = [CONTROL, UPPER, LOWER, LETTER, MARK, DIGIT, NEWLINE, SPACE, SYMBOL];

function classify(codePoint: number): number {
  const m = CLASS_OF.exec(String.fromCodePoint(codePoint));
  return m ? CLASS_BITS[m.findIndex((g, k) => k > 0 && g !== undefined)]! : CONTROL;
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

/** The class bit of the code point at i (text seen as ending at end), and its UTF-16 width << WIDTH_SHIFT. */
function classAt(text: string, i: number, end: number): number {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= end) return unitClass(c) | ONE_UNIT;
  const d = text.charCodeAt(i + 1);
  if (d < 0xdc00 || d > 0xdfff) return CONTROL | ONE_UNIT;
  return astralClass(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000) | TWO_UNITS;
}

/** The end of the run from i of code points whose class is in `mask`. */
function runEnd(text: string, i: number, end: number, mask: number): number {
  while (i < end) {
    const v = classAt(text, i, end);
    if ((v & mask) === 0) break;
    i += v >> WIDTH_SHIFT;
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
    i += v >> WIDTH_SHIFT;
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
  const bit = v & CLASS_MASK;
  if (bit & L) return runEnd(text, i + (v >> WIDTH_SHIFT), end, L);
  if (bit & PREFIX) {
    const p = i + (v >> WIDTH_SHIFT);
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
    q += v >> WIDTH_SHIFT;
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
  const prefixed = (v & PREFIX) !== 0 ? i + (v >> WIDTH_SHIFT) : -1;
  let e = prefixed >= 0 ? upperThenLowerEnd(text, prefixed, end) : -1;
  if (e < 0) e = upperThenLowerEnd(text, i, end);
  if (e < 0 && prefixed >= 0) e = upperRunEnd(text, prefixed, end);
  if (e < 0) e = upperRunEnd(text, i, end);
  return e >= 0 && o.contractions ? e + contraction(text, e, end, o.longS) : e;
}

/** `<word>|<word>|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+` */
function o200kEnd(o: Options, text: string, i: number, end: number): number {
  const v = classAt(text, i, end);
  const bit = v & CLASS_MASK;
  if (bit & (CASED_UPPER | CASED_LOWER | PREFIX)) {
    const e = o200kWordEnd(o, text, i, end, v);
    if (e >= 0) return e;
  }
  if (bit & DIGIT) return digitsEnd(text, i, end, o.digits);
  const e = punctuationEnd(text, i, end, bit, true);
  return e >= 0 ? e : whiteSpaceEnd(text, i, end);
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

/** DeepSeek V3/R1: digits in threes, then runs of CJK ideographs and kana, then this pattern; each cuts what the one before left. */
export const DEEPSEEK_SPLITS: readonly string[] = [
  '\\p{N}{1,3}',
  '[一-龥぀-ゟ゠-ヿ]+',
  '[!"#$%&\'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+',
];

/** Whether a scanner here knows the pattern (alone, or as one of DeepSeek's splits). */
export function isScannedPattern(pattern: string): boolean {
  return DEEPSEEK_SPLITS.includes(pattern) || SCANNED_PATTERNS.some((p) => p.pattern === pattern);
}

function isCjkOrKana(c: number): boolean {
  return (c >= 0x4e00 && c <= 0x9fa5) || (c >= 0x3040 && c <= 0x30ff);
}

/** ASCII punctuation then ASCII letters: DeepSeek's first alternative. */
function asciiWordEnd(text: string, i: number, end: number): number {
  const c = text.charCodeAt(i);
  const punct = (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
  if (!punct) return -1;
  let j = i + 1;
  while (j < end && ((text.charCodeAt(j) | 0x20) - 0x61) >>> 0 < 26) j++;
  return j > i + 1 ? j : -1;
}

/** DeepSeek's third pattern at i, in a piece ending at end, or -1 where it does not match (the gap between matches is a piece too). */
function deepseekPatternEnd(text: string, i: number, end: number): number {
  const ascii = asciiWordEnd(text, i, end);
  if (ascii >= 0) return ascii;
  const v = classAt(text, i, end);
  const bit = v & CLASS_MASK;
  const letterOrMark = L | MARK;
  if (bit & (SPACE | MARK | CONTROL | DIGIT)) {
    const p = i + (v >> WIDTH_SHIFT);
    if (p < end && (classAt(text, p, end) & letterOrMark) !== 0) return runEnd(text, p, end, letterOrMark);
  }
  if (bit & letterOrMark) return runEnd(text, i, end, letterOrMark);
  let p = -1;
  if (text.charCodeAt(i) === 0x20 && i + 1 < end && (classAt(text, i + 1, end) & SYMBOL) !== 0) p = i + 1;
  else if (bit & SYMBOL) p = i;
  if (p >= 0) {
    let j = runEnd(text, p, end, SYMBOL);
    while (j < end && (text.charCodeAt(j) === 10 || text.charCodeAt(j) === 13)) j++;
    return j;
  }
  return bit & (SPACE | NEWLINE) ? whiteSpaceEnd(text, i, end) : -1;
}

/** The three splits as one scanner. Where the third pattern ends (the next digit or CJK character) is remembered while a scan moves on. */
function deepseekScanner(): PieceScanner {
  let known: { text: string; end: number; from: number; at: number } | undefined;
  const pieceEnd = (text: string, i: number, end: number): number => {
    if (known && known.text === text && known.end === end && known.from <= i && i <= known.at) return known.at;
    let at = i;
    while (at < end && !isCjkOrKana(text.charCodeAt(at)) && (classAt(text, at, end) & DIGIT) === 0) at++;
    known = { text, end, from: i, at };
    return at;
  };
  return (text, i, end) => {
    const v = classAt(text, i, end);
    if (v & DIGIT) return digitsEnd(text, i, end, 3);
    if (isCjkOrKana(text.charCodeAt(i))) {
      let j = i + 1;
      while (j < end && isCjkOrKana(text.charCodeAt(j))) j++;
      return j;
    }
    const to = pieceEnd(text, i, end);
    const e = deepseekPatternEnd(text, i, to);
    if (e >= 0) return e;
    let j = i + (v >> WIDTH_SHIFT);
    while (j < to && deepseekPatternEnd(text, j, to) < 0) j += classAt(text, j, to) >> WIDTH_SHIFT;
    return j;
  };
}

/** One scanner that gives the pieces of these Split steps applied in order, if there is one (source: a Regex as tokenizer.json writes it). */
export function scannerForSplits(splits: readonly { source?: string; behavior: string }[]): PieceScanner | undefined {
  if (!splits.length || !splits.every((s) => s.behavior === 'Isolated' && s.source !== undefined)) return undefined;
  if (splits.length === 1) return scannerFor(splits[0]!.source!);
  return splits.length === DEEPSEEK_SPLITS.length && splits.every((s, k) => s.source === DEEPSEEK_SPLITS[k])
    ? deepseekScanner()
    : undefined;
}

const scanners = new Map<string, PieceScanner>();

/** The scanner for a pre-tokenizer pattern as written in a rank file or tokenizer.json, if it has one. */
export function scannerFor(pattern: string): PieceScanner | undefined {
  let found = scanners.get(pattern);
  if (found) return found;
  const entry = SCANNED_PATTERNS.find((p) => p.pattern === pattern);
  if (!entry) return undefined;
  const o = entry.options;
  found = entry.kind === 'cl100k' ? (text, i, end) => cl100kEnd(o, text, i, end) : (text, i, end) => o200kEnd(o, text, i, end);
  scanners.set(pattern, found);
  return found;
}
