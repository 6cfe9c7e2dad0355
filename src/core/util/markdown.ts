/**
 * Text shown verbatim in Markdown (VS Code's preview renders it with markdown-it, CommonMark + GFM
 * tables): a code span that renders exactly the characters given, backticks included, so that what a
 * user copies from the rendered page is the text itself, not a look-alike.
 */

/**
 * `text` as a code span. Backticks inside are fenced by a longer run of backticks (CommonMark 6.1), and
 * a space is added on both sides when the text starts or ends with a backtick or with spaces on both
 * ends (the renderer strips exactly one such pair). In a table cell (`inTable`), pipes are escaped as
 * GFM requires even inside code; the table parser removes the backslash. Line breaks are the caller's
 * business: a code span shows them as spaces, and a table row cannot hold one.
 */
export function codeSpan(text: string, inTable = false): string {
  if (text === '') return '';
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const spaced = text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '';
  const pad = text.startsWith('`') || text.endsWith('`') || spaced ? ' ' : '';
  const body = inTable ? text.replace(/\|/g, '\\|') : text;
  return `${fence}${pad}${body}${pad}${fence}`;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const INVISIBLE = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/g;

/**
 * A token (or any short text) as a table cell: a code span, with only what a table row cannot hold
 * written as escapes (`\n`, `\r`, `\t`, other control characters as `\u…`). Every other character,
 * backticks, quotes, backslashes and spaces included, is shown as itself, so a copy is the text.
 */
export function codeCell(text: string): string {
  const visible = text.replace(INVISIBLE, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return codeSpan(visible, true);
}

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
