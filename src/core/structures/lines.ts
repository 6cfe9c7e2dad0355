/**
 * A file's lines as offsets into its text, for the trajectory readers. A 1,000-frame XDATCAR has ~100,000
 * lines: splitting it into strings (one string object each, all alive for the whole read, then collected)
 * cost a third of a cold read. The hot loops read numbers straight from the text between `starts[k]` and
 * `ends[k]`; `line(k)` slices one line for the rarer paths; `lines`, the split array SourceText holds, is
 * made on first use only (a diagnostic's range, a header window). Same line breaks as SourceText (\r\n, \r
 * and \n, as VS Code counts them) and the same count (a final line break starts no line of its own), so it
 * serves wherever a SourceText is read. Pure: no `vscode`.
 */
import { isSpace, tokenize, type Token } from '../poscar/text';

export class TextLines {
  /** Line k is text.slice(starts[k], ends[k]), its line break excluded. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly count: number;
  private split: string[] | undefined;

  constructor(readonly text: string) {
    const { starts, ends, lines } = text.includes('\r') ? breaksAnyEnding(text) : breaksNewline(text);
    this.starts = starts;
    this.ends = ends;
    this.count = lines > 1 && starts[lines - 1] === text.length ? lines - 1 : lines;
  }

  /** SourceText's lines (the trailing empty one after a final line break included), split on first use. */
  get lines(): string[] {
    return (this.split ??= this.text.includes('\r') ? this.text.split(/\r\n|\r|\n/) : this.text.split('\n'));
  }

  /** Line k's text; '' past the end. */
  line(k: number): string {
    return k < this.count ? this.text.slice(this.starts[k], this.ends[k]) : '';
  }

  has(line: number): boolean {
    return line < this.count;
  }

  tokens(line: number): Token[] {
    return this.has(line) ? tokenize(this.line(line)) : [];
  }

  /** No token on the line (or no such line), read in place. */
  isBlank(line: number): boolean {
    if (!this.has(line)) return true;
    for (let i = this.starts[line]!; i < this.ends[line]!; i++) if (!isSpace(this.text.charCodeAt(i))) return false;
    return true;
  }

  /**
   * Whether lines a and b have the same text, compared in place; with `until` (a character code), only up
   * to the first such character of each (the whole line when it has none).
   */
  same(a: number, b: number, until = -1): boolean {
    if (a >= this.count || b >= this.count) return false;
    const { text } = this;
    const i0 = this.starts[a]!;
    const j0 = this.starts[b]!;
    const na = this.ends[a]! - i0;
    const nb = this.ends[b]! - j0;
    for (let k = 0; ; k++) {
      const ca = k < na ? text.charCodeAt(i0 + k) : until;
      const cb = k < nb ? text.charCodeAt(j0 + k) : until;
      if (ca === until || cb === until) return ca === cb;
      if (ca !== cb) return false;
    }
  }
}

interface Breaks {
  starts: Int32Array;
  ends: Int32Array;
  lines: number;
}

/**
 * '\n' only (most files): found by indexOf, several times faster than a loop over the characters. Each loop
 * in a function of its own: V8 compiles a long loop while it runs, and code after it that has not run yet
 * would throw that compiled code away when reached, at every read.
 */
function breaksNewline(text: string): Breaks {
  const lines = countNewlines(text) + 1;
  const starts = new Int32Array(lines);
  const ends = new Int32Array(lines);
  fillNewlines(text, starts, ends);
  ends[lines - 1] = text.length;
  return { starts, ends, lines };
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

function fillNewlines(text: string, starts: Int32Array, ends: Int32Array): void {
  let k = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    ends[k++] = i;
    starts[k] = i + 1;
  }
}

/** \r\n, \r and \n. */
function breaksAnyEnding(text: string): Breaks {
  const starts: number[] = [0];
  const ends: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    ends.push(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    starts.push(i + 1);
  }
  ends.push(text.length);
  return { starts: Int32Array.from(starts), ends: Int32Array.from(ends), lines: starts.length };
}
