import * as vscode from 'vscode';
import { config, onDidChangeConfig } from '../../platform/config';
import { plainText } from '../../core/util/outsideText';
import {
  CancelledError,
  countAsync,
  isLoaded,
  loadTokenizer,
  ModelLoadError,
  onModelsChanged,
  UnknownTokenizerError,
  type Tokenizer,
} from '../../core/tokenizers/index';
import { Debouncer } from '../../core/util/debounce';
import { Disposable, toDisposable } from '../../platform/disposable';
import type { Locale } from '../../core/util/locale';
import { StatusBarCommands, type CountSource, type EditorCount } from './commands';
import { Comparisons } from './comparisons';
import { DocumentCounts } from './documentCounts';
import { gauge, statusText, summarize, tokenQuantity, tooltipMarkdown, type CountSummary } from '../../core/counts/summary';
import { scaleCount } from '../../core/tokenizers/index';
import type { ConversationCounts, ConversationTotal, NotAConversation } from '../chat/conversationCounts';
import { exactCountSource, onDidChangeExactCounts } from './exact';
import { providerInput } from '../../core/providers/providers';

/** Texts longer than this get no automatic comparison with the other encodings (the count command still gives it). */
const COMPARE_LIMIT = 500_000;
/** A count that takes longer than this shows a "counting" state instead of a stale number. */
const COUNTING_STATE_AFTER_MS = 120;

/** What one editor's text is, counted: the selections (none: the whole document) and their summary. */
/** The live count in the status bar; its tooltip adds the other encodings once the user pauses. */
export class StatusBarFeature extends Disposable implements CountSource {
  private readonly item = this.register(vscode.window.createStatusBarItem('tokenLens.count', vscode.StatusBarAlignment.Right, 100));
  private readonly counts = this.register(new DocumentCounts());
  readonly comparisons = new Comparisons(this.counts);
  private readonly refreshSoon = this.register(new Debouncer(25, () => void this.refresh()));
  private readonly compareSoon = this.register(new Debouncer(400, () => void this.compare()));
  private generation = 0;
  private abort = new AbortController();
  private current: (EditorCount & { generation: number; tokenizer: Tokenizer }) | undefined;
  /** The last text editor that had focus: its count stays while a webview, a tree or the panel has focus. */
  private lastEditor: vscode.TextEditor | undefined;
  private visible = false;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly locale: Locale,
    /** Conversations (JSON, JSONL datasets) counted as the model reads them; without it, as text. */
    private readonly conversations?: ConversationCounts,
  ) {
    super();
    this.item.name = 'Token Lens';
    this.item.command = 'tokenLens.selectTokenizer';
    this.register(toDisposable(() => this.abort.abort()));
    this.register(new StatusBarCommands(this, log, locale));
    this.register(vscode.window.onDidChangeActiveTextEditor(() => this.refreshSoon.schedule()));
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.refreshSoon.schedule()));
    this.register(
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor === this.editor()) this.refreshSoon.schedule();
      }),
    );
    this.register(
      this.counts.onDidChange((document) => {
        if (document === this.editor()?.document) this.refreshSoon.schedule();
      }),
    );
    this.register(
      onDidChangeConfig((affects) => {
        if (affects('tokenizer') || affects('specialTokens')) {
          this.counts.clear();
          this.comparisons.clear();
        }
        if (
          affects('tokenizer') ||
          affects('specialTokens') ||
          affects('statusBar') ||
          affects('contextWindow') ||
          affects('chat') ||
          affects('prices')
        ) {
          this.current = undefined;
          void this.refresh();
        }
      }),
    );
    this.register(
      onDidChangeExactCounts(() => {
        this.current = undefined;
        void this.refresh();
      }),
    );
    // A model added, replaced or removed under the configured name: what was counted with it is stale.
    this.register(
      toDisposable(
        onModelsChanged((name) => {
          if (name !== config.tokenizer) return;
          this.counts.clear();
          this.comparisons.clear();
          this.current = undefined;
          void this.refresh();
        }),
      ),
    );
    void this.refresh();
  }

  /** What the status bar shows now: for the tests (through the test-mode API). */
  get state(): { visible: boolean; text: string; tooltip: string; background: string | undefined; summary: CountSummary | undefined } {
    const tooltip = this.item.tooltip;
    return {
      visible: this.visible,
      background: this.item.backgroundColor?.id,
      text: this.item.text,
      tooltip: typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? ''),
      summary: this.current?.summary,
    };
  }

  /** The editor counted: the active one, or else the last one that was active while it is still on screen. */
  editor(): vscode.TextEditor | undefined {
    const active = vscode.window.activeTextEditor;
    if (active) return (this.lastEditor = active);
    const last = this.lastEditor;
    if (!last || last.document.isClosed) return undefined;
    const visible = vscode.window.visibleTextEditors;
    return visible.find((e) => e === last) ?? visible.find((e) => e.document === last.document);
  }

  /** The configured tokenizer; an unknown name shows a warning in the status bar and gives undefined. */
  async tokenizer(): Promise<Tokenizer | undefined> {
    const name = config.tokenizer;
    const { t } = this.locale;
    // A model's tokenizer.json is read and built on first use (a second or more for the largest).
    const loading = setTimeout(() => {
      if (!isLoadedSafe(name)) this.showLoading(name);
    }, COUNTING_STATE_AFTER_MS);
    try {
      return await loadTokenizer(name, { specialTokens: config.specialTokens });
    } catch (error) {
      this.current = undefined;
      if (error instanceof UnknownTokenizerError) {
        this.showError(
          `${error.message} ${t('Click to choose one.')}`,
          `$(warning) ${t('Unknown tokenizer "{0}"', plainText(error.requested))}`,
        );
      } else if (error instanceof ModelLoadError) {
        this.log.error(error.message);
        this.showError(
          `${error.message} ${t('Click to choose another tokenizer.')}`,
          `$(warning) ${t('Could not load "{0}"', plainText(name))}`,
        );
      } else throw error;
      return undefined;
    } finally {
      clearTimeout(loading);
    }
  }

  private showLoading(name: string): void {
    this.item.text = `$(loading~spin) ${this.locale.t('Loading {0}…', plainText(name))}`;
    this.item.tooltip = this.locale.t("Token Lens is reading this model's tokenizer.json; the editor stays responsive.");
    this.setVisible(true);
  }

  /** Counts the selections (their sum), or the whole document when nothing is selected. */
  async countEditor(editor: vscode.TextEditor, tokenizer: Tokenizer, signal: AbortSignal): Promise<EditorCount | undefined> {
    const document = editor.document;
    const ranges: vscode.Range[] = editor.selections.filter((s) => !s.isEmpty);
    const name = tokenizer.info.name;
    const key = Comparisons.key(document, ranges, name);
    const texts = ranges.length ? ranges.map((r) => document.getText(r)) : [document.getText()];
    const scope = ranges.length ? 'selection' : 'document';
    const conversation = await this.countConversation(document, texts, ranges.length > 0, name, signal);
    if (conversation && 'tokens' in conversation)
      return { summary: withExact(withConversation(summarize(name, scope, texts, conversation.tokens), conversation), texts), ranges, key };
    let tokens: number | undefined = 0;
    if (ranges.length === 0) tokens = await this.counts.count(document, tokenizer);
    else for (const text of texts) tokens += await countAsync(tokenizer, text, { signal });
    if (tokens === undefined) return undefined;
    const summary = withExact(summarize(name, scope, texts, tokens), texts);
    return { summary: conversation ? { ...summary, conversation } : summary, ranges, key };
  }

  /** The conversation a document (or one selection of JSON) holds, counted as the model reads it; undefined for other text. */
  private async countConversation(
    document: vscode.TextDocument,
    texts: string[],
    selected: boolean,
    name: string,
    signal: AbortSignal,
  ): Promise<ConversationTotal | NotAConversation | undefined> {
    if (!this.conversations || !config.countConversations) return undefined;
    if (!selected) return this.conversations.countDocument(document, name, signal);
    return texts.length === 1 ? this.conversations.countJson(texts[0]!, name, signal) : undefined;
  }

  async refresh(): Promise<void> {
    try {
      await this.update();
    } catch (error) {
      this.fail(error, this.locale.t('Token Lens could not count this text.'));
    }
  }

  /** Counts again when what is counted changed; a count still running for an older state is then dropped (generation). */
  private async update(): Promise<void> {
    const editor = this.editor();
    if (!editor || !config.statusBarEnabled) {
      this.generation++;
      this.abort.abort();
      this.current = undefined;
      this.setVisible(false);
      return;
    }
    const tokenizer = await this.tokenizer();
    if (!tokenizer) {
      this.generation++;
      return;
    }
    if (this.editor() !== editor) return; // another refresh follows the editor that replaced it
    const ranges = editor.selections.filter((s) => !s.isEmpty);
    // A cursor move, a focus change or a pause changes nothing counted: keep what is shown.
    if (this.current?.key === Comparisons.key(editor.document, ranges, tokenizer.info.name)) return;
    const generation = ++this.generation;
    this.abort.abort();
    this.abort = new AbortController();
    const counting = setTimeout(() => this.showCounting(tokenizer.info.name), COUNTING_STATE_AFTER_MS);
    try {
      const result = await this.countEditor(editor, tokenizer, this.abort.signal);
      if (!result || generation !== this.generation) return;
      this.current = { ...result, generation, tokenizer };
      this.show(result.summary);
      this.scheduleCompare();
    } finally {
      clearTimeout(counting);
    }
  }

  /**
   * The other encodings for the tooltip: from the cache, else once the user pauses. (VS Code 1.100 has
   * no stable lazily resolved status-bar tooltip, so the numbers are ready before a hover.)
   */
  private scheduleCompare(): void {
    const current = this.current;
    const editor = this.editor();
    if (!current || !editor) return;
    // A conversation's count is the model's reading; the other encodings' plain-text counts would not compare with it.
    const conversation = current.summary.conversation && !('problem' in current.summary.conversation);
    if (!config.compareEncodings || conversation || current.summary.characters > COMPARE_LIMIT) {
      if (current.ranges.length === 0) this.counts.retainOnly(editor.document, current.tokenizer);
      return;
    }
    const cached = this.comparisons.cached(current.key);
    if (cached) {
      current.summary.comparisons = cached;
      this.show(current.summary);
    } else {
      this.compareSoon.schedule();
    }
  }

  private async compare(): Promise<void> {
    const current = this.current;
    const editor = this.editor();
    if (!current || !editor || current.generation !== this.generation || current.summary.comparisons.length) return;
    try {
      const comparisons = await this.comparisons.compute(
        current.key,
        editor.document,
        current.ranges,
        current.summary.tokenizer,
        this.abort.signal,
      );
      if (current.generation !== this.generation) return;
      current.summary.comparisons = comparisons;
      this.show(current.summary);
    } catch (error) {
      // The count itself stands; the tooltip just lacks the comparison.
      if (!(error instanceof CancelledError)) this.log.error('Token Lens could not count the other encodings for the tooltip:', error);
    }
  }

  /** Logs `error` and says in the status bar that counting failed, pointing to the log. */
  fail(error: unknown, message: string): void {
    if (error instanceof CancelledError) return;
    this.log.error(message, error);
    this.current = undefined;
    this.showError(`${message} ${this.locale.t('The Token Lens output has the details.')}`);
  }

  private setVisible(visible: boolean): void {
    this.visible = visible;
    if (visible) this.item.show();
    else this.item.hide();
  }

  private show(summary: CountSummary): void {
    // A context window holds one prompt: a dataset's total is its size, measured per line in its problems.
    const dataset = summary.conversation && 'conversations' in summary.conversation && summary.conversation.conversations !== 1;
    const window = dataset ? undefined : config.contextWindow;
    const level = (window && gauge(summary.tokens, window)?.level) ?? 'ok';
    this.item.text = statusText(summary, this.locale, window);
    this.item.tooltip = new vscode.MarkdownString(tooltipMarkdown(summary, this.locale, window, config.price(summary.tokenizer)));
    this.item.accessibilityInformation = { label: `${tokenQuantity(summary, this.locale)}, ${summary.tokenizer}` };
    this.item.backgroundColor = level === 'ok' ? undefined : new vscode.ThemeColor(`statusBarItem.${level}Background`);
    this.setVisible(true);
  }

  private showCounting(tokenizer: string): void {
    const { t } = this.locale;
    this.item.text = `$(loading~spin) ${t('Counting tokens…')} · ${tokenizer}`;
    this.item.tooltip = t('Token Lens is counting this document in the background; the editor stays responsive.');
    this.setVisible(true);
  }

  private showError(message: string, text = '$(warning) Token Lens'): void {
    this.item.text = text;
    this.item.tooltip = message;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.setVisible(true);
  }
}

/** An estimate's summary with the count a provider confirmed for the same text, when there is one. */
function withExact(summary: CountSummary, texts: string[]): CountSummary {
  const source = summary.estimate && exactCountSource();
  const exact = source && source.lookup(summary.tokenizer, providerInput(texts.join('\n')));
  if (!exact) return summary;
  const { tokens, ...rest } = exact;
  return { ...summary, tokens, exact: { ...rest, estimated: summary.tokens } };
}

/** A conversation's summary; a closed model's estimate scales the messages' text as it scales the total. */
function withConversation(summary: CountSummary, { conversation }: ConversationTotal): CountSummary {
  const text = summary.estimate ? scaleCount(summary.estimate, conversation.text) : conversation.text;
  return { ...summary, conversation: { ...conversation, text } };
}

function isLoadedSafe(name: string): boolean {
  try {
    return isLoaded(name);
  } catch {
    return true; // an unknown name: nothing is loading
  }
}
