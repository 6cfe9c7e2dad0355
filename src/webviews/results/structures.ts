/**
 * What a result view does with the structure a run returned: open it as a new POSCAR document,
 * compare it with the structure sent (a diff of two read-only documents served under the
 * `tokenlens-result:` scheme), or save it beside the input.
 */
import * as vscode from 'vscode';
import { POSCAR_LANGUAGE } from '../../platform/poscarDocuments';
import { Disposable, toDisposable } from '../../platform/disposable';
import { derivedName } from './poscarText';
import type { RunRecord } from '../../core/runs/run';
import { notify } from '../../platform/notify';

export const RESULT_SCHEME = 'tokenlens-result';

/** The texts every ResultDocuments serves: one provider per scheme, however many views hold a ResultDocuments. */
const texts = new Map<string, string>();
const changed = new vscode.EventEmitter<vscode.Uri>();
let provider: { registration: vscode.Disposable; users: number } | undefined;

/** Serves the texts a diff shows; they are forgotten with their run's view. */
export class ResultDocuments extends Disposable {
  /** Where Save writes without asking (tests only). */
  saveTarget: vscode.Uri | undefined;

  constructor() {
    super();
    // A scheme answers through one provider: the result views and the powder pattern's share it.
    provider ??= {
      registration: vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, {
        onDidChange: changed.event,
        provideTextDocumentContent: (uri) => texts.get(uri.toString()) ?? '',
      }),
      users: 0,
    };
    provider.users++;
    this.register(
      toDisposable(() => {
        if (provider && --provider.users === 0) {
          provider.registration.dispose();
          provider = undefined;
        }
      }),
    );
  }

  private serve(runId: string, part: string, name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${encodeURIComponent(runId)}/${part}/${name}` });
    texts.set(uri.toString(), text);
    changed.fire(uri);
    return uri;
  }

  forget(runId: string): void {
    const prefix = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${encodeURIComponent(runId)}/` }).toString();
    for (const key of [...texts.keys()]) if (key.startsWith(prefix)) texts.delete(key);
  }

  async open(text: string): Promise<void> {
    const document = await vscode.workspace.openTextDocument({ language: POSCAR_LANGUAGE, content: text });
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  }

  async compare(run: RunRecord, text: string, what: string): Promise<void> {
    const left = await this.poscarDocument(this.serve(run.id, 'input', run.inputName, run.inputText));
    const right = await this.poscarDocument(this.serve(run.id, what, derivedName(run.inputName, what), text));
    await vscode.commands.executeCommand('vscode.diff', left.uri, right.uri, `${run.inputName} ↔ ${what}`, {
      viewColumn: vscode.ViewColumn.Beside,
      preview: false,
    });
  }

  private async poscarDocument(uri: vscode.Uri): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument(uri);
    return document.languageId === POSCAR_LANGUAGE ? document : vscode.languages.setTextDocumentLanguage(document, POSCAR_LANGUAGE);
  }

  async save(run: RunRecord, text: string, what: string): Promise<vscode.Uri | undefined> {
    const input = vscode.Uri.parse(run.inputUri);
    const name = derivedName(run.inputName, what);
    const defaultUri = input.scheme === 'untitled' ? undefined : vscode.Uri.joinPath(input, '..', name);
    const target =
      this.saveTarget ??
      (await vscode.window.showSaveDialog({
        defaultUri,
        saveLabel: vscode.l10n.t('Save'),
        title: vscode.l10n.t('Save the {0} structure', what),
      }));
    if (!target) return undefined;
    try {
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
      vscode.window.setStatusBarMessage(vscode.l10n.t('Token Lens: saved {0}', target.path.slice(target.path.lastIndexOf('/') + 1)), 3000);
      return target;
    } catch (error) {
      void notify.error(vscode.l10n.t('Could not save the structure: {0}', error instanceof Error ? error.message : String(error)));
      return undefined;
    }
  }
}
