/**
 * Deterministic text for the differential tests and the benchmark: a seeded PRNG, random Unicode
 * strings built from hostile "atoms", the shared corpus, and the benchmark's generated inputs.
 * Everything here is pure and seeded, so a failure is reproduced from its seed alone.
 *
 * Characters are kept to those assigned in Unicode 14 or earlier: the engine (V8's ICU) and the oracle
 * (Rust's regex crate inside tiktoken) may ship different Unicode tables, and newer characters would
 * turn a table-version difference into a false alarm.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The standard corpus lives in `shared/` beside the repository (compiled file: out/test/bench/);
 * TOKEN_LENS_CORPUS names another place (a git worktree is one folder deeper).
 */
export const CORPUS_PATH =
  process.env.TOKEN_LENS_CORPUS || path.resolve(__dirname, '..', '..', '..', '..', 'shared', 'bench', 'corpus-1mb.txt');

/** The shared 1 MiB corpus, or undefined when it is not on this machine. */
export function readCorpus(path = CORPUS_PATH): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Repository root (compiled file: out/test/bench/). */
const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

function readSlice(file: string, maxChars: number): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(0, maxChars);
  } catch {
    return '';
  }
}

/**
 * Real text every install has after `npm ci`: the dependencies' READMEs (English prose, code, tables,
 * links), TypeScript's translated compiler messages (German, Czech, Japanese, Korean, Russian,
 * Chinese, …: real non-Latin prose) and one of its library declaration files (code and comments).
 * Deterministic for a given package-lock.json; about `maxChars` UTF-16 units.
 */
export function installedCorpus(maxChars = 1_000_000): { text: string; files: number } {
  const modules = path.join(REPO_ROOT, 'node_modules');
  const parts: string[] = [];
  let size = 0;
  const add = (file: string, cap: number): void => {
    const text = readSlice(file, Math.min(cap, maxChars - size));
    if (!text) return;
    parts.push(text);
    size += text.length;
  };
  const typescript = path.join(modules, 'typescript', 'lib');
  const languages = fs.existsSync(typescript)
    ? fs
        .readdirSync(typescript)
        .filter((d) => fs.existsSync(path.join(typescript, d, 'diagnosticMessages.generated.json')))
        .sort()
    : [];
  for (const language of languages) add(path.join(typescript, language, 'diagnosticMessages.generated.json'), 30_000);
  add(path.join(typescript, 'lib.es5.d.ts'), 150_000);
  const packages = fs
    .readdirSync(modules)
    .sort()
    .flatMap((name) => {
      if (!name.startsWith('@')) return [name];
      try {
        return fs
          .readdirSync(path.join(modules, name))
          .sort()
          .map((inner) => `${name}/${inner}`);
      } catch {
        return [];
      }
    });
  for (const name of packages) {
    if (size >= maxChars) break;
    add(path.join(modules, name, 'README.md'), 20_000);
  }
  return { text: parts.join('\n\n'), files: parts.length };
}

/**
 * Large real files a Debian machine with Node has, for the counting benchmark beside the corpus: TypeScript's DOM
 * declarations (code and comments), vim's version8.txt (English prose and lists), perl's allkeys.txt (the Unicode
 * collation table: hex, punctuation and long lines). Each is listed with its path, or with why it is missing.
 */
export function installedFiles(): { name: string; path: string; text?: string }[] {
  const found = (dir: string, pattern: RegExp, rest: string): string => {
    const entry = fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .sort()
          .reverse()
          .find((d) => pattern.test(d))
      : undefined;
    return entry ? path.join(dir, entry, rest) : path.join(dir, '*', rest);
  };
  const files = [
    { name: 'lib.dom.d.ts', path: path.join(REPO_ROOT, 'node_modules', 'typescript', 'lib', 'lib.dom.d.ts') },
    { name: 'version8.txt', path: found('/usr/share/vim', /^vim\d+$/, path.join('doc', 'version8.txt')) },
    { name: 'allkeys.txt', path: found('/usr/share/perl', /^5\.\d+\.\d+$/, path.join('Unicode', 'Collate', 'allkeys.txt')) },
  ];
  return files.map((f) => (fs.existsSync(f.path) ? { ...f, text: fs.readFileSync(f.path, 'utf8') } : f));
}

/** The corpora the differential tests compare on: the installed text always, the shared corpus when present. */
export function corpora(): { name: string; text: string }[] {
  const installed = installedCorpus();
  const list = [{ name: `installed text (${installed.files} files under node_modules)`, text: installed.text }];
  const shared = readCorpus();
  if (shared) list.push({ name: 'corpus-1mb.txt', text: shared });
  return list;
}

/** Real text for tests that need some: the shared corpus when present, else the installed text. */
export function realText(): string {
  return readCorpus() ?? installedCorpus().text;
}

/** mulberry32: small, fast, deterministic. */
export class Rng {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const fromRange = (rng: Rng, lo: number, hi: number): string => String.fromCodePoint(rng.int(lo, hi));
const repeat = (n: number, make: () => string): string => {
  let s = '';
  for (let i = 0; i < n; i++) s += make();
  return s;
};

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const PUNCT = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\'';
const CONTRACTIONS = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'Ll", "'lL", "'VE", "'M", "'D", '’s', '’ll'];
export const SPECIAL_TEXTS = [
  '<|endoftext|>',
  '<|fim_prefix|>',
  '<|fim_middle|>',
  '<|fim_suffix|>',
  '<|endofprompt|>',
  '<|im_start|>',
  '<|im_end|>',
  // o200k_harmony's (gpt-oss's Harmony format)
  '<|startoftext|>',
  '<|start|>',
  '<|message|>',
  '<|channel|>',
  '<|end|>',
  '<|return|>',
  '<|constrain|>',
  '<|call|>',
  '<|reserved_200018|>',
  '<|reserved_201087|>',
];
const SPECIAL_FRAGMENTS = [
  '<|',
  '|>',
  '<|endof',
  'endoftext|>',
  '<|fim_',
  '<<|endoftext|>>',
  '<|endoftext|><|endoftext|>',
  '<|endoftext',
  '<|start',
  '<|reserved_',
  '<|reserved_201088|>',
];
const EMOJI = [
  '👍',
  '👍🏽',
  '👍🏿',
  '❤️',
  '❤',
  '😀',
  '🙂',
  '🤖',
  '🦀',
  '🧑‍💻',
  '🧑🏿‍💻',
  '👩‍❤️‍💋‍👨',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  '🏴‍☠️',
  '🇺🇸',
  '🇯🇵',
  '🇩🇪',
  '🇫🇷',
  '🇧🇷',
  '🏴󠁧󠁢󠁳󠁣󠁴󠁿',
  '✌🏻',
  '🤷‍♀️',
  '👁️‍🗨️',
  '1️⃣',
  '#️⃣',
  '©️',
  '™',
];
const LATIN_EXTRA = ['é', 'è', 'ß', 'ñ', 'ø', 'Å', 'Æ', 'œ', 'ǅ', 'ǈ', 'ʰ', 'ˈ', 'ı', 'İ', 'ﬁ', 'Ω', 'µ', 'ª', 'º'];
const ODD_SPACES = [
  '\u00a0',
  '\u3000',
  '\u2003',
  '\u2009',
  '\u202f',
  '\u205f',
  '\u1680',
  '\u0085',
  '\u2028',
  '\u2029',
  '\u200b',
  '\ufeff',
  '\u000b',
  '\u000c',
];
/** Controls, format characters, private use, U+FFFD, astral CJK: classes the two regex engines must agree on. */
const CONTROLS_AND_ODDITIES = [
  '\x00',
  '\x01',
  '\x1b[0m',
  '\x7f',
  '\x80',
  '\x9f',
  '\ue000',
  '\ufffd',
  '𠀀𠀁',
  '\u180e',
  '\u00ad',
  '\u2060',
  '\u200d',
  '\u200c',
  'a\u0308\u0301',
];
const NUMERALS = ['٣', '٤٥', '३', '१२', '²', '³', '½', 'Ⅻ', '０１２', '①', '߁', '𝟘𝟙'];

function word(rng: Rng): string {
  const n = rng.int(1, 12);
  const style = rng.int(0, 3);
  let s = '';
  for (let i = 0; i < n; i++) {
    const lower = rng.pick([...LOWER]);
    s +=
      style === 0
        ? lower
        : style === 1
          ? lower.toUpperCase()
          : style === 2 && i === 0
            ? lower.toUpperCase()
            : rng.chance(0.3)
              ? rng.pick([...UPPER])
              : lower;
  }
  return s;
}

/** One hostile or ordinary fragment; a random string is a concatenation of these. */
const ATOMS: ReadonlyArray<[weight: number, make: (rng: Rng) => string]> = [
  [14, (r) => (r.chance(0.6) ? ' ' : '') + word(r)],
  [4, (r) => repeat(r.int(1, 24), () => String(r.int(0, 9)))],
  [3, (r) => ' '.repeat(r.pick([1, 2, 3, 4, 8, r.int(1, 40), r.int(50, 300)]))],
  [2, (r) => '\t'.repeat(r.int(1, 6))],
  [4, (r) => r.pick(['\n', '\r\n', '\r', '\n\n', '\r\n\r\n', ' \n', '\n ', ' \r\n  ', '\n\n\n\n', '\t\n', '\r\r\n'])],
  [4, (r) => repeat(r.int(1, 4), () => r.pick(EMOJI))],
  [3, (r) => repeat(r.int(1, 20), () => fromRange(r, 0x4e00, 0x9fa5))],
  [1, (r) => repeat(r.int(1, 8), () => r.pick(['。', '、', '「', '」', 'の', 'ア', 'ン', 'ー', '：']))],
  [2, (r) => repeat(r.int(1, 10), () => fromRange(r, 0xac00, 0xd7a3))],
  [2, (r) => repeat(r.int(1, 10), () => fromRange(r, 0x0621, 0x064a) + (r.chance(0.3) ? fromRange(r, 0x064b, 0x0652) : ''))],
  [2, (r) => repeat(r.int(1, 6), () => fromRange(r, 0x0905, 0x0939) + (r.chance(0.5) ? fromRange(r, 0x093e, 0x094d) : ''))],
  [2, (r) => repeat(r.int(1, 10), () => fromRange(r, 0x0430, 0x044f))],
  [1, (r) => repeat(r.int(1, 8), () => fromRange(r, 0x03b1, 0x03c9))],
  [2, (r) => r.pick([...LOWER, ...UPPER]) + repeat(r.int(1, 4), () => fromRange(r, 0x0300, 0x036f))],
  [2, (r) => repeat(r.int(1, 4), () => r.pick(LATIN_EXTRA))],
  [4, (r) => r.pick(CONTRACTIONS)],
  [5, (r) => repeat(r.int(1, 6), () => r.pick([...PUNCT]))],
  [2, (r) => r.pick(SPECIAL_TEXTS)],
  [1, (r) => r.pick(SPECIAL_FRAGMENTS)],
  [1, (r) => r.pick(ODD_SPACES).repeat(r.int(1, 3))],
  [1, (r) => r.pick(NUMERALS)],
  [1, (r) => r.pick(['x'.repeat(200), 'ab'.repeat(150), '='.repeat(120), '-'.repeat(80), '0'.repeat(130), 'é'.repeat(90)])],
  [1, (r) => fromRange(r, 0x1d400, 0x1d4ff)],
  [1, (r) => r.pick(CONTROLS_AND_ODDITIES)],
];
const TOTAL_WEIGHT = ATOMS.reduce((sum, [w]) => sum + w, 0);

function atom(rng: Rng): string {
  let x = rng.next() * TOTAL_WEIGHT;
  for (const [w, make] of ATOMS) {
    if ((x -= w) < 0) return make(rng);
  }
  return ATOMS[0]![1](rng);
}

/** A random string of `atoms` fragments (no lone surrogates). */
export function randomText(rng: Rng, atoms = rng.int(1, 40)): string {
  let s = '';
  for (let i = 0; i < atoms; i++) s += atom(rng);
  return s;
}

/** A random string sprinkled with lone high and low surrogates (for "does not throw" checks only). */
export function textWithLoneSurrogates(rng: Rng): string {
  let s = '';
  const n = rng.int(1, 12);
  for (let i = 0; i < n; i++) {
    s += rng.chance(0.5) ? atom(rng) : String.fromCharCode(rng.chance(0.5) ? rng.int(0xd800, 0xdbff) : rng.int(0xdc00, 0xdfff));
  }
  return s;
}

/** A UTF-16 offset at or after `i` that does not split a surrogate pair. */
export function charBoundary(text: string, i: number): number {
  if (i > 0 && i < text.length) {
    const c = text.charCodeAt(i);
    const p = text.charCodeAt(i - 1);
    if (c >= 0xdc00 && c <= 0xdfff && p >= 0xd800 && p <= 0xdbff) return i + 1;
  }
  return i;
}

/** A slice of `text` of about `length` units at a random place, never splitting a surrogate pair. */
export function randomSlice(rng: Rng, text: string, length: number): string {
  const start = charBoundary(text, rng.int(0, Math.max(0, text.length - length)));
  return text.slice(start, charBoundary(text, Math.min(text.length, start + length)));
}

/** Repeats `unit` until the result has at least `bytes` UTF-8 bytes, then cuts at a whole unit. */
function fillBytes(bytes: number, next: () => string): string {
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const part = next();
    parts.push(part);
    size += Buffer.byteLength(part, 'utf8');
  }
  return parts.join('');
}

export interface BenchInput {
  name: string;
  text: string;
}

const MB = 1 << 20;

/** The hostile and non-Latin inputs of the benchmark, all generated deterministically in memory. */
export function hostileInputs(): BenchInput[] {
  const rng = new Rng(20240601);
  const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const identifiers = [
    'a',
    'b',
    'e',
    't',
    'n',
    'r',
    'i',
    'o',
    'fn',
    'el',
    'cb',
    'this',
    'return',
    'function',
    'var',
    'null',
    'void 0',
    'length',
    'prototype',
  ];
  const ops = [
    '=',
    '==',
    '===',
    '!==',
    '&&',
    '||',
    '?',
    ':',
    ',',
    ';',
    '.',
    '(',
    ')',
    '{',
    '}',
    '[',
    ']',
    '+',
    '-',
    '*',
    '/',
    '<',
    '>',
    '!',
    '=>',
  ];
  const minified = fillBytes(MB, () => {
    const k = rng.int(0, 9);
    if (k < 5) return rng.pick(identifiers) + (rng.chance(0.3) ? String(rng.int(0, 99)) : '');
    if (k < 9) return rng.pick(ops);
    return rng.chance(0.5) ? `"${word(rng)}"` : String(rng.int(0, 100000));
  });
  const base64 = fillBytes(MB, () => repeat(76, () => base64Alphabet[rng.int(0, 63)]!));
  const cjk = fillBytes(MB, () => {
    const k = rng.int(0, 19);
    if (k === 0) return '。';
    if (k === 1) return '、';
    if (k === 2) return '\n';
    return fromRange(rng, 0x4e00, 0x9fa5);
  });
  const emoji = fillBytes(MB, () => rng.pick(EMOJI) + (rng.chance(0.1) ? ' ' : ''));
  const russianWords = [
    'привет',
    'мир',
    'это',
    'тест',
    'токенизатора',
    'который',
    'работает',
    'быстро',
    'и',
    'точно',
    'Москва',
    'язык',
    'программирования',
  ];
  const arabicWords = ['مرحبا', 'بالعالم', 'هذا', 'اختبار', 'المحلل', 'اللغوي', 'الذي', 'يعمل', 'بسرعة', 'ودقة', 'كتاب', 'القاهرة'];
  const russianArabic = fillBytes(MB, () => {
    const words = rng.chance(0.5) ? russianWords : arabicWords;
    return rng.pick(words) + (rng.chance(0.1) ? '. ' : rng.chance(0.05) ? '\n' : ' ');
  });
  return [
    { name: "100k × 'a'", text: 'a'.repeat(100_000) },
    { name: '100k spaces', text: ' '.repeat(100_000) },
    { name: '100k digits', text: repeat(100_000, () => String(rng.int(0, 9))) },
    { name: 'minified JS line 1 MB', text: minified },
    { name: 'base64 blob 1 MB', text: base64 },
    { name: 'CJK 1 MB', text: cjk },
    { name: 'emoji+ZWJ 1 MB', text: emoji },
    { name: 'Russian/Arabic 1 MB', text: russianArabic },
  ];
}

/** What the inspector's tests and screenshots show: English, code, emoji (ZWJ, flags) and CJK. */
export const INSPECTOR_SAMPLE = [
  '# Token Lens',
  'The quick brown fox jumps over the lazy dog.',
  'function add(a: number, b: number) { return a + b; }',
  'Emoji: 👍 👨‍👩‍👧 🇫🇷 ❤️ — CJK: 日本語のテキスト, 中文文本, 한국어',
  '',
].join('\n');

/** INSPECTOR_SAMPLE repeated to `size` UTF-16 units (the inspector's scale runs). */
export function inspectorText(size: number): string {
  const unit = `${INSPECTOR_SAMPLE}\n`;
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}
