/**
 * The whitespace-separated fields of a line as columns in reusable typed arrays: the trajectory readers'
 * hot loop (a million atom lines) allocates no token objects and no substrings: the line is scanned where
 * it stands in the file's text and its numbers read from the characters. Same notion of whitespace as the
 * POSCAR core's tokenizer (poscar/text.ts), so columns agree with its diagnostics.
 */
import { parseNumber } from '../poscar/numbers';
import { isSpace } from '../poscar/text';

/**
 * Exact powers of ten (10^22 is the last a double holds exactly): a mantissa below 2^53 times or divided by
 * one of them is one correctly rounded operation on exact operands, the double Number() gives (Clinger's
 * fast path: W. D. Clinger, "How to read floating point numbers accurately", PLDI 1990).
 */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** number's value, out of decimal. */
const ONE = new Float64Array(1);

/** What `scan` reads as numbers on the way: none. */
const NO_NUMBERS = new Uint8Array(0);

/** isSpace, with ' ' and printable ASCII (nearly every character scanned) answered without the call. */
const space = (c: number): boolean => c === 32 || (c > 32 && c < 0xa0 ? false : isSpace(c));

export class Fields {
  /** Field k is line.slice(starts[k], ends[k]): offsets in `line`, which may be a whole file's text. */
  starts = new Int32Array(16);
  ends = new Int32Array(16);
  /** The numbers scanReading read, by field. */
  values = new Float64Array(16);
  count = 0;
  line = '';
  /** Where the scanned line starts in `line`: columns are offsets minus this. */
  private base = 0;
  /** Where the last `decimal` stopped: the first character at or after its start that cannot continue it. */
  private stop = 0;

  /** Splits line[start, end) (the whole string by default) where it stands; `count` is the number of fields. */
  scan(line: string, start = 0, end = line.length): this {
    this.scanReading(line, start, end, NO_NUMBERS);
    return this;
  }

  /**
   * `scan`, reading on the way each field k whose numbers[k] is 1 as `decimal` does, into values[k]: one pass
   * over the line, each character looked at once. False, `count` unset, at the first such field that is not
   * a number decimal reads whole; the caller then scans the line and reads it field by field (numberInto).
   */
  scanReading(line: string, start: number, end: number, numbers: Uint8Array): boolean {
    this.line = line;
    this.base = start;
    let count = 0;
    for (let i = start; i < end;) {
      while (i < end && space(line.charCodeAt(i))) i++;
      if (i >= end) break;
      const from = i;
      if (count === this.starts.length) this.grow();
      if (count < numbers.length && numbers[count] === 1) {
        if (!this.decimal(line, i, end, this.values, count)) return false;
        i = this.stop;
        if (i < end && !space(line.charCodeAt(i))) return false;
      } else while (i < end && !space(line.charCodeAt(i))) i++;
      this.starts[count] = from;
      this.ends[count] = i;
      count++;
    }
    this.count = count;
    return true;
  }

  text(k: number): string {
    return this.line.slice(this.starts[k], this.ends[k]);
  }

  /** Field k as a number, as parseNumber reads it: plain decimals computed here, anything else by parseNumber. */
  number(k: number): number | undefined {
    return this.numberInto(k, ONE, 0) ? ONE[0]! : undefined;
  }

  /** Field k into out[j] when it is a number as parseNumber reads it (see `number`); false when it is none. */
  numberInto(k: number, out: Float64Array, j: number): boolean {
    const end = this.ends[k]!;
    if (this.decimal(this.line, this.starts[k]!, end, out, j) && this.stop === end) return true;
    const value = parseNumber(this.text(k));
    if (value === undefined) return false;
    out[j] = value;
    return true;
  }

  /**
   * The first three fields of text[start, end) into out[k], out[k + 1], out[k + 2] when all three are plain
   * decimals (the values scan and number would give, read in one pass without the scan); false for anything
   * else (fewer fields, exponents, words), which the caller then scans for its diagnostics. Fields after the
   * third are not looked at.
   */
  triple(text: string, start: number, end: number, out: Float64Array, k: number): boolean {
    let i = start;
    for (let f = 0; f < 3; f++) {
      while (i < end && space(text.charCodeAt(i))) i++;
      if (!this.decimal(text, i, end, out, k + f)) return false;
      i = this.stop;
      if (i < end && !space(text.charCodeAt(i))) return false;
    }
    return true;
  }

  /** The only field of text[start, end) into out[k] when it is a plain decimal; false for anything else. */
  lone(text: string, start: number, end: number, out: Float64Array, k: number): boolean {
    let i = start;
    while (i < end && space(text.charCodeAt(i))) i++;
    if (!this.decimal(text, i, end, out, k)) return false;
    for (i = this.stop; i < end; i++) if (!space(text.charCodeAt(i))) return false;
    return true;
  }

  /**
   * The number at text[i] ('-0.25000000', '12', '.5', '5.', '+1.5E-3', Fortran's '1.0D-3': a sign, at most 15
   * digits, one point, an exponent), read before `end` up to the first character that cannot continue it
   * (`stop`; an 'E' without digits after it is not taken), into out[k]; false when it has no digit, more
   * than 15, or a power of ten past 10^±22 after the point is counted in (parseNumber reads those). The
   * value goes to an array, not back: a double returned from a call that is not inlined is a heap object,
   * and a million coordinates made megabytes of them.
   */
  private decimal(text: string, i: number, end: number, out: Float64Array, k: number): boolean {
    let c = text.charCodeAt(i);
    // Times ±1 rather than a negation in a branch: a branch a file's first numbers never take costs a deoptimization.
    const sign = c === 45 ? -1 : 1;
    if (c === 45 || c === 43) i++;
    let mantissa = 0;
    let digits = 0;
    let decimals = -1;
    for (; i < end; i++) {
      c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        mantissa = mantissa * 10 + (c - 48);
        digits++;
        if (decimals >= 0) decimals++;
      } else if (c === 46 && decimals < 0) decimals = 0;
      else break;
    }
    this.stop = i;
    if (digits === 0 || digits > 15) return false;
    const power = (c | 32) === 101 || (c | 32) === 100 ? this.exponent(text, i, end) : 0; // e E d D
    const scale = power - (decimals > 0 ? decimals : 0);
    if (!(scale >= -22 && scale <= 22)) return false;
    out[k] = sign * (scale < 0 ? mantissa / POW10[-scale]! : mantissa * POW10[scale]!);
    return true;
  }

  /** The exponent whose letter is at text[i]: its value, `stop` moved past it; 0 (stop left) when no digit follows. */
  private exponent(text: string, i: number, end: number): number {
    let c = text.charCodeAt(++i);
    const sign = c === 45 ? -1 : 1;
    if (c === 45 || c === 43) i++;
    let value = 0;
    const first = i;
    for (; i < end; i++) {
      c = text.charCodeAt(i);
      if (c < 48 || c > 57) break;
      value = value * 10 + (c - 48);
    }
    if (i === first) return 0;
    this.stop = i;
    return sign * value;
  }

  /** The range of fields k to last (k alone by default) on `line`, for a diagnostic. */
  range(line: number, k: number, last = k): { line: number; start: number; end: number } {
    return { line, start: this.starts[k]! - this.base, end: this.ends[last]! - this.base };
  }

  /** From the first field's start to the last one's end (0–0 for a blank line). */
  span(line: number): { line: number; start: number; end: number } {
    return this.count === 0 ? { line, start: 0, end: 0 } : this.range(line, 0, this.count - 1);
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const [starts, ends, values] = [new Int32Array(size), new Int32Array(size), new Float64Array(size)];
    starts.set(this.starts);
    ends.set(this.ends);
    values.set(this.values);
    this.starts = starts;
    this.ends = ends;
    this.values = values;
  }
}
