/**
 * The service key, removed from anything a service sends back, whatever shape its echo gives it: the key or
 * any piece of it of `minimumPiece` characters, with separators (whitespace, zero-width, control characters)
 * between any of its characters, reversed, percent-encoded, hex (either case), base32 or base64/base64url at
 * any alignment, and combinations of these. Linear in the text: each view of the text (separators skipped;
 * percent-escapes decoded) runs once through suffix automata of the key's forms, which find at every
 * position the longest piece of a form that ends there (matching statistics). Pure: no Node, no DOM.
 */
import { SLICE_MS } from '../tokenizers/sliced';
import { runSliced, runToEnd } from '../util/steps';
import { yieldToEventLoop } from '../util/yield';

/** Pieces shorter than this many characters are not the key; keys shorter than this are matched whole. */
const MIN_PIECE = 6;
/** Keys shorter than this are only redacted after "Bearer" (a piece of 3 characters is ordinary text). */
const MIN_KEY = 4;
const MASK = '***';

/** The characters skipped between the key's: whitespace, control, format and default-ignorable ones. */
const SEPARATOR_CLASS = /[\s\p{Cc}\p{Cf}\p{Z}\p{Default_Ignorable_Code_Point}]/gu;
/** SEPARATOR_CLASS above U+FFFF (test/unit/core/service/redact.test.ts checks every code point against it). */
const ASTRAL_SEPARATORS: readonly [number, number][] = [
  [0x110bd, 0x110bd],
  [0x110cd, 0x110cd],
  [0x13430, 0x1343f],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];
let bmpSeparators: Uint8Array | undefined;

function isBmpSeparator(unit: number): boolean {
  if (!bmpSeparators) {
    bmpSeparators = new Uint8Array(0x10000);
    // One pass of the class over every unit but the surrogates (a test per unit costs tens of ms at first use).
    const units = new Uint16Array(0x10000 - 0x800);
    for (let c = 0, n = 0; c < 0x10000; c++) if (c < 0xd800 || c > 0xdfff) units[n++] = c;
    let all = '';
    for (let i = 0; i < units.length; i += 0x1000)
      all += String.fromCharCode.apply(null, units.subarray(i, i + 0x1000) as unknown as number[]);
    for (const found of all.matchAll(SEPARATOR_CLASS)) bmpSeparators[found[0].charCodeAt(0)] = 1;
  }
  return bmpSeparators[unit] === 1;
}

export function isSeparator(codePoint: number): boolean {
  if (codePoint < 0x10000) return isBmpSeparator(codePoint);
  return ASTRAL_SEPARATORS.some(([from, to]) => codePoint >= from && codePoint <= to);
}

// ---- the automaton --------------------------------------------------------------------------------------

/** A suffix automaton of several patterns (each a list of code units), kept apart by separators no text has. */
interface Automaton {
  /** Each unit of the patterns gets a class from 1 up; 0 is every other unit (no pattern has it). */
  asciiClass: Int32Array;
  wideClass: Map<number, number>;
  classes: number;
  /** The transitions, dense: table[state * classes + class], -1 for none. */
  table: Int32Array;
  link: number[];
  len: number[];
  longest: number;
}

function automaton(patterns: readonly number[][]): Automaton {
  const next: Map<number, number>[] = [new Map()];
  const link = [-1];
  const len = [0];
  let last = 0;
  const extend = (c: number): void => {
    const cur = next.length;
    next.push(new Map());
    len.push(len[last]! + 1);
    link.push(0);
    let p = last;
    while (p !== -1 && !next[p]!.has(c)) {
      next[p]!.set(c, cur);
      p = link[p]!;
    }
    if (p !== -1) {
      const q = next[p]!.get(c)!;
      if (len[p]! + 1 === len[q]) link[cur] = q;
      else {
        const clone = next.length;
        next.push(new Map(next[q]));
        len.push(len[p]! + 1);
        link.push(link[q]!);
        while (p !== -1 && next[p]!.get(c) === q) {
          next[p]!.set(c, clone);
          p = link[p]!;
        }
        link[q] = clone;
        link[cur] = clone;
      }
    }
    last = cur;
  };
  patterns.forEach((pattern, i) => {
    if (i > 0) extend(-i);
    pattern.forEach(extend);
  });
  const asciiClass = new Int32Array(128);
  const wideClass = new Map<number, number>();
  let classes = 1;
  for (const unit of new Set(patterns.flat())) {
    if (unit < 128) asciiClass[unit] = classes++;
    else wideClass.set(unit, classes++);
  }
  const table = new Int32Array(next.length * classes).fill(-1);
  next.forEach((map, state) =>
    map.forEach((to, unit) => {
      if (unit >= 0) table[state * classes + (unit < 128 ? asciiClass[unit]! : wideClass.get(unit)!)] = to;
    }),
  );
  return { asciiClass, wideClass, classes, table, link, len, longest: Math.max(0, ...patterns.map((p) => p.length)) };
}

/** Units of one view of the text, a chunk at a time, each with the span [start, end) of the text it was read from. */
class View {
  readonly units: Uint16Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  length = 0;

  constructor(capacity: number) {
    this.units = new Uint16Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  add(unit: number, start: number, end: number): void {
    this.units[this.length] = unit;
    this.starts[this.length] = start;
    this.ends[this.length++] = end;
  }
}

const CHUNK = 1 << 14;

/**
 * Fills `view` with the next units of the text from `at`, separators skipped; returns where it stopped. Bytes
 * read as Latin-1 skip ASCII separators only: a unit above 0x7f there is a byte of UTF-8, not a character.
 */
function readPlain(text: string, at: number, view: View, bytes: boolean): number {
  view.length = 0;
  let i = at;
  while (i < text.length && view.length < CHUNK - 1) {
    const u = text.charCodeAt(i);
    if (u < 0xd800 || u > 0xdbff || i + 1 === text.length) {
      if (!isBmpSeparator(u) || (bytes && u > 0x7f)) view.add(u, i, i + 1);
      i++;
    } else {
      const cp = text.codePointAt(i)!;
      if (cp <= 0xffff || !isSeparator(cp)) {
        view.add(u, i, i + 1);
        if (cp > 0xffff) view.add(text.charCodeAt(i + 1), i + 1, i + 2);
      }
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return i;
}

const isHexDigit = (u: number): boolean => (u >= 0x30 && u <= 0x39) || ((u | 0x20) >= 0x61 && (u | 0x20) <= 0x66);
const hexValue = (u: number): number => (u <= 0x39 ? u - 0x30 : (u | 0x20) - 0x57);

/** The plain view with %XX read as the byte it stands for (a decoded ASCII separator is skipped like any other). */
class PercentDecoder {
  readonly out = new View(CHUNK + 2);
  private readonly work = new View(CHUNK + 2);

  /** Decodes `input` after what the last call kept back (an escape cut by the chunk's end), keeping back again unless `last`. */
  decode(input: View, last: boolean): View {
    const w = this.work;
    if (w.length === 0 && input.units.subarray(0, input.length).indexOf(0x25) < 0) return input;
    for (let i = 0; i < input.length; i++) w.add(input.units[i]!, input.starts[i]!, input.ends[i]!);
    const out = this.out;
    out.length = 0;
    let i = 0;
    for (; i < w.length; i++) {
      if (w.units[i] !== 0x25) out.add(w.units[i]!, w.starts[i]!, w.ends[i]!);
      else if (i + 2 >= w.length && !last) break;
      else if (i + 2 < w.length && isHexDigit(w.units[i + 1]!) && isHexDigit(w.units[i + 2]!)) {
        const byte = hexValue(w.units[i + 1]!) * 16 + hexValue(w.units[i + 2]!);
        if (byte >= 0x80 || !isBmpSeparator(byte)) out.add(byte, w.starts[i]!, w.ends[i + 2]!);
        i += 2;
      } else out.add(0x25, w.starts[i]!, w.ends[i]!);
    }
    const kept = w.length - i;
    w.units.copyWithin(0, i, w.length);
    w.starts.copyWithin(0, i, w.length);
    w.ends.copyWithin(0, i, w.length);
    w.length = kept;
    return out;
  }
}

/** Marks every stretch of at least `threshold` units that is a piece of one of the automaton's patterns. */
class Matcher {
  /** Flat [start, end) pairs in the text, in order, merged where they overlap. */
  spans: number[] = [];
  private state = 0;
  private length = 0;
  private count = 0;
  private readonly starts: Int32Array;

  constructor(
    private readonly auto: Automaton,
    readonly threshold: number,
    private readonly fold: Fold,
  ) {
    this.starts = new Int32Array(2 ** Math.ceil(Math.log2(auto.longest + 1)));
  }

  /** A matcher of the same automaton with a state of its own (a sliced scan may overlap another scan). */
  fresh(): Matcher {
    return new Matcher(this.auto, this.threshold, this.fold);
  }

  /** Ready for a new text (a redactor keeps its matchers). */
  reset(): void {
    this.spans = [];
    this.state = 0;
    this.length = 0;
    this.count = 0;
  }

  run(view: View): void {
    const { asciiClass, wideClass, classes, table, link, len } = this.auto;
    const { starts: ring, threshold, fold } = this;
    const mask = ring.length - 1;
    const units = view.units;
    let v = this.state;
    let l = this.length;
    let count = this.count;
    for (let i = 0; i < view.length; i++) {
      const c = fold && units[i]! < 128 ? fold[units[i]!]! : units[i]!;
      const k = c < 128 ? asciiClass[c]! : (wideClass.get(c) ?? 0);
      ring[count++ & mask] = view.starts[i]!;
      if (k === 0) {
        v = 0;
        l = 0;
        continue;
      }
      for (;;) {
        const to = table[v * classes + k]!;
        if (to >= 0) {
          v = to;
          l++;
          break;
        }
        if (v === 0) {
          l = 0;
          break;
        }
        v = link[v]!;
        l = len[v]!;
      }
      if (l >= threshold) this.mark(ring[(count - l) & mask]!, view.ends[i]!);
    }
    this.state = v;
    this.length = l;
    this.count = count;
  }

  private mark(start: number, end: number): void {
    const n = this.spans.length;
    if (n > 0 && start <= this.spans[n - 1]!) this.spans[n - 1] = Math.max(end, this.spans[n - 1]!);
    else this.spans.push(start, end);
  }
}

// ---- the key's forms ------------------------------------------------------------------------------------

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const HEX = '0123456789abcdef';

/** How a view's ASCII units are read before matching (null: as they are). */
type Fold = Uint8Array | null;

function fold(change: (c: number) => number): Uint8Array {
  return Uint8Array.from({ length: 128 }, (_, c) => change(c));
}
/** Hex and base32 in either case. */
const LOWER = fold((c) => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c));
/** base64url read as base64. */
const URL_SAFE = fold((c) => (c === 0x2d ? 0x2b : c === 0x5f ? 0x2f : c));

/** An encoding that writes `width` bits a character; a piece can start at any byte, so at any of `offsets` bits. */
interface Encoding {
  width: number;
  alphabet: string;
  offsets: number[];
  fold: Fold;
}

const ENCODINGS: Encoding[] = [
  { width: 4, alphabet: HEX, offsets: [0], fold: LOWER },
  { width: 5, alphabet: BASE32, offsets: [0, 8, 16, 24, 32], fold: LOWER },
  { width: 6, alphabet: BASE64, offsets: [0, 8, 16], fold: URL_SAFE },
];

/**
 * The characters of `bytes` encoded after `offset` bits of something else: only those that depend on
 * these bytes alone (the ones shared with the neighbours differ from echo to echo).
 */
function encodedCore(bytes: Uint8Array, offset: number, width: number, alphabet: string): string {
  let out = '';
  for (let k = Math.ceil(offset / width); (k + 1) * width <= offset + bytes.length * 8; k++) {
    let value = 0;
    for (let bit = k * width - offset; bit < (k + 1) * width - offset; bit++) {
      value = value * 2 + ((bytes[bit >> 3]! >> (7 - (bit & 7))) & 1);
    }
    out += alphabet[value];
  }
  return out;
}

/** The fewest characters of an encoding that a piece of `piece` bytes fills on its own, at any alignment. */
function coreLength(encoding: Encoding, piece: number): number {
  return Math.min(...encoding.offsets.map((s) => Math.floor((s + piece * 8) / encoding.width) - Math.ceil(s / encoding.width)));
}

const reversed = (text: string): string => Array.from(text).reverse().join('');
const units = (text: string): number[] => Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
const withoutSeparators = (text: string): string =>
  Array.from(text)
    .filter((c) => !isSeparator(c.codePointAt(0)!))
    .join('');
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const both = (texts: string[]): number[][] => [...new Set(texts.flatMap((t) => [t, reversed(t)]))].filter((t) => t).map(units);

/** The length of the shortest piece of a key that counts as the key. */
export function minimumPiece(secret: string): number {
  return Math.min(MIN_PIECE, withoutSeparators(secret).length);
}

export interface Redactor {
  /** [start, end) pairs of `text` that hold the key, in order, disjoint; `bytes`: the text is bytes read as Latin-1. */
  spans(text: string, bytes?: boolean): number[];
  /** The text with every such span replaced by "***", and whatever follows "Bearer " too. */
  text(text: string): string;
  /** spans, in slices: a long text never blocks the event loop. */
  spansSliced(text: string, bytes?: boolean): Promise<number[]>;
  /** text, in slices. */
  textSliced(text: string): Promise<string>;
}

/** The matchers of one key: those that read the text with separators skipped, and those that read it percent-decoded. */
interface Matchers {
  plain: Matcher[];
  decoded: Matcher[];
}

function matchersOf(secret: string): Matchers {
  const plain = withoutSeparators(secret);
  const m = minimumPiece(secret);
  const bytes = [secret, reversed(secret)].map(utf8);
  const encoded = ENCODINGS.map((encoding) => {
    const forms = bytes.flatMap((b) => encoding.offsets.map((s) => encodedCore(b, s, encoding.width, encoding.alphabet)));
    return new Matcher(automaton(both(forms)), coreLength(encoding, m), encoding.fold);
  });
  return {
    plain: [new Matcher(automaton(both([plain, withoutSeparators(JSON.stringify(secret).slice(1, -1))])), m, null), ...encoded],
    // Percent-decoded text is bytes: the key's UTF-8 bytes as units (the same as the key for ASCII).
    decoded: [new Matcher(automaton([plain, reversed(plain)].map((t) => units(String.fromCharCode(...utf8(t))))), m, null)],
  };
}

interface Buffers {
  view: View;
  decoder: PercentDecoder;
}

/** The synchronous scans' buffers, made once (such a scan never yields, so one runs at a time; each ends with the decoder empty). */
let buffers: Buffers | undefined;

/** The scan, a chunk of CHUNK units between two yields; its value is the spans. */
function* spanSteps({ plain, decoded }: Matchers, text: string, bytes: boolean, { view, decoder }: Buffers): Generator<void, number[]> {
  for (const matcher of [...plain, ...decoded]) matcher.reset();
  for (let at = 0; at < text.length;) {
    at = readPlain(text, at, view, bytes);
    for (const matcher of plain) matcher.run(view);
    const unescaped = decoder.decode(view, at >= text.length);
    for (const matcher of decoded) matcher.run(unescaped);
    if (at < text.length) yield;
  }
  return union([...plain, ...decoded].map((m) => m.spans));
}

function spansIn(matchers: Matchers, text: string, bytes: boolean): number[] {
  return runToEnd(spanSteps(matchers, text, bytes, (buffers ??= { view: new View(CHUNK), decoder: new PercentDecoder() })));
}

/** spansIn with matchers and buffers of its own (another scan may run meanwhile), in slices. */
function spansInSliced(matchers: Matchers, text: string, bytes: boolean): Promise<number[]> {
  const own: Matchers = { plain: matchers.plain.map((m) => m.fresh()), decoded: matchers.decoded.map((m) => m.fresh()) };
  return runSliced(spanSteps(own, text, bytes, { view: new View(CHUNK), decoder: new PercentDecoder() }), { sliceMs: SLICE_MS });
}

/** The union of several sorted span lists, sorted and disjoint. */
function union(lists: readonly number[][]): number[] {
  const pairs: [number, number][] = [];
  for (const list of lists) for (let i = 0; i < list.length; i += 2) pairs.push([list[i]!, list[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [start, end] of pairs) {
    const n = out.length;
    if (n > 0 && start <= out[n - 1]!) out[n - 1] = Math.max(end, out[n - 1]!);
    else out.push(start, end);
  }
  return out;
}

function masked(text: string, spans: readonly number[]): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (let i = 0; i < spans.length; i += 2) {
    out += text.slice(at, spans[i]) + MASK;
    at = spans[i + 1]!;
  }
  return out + text.slice(at);
}

const BEARER = /(bearer\s+)[^\s"',;}\]]+/gi;

function compile(secret: string | undefined): Redactor {
  const matchers = secret && withoutSeparators(secret).length >= MIN_KEY ? matchersOf(secret) : undefined;
  // No text shorter than the shortest piece any matcher looks for can hold one.
  const shortest = matchers ? Math.min(...[...matchers.plain, ...matchers.decoded].map((m) => m.threshold)) : Infinity;
  const spans = (text: string, bytes = false): number[] => (matchers && text.length >= shortest ? spansIn(matchers, text, bytes) : []);
  const spansSliced = async (text: string, bytes = false): Promise<number[]> =>
    matchers && text.length > SLICED_FROM ? spansInSliced(matchers, text, bytes) : spans(text, bytes);
  return {
    spans,
    text: (text) => masked(text, spans(text)).replace(BEARER, '$1***'),
    spansSliced,
    textSliced: async (text) => masked(text, await spansSliced(text)).replace(BEARER, '$1***'),
  };
}

/** Texts longer than this are scanned in slices by spansSliced (one chunk takes well under a slice). */
const SLICED_FROM = CHUNK;

const compiled = new Map<string | undefined, Redactor>();

/** The redactor of one key, built once (a few of the last keys are kept). */
export function redactor(secret: string | undefined): Redactor {
  let found = compiled.get(secret);
  if (!found) {
    if (compiled.size >= 4) compiled.delete(compiled.keys().next().value);
    found = compile(secret);
    compiled.set(secret, found);
  }
  return found;
}

/**
 * Removes a secret from any text that is about to be shown, logged or kept: see the module's comment.
 * Redact before cutting a text short: a cut can leave a piece shorter than the minimum.
 */
export function redact(text: string, secret: string | undefined): string {
  return redactor(secret).text(text);
}

/**
 * A parsed JSON value with every string in it, keys too, redacted (in place where it is a container); any depth.
 * Walked in slices of about SLICE_MS, as the answer was parsed: a large answer never blocks the editor.
 */
export async function redactJson(value: unknown, secret: string | undefined): Promise<unknown> {
  if (!secret) return value;
  const r = redactor(secret);
  /** Names repeat (every frame's "positions"): each is redacted once. */
  const names = new Map<string, string>();
  const stack: object[] = [];
  const clean = (v: unknown): unknown => {
    if (typeof v === 'string') return r.text(v);
    if (v !== null && typeof v === 'object') stack.push(v);
    return v;
  };
  /** A string of megabytes (a POSCAR, an encoded image) is redacted in slices of its own. */
  const long = (v: unknown): v is string => typeof v === 'string' && v.length > SLICED_FROM;
  const top = long(value) ? await r.textSliced(value) : clean(value);
  let sliceStart = Date.now();
  for (let done = 1; stack.length > 0; done++) {
    if (done % 256 === 0 && Date.now() - sliceStart >= SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = Date.now();
    }
    const item = stack.pop()!;
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        const v: unknown = item[i];
        item[i] = long(v) ? await r.textSliced(v) : clean(v);
      }
      continue;
    }
    const rec = item as Record<string, unknown>;
    const entries = Object.entries(rec);
    const safeKeys = entries.map(([key]) => {
      let safeKey = names.get(key);
      if (safeKey === undefined) names.set(key, (safeKey = r.text(key)));
      return safeKey;
    });
    if (safeKeys.every((safeKey, i) => safeKey === entries[i]![0])) {
      for (const [key, v] of entries) rec[key] = long(v) ? await r.textSliced(v) : clean(v);
      continue;
    }
    // Some keys held the secret: the object is written again, in its order, under names that stay distinct.
    const unique = uniqueNames(
      entries.map(([key]) => key),
      safeKeys,
      (name) => r.text(name) === name,
    );
    for (const [key] of entries) delete rec[key];
    for (let i = 0; i < entries.length; i++) {
      const v = entries[i]![1];
      // Defined, not assigned: a key "__proto__" (JSON.parse makes it an own property) must not set the prototype.
      Object.defineProperty(rec, unique[i]!, {
        value: long(v) ? await r.textSliced(v) : clean(v),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  }
  return top;
}

/**
 * The names an object's keys take once redacted: a key the redaction left alone keeps its name; a redacted one takes
 * its redacted name, or when that is taken (two keys that differ only in the secret, or a key that already reads
 * "***") the first of "name (2)", "name (3)", … that is free and that the redaction leaves alone (`clean`), so that no
 * value is lost by two keys becoming one.
 */
export function uniqueNames(keys: readonly string[], redacted: readonly string[], clean: (name: string) => boolean): string[] {
  const taken = new Set(keys.filter((key, i) => redacted[i] === key));
  return keys.map((key, i) => {
    const name = redacted[i]!;
    if (name === key) return name;
    let unique = name;
    for (let n = 2; taken.has(unique) || !clean(unique); n++) unique = `${name} (${n})`;
    taken.add(unique);
    return unique;
  });
}

/**
 * redact in slices of about SLICE_MS, letting the event loop run between them: for texts that may be megabytes
 * long (a service's answer), which the synchronous redact would scan in one go.
 */
export function redactSliced(text: string, secret: string | undefined): Promise<string> {
  return redactor(secret).textSliced(text);
}

/** Bytes with every span that holds the key (read as Latin-1, so UTF-8 keys match byte for byte) replaced by "***". */
export function redactBytes(bytes: Uint8Array, secret: string | undefined): Uint8Array {
  return secret ? maskedBytes(bytes, redactor(secret).spans(runToEnd(latin1(bytes)), true)) : bytes;
}

/** redactBytes in slices of about SLICE_MS (reading the bytes as text too), letting the event loop run between them. */
export async function redactBytesSliced(bytes: Uint8Array, secret: string | undefined): Promise<Uint8Array> {
  return secret
    ? maskedBytes(bytes, await redactor(secret).spansSliced(await runSliced(latin1(bytes), { sliceMs: SLICE_MS }), true))
    : bytes;
}

/** The bytes as a Latin-1 text, 8 KiB between two yields (16 MB take a third of a second). */
function* latin1(bytes: Uint8Array): Generator<void, string> {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
    yield;
  }
  return text;
}

function maskedBytes(bytes: Uint8Array, spans: readonly number[]): Uint8Array {
  if (spans.length === 0) return bytes;
  let kept = bytes.length;
  for (let i = 0; i < spans.length; i += 2) kept -= spans[i + 1]! - spans[i]! - MASK.length;
  const out = new Uint8Array(kept);
  let from = 0;
  let to = 0;
  for (let i = 0; i <= spans.length; i += 2) {
    const end = i < spans.length ? spans[i]! : bytes.length;
    out.set(bytes.subarray(from, end), to);
    to += end - from;
    if (i === spans.length) break;
    out.fill(0x2a, to, to + MASK.length);
    to += MASK.length;
    from = spans[i + 1]!;
  }
  return out;
}

/** Causes and aggregated errors followed this deep, and this many of each list. */
const ERROR_DEPTH = 4;
const ERROR_LIST = 10;

/**
 * An error as a log may show it (util.inspect, JSON): its name, code, message, stack, cause and aggregated
 * errors, each redacted, and nothing else it carried (a socket, the bytes a parser choked on).
 */
export function redactedError(error: unknown, secret: string | undefined, depth = 0): Error {
  const r = redactor(secret);
  const source = error instanceof Error ? error : undefined;
  const copy = new Error(r.text(source ? source.message : String(error)));
  copy.name = r.text(source?.name ?? 'Error');
  copy.stack = source?.stack !== undefined ? r.text(source.stack) : `${copy.name}: ${copy.message}`;
  const { code, errors } = (source ?? {}) as { code?: unknown; errors?: unknown };
  const extra = copy as Error & { code?: unknown; errors?: Error[] };
  if (typeof code === 'string') extra.code = r.text(code);
  else if (typeof code === 'number') extra.code = code;
  if (depth < ERROR_DEPTH && source?.cause !== undefined) copy.cause = redactedError(source.cause, secret, depth + 1);
  if (depth < ERROR_DEPTH && Array.isArray(errors)) {
    extra.errors = errors.slice(0, ERROR_LIST).map((e: unknown) => redactedError(e, secret, depth + 1));
  }
  return copy;
}
