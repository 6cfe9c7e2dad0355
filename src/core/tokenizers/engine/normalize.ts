/**
 * Hugging Face normalizers that keep track of where each piece of the normalized text came from, so
 * that a tokenizer can report piece ends as offsets into the text the user wrote.
 *
 * A map gives, for each offset of the normalized text, the offset of the input it corresponds to, or
 * -1 inside a change (a composed character, a replacement longer than one unit, a prepended mark):
 * no piece may end there. `undefined` means the identity.
 *
 * Unicode normalization is done chunk by chunk: text may be cut before any character that is not a
 * mark, not the second half of a canonical composition (Hangul vowels and trailing consonants) and
 * that the form leaves alone; normalizing the chunks apart then equals normalizing the whole
 * (the "boundary before" property of UAX #15), so ASCII and most other text is never copied.
 *
 * A Replace with a Regex runs it on the linear matcher (regex/), so a file's pattern cannot freeze the editor.
 */
import { execOrPause, type Matcher } from './regex';

export interface Normalized {
  text: string;
  map: Int32Array | undefined;
}

/** One step; atStart: this is the start of a segment the model sees on its own (text start, or after an added token). */
export interface NormalizeStep {
  (input: string, atStart: boolean, atTextStart: boolean): Normalized;
  /**
   * Set when the step only replaces one UTF-16 unit (not a surrogate) by another, wherever it is: offsets
   * never move, and normalizing a text then cutting it equals cutting it then normalizing the parts.
   */
  readonly unit?: { from: number; to: number };
  /** How many times longer the step can make a text, at most (1 when not set). */
  readonly growth?: number;
  /** Set when the step acts at every segment start (after each added token): a scan restarting there must know. */
  readonly atSegmentStart?: boolean;
}

export type UnicodeForm = 'NFC' | 'NFD' | 'NFKC' | 'NFKD';

const unstableCache = new Map<UnicodeForm, RegExp>();

/**
 * Runs of characters before which text may not be cut for `form`, found with the runtime's own
 * Unicode data: marks, characters that occur after the first place of a canonical decomposition,
 * and characters the form changes. Planes 4-13 and 15-16 hold no such characters.
 */
export function unstableRuns(form: UnicodeForm): RegExp {
  let re = unstableCache.get(form);
  if (re) return re;
  const codes: number[] = [];
  const visitOne = (c: number) => {
    const s = String.fromCodePoint(c);
    if (s.normalize(form) !== s) codes.push(c);
    const d = s.normalize('NFD');
    if (d.length > s.length) for (const x of [...d].slice(1)) if (!/\p{M}/u.test(x)) codes.push(x.codePointAt(0)!);
  };
  // Most ranges hold no character either form changes: one normalize call tells for thousands of them, kept
  // apart by NUL, which composes with nothing, so that the range normalizes as each of its characters would.
  const visit = (from: number, to: number): void => {
    const block = nulSeparated(from, to);
    if (block.normalize(form) === block && block.normalize('NFD') === block) return;
    if (to - from < 16) {
      for (let c = from; c <= to; c++) if (c < 0xd800 || c > 0xdfff) visitOne(c);
      return;
    }
    const step = Math.ceil((to - from + 1) / 16);
    for (let lo = from; lo <= to; lo += step) visit(lo, Math.min(to, lo + step - 1));
  };
  for (let lo = 0xa0; lo <= 0x3ffff; lo += 0x1000) visit(lo, Math.min(0x3ffff, lo + 0xfff));
  visit(0xe0000, 0xe0fff);
  re = new RegExp(`[\\p{M}${toRanges(codes)}]+`, 'gu');
  unstableCache.set(form, re);
  return re;
}

const utf16 = new TextDecoder('utf-16le');

/** NUL, then each code point from `from` to `to` (surrogates skipped), each followed by NUL. */
function nulSeparated(from: number, to: number): string {
  const units = new Uint16Array((to - from + 1) * 3 + 1);
  let n = 1;
  for (let c = from; c <= to; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    if (c > 0xffff) {
      units[n++] = 0xd800 + ((c - 0x10000) >> 10);
      units[n++] = 0xdc00 + ((c - 0x10000) & 0x3ff);
    } else units[n++] = c;
    n++;
  }
  return utf16.decode(new Uint8Array(units.buffer, 0, n * 2));
}

function toRanges(codes: number[]): string {
  const sorted = [...new Set(codes)].sort((a, b) => a - b);
  let out = '';
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out += `\\u{${sorted[i]!.toString(16)}}` + (j > i ? `-\\u{${sorted[j]!.toString(16)}}` : '');
    i = j + 1;
  }
  return out;
}

/** Start of the code point that ends just before offset i. */
function previousCodePoint(text: string, i: number): number {
  if (i >= 2) {
    const lo = text.charCodeAt(i - 1);
    const hi = text.charCodeAt(i - 2);
    if (lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff) return i - 2;
  }
  return i - 1;
}

/** Builds the normalized text from unchanged stretches and replaced ones, with the map. */
class Builder {
  private readonly parts: string[] = [];
  private readonly spans: [outStart: number, inStart: number, length: number, replaced: boolean][] = [];
  private out = 0;
  private copied = 0;
  private changed = false;

  constructor(private readonly input: string) {}

  /** input[from, to) becomes `by`. */
  replace(from: number, to: number, by: string): void {
    this.copyTo(from);
    const sameShape = by.length === to - from && by.length === 1;
    this.spans.push([this.out, from, to - from, !sameShape]);
    this.parts.push(by);
    this.out += by.length;
    this.copied = to;
    this.changed = true;
  }

  private copyTo(to: number): void {
    if (to <= this.copied) return;
    this.spans.push([this.out, this.copied, to - this.copied, false]);
    this.parts.push(this.input.slice(this.copied, to));
    this.out += to - this.copied;
    this.copied = to;
  }

  finish(): Normalized {
    if (!this.changed) return { text: this.input, map: undefined };
    this.copyTo(this.input.length);
    const text = this.parts.join('');
    if (this.spans.every(([, , , replaced]) => !replaced)) return { text, map: undefined };
    const map = new Int32Array(text.length + 1).fill(-1);
    for (const [outStart, inStart, length, replaced] of this.spans) {
      map[outStart] = inStart;
      if (!replaced) for (let k = 1; k < length; k++) map[outStart + k] = inStart + k;
    }
    map[text.length] = this.input.length;
    return { text, map };
  }
}

/** The most UTF-16 units one unit or surrogate pair becomes, over every code point (U+1F82 in NFD, U+FDFA in NFKD). */
export const UNICODE_GROWTH: Readonly<Record<UnicodeForm, number>> = { NFC: 3, NFD: 4, NFKC: 18, NFKD: 18 };

/** A Unicode normalization step; its table of unstable characters is built now, with the tokenizer, not at the first count. */
export function unicodeStep(form: UnicodeForm): NormalizeStep {
  const runs = unstableRuns(form);
  const step = (input: string): Normalized => {
    runs.lastIndex = 0;
    let match = runs.exec(input);
    if (!match) return { text: input, map: undefined };
    const builder = new Builder(input);
    let done = 0;
    for (; match; match = runs.exec(input)) {
      const from = Math.max(done, match.index > 0 ? previousCodePoint(input, match.index) : 0);
      const to = match.index + match[0].length;
      const chunk = input.slice(from, to);
      const normalized = chunk.normalize(form);
      if (normalized !== chunk) builder.replace(from, to, normalized);
      done = to;
    }
    return builder.finish();
  };
  return Object.assign(step, { growth: UNICODE_GROWTH[form] });
}

const isSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdfff;

/** A 'gu' RegExp matching the literal text. */
export function literalPattern(text: string): RegExp {
  return new RegExp(text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'), 'gu');
}

/**
 * Replace of the literal `from` by `content` (Gemma's " " → "▁", Metaspace's replacement): one UTF-16 unit for
 * one is a unit step (see NormalizeStep.unit), else the general replaceStep.
 */
export function literalReplaceStep(from: string, content: string): NormalizeStep {
  if (from.length !== 1 || content.length !== 1 || isSurrogate(from.charCodeAt(0)) || isSurrogate(content.charCodeAt(0)))
    return replaceStep(literalPattern(from), content, Math.max(1, content.length / from.length));
  const step = (input: string): Normalized => ({ text: input.replaceAll(from, content), map: undefined });
  return Object.assign(step, { unit: { from: from.charCodeAt(0), to: content.charCodeAt(0) } });
}

/**
 * Replace: every match of the 'g' pattern (a RegExp, or a file's pattern on the linear matcher) becomes content
 * (growth: a match is at least one unit, or minLength). Under a work budget (regex/matcher.ts) the pattern may pause
 * (a WorkPaused thrown): called again with the same input, the step goes on where it was; and it keeps its last
 * answer, since a scan that paused after it normalizes the same text again.
 */
export function replaceStep(pattern: Matcher, content: string, growth = Math.max(1, content.length)): NormalizeStep {
  let paused: { input: string; builder: Builder | undefined } | undefined;
  let last: { input: string; output: Normalized } | undefined;
  const step = (input: string): Normalized => {
    // A copy: normalizeAll sets the map of what a step returns.
    if (last?.input === input) return { ...last.output };
    let builder: Builder | undefined;
    if (paused?.input === input) builder = paused.builder;
    else pattern.lastIndex = 0;
    paused = { input, builder };
    for (let m = execOrPause(pattern, input); m; m = execOrPause(pattern, input)) {
      if (m[0].length === 0) {
        pattern.lastIndex = m.index + 1;
        continue;
      }
      paused.builder = builder ??= new Builder(input);
      builder.replace(m.index, m.index + m[0].length, content);
    }
    paused = undefined;
    const output = builder ? builder.finish() : { text: input, map: undefined };
    last = { input, output: { ...output } };
    return output;
  };
  return Object.assign(step, { growth });
}

/**
 * Prepend (a normalizer) and the prefix of Metaspace and ByteLevel: adds `prefix` in front of a
 * non-empty segment, at every segment start or only at the text's start, unless already there.
 */
export function prependStep(prefix: string, where: 'segment' | 'text', unlessPresent: boolean): NormalizeStep {
  // A segment may be one unit long (between two added tokens): it grows by the whole prefix.
  const step = (input: string, atStart: boolean, atTextStart: boolean): Normalized => {
    if (!input || !(where === 'segment' ? atStart : atTextStart)) return { text: input, map: undefined };
    if (unlessPresent && input.startsWith(prefix)) return { text: input, map: undefined };
    const builder = new Builder(input);
    const first = input.codePointAt(0)! > 0xffff ? 2 : 1;
    builder.replace(0, first, prefix + input.slice(0, first));
    return builder.finish();
  };
  return Object.assign(step, { growth: 1 + prefix.length, atSegmentStart: where === 'segment' });
}

/** Runs the steps in order and composes their maps. */
export function normalizeAll(steps: readonly NormalizeStep[], input: string, atStart: boolean, atTextStart: boolean): Normalized {
  let text = input;
  let map: Int32Array | undefined;
  for (const step of steps) {
    const next = step(text, atStart, atTextStart);
    if (next.map) {
      if (map) {
        const inner = map;
        next.map = next.map.map((m) => (m < 0 ? -1 : inner[m]!));
      }
      map = next.map;
    }
    text = next.text;
  }
  return { text, map };
}
