/** The file as lines and whitespace-separated tokens, with the columns VS Code uses (UTF-16 units). */
import type { SourceRange } from './types';

export interface Token {
  text: string;
  /** Columns on the token's line, end exclusive. */
  start: number;
  end: number;
}

// Space, tab, vertical tab, form feed, no-break space, and a byte-order mark left at the start of the file.
export const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff;

export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  const n = line.length;
  for (let i = 0; i < n;) {
    while (i < n && isSpace(line.charCodeAt(i))) i++;
    const start = i;
    while (i < n && !isSpace(line.charCodeAt(i))) i++;
    if (i > start) tokens.push({ text: line.slice(start, i), start, end: i });
  }
  return tokens;
}

export class SourceText {
  readonly lines: string[];
  /** Lines that exist: the empty remainder after a final line break is not a line of its own. */
  readonly count: number;

  constructor(text: string) {
    // \r\n, \r and \n all end a line, as in VS Code, so line numbers agree with the editor's.
    // A text without '\r' (most files) splits several times faster on the plain character than on the pattern.
    this.lines = text.includes('\r') ? text.split(/\r\n|\r|\n/) : text.split('\n');
    this.count = this.lines.length > 1 && this.lines[this.lines.length - 1] === '' ? this.lines.length - 1 : this.lines.length;
  }

  has(line: number): boolean {
    return line < this.count;
  }

  tokens(line: number): Token[] {
    return this.has(line) ? tokenize(this.lines[line]!) : [];
  }

  isBlank(line: number): boolean {
    return this.tokens(line).length === 0;
  }
}

/** From the first token's start to the last one's end. */
export const span = (line: number, tokens: readonly Token[]): SourceRange => ({
  line,
  start: tokens[0]?.start ?? 0,
  end: tokens[tokens.length - 1]?.end ?? 0,
});

export const at = (line: number, token: Token): SourceRange => ({ line, start: token.start, end: token.end });
