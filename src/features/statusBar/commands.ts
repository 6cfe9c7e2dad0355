import * as vscode from 'vscode';
import { config, updateSetting } from '../../platform/config';
import {
  ESTIMATE_TOKENIZERS,
  findTokenizer,
  modelTokenizers,
  TOKENIZERS,
  UnknownTokenizerError,
  type Tokenizer,
  type TokenizerInfo,
} from '../../core/tokenizers/index';
import { Disposable, toDisposable } from '../../platform/disposable';
import type { Locale } from '../../core/util/locale';
import { countRows, scopeLabel, type CountSummary } from '../../core/counts/summary';
import type { Comparisons } from './comparisons';
import { notify } from '../../platform/notify';
import { plainText } from '../../core/util/outsideText';

/** Context windows offered by Set Context Window, and the ones typical of the models behind each encoding. */
const WINDOW_PRESETS = [4_096, 8_192, 16_384, 32_768, 128_000, 200_000, 1_000_000];
const TYPICAL_WINDOWS: Partial<Record<string, number[]>> = {
  cl100k_base: [8_192, 32_768, 128_000],
  o200k_base: [128_000, 200_000],
  // gpt-oss-20b and -120b: max_position_embeddings 131,072 in their config.json (openai/gpt-oss-120b on Hugging Face).
  o200k_harmony: [131_072],
  p50k_base: [4_096],
  p50k_edit: [4_096],
  r50k_base: [4_096],
  gpt2: [4_096],
};

/** A command offered at the end of the tokenizer pick (the desktop adds Add Model Tokenizer… and Use a tokenizer.json File…). */
export interface PickerAction {
  label: string;
  description?: string;
  command: string;
}
const pickerActions: PickerAction[] = [];

/** Offers `actions` at the end of Select Tokenizer's list; returns what takes them away again. */
export function addTokenizerPickerActions(actions: readonly PickerAction[]): vscode.Disposable {
  pickerActions.push(...actions);
  return toDisposable(() => {
    for (const action of actions) pickerActions.splice(pickerActions.indexOf(action), 1);
  });
}

/** What the commands count with: the status bar's feature. */
export interface CountSource {
  editor(): vscode.TextEditor | undefined;
  tokenizer(): Promise<Tokenizer | undefined>;
  countEditor(editor: vscode.TextEditor, tokenizer: Tokenizer, signal: AbortSignal): Promise<EditorCount | undefined>;
  readonly comparisons: Comparisons;
}

export interface EditorCount {
  summary: CountSummary;
  /** The non-empty selections counted; empty for the whole document. */
  ranges: vscode.Range[];
  /** Document version, selections, tokenizer and special-token mode: the same key means the same numbers. */
  key: string;
}

type TokenizerPickItem = vscode.QuickPickItem & { name?: string; command?: string };

/** Token Lens: Select Tokenizer, Count Tokens in Selection and Set Context Window. */
export class StatusBarCommands extends Disposable {
  constructor(
    private readonly feature: CountSource,
    private readonly log: vscode.LogOutputChannel,
    private readonly locale: Locale,
  ) {
    super();
    this.register(vscode.commands.registerCommand('tokenLens.selectTokenizer', (name?: unknown) => this.selectTokenizer(name)));
    this.register(vscode.commands.registerCommand('tokenLens.countSelection', () => this.countSelection()));
    this.register(vscode.commands.registerCommand('tokenLens.setContextWindow', (size?: unknown) => this.setContextWindow(size)));
  }

  /** Picks the context window the status bar measures against: a preset, a number of one's own, or none. Returns the size set. */
  private async setContextWindow(requested?: unknown): Promise<number | undefined> {
    const { t } = this.locale;
    let size = typeof requested === 'number' ? requested : undefined;
    if (size === undefined) {
      const current = config.contextWindow.size;
      const info = findTokenizer(config.tokenizer);
      const typical = info?.contextWindow ? [info.contextWindow] : (TYPICAL_WINDOWS[info?.kind ?? ''] ?? []);
      const items = [
        { label: t('No gauge'), description: t('count tokens only'), size: 0 },
        ...[...new Set([...WINDOW_PRESETS, ...typical])]
          .sort((a, b) => a - b)
          .map((n) => ({
            label: this.locale.number(n),
            size: n,
            description: [typical.includes(n) ? t('typical for {0}', config.tokenizer) : '', n === current ? t('current') : '']
              .filter(Boolean)
              .join(' · '),
          })),
        { label: t('Other…'), description: t('a number of tokens of your own'), size: -1 },
      ];
      const picked = await vscode.window.showQuickPick(items, {
        title: t('Token Lens: context window for the status bar gauge'),
        placeHolder: t('Tokens the model can take in (reserve for the answer: tokenLens.contextWindow.reserve)'),
      });
      if (!picked) return undefined;
      size = picked.size >= 0 ? picked.size : await this.askWindow();
    }
    if (size === undefined) return undefined;
    if (!(Number.isInteger(size) && size >= 0 && size <= 100_000_000)) {
      void notify.error(t('The context window must be a whole number of tokens from 0 (no gauge) to 100,000,000.'));
      return undefined;
    }
    await updateSetting('contextWindow.size', size);
    return size;
  }

  private async askWindow(): Promise<number | undefined> {
    const { t } = this.locale;
    const text = await vscode.window.showInputBox({
      title: t('Token Lens: context window'),
      prompt: t('Tokens the model can take in, e.g. 64000'),
      validateInput: (value) =>
        /^\s*[1-9]\d{0,8}\s*$/.test(value.replace(/[,_ ]/g, '')) ? undefined : t('A whole number of tokens, e.g. 64000'),
    });
    return text === undefined ? undefined : Number(text.replace(/[,_\s]/g, ''));
  }

  private async selectTokenizer(requested?: unknown): Promise<string | undefined> {
    const { t } = this.locale;
    let name = typeof requested === 'string' ? requested : undefined;
    if (name === undefined) {
      const currentName = config.tokenizer;
      const picked = await vscode.window.showQuickPick(this.pickItems(currentName), {
        title: t('Token Lens: choose the tokenizer'),
        placeHolder: t('Current: {0}', currentName),
        matchOnDescription: true,
      });
      if (picked?.command) {
        await vscode.commands.executeCommand(picked.command);
        return undefined;
      }
      name = picked?.name;
    }
    if (name === undefined) return undefined;
    if (!findTokenizer(name)) {
      void notify.error(new UnknownTokenizerError(name).message);
      return undefined;
    }
    try {
      await updateSetting('tokenizer', name);
    } catch (error) {
      const message = t('Token Lens could not save the tokenizer setting.');
      this.log.error(message, error);
      void notify.error(`${message} ${t('The Token Lens output has the details.')}`);
      return undefined;
    }
    return name;
  }

  /** The built-in tokenizers, the closed models' estimates and the open models (each under a separator), then the desktop's model commands. */
  private pickItems(currentName: string): TokenizerPickItem[] {
    const { t } = this.locale;
    // A model's name and description come from its file or repository: shown as text, never as an icon or link.
    const item = (info: TokenizerInfo, description: string): TokenizerPickItem => ({
      label: plainText(info.name),
      name: info.name,
      description: plainText(description),
      picked: info.name === currentName,
      detail: info.name === currentName ? t('current') : undefined,
    });
    const models = modelTokenizers();
    const separator = (label: string): TokenizerPickItem => ({ label, kind: vscode.QuickPickItemKind.Separator });
    return [
      ...TOKENIZERS.map((info) => item(info, t(info.description))),
      separator(t('Closed models (estimates)')),
      ...ESTIMATE_TOKENIZERS.map((info) =>
        item(info, [t('{0} tokens of context', this.locale.number(info.contextWindow ?? 0)), t(info.description)].join(' · ')),
      ),
      ...(models.length ? [separator(t('Open models (tokenizer.json)'))] : []),
      ...models.map((info) =>
        item(
          info,
          [info.family, info.contextWindow ? t('{0} tokens of context', this.locale.number(info.contextWindow)) : '', info.description]
            .filter(Boolean)
            .join(' · '),
        ),
      ),
      ...(pickerActions.length ? [separator('')] : []),
      ...pickerActions.map((a) => ({ label: a.label, description: a.description, command: a.command })),
    ];
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
      void notify.info(t('Token Lens: open a text editor to count its tokens.'));
      return undefined;
    }
    try {
      const summary = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: t('Counting tokens…') }, () =>
        this.count(editor),
      );
      if (summary) this.showResult(summary, editor.document);
      return summary;
    } catch (error) {
      const message = t('Token Lens could not count the tokens.');
      this.log.error(message, error);
      void notify.error(`${message} ${t('The Token Lens output has the details.')}`);
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
    pick.items = countRows(summary, this.locale, config.price(summary.tokenizer));
    pick.matchOnDescription = true;
    pick.onDidAccept(() => {
      const row = pick.selectedItems[0];
      if (row?.value) {
        void vscode.env.clipboard.writeText(row.value);
        vscode.window.setStatusBarMessage(t('Token Lens: copied {0}', row.value), 3000);
      }
      pick.hide();
    });
    pick.onDidHide(() => pick.dispose());
    pick.show();
  }
}
