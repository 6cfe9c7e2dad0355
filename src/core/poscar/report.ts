/** Collects diagnostics; every message starts with the 1-based line number. */
import type { PoscarDiagnostic, Severity, SourceRange } from './types';
import { ENGLISH, type Locale } from '../util/locale';

/** Problems kept for one file: a hostile file of a million bad lines must not flood the editor. */
export const MAX_DIAGNOSTICS = 1000;

export class Report {
  readonly diagnostics: PoscarDiagnostic[] = [];
  private errors = 0;
  private dropped = 0;
  /** The text's lines: a problem past the end (the file ends early) is placed at the end of the last one. */
  private lines: readonly string[] | (() => readonly string[]) = [''];

  /** `locale` words the frame of each problem ("Line 3: …") and what a reader names with it (outline, frame titles). */
  constructor(readonly locale: Locale = ENGLISH) {}

  /** The lines, or a function that gives them when the first problem is placed (a reader that never splits its text). */
  within(lines: readonly string[] | (() => readonly string[])): this {
    this.lines = lines;
    return this;
  }

  error(code: string, range: SourceRange, text: string): void {
    this.add('error', code, range, text);
  }

  warning(code: string, range: SourceRange, text: string): void {
    this.add('warning', code, range, text);
  }

  get hasErrors(): boolean {
    return this.errors > 0;
  }

  /** Problems reported so far, those past the cap included. */
  get count(): number {
    return this.diagnostics.length + this.dropped;
  }

  /** Sorted by line, then column; stable otherwise. Past the cap, one more says how many were left out. */
  sorted(): PoscarDiagnostic[] {
    return sortedWithOverflow(this.diagnostics, this.dropped, this.locale);
  }

  private add(severity: Severity, code: string, wanted: SourceRange, text: string): void {
    if (severity === 'error') this.errors++;
    if (this.diagnostics.length >= MAX_DIAGNOSTICS) {
      this.dropped++;
      return;
    }
    const range = this.clamp(wanted);
    this.diagnostics.push({ severity, message: this.locale.t('Line {0}: {1}', range.line + 1, text), range, code });
  }

  private clamp(range: SourceRange): SourceRange {
    if (typeof this.lines === 'function') this.lines = this.lines();
    const lines = this.lines;
    const last = lines.length - 1;
    if (range.line > last) return { line: last, start: lines[last]!.length, end: lines[last]!.length };
    const length = lines[range.line]!.length;
    return range.end <= length ? range : { line: range.line, start: Math.min(range.start, length), end: length };
  }
}

/** A token quoted for a message, shortened when long. */
export const quote = (text: string): string => `'${text.length > 40 ? `${text.slice(0, 37)}...` : text}'`;

/** '1 atom', '2 atoms'. */
export const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Diagnostics sorted by line, then column (stable otherwise); past a cap, one more says how many were left out. */
export function sortedWithOverflow(diagnostics: readonly PoscarDiagnostic[], dropped: number, { t }: Locale = ENGLISH): PoscarDiagnostic[] {
  const sorted = [...diagnostics].sort((p, q) => p.range.line - q.range.line || p.range.start - q.range.start);
  if (dropped === 0) return sorted;
  const last = sorted[sorted.length - 1]!;
  return [
    ...sorted,
    {
      ...last,
      code: 'more-problems',
      severity: 'warning',
      message: t('Line {0}: … and {1} more problems not shown (at most {2} are listed)', last.range.line + 1, dropped, MAX_DIAGNOSTICS),
    },
  ];
}
