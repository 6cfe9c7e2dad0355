/**
 * Live problems of every registered materials format (POSCAR, diffraction data, CIF, XYZ, XDATCAR,
 * OUTCAR, vasprun.xml), from the one parse of each document version: one registration, one
 * diagnostics collection per language.
 */
import * as vscode from 'vscode';
import { FORMATS, type FormatEntry } from '../../core/structures/formats';
import type { StructureDiagnostic } from '../../core/structures/types';
import { Disposable } from '../../platform/disposable';
import { problemRange } from '../../platform/documentParse';
import { documentParser } from '../../platform/formatDocuments';
import { LiveDiagnostics } from '../../platform/liveDiagnostics';

const SEVERITY: Record<StructureDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export function toDiagnostic(d: StructureDiagnostic, source: string): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(problemRange(d.range), d.message, SEVERITY[d.severity]);
  diagnostic.source = source;
  diagnostic.code = d.code;
  return diagnostic;
}

/** A format's problems for a document (none that only say a new, still empty file is empty). */
export function formatProblems(entry: FormatEntry, document: vscode.TextDocument): vscode.Diagnostic[] {
  const problems = entry.diagnostics(documentParser(entry)(document));
  const empty = entry.quietWhenEmpty.length > 0 && !/\S/.test(document.getText());
  return problems.filter((p) => !(empty && entry.quietWhenEmpty.includes(p.code))).map((p) => toDiagnostic(p, entry.language.label));
}

export class FormatDiagnostics extends Disposable {
  constructor(log: vscode.LogOutputChannel, formats: readonly FormatEntry[] = FORMATS) {
    super();
    for (const entry of formats) this.register(new LiveDiagnostics(entry.language.languageId, (d) => formatProblems(entry, d), log));
  }
}
