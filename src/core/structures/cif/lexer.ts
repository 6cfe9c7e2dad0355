/**
 * CIF tokens: the lexical layer of CIF 1.1 (Hall, Allen & Brown, Acta Cryst. A47 (1991) 655; the IUCr's
 * "CIF 1.1 syntax specification", https://www.iucr.org/resources/cif/spec/version1.1/cifsyntax) and of the
 * CIF 2.0 syntax real files use (Bernstein et al., J. Appl. Cryst. 49 (2016) 277): a file starting with the
 * magic comment `#\#CIF_2.0` has triple-quoted strings, quotes that close at the first matching quote, and
 * lists `[...]` / tables `{...}`, which are kept as one 'compound' token (the reader skips them with a warning).
 *
 * CIF 1.1 rules followed here:
 * - a `#` that starts a token starts a comment to the end of the line;
 * - a `;` in the first column of a line opens a text field, closed by the next line that starts with `;`;
 * - a quoted value opens with `'` or `"` at the start of a token and closes only at the same quote followed
 *   by whitespace or the end of the line (so `'O'Neil'` is one value), never across lines;
 * - `data_`, `loop_`, `save_`, `global_`, `stop_` are reserved words in any letter case.
 *
 * Total: never throws; one pass over the text, each character looked at a bounded number of times.
 */
import type { Report } from '../../poscar/report';
import { quote } from '../../poscar/report';

export type TokenKind = 'data' | 'loop' | 'save' | 'global' | 'stop' | 'tag' | 'value' | 'compound';

export interface Token {
  kind: TokenKind;
  /** The value (quotes removed, a text field's lines joined with '\n'), the tag or the block name. */
  text: string;
  /** Where the token starts; a token spanning lines ends at the end of its first line here. */
  line: number;
  start: number;
  end: number;
  /** For values: written without quotes, so `?` and `.` mean unknown and inapplicable. */
  plain: boolean;
  /** The last line of a text field, triple-quoted string or compound value. */
  lastLine?: number;
}

export interface Lexed {
  tokens: Token[];
  cif2: boolean;
}

const SPACE = 32;
const TAB = 9;
const BOM = 0xfeff;
const HASH = 35;
const SEMI = 59;
const isSpace = (c: number): boolean => c === SPACE || c === TAB || c === BOM || c === 11 || c === 12;

/** The CIF 2.0 magic code: the file's first line, after an optional byte-order mark. */
export const isCif2 = (firstLine: string): boolean => /^\uFEFF?#\\#CIF_2\.0(\s|$)/.test(firstLine);

export function lex(lines: readonly string[], report: Report): Lexed {
  const cif2 = isCif2(lines[0] ?? '');
  const tokens: Token[] = [];
  const value = (text: string, line: number, start: number, end: number, plain: boolean, lastLine?: number): void => {
    tokens.push({ kind: 'value', text, line, start, end, plain, ...(lastLine !== undefined && lastLine !== line ? { lastLine } : {}) });
  };

  let li = 0;
  let i = 0;
  while (li < lines.length) {
    const s = lines[li]!;
    // A text field: ';' in the first column, up to the next line that starts with ';'.
    if (i === 0 && s.charCodeAt(0) === SEMI) {
      let close = li + 1;
      while (close < lines.length && lines[close]!.charCodeAt(0) !== SEMI) close++;
      const body = [s.slice(1), ...lines.slice(li + 1, close)].join('\n');
      if (close >= lines.length) {
        report.error(
          'unterminated-text-field',
          { line: li, start: 0, end: s.length },
          'this text field (opened by the ";" in the first column) is never closed: a line starting with ";" must end it',
        );
        value(body, li, 0, s.length, false, lines.length - 1);
        break;
      }
      value(body, li, 0, s.length, false, close);
      li = close;
      i = 1;
      continue;
    }
    while (i < s.length && isSpace(s.charCodeAt(i))) i++;
    if (i >= s.length || s.charCodeAt(i) === HASH) {
      li++;
      i = 0;
      continue;
    }
    const c = s[i]!;
    if (c === "'" || c === '"') {
      if (cif2 && s.startsWith(c + c + c, i)) {
        // CIF 2.0 triple-quoted string: may span lines, ends at the next triple quote.
        const closer = c + c + c;
        let endLine = li;
        let at = s.indexOf(closer, i + 3);
        const parts: string[] = [];
        if (at < 0) {
          parts.push(s.slice(i + 3));
          endLine = li + 1;
          while (endLine < lines.length && (at = lines[endLine]!.indexOf(closer)) < 0) parts.push(lines[endLine++]!);
        }
        if (endLine >= lines.length) {
          report.error(
            'unterminated-quote',
            { line: li, start: i, end: s.length },
            `this triple-quoted string (${closer}) is never closed`,
          );
          value(parts.join('\n'), li, i, s.length, false, lines.length - 1);
          break;
        }
        if (endLine === li) {
          value(s.slice(i + 3, at), li, i, at + 3, false);
          i = at + 3;
        } else {
          parts.push(lines[endLine]!.slice(0, at));
          value(parts.join('\n'), li, i, s.length, false, endLine);
          li = endLine;
          i = at + 3;
        }
        continue;
      }
      let j = i + 1;
      if (cif2) while (j < s.length && s[j] !== c) j++;
      else while (j < s.length && !(s[j] === c && (j + 1 === s.length || isSpace(s.charCodeAt(j + 1))))) j++;
      if (j >= s.length) {
        report.error(
          'unterminated-quote',
          { line: li, start: i, end: s.length },
          cif2
            ? `this quoted value is never closed on its line (a ${c} must end it)`
            : `this quoted value is never closed on its line (in CIF 1.1 a ${c} closes it only when followed by a space or the end of the line)`,
        );
        value(s.slice(i + 1), li, i, s.length, false);
        i = s.length;
        continue;
      }
      value(s.slice(i + 1, j), li, i, j + 1, false);
      i = j + 1;
      continue;
    }
    if (cif2 && (c === '[' || c === '{')) {
      const end = compound(lines, li, i, report);
      tokens.push({
        kind: 'compound',
        text: c === '[' ? 'list' : 'table',
        line: li,
        start: i,
        end: end.line === li ? end.col : s.length,
        plain: false,
        ...(end.line !== li ? { lastLine: end.line } : {}),
      });
      li = end.line;
      i = end.col;
      continue;
    }
    let j = i + 1;
    while (j < s.length && !isSpace(s.charCodeAt(j))) j++;
    tokens.push(classify(s.slice(i, j), li, i, j, report));
    i = j;
  }
  return { tokens, cif2 };
}

function classify(text: string, line: number, start: number, end: number, report: Report): Token {
  const token = (kind: TokenKind, t: string): Token => ({ kind, text: t, line, start, end, plain: true });
  if (text.charCodeAt(0) === 95 /* _ */) return token('tag', text);
  const lower = text.slice(0, 7).toLowerCase();
  if (lower.startsWith('data_')) {
    if (text.length === 5) report.error('empty-block-name', { line, start, end }, 'a data block needs a name after "data_"');
    return token('data', text.slice(5));
  }
  if (lower.startsWith('save_')) return token('save', text.slice(5));
  if (lower === 'loop_' && text.length === 5) return token('loop', text);
  if (lower === 'global_' && text.length === 7) return token('global', text);
  if (lower === 'stop_' && text.length === 5) return token('stop', text);
  if (lower.startsWith('loop_') || lower.startsWith('stop_')) {
    report.warning('reserved-word', { line, start, end }, `${quote(text)} starts with a reserved word; it is read as a value`);
  }
  return token('value', text);
}

/** The end of a CIF 2.0 list or table opened at (line, col): after its matching bracket, quotes respected. */
function compound(lines: readonly string[], line: number, col: number, report: Report): { line: number; col: number } {
  const stack: string[] = [];
  let li = line;
  let i = col;
  while (li < lines.length) {
    const s = lines[li]!;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '[' || c === '{') stack.push(c === '[' ? ']' : '}');
      else if (c === ']' || c === '}') {
        if (stack[stack.length - 1] !== c) {
          report.error(
            'unbalanced-brackets',
            { line: li, start: i, end: i + 1 },
            `${quote(c)} does not close the list or table opened on line ${line + 1}`,
          );
          return { line: li, col: i + 1 };
        }
        stack.pop();
        if (stack.length === 0) return { line: li, col: i + 1 };
      } else if (c === '#') break;
      else if (c === "'" || c === '"') {
        const triple = s.startsWith(c + c + c, i);
        const closer = triple ? c + c + c : c;
        let at = s.indexOf(closer, i + closer.length);
        if (at < 0 && triple) {
          // A triple-quoted string inside a list can span lines.
          let next = li + 1;
          while (next < lines.length && (at = lines[next]!.indexOf(closer)) < 0) next++;
          if (next >= lines.length) break;
          li = next;
          i = at + 3;
          continue;
        }
        if (at < 0) {
          report.error(
            'unterminated-quote',
            { line: li, start: i, end: s.length },
            `this quoted value is never closed on its line (a ${c} must end it)`,
          );
          i = s.length;
          continue;
        }
        i = at + closer.length;
        continue;
      }
      i++;
    }
    li++;
    i = 0;
  }
  const last = lines.length - 1;
  report.error('unbalanced-brackets', { line, start: col, end: lines[line]!.length }, `the list or table opened here is never closed`);
  return { line: last, col: lines[last]!.length };
}
