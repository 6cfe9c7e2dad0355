import * as vscode from 'vscode';
import { config, updateSetting } from '../config';
import { findTokenizer, TOKENIZERS, UnknownTokenizerError } from '../tokenizers';
import { Disposable } from '../util/disposable';
import type { Locale } from '../util/locale';
import type { EditorCount, StatusBarFeature } from './feature';
import { countRows, scopeLabel, type CountSummary } from './summary';

/** Token Lens: Select Tokenizer and Count Tokens in Selection. */
export class StatusBarCommands extends Disposable {
  constructor(private readonly feature: StatusBarFeature, private readonly log: vscode.LogOutputChannel, private readonly locale: Locale) {
    super();
    this.register(vscode.commands.registerCommand('tokenLens.selectTokenizer', (name?: unknown) => this.selectTokenizer(name)));
    this.register(vscode.commands.registerCommand('tokenLens.countSelection', () => this.countSelection()));
  }

  private async selectTokenizer(requested?: unknown): Promise<string | undefined> {
    const { t } = this.locale;
    let name = typeof requested === 'string' ? requested : undefined;
    if (name === undefined) {
      const currentName = config.tokenizer;
      const picked = await vscode.window.showQuickPick(
        TOKENIZERS.map((info) => ({
          label: info.name,
          description: t(info.description),
          picked: info.name === currentName,
          detail: info.name === currentName ? t('current') : undefined,
        })),
        { title: t('Token Lens: choose the tokenizer'), placeHolder: t('Current: {0}', currentName) },
      );
      name = picked?.label;
    }
    if (name === undefined) return undefined;
    if (!findTokenizer(name)) {
      void vscode.window.showErrorMessage(new UnknownTokenizerError(name).message);
      return undefined;
    }
    try {
      await updateSetting('tokenizer', name);
    } catch (error) {
      const message = t('Token Lens could not save the tokenizer setting.');
      this.log.error(message, error);
      void vscode.window.showErrorMessage(`${message} ${t('The Token Lens output has the details.')}`);
      return undefined;
    }
    return name;
  }

  /**
   * Counts the selection (or the document) with every encoding and shows the result whole, one row
   * per number, in a quick pick (picking a row copies its number). Progress shows in the status bar,
   * never as a notification, so nothing overlaps the result. Returns the counts.
   */
  private async countSelection(): Promise<CountSummary | undefined> {
    const { t } = this.locale;
    const editor = this.feature.editor();
    if (!editor) {
      void vscode.window.showInformationMessage(t('Token Lens: open a text editor to count its tokens.'));
      return undefined;
    }
    try {
      const summary = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: t('Counting tokens…') },
        () => this.count(editor),
      );
      if (summary) this.showResult(summary, editor.document);
      return summary;
    } catch (error) {
      const message = t('Token Lens could not count the tokens.');
      this.log.error(message, error);
      void vscode.window.showErrorMessage(`${message} ${t('The Token Lens output has the details.')}`);
      return undefined;
    }
  }

  private async count(editor: vscode.TextEditor): Promise<CountSummary | undefined> {
    const tokenizer = await this.feature.tokenizer();
    if (!tokenizer) return undefined;
    const signal = new AbortController().signal;
    const result: EditorCount | undefined = await this.feature.countEditor(editor, tokenizer, signal);
    if (!result) return undefined;
    const { summary, key, ranges } = result;
    summary.comparisons = await this.feature.comparisons.compute(key, editor.document, ranges, summary.tokenizer, signal);
    return summary;
  }

  private showResult(summary: CountSummary, document: vscode.TextDocument): void {
    const { t } = this.locale;
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { value: string }>();
    const name = document.uri.path.slice(document.uri.path.lastIndexOf('/') + 1) || document.uri.toString();
    pick.title = t('Token Lens: {0} of {1}', scopeLabel(summary, this.locale), name);
    pick.placeholder = t('Pick a row to copy its number');
    pick.items = countRows(summary, this.locale);
    pick.matchOnDescription = true;
    pick.onDidAccept(() => {
      const row = pick.selectedItems[0];
      if (row) {
        void vscode.env.clipboard.writeText(row.value);
        vscode.window.setStatusBarMessage(t('Token Lens: copied {0}', row.value), 3000);
      }
      pick.hide();
    });
    pick.onDidHide(() => pick.dispose());
    pick.show();
  }
}
