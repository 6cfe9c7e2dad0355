/**
 * The whitespace-separated fields of a line as columns in reusable typed arrays: the trajectory readers'
 * hot loop (a million atom lines) allocates no token objects, only the substrings it parses. Same notion
 * of whitespace as the POSCAR core's tokenizer (poscar/text.ts), so columns agree with its diagnostics.
 */
import { parseNumber } from '../poscar/numbers';
import { isSpace } from '../poscar/text';

/** Exact powers of ten: a mantissa below 2^53 divided by one of them is the correctly rounded value. */
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);

/** number's value, out of decimal. */
const ONE = new Float64Array(1);

/** isSpace, with ' ' and printable ASCII (nearly every character scanned) answered without the call. */
const space = (c: number): boolean => c === 32 || (c > 32 && c < 0xa0 ? false : isSpace(c));

export class Fields {
  starts = new Int32Array(16);
  ends = new Int32Array(16);
  count = 0;
  line = '';
  /** Where the last `decimal` stopped: the first character at or after its start that cannot continue it. */
  private stop = 0;

  /** Splits `line`; `count` is the number of fields. */
  scan(line: string): this {
    this.line = line;
    let count = 0;
    const n = line.length;
    for (let i = 0; i < n;) {
      while (i < n && space(line.charCodeAt(i))) i++;
      if (i >= n) break;
      const start = i;
      while (i < n && !space(line.charCodeAt(i))) i++;
      if (count === this.starts.length) this.grow();
      this.starts[count] = start;
      this.ends[count] = i;
      count++;
    }
    this.count = count;
    return this;
  }

  text(k: number): string {
    return this.line.slice(this.starts[k], this.ends[k]);
  }

  /** Field k as a number, as parseNumber reads it: plain decimals computed here, anything else by parseNumber. */
  number(k: number): number | undefined {
    const end = this.ends[k]!;
    return this.decimal(this.line, this.starts[k]!, end, ONE, 0) && this.stop === end ? ONE[0]! : parseNumber(this.text(k));
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
   * The plain decimal at text[i] ('-0.25000000', '12', '.5': a sign, at most 15 digits, one point), read
   * before `end` up to the first character that cannot continue it (`stop`), into out[k]; false when it has
   * no digit or more than 15. Digits / 10^k with both exact: the division is the correctly rounded value, the
   * same double Number() gives. The value goes to an array, not back: a double returned from a call that is
   * not inlined is a heap object, and a million coordinates made megabytes of them.
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
    out[k] = sign * (decimals > 0 ? mantissa / POW10[decimals]! : mantissa);
    return true;
  }

  /** The range of field k on `line`, for a diagnostic. */
  range(line: number, k: number): { line: number; start: number; end: number } {
    return { line, start: this.starts[k]!, end: this.ends[k]! };
  }

  /** From the first field's start to the last one's end (0–0 for a blank line). */
  span(line: number): { line: number; start: number; end: number } {
    return this.count === 0 ? { line, start: 0, end: 0 } : { line, start: this.starts[0]!, end: this.ends[this.count - 1]! };
  }

  private grow(): void {
    const starts = new Int32Array(this.starts.length * 2);
    const ends = new Int32Array(this.ends.length * 2);
    starts.set(this.starts);
    ends.set(this.ends);
    this.starts = starts;
    this.ends = ends;
  }
}
