/**
 * The comment line of an extended XYZ frame as key=value pairs, read as ASE's
 * `key_val_str_to_dict` reads it (ase/io/extxyz.py; the libAtoms extended XYZ specification,
 * https://github.com/libAtoms/extxyz): pairs separated by whitespace; a value quoted with "…", '…', {…}
 * or […] may hold spaces; a backslash escapes the next character; a key without '=' means T. Each pair
 * keeps its columns so that a bad value is reported where it stands. Linear in the line's length.
 */

export interface KeyValue {
  key: string;
  /** The value without its quotes and escapes; 'T' for a bare key. */
  value: string;
  /** Columns of the key, end exclusive. */
  keyStart: number;
  keyEnd: number;
  /** Columns of the value as written (quotes included); equal to the key's for a bare key. */
  valueStart: number;
  valueEnd: number;
  /** Column of a quote opened and never closed on this pair, if one was. */
  unterminated?: number;
}

/** The closing character of a quote opened by character code c (" ' { [), or -1. */
const closingOf = (c: number): number => (c === 34 || c === 39 ? c : c === 123 ? 125 : c === 91 ? 93 : -1);

/** ' ', tab, vertical tab, form feed, no-break space: what ASE's shlex-like split treats as a separator here. */
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 11 || c === 12 || c === 0xa0;

/** Outside a quote, the characters that end a run: a separator, a backslash, a quote, '='. */
const SPECIAL = /[ \t\v\f\u00a0\\"'{[=]/g;

/** Inside a quote, by its closing character: that character or a backslash. */
const QUOTED = new Map<number, RegExp>([
  [34, /["\\]/g],
  [39, /['\\]/g],
  [125, /[}\\]/g],
  [93, /[\]\\]/g],
]);

/** Where the next character `pattern` (one character, global) matches is, from `from` on; the line's length if none. */
function nextOf(pattern: RegExp, line: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.test(line) ? pattern.lastIndex - 1 : line.length;
}

/**
 * The pairs of one line. The characters between two that matter (a quote, a backslash, '=', a separator)
 * are found by a regular expression and added to the key or value as one slice: the line of every frame of
 * a trajectory goes through here, mostly before V8 has optimized this code, and the expression runs
 * compiled from the first line.
 */
class PairScanner {
  readonly pairs: KeyValue[] = [];
  private key = '';
  private value: string | undefined;
  private start = -1;
  private keyEnd = -1;
  private valueStart = -1;
  /** The first character not yet added to the key or value, or -1. */
  private run = -1;

  constructor(private readonly line: string) {}

  read(): KeyValue[] {
    const line = this.line;
    let closing = -1;
    let opened = -1;
    for (let i = 0; i < line.length; i++) {
      const j = nextOf(closing < 0 ? SPECIAL : QUOTED.get(closing)!, line, i);
      if (j > i) {
        // Characters that are none of those: no separator among them, so a pair starts here if none has.
        if (this.start < 0) this.start = i;
        this.take(i);
        if (j === line.length) break;
        i = j;
      }
      const c = line.charCodeAt(i);
      if (this.start < 0 && !isSpace(c)) this.start = i;
      if (c === 92) {
        this.flush(i);
        if (++i < line.length) this.run = i; // the escaped character is taken as it is
      } else if (closing >= 0) {
        this.flush(i);
        closing = -1;
      } else if (closingOf(c) >= 0) {
        this.flush(i);
        closing = closingOf(c);
        opened = i;
      } else if (isSpace(c)) {
        this.flush(i);
        if (this.start >= 0 && (this.key !== '' || this.value !== undefined)) this.finish(i, undefined);
        else this.start = -1;
      } else if (c === 61 && this.value === undefined) {
        this.flush(i);
        this.keyEnd = i;
        this.value = '';
        this.valueStart = i + 1;
      } else this.take(i); // ASE joins a further '=' into the value
    }
    this.flush(line.length);
    this.finish(line.length, closing >= 0 ? opened : undefined);
    return this.pairs;
  }

  /** Character i goes to the key or value: the run goes on, or starts here. */
  private take(i: number): void {
    if (this.run < 0) this.run = i;
  }

  /** The run before i added to the key (before '=') or the value. */
  private flush(i: number): void {
    if (this.run < 0) return;
    const part = this.line.slice(this.run, i);
    this.run = -1;
    if (this.value === undefined) this.key += part;
    else this.value += part;
  }

  private finish(end: number, unterminated: number | undefined): void {
    const { key, value, start, keyEnd, valueStart } = this;
    if (start >= 0 && key !== '') {
      this.pairs.push({
        key,
        value: value ?? 'T',
        keyStart: start,
        keyEnd: keyEnd >= 0 ? keyEnd : end,
        valueStart: value === undefined ? start : valueStart,
        valueEnd: value === undefined ? (keyEnd >= 0 ? keyEnd : end) : end,
        ...(unterminated === undefined ? {} : { unterminated }),
      });
    }
    this.key = '';
    this.value = undefined;
    this.start = this.keyEnd = this.valueStart = -1;
  }
}

export function readKeyValues(line: string): KeyValue[] {
  return new PairScanner(line).read();
}

/** 'T T F', 'T', 'True', 'false'…: the booleans, or undefined when any part is not one. */
export function readBooleans(value: string): boolean[] | undefined {
  const parts = value.split(/[\s,]+/).filter(Boolean);
  const out: boolean[] = [];
  for (const part of parts) {
    const lower = part.toLowerCase();
    if (lower === 't' || lower === 'true') out.push(true);
    else if (lower === 'f' || lower === 'false') out.push(false);
    else return undefined;
  }
  return out.length > 0 ? out : undefined;
}
