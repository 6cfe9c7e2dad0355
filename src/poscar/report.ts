/** Collects diagnostics; every message starts with the 1-based line number. */
import type { PoscarDiagnostic, Severity, SourceRange } from './types';

export class Report {
  readonly diagnostics: PoscarDiagnostic[] = [];
  private errors = 0;

  error(code: string, range: SourceRange, text: string): void {
    this.add('error', code, range, text);
  }

  warning(code: string, range: SourceRange, text: string): void {
    this.add('warning', code, range, text);
  }

  get hasErrors(): boolean {
    return this.errors > 0;
  }

  /** Sorted by line, then column; stable otherwise. */
  sorted(): PoscarDiagnostic[] {
    return [...this.diagnostics].sort((p, q) => p.range.line - q.range.line || p.range.start - q.range.start);
  }

  private add(severity: Severity, code: string, range: SourceRange, text: string): void {
    if (severity === 'error') this.errors++;
    this.diagnostics.push({ severity, message: `Line ${range.line + 1}: ${text}`, range, code });
  }
}

/** A token quoted for a message, shortened when long. */
export const quote = (text: string): string => `'${text.length > 40 ? `${text.slice(0, 37)}...` : text}'`;

/** '1 atom', '2 atoms'. */
export const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
