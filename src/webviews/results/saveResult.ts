/** A run's answer saved as JSON: from the Runs list's Save Result As… and from an application's view. */
import * as vscode from 'vscode';
import { kindLabel, resultFileName, type RunRecord } from '../../core/runs/run';
import { notify } from '../../platform/notify';
import { hostLocale } from '../../platform/locale';

/** "Save Result As…": the raw answer as JSON, named for the run, beside its input (or in the workspace), then says where. */
export async function saveResult(run: RunRecord, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (!run.response) {
    void notify.info(vscode.l10n.t('This run has no answer to save.'));
    return undefined;
  }
  const uri =
    target ??
    (await vscode.window.showSaveDialog({
      defaultUri: proposedUri(run),
      filters: { JSON: ['json'] },
      saveLabel: vscode.l10n.t('Save Result'),
    }));
  if (!uri) return undefined;
  const body = run.response.body;
  const value =
    body.type === 'json'
      ? body.value
      : body.type === 'text'
        ? body.text
        : { contentType: body.contentType, base64: Buffer.from(body.bytes).toString('base64') };
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`));
  const open = vscode.l10n.t('Open');
  void notify
    .info(
      vscode.l10n.t(
        'Saved the {0} result to {1}',
        kindLabel(run.kind, hostLocale().t),
        uri.scheme === 'file' ? uri.fsPath : uri.toString(true),
      ),
      open,
    )
    .then((choice) => {
      if (choice === open) void vscode.window.showTextDocument(uri, { preview: true });
    });
  return uri;
}

/** Beside the input file when it is one, else in the first workspace folder, else just the name. */
function proposedUri(run: RunRecord): vscode.Uri | undefined {
  const name = resultFileName(run);
  const input = vscode.Uri.parse(run.inputUri);
  if (input.scheme === 'file') return vscode.Uri.joinPath(input, '..', name);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder ? vscode.Uri.joinPath(folder, name) : vscode.Uri.file(name);
}
