/**
 * The comment line of an extended XYZ frame as key=value pairs, read character by character as ASE's
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

const CLOSING: Record<string, string> = { '"': '"', "'": "'", '{': '}', '[': ']' };

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\v' || c === '\f' || c === '\u00a0';

export function readKeyValues(line: string): KeyValue[] {
  const pairs: KeyValue[] = [];
  let key = '';
  let value: string | undefined;
  let start = -1;
  let keyEnd = -1;
  let valueStart = -1;
  let closing: string | undefined;
  let opened = -1;
  let unterminated: number | undefined;
  let escaped = false;
  const finish = (end: number): void => {
    if (start >= 0 && key !== '') {
      pairs.push({
        key,
        value: value ?? 'T',
        keyStart: start,
        keyEnd: keyEnd >= 0 ? keyEnd : end,
        valueStart: value === undefined ? start : valueStart,
        valueEnd: value === undefined ? (keyEnd >= 0 ? keyEnd : end) : end,
        ...(unterminated === undefined ? {} : { unterminated }),
      });
    }
    key = '';
    value = undefined;
    start = keyEnd = valueStart = -1;
    unterminated = undefined;
  };
  const append = (c: string): void => {
    if (value === undefined) key += c;
    else value += c;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (start < 0 && !isSpace(c)) start = i;
    if (escaped) {
      append(c);
      escaped = false;
    } else if (c === '\\') escaped = true;
    else if (closing !== undefined) {
      if (c === closing) closing = undefined;
      else append(c);
    } else if (c in CLOSING) {
      closing = CLOSING[c];
      opened = i;
    } else if (isSpace(c)) {
      if (start >= 0 && (key !== '' || value !== undefined)) finish(i);
      else start = -1;
    } else if (c === '=') {
      if (value === undefined) {
        keyEnd = i;
        value = '';
        valueStart = i + 1;
      } else value += c; // ASE joins further '=' into the value
    } else append(c);
  }
  if (closing !== undefined) unterminated = opened;
  finish(line.length);
  return pairs;
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
