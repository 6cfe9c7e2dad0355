import * as vscode from 'vscode';
import { config, onDidChangeConfig, updateSetting } from '../config';
import {
  CancelledError, countAsync, ENCODING_NAMES, findTokenizer, loadTokenizer, TOKENIZERS, UnknownTokenizerError,
  type Tokenizer,
} from '../tokenizers';
import { Debouncer } from '../util/debounce';
import { Disposable } from '../util/disposable';
import { DocumentCounts } from './documentCounts';
import { formatCount, charsPerToken, statusText, summarize, tokenQuantity, tooltipMarkdown, type CountSummary } from './summary';

/** Texts longer than this get no automatic comparison with the other encodings (the count command still gives it). */
const COMPARE_LIMIT = 500_000;
/** A count that takes longer than this shows a "counting" state instead of a stale number. */
const COUNTING_STATE_AFTER_MS = 120;

/** The live count in the status bar, and the commands that choose the tokenizer and report counts. */
export class StatusBarFeature extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('tokenLens.count', vscode.StatusBarAlignment.Right, 100));
  private readonly counts = this.register(new DocumentCounts());
  private readonly refreshSoon = this.register(new Debouncer(25, () => void this.refresh()));
  private readonly compareSoon = this.register(new Debouncer(400, () => void this.compare()));
  private generation = 0;
  private abort = new AbortController();
  private current: { summary: CountSummary; texts: string[] | undefined; generation: number } | undefined;

  constructor() {
    super();
    this.item.name = 'Token Lens';
    this.item.command = 'tokenLens.selectTokenizer';
    this.register({ dispose: () => this.abort.abort() });
    this.register(vscode.window.onDidChangeActiveTextEditor(() => this.refreshSoon.schedule()));
    this.register(vscode.window.onDidChangeTextEditorSelection((e) => {
      if (e.textEditor === vscode.window.activeTextEditor) this.refreshSoon.schedule();
    }));
    this.register(this.counts.onDidChange((document) => {
      if (document === vscode.window.activeTextEditor?.document) this.refreshSoon.schedule();
    }));
    this.register(onDidChangeConfig((affects) => {
      if (affects('tokenizer') || affects('specialTokens')) this.counts.clear();
      if (affects('tokenizer') || affects('specialTokens') || affects('statusBar')) void this.refresh();
    }));
    this.register(vscode.commands.registerCommand('tokenLens.selectTokenizer', (name?: unknown) => this.selectTokenizer(name)));
    this.register(vscode.commands.registerCommand('tokenLens.countSelection', () => this.countSelection()));
    void this.refresh();
  }

  /** What the status bar shows now: for tests and the public API. */
  get state(): { visible: boolean; text: string; tooltip: string; summary: CountSummary | undefined } {
    const tooltip = this.item.tooltip;
    return {
      visible: this.visible,
      text: this.item.text,
      tooltip: typeof tooltip === 'string' ? tooltip : tooltip?.value ?? '',
      summary: this.current?.summary,
    };
  }

  private visible = false;

  private setVisible(visible: boolean): void {
    this.visible = visible;
    if (visible) this.item.show();
    else this.item.hide();
  }

  async refresh(): Promise<void> {
    const generation = ++this.generation;
    this.abort.abort();
    this.abort = new AbortController();
    const signal = this.abort.signal;
    const editor = vscode.window.activeTextEditor;
    if (!editor || !config.statusBarEnabled) {
      this.current = undefined;
      this.setVisible(false);
      return;
    }
    const tokenizer = await this.tokenizer();
    if (!tokenizer || generation !== this.generation) return;
    const counting = setTimeout(() => this.showCounting(tokenizer.info.name), COUNTING_STATE_AFTER_MS);
    try {
      const result = await this.countEditor(editor, tokenizer, signal);
      if (!result || generation !== this.generation) return;
      this.current = { summary: result.summary, texts: result.texts, generation };
      this.show(result.summary);
      this.compareSoon.schedule();
    } catch (error) {
      if (!(error instanceof CancelledError)) this.showError(`Token Lens could not count: ${String(error)}`);
    } finally {
      clearTimeout(counting);
    }
  }

  /** Counts the selections (their sum), or the whole document when nothing is selected. */
  private async countEditor(editor: vscode.TextEditor, tokenizer: Tokenizer, signal: AbortSignal) {
    const document = editor.document;
    const selected = editor.selections.filter((s) => !s.isEmpty);
    const name = tokenizer.info.name;
    if (selected.length === 0) {
      const tokens = await this.counts.count(document, tokenizer);
      return tokens === undefined ? undefined : { summary: summarize(name, 'document', [document.getText()], tokens), texts: undefined };
    }
    const texts = selected.map((s) => document.getText(s));
    let tokens = 0;
    for (const text of texts) tokens += await countAsync(tokenizer, text, { signal });
    return { summary: summarize(name, 'selection', texts, tokens), texts };
  }

  /** Adds the other encodings' counts to the tooltip, once the user pauses. */
  private async compare(): Promise<void> {
    const current = this.current;
    const editor = vscode.window.activeTextEditor;
    if (!current || !editor || current.generation !== this.generation) return;
    if (!config.compareEncodings || current.summary.characters > COMPARE_LIMIT) return;
    const texts = current.texts ?? [editor.document.getText()];
    try {
      current.summary.comparisons = await this.compareEncodings(current.summary.tokenizer, texts, this.abort.signal);
      if (current.generation === this.generation) this.show(current.summary);
    } catch (error) {
      if (!(error instanceof CancelledError)) throw error;
    }
  }

  private async compareEncodings(tokenizerName: string, texts: string[], signal: AbortSignal) {
    const own = findTokenizer(tokenizerName)?.kind;
    const comparisons: CountSummary['comparisons'] = [];
    for (const encoding of ENCODING_NAMES) {
      if (encoding === own) continue;
      const other = await loadTokenizer(encoding, { specialTokens: config.specialTokens });
      let tokens = 0;
      for (const text of texts) tokens += await countAsync(other, text, { signal });
      comparisons.push({ tokenizer: encoding, tokens });
    }
    return comparisons;
  }

  private async tokenizer(): Promise<Tokenizer | undefined> {
    try {
      return await loadTokenizer(config.tokenizer, { specialTokens: config.specialTokens });
    } catch (error) {
      if (!(error instanceof UnknownTokenizerError)) throw error;
      this.current = undefined;
      this.showError(`${error.message} Click to choose one.`, `$(warning) Unknown tokenizer "${error.requested}"`);
      return undefined;
    }
  }

  private show(summary: CountSummary): void {
    this.item.text = statusText(summary);
    this.item.tooltip = new vscode.MarkdownString(tooltipMarkdown(summary));
    this.item.accessibilityInformation = {
      label: `${tokenQuantity(summary)}, ${summary.tokenizer}`,
    };
    this.item.backgroundColor = undefined;
    this.setVisible(true);
  }

  private showCounting(tokenizer: string): void {
    this.item.text = `$(loading~spin) Counting tokens… · ${tokenizer}`;
    this.item.tooltip = 'Token Lens is counting this document in the background; the editor stays responsive.';
    this.setVisible(true);
  }

  private showError(message: string, text = '$(warning) Token Lens'): void {
    this.item.text = text;
    this.item.tooltip = message;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.setVisible(true);
  }

  private async selectTokenizer(requested?: unknown): Promise<string | undefined> {
    let name = typeof requested === 'string' ? requested : undefined;
    if (name === undefined) {
      const currentName = config.tokenizer;
      const picked = await vscode.window.showQuickPick(
        TOKENIZERS.map((t) => ({ label: t.name, description: t.description, picked: t.name === currentName, detail: t.name === currentName ? 'current' : undefined })),
        { title: 'Token Lens: choose the tokenizer', placeHolder: `Current: ${currentName}` },
      );
      name = picked?.label;
    }
    if (name === undefined) return undefined;
    if (!findTokenizer(name)) {
      void vscode.window.showErrorMessage(new UnknownTokenizerError(name).message);
      return undefined;
    }
    await updateSetting('tokenizer', name);
    return name;
  }

  /** Shows the counts of the selection (or document), with every encoding, and returns them. */
  private async countSelection(): Promise<CountSummary | undefined> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage('Token Lens: open a text editor to count its tokens.');
      return undefined;
    }
    const tokenizer = await this.tokenizer();
    if (!tokenizer) return undefined;
    const signal = new AbortController().signal;
    const result = await this.countEditor(editor, tokenizer, signal);
    if (!result) return undefined;
    const summary = result.summary;
    summary.comparisons = await this.compareEncodings(summary.tokenizer, result.texts ?? [editor.document.getText()], signal);
    const scope = summary.scope === 'document' ? 'Document' : summary.selections > 1 ? `${summary.selections} selections` : 'Selection';
    const others = summary.comparisons.map((c) => `${c.tokenizer} ${formatCount(c.tokens)}`).join(', ');
    void vscode.window.showInformationMessage(
      `${scope}: ${formatCount(summary.tokens)} tokens (${summary.tokenizer}), ${formatCount(summary.characters)} characters, ${charsPerToken(summary)} characters per token. Other encodings: ${others}.`,
    );
    return summary;
  }
}
