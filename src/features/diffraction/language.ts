/**
 * Diffraction-data files in the editor: live problems (150 ms after typing pauses, like POSCAR) from
 * the one pure parser, and the document's parse for the Powder Diffraction Match command.
 */
import * as vscode from 'vscode';
import { perVersion, problemRange } from '../../platform/documentParse';
import { LiveDiagnostics } from '../../platform/liveDiagnostics';
import { parseDiffraction, type DiffractionData } from '../../core/diffraction/parse';

export const DIFFRACTION_LANGUAGE = 'diffraction';

/** One parse per document version. */
export const parsedDiffraction: (document: vscode.TextDocument) => DiffractionData = perVersion(parseDiffraction);

/** Live problems of diffraction-data documents. */
export function diffractionDiagnostics(log: vscode.LogOutputChannel): LiveDiagnostics {
  return new LiveDiagnostics(
    DIFFRACTION_LANGUAGE,
    (document) => {
      // A new, empty file is not yet wrong.
      const empty = document.getText().trim() === '';
      return parsedDiffraction(document)
        .diagnostics.filter((d) => !(empty && d.code === 'no-data'))
        .map((d) => {
          const diagnostic = new vscode.Diagnostic(
            problemRange(d),
            d.message,
            d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
          );
          diagnostic.source = 'Diffraction data';
          diagnostic.code = d.code;
          return diagnostic;
        });
    },
    log,
  );
}
