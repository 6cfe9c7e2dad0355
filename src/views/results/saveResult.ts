/** A run's answer saved as JSON: from the Runs list's Save Result As… and from an application's view. */
import * as vscode from 'vscode';
import type { RunRecord } from './run';
import { notify } from '../../util/notify';

/** "Save Result As…": the raw answer as JSON, beside the POSCAR by default. */
export async function saveResult(run: RunRecord, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (!run.response) {
    void notify.info('This run has no answer to save.');
    return undefined;
  }
  const input = vscode.Uri.parse(run.inputUri);
  const name = `${run.inputName}.${run.kind}.json`;
  const defaultUri = input.scheme === 'file' ? vscode.Uri.joinPath(input, '..', name) : undefined;
  const uri = target ?? await vscode.window.showSaveDialog({ defaultUri, filters: { JSON: ['json'] }, saveLabel: 'Save Result' });
  if (!uri) return undefined;
  const body = run.response.body;
  const value = body.type === 'json' ? body.value : body.type === 'text' ? body.text : { contentType: body.contentType, base64: Buffer.from(body.bytes).toString('base64') };
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`));
  return uri;
}
