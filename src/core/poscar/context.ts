/** Reading the header line by line: missing lines reported once, comments after values dropped. */
import { parseNumber } from './numbers';
import type { Report } from './report';
import type { SourceText, Token } from './text';

export interface Context {
  src: SourceText;
  report: Report;
  /** Set once the end of the file was reported: one such error is enough. */
  ended?: boolean;
}

/** The tokens of a line that must be there, or undefined after reporting it missing. */
export function need(ctx: Context, line: number, what: string): Token[] | undefined {
  const tokens = ctx.src.tokens(line);
  if (tokens.length > 0) return tokens;
  if (ctx.ended) return undefined;
  const range = { line, start: 0, end: 0 };
  if (ctx.src.has(line)) ctx.report.error('missing-line', range, `the line is blank where ${what} should be`);
  else {
    ctx.report.error('missing-line', range, `the file ends before ${what}`);
    ctx.ended = true;
  }
  return undefined;
}

/** Tokens before a trailing '!' or '#' comment. */
export function beforeComment(tokens: Token[]): Token[] {
  const end = tokens.findIndex((t) => t.text.startsWith('!') || t.text.startsWith('#'));
  return end < 0 ? tokens : tokens.slice(0, end);
}

/** Whether the line starts with something other than a number: element names, a mode word. */
export const startsWithWord = (src: SourceText, line: number): boolean => {
  const first = src.tokens(line)[0];
  return first !== undefined && parseNumber(first.text) === undefined;
};
