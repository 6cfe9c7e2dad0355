/**
 * Diffraction-data files in the editor: live problems (150 ms after typing pauses, like POSCAR) from
 * the one pure parser, and the active file's parse for the Powder Diffraction Match command.
 */
import * as vscode from 'vscode';
import { DIAGNOSTICS_DEBOUNCE_MS } from '../../poscar/editor/language';
import { Disposable } from '../../util/disposable';
import { parseDiffraction, type DiffractionData, type DiffractionDiagnostic } from '../parse';

export const DIFFRACTION_LANGUAGE = 'diffraction';

const cache = new WeakMap<vscode.TextDocument, { version: number; data: DiffractionData }>();

/** One parse per document version. */
export function parsedDiffraction(document: vscode.TextDocument): DiffractionData {
  const hit = cache.get(document);
  if (hit && hit.version === document.version) return hit.data;
  const data = parseDiffraction(document.getText());
  cache.set(document, { version: document.version, data });
  return data;
}

export function diagnosticRange(d: Pick<DiffractionDiagnostic, 'line' | 'start' | 'end'>): vscode.Range {
  return new vscode.Range(d.line, d.start, d.line, Math.max(d.start, d.end));
}

export class DiffractionLanguageFeature extends Disposable {
  private readonly collection = this.register(vscode.languages.createDiagnosticCollection(DIFFRACTION_LANGUAGE));
  private readonly timers = new Map<vscode.TextDocument, ReturnType<typeof setTimeout>>();

  constructor() {
    super();
    this.register(vscode.workspace.onDidOpenTextDocument((d) => this.diagnose(d)));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)));
    this.register(vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)));
    this.register({ dispose: () => this.timers.forEach((t) => clearTimeout(t)) });
    vscode.workspace.textDocuments.forEach((d) => this.diagnose(d));
  }

  private schedule(document: vscode.TextDocument): void {
    if (document.languageId !== DIFFRACTION_LANGUAGE) return;
    clearTimeout(this.timers.get(document));
    this.timers.set(document, setTimeout(() => {
      this.timers.delete(document);
      this.diagnose(document);
    }, DIAGNOSTICS_DEBOUNCE_MS));
  }

  private diagnose(document: vscode.TextDocument): void {
    if (document.languageId !== DIFFRACTION_LANGUAGE || document.isClosed) {
      this.collection.delete(document.uri);
      return;
    }
    // A new, empty file is not yet wrong.
    const problems = parsedDiffraction(document).diagnostics.filter((d) => d.code !== 'no-data' || document.getText().trim() !== '');
    this.collection.set(document.uri, problems.map((d) => {
      const diagnostic = new vscode.Diagnostic(diagnosticRange(d), d.message, d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
      diagnostic.source = 'Diffraction data';
      diagnostic.code = d.code;
      return diagnostic;
    }));
  }

  private forget(document: vscode.TextDocument): void {
    clearTimeout(this.timers.get(document));
    this.timers.delete(document);
    this.collection.delete(document.uri);
  }
}
