/**
 * The whitespace-separated fields of a line as columns in reusable typed arrays: the trajectory readers'
 * hot loop (a million atom lines) allocates no token objects, only the substrings it parses. Same notion
 * of whitespace as the POSCAR core's tokenizer (poscar/text.ts), so columns agree with its diagnostics.
 */
import { parseNumber } from '../poscar/numbers';
import { isSpace } from '../poscar/text';

/** Exact powers of ten: a mantissa below 2^53 divided by one of them is the correctly rounded value. */
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);

/** isSpace, with ' ' and printable ASCII (nearly every character scanned) answered without the call. */
const space = (c: number): boolean => c === 32 || (c > 32 && c < 0xa0 ? false : isSpace(c));

export class Fields {
  starts = new Int32Array(16);
  ends = new Int32Array(16);
  count = 0;
  line = '';

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

  /**
   * Field k as a number, as parseNumber reads it. Plain decimals of at most 15 digits ('-0.25000000',
   * '12', '.5') are computed from the characters: digits / 10^k with both exact, so the division is the
   * correctly rounded value, the same double Number() gives. Anything else (exponents, long mantissas,
   * bad text) goes through parseNumber.
   */
  number(k: number): number | undefined {
    const line = this.line;
    const end = this.ends[k]!;
    let i = this.starts[k]!;
    let c = line.charCodeAt(i);
    const negative = c === 45;
    if (c === 45 || c === 43) i++;
    let mantissa = 0;
    let digits = 0;
    let decimals = -1;
    for (; i < end; i++) {
      c = line.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        mantissa = mantissa * 10 + (c - 48);
        digits++;
        if (decimals >= 0) decimals++;
      } else if (c === 46 && decimals < 0) decimals = 0;
      else break;
    }
    if (i < end || digits === 0 || digits > 15) return parseNumber(this.text(k));
    const value = decimals > 0 ? mantissa / POW10[decimals]! : mantissa;
    return negative ? -value : value;
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
