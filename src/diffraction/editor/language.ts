/**
 * Diffraction-data files in the editor: live problems (150 ms after typing pauses, like POSCAR) from
 * the one pure parser, and the document's parse for the Powder Diffraction Match command.
 */
import * as vscode from 'vscode';
import { LiveDiagnostics } from '../../util/liveDiagnostics';
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

/** Live problems of diffraction-data documents. */
export function diffractionDiagnostics(): LiveDiagnostics {
  return new LiveDiagnostics(DIFFRACTION_LANGUAGE, (document) => {
    // A new, empty file is not yet wrong.
    const empty = document.getText().trim() === '';
    return parsedDiffraction(document).diagnostics.filter((d) => !(empty && d.code === 'no-data')).map((d) => {
      const diagnostic = new vscode.Diagnostic(diagnosticRange(d), d.message, d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
      diagnostic.source = 'Diffraction data';
      diagnostic.code = d.code;
      return diagnostic;
    });
  });
}
