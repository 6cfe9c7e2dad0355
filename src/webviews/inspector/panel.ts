/**
 * The token inspector panel: one webview beside the editor that follows the active text editor and
 * shows how its selection (or the whole document when nothing is selected) splits into tokens.
 *
 * Flow: the webview posts `ready` with its persisted options; from then on every edit, selection
 * change, editor switch or setting change schedules one debounced update that tokenizes (sliced, so
 * a big document never blocks the host), segments, and posts a `render` with compact arrays (never
 * HTML). A cursor move in document scope only posts a `mark`. The webview answers each render with a
 * `painted` report (counts, what it put in the DOM, how long it took), which the tests read.
 */
import * as vscode from 'vscode';
import { config, onDidChangeConfig } from '../../platform/config';
import {
  countChars,
  loadTokenizer,
  ModelLoadError,
  exactTokenizerNames,
  findTokenizer,
  UnknownTokenizerError,
  NotExactError,
  type Tokenizer,
} from '../../core/tokenizers/index';
import { boundaryWindow, WINDOW_MS } from '../../core/inspector/window';
import { gauge, gaugeText } from '../../core/counts/summary';
import { plural, type Locale } from '../../core/util/locale';
import { panelOptions, WebviewHost } from '../host';
import {
  DEFAULT_OPTIONS,
  isFromWebview,
  sanitizeOptions,
  VIEW_TYPE,
  type FromWebview,
  type InspectorOptions,
  type PaneData,
  type RenderedReport,
  type RenderMessage,
  type ToWebview,
} from './protocol';
import { toWireTable, type SegmentTable } from '../../core/inspector/segments';
import { IncrementalTables } from '../../core/inspector/incremental';
import { translatePage } from '../../core/inspector/strings';
import { canSlice, chunkTable, type Cancellation } from '../../core/inspector/tokenize';
import { toDisposable } from '../../platform/disposable';

/** Documents longer than this (UTF-16 units) are inspected up to here, with a note saying so. */
export const MAX_CHARS = 2_000_000;
/** Debounce for edits and selection changes; bigger texts wait a little longer. */
export const DEBOUNCE_MS = 120;
export const DEBOUNCE_LARGE_MS = 350;
const LARGE = 100_000;
/** A document whose tokenization would cover more than this many characters shows the part in view first. */
const FIRST_PAINT_FROM = LARGE;
/** Characters to show first when the editor reports no visible range (the panel follows a document not in view). */
const VISIBLE_GUESS = 10_000;
/** A big document's update shows "Tokenizing…" once it has taken this long. */
const BUSY_AFTER_MS = 150;

/** A tokenizer with the name it was asked for. */
type Named = [name: string, tokenizer: Tokenizer];

/** The inspected text and where it comes from, for a render message. */
interface RenderSource {
  document: vscode.TextDocument;
  version: number;
  text: string;
  /** For the header: "notes.md — selection 3:1–5:7" or "notes.md". */
  where: string;
  editor: vscode.TextEditor | undefined;
  selection: vscode.Selection | undefined;
  truncatedFrom: number | undefined;
}

/** What a render was made from, to map webview offsets back to the document. */
interface Rendered {
  seq: number;
  document: vscode.TextDocument;
  version: number;
  /** Document offset of the inspected text's first character. */
  base: number;
  length: number;
  scope: 'document' | 'selection';
  /** The selection the text came from, in selection scope. */
  selection?: vscode.Selection;
  primary: PaneData;
  compare?: PaneData;
}

function isInspectable(document: vscode.TextDocument): boolean {
  return document.uri.scheme !== 'output' && document.uri.scheme !== 'debug';
}

/** "3:7": one-based line and column, as the editor's status bar counts them. */
function lineColumn(position: vscode.Position): string {
  return `${position.line + 1}:${position.character + 1}`;
}

function label(document: vscode.TextDocument): string {
  const path = document.uri.path;
  return path.slice(path.lastIndexOf('/') + 1) || document.uri.toString();
}

/** What a panel needs from the extension: test mode (the page reports renders only then), the log, the locale. */
export interface PanelEnvironment {
  testMode: boolean;
  log: vscode.LogOutputChannel;
  locale: Locale;
  /** Test seam for the benchmark: false renders only once the whole text is tokenized, as before the first paint. */
  firstPaint?: boolean;
}

export class InspectorPanel extends WebviewHost<ToWebview, FromWebview> {
  static readonly title = 'Token Inspector';

  private options: InspectorOptions;
  private document: vscode.TextDocument | undefined;
  /** The URI of the inspected document that was just closed, in case it is reopened (a language change). */
  private closedUri: string | undefined;
  private lastColumn: vscode.ViewColumn | undefined;
  private seq = 0;
  private rendered: Rendered | undefined;
  private timer: NodeJS.Timeout | undefined;
  private updating: Promise<void> | undefined;
  private cancellation: Cancellation = { cancelled: false };
  /** The last tables, so that an edit re-tokenizes only the stretch it touched. */
  private readonly tables = new IncrementalTables();
  /** The selection a click in the panel asked for: when the editor reports it, it only marks. */
  private pendingSelection: vscode.Selection | undefined;
  private report: RenderedReport | undefined;
  private waiters: (() => void)[] = [];
  private reportWaiters: (() => void)[] = [];
  private readonly locale: Locale;
  private readonly firstPaint: boolean;

  constructor(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, options: InspectorOptions, environment: PanelEnvironment) {
    const title = environment.locale.t(InspectorPanel.title);
    super(
      panel,
      extensionUri,
      { title, script: 'inspector.js', styles: ['inspector.css'] },
      isFromWebview,
      environment.testMode,
      environment.log,
    );
    this.locale = environment.locale;
    this.firstPaint = environment.firstPaint ?? true;
    this.options = sanitizeOptions(options, exactTokenizerNames());
    panel.title = title;
    this.followEditors();
    this.register(
      toDisposable(() => {
        if (this.timer) clearTimeout(this.timer);
        this.cancellation.cancelled = true;
        this.flushWaiters();
        for (const resolve of this.reportWaiters.splice(0)) resolve();
      }),
    );

    const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
    if (editor && isInspectable(editor.document)) this.track(editor);
  }

  /** The document shown is the active editor's: its edits, closing and reopening, selections and the settings that count. */
  private followEditors(): void {
    this.register(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor && isInspectable(editor.document) && (editor.document !== this.document || editor.viewColumn !== this.lastColumn)) {
          const switched = editor.document !== this.document;
          this.track(editor);
          if (switched) this.schedule(0);
        }
      }),
    );
    this.register(
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document === this.document && event.contentChanges.length > 0) this.schedule();
      }),
    );
    this.register(
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document !== this.document) return;
        // A language change (language detection in an untitled editor, or the user's pick) closes the
        // document and opens it again under the same URI: the reopened one is picked up below.
        this.document = undefined;
        this.closedUri = document.uri.toString();
        const next = vscode.window.activeTextEditor;
        if (next && isInspectable(next.document) && !next.document.isClosed) this.track(next);
        this.schedule(0);
      }),
    );
    this.register(
      vscode.workspace.onDidOpenTextDocument((document) => {
        if (this.document || document.uri.toString() !== this.closedUri) return;
        this.document = document;
        this.schedule(0);
      }),
    );
    this.register(vscode.window.onDidChangeTextEditorSelection((event) => this.selectionChanged(event)));
    this.register(
      onDidChangeConfig((affects) => {
        if (['tokenizer', 'specialTokens', 'contextWindow'].some(affects)) this.schedule(0);
      }),
    );
  }

  reveal(): void {
    this.panel.reveal(this.panel.viewColumn, true);
  }

  /** The last report from the webview (counts, DOM text, render time). */
  get lastReport(): RenderedReport | undefined {
    return this.report;
  }

  get currentOptions(): InspectorOptions {
    return { ...this.options };
  }

  /** What the last render showed, for tests: ids per pane, scope, base offset. */
  get state() {
    const r = this.rendered;
    return (
      r && {
        seq: r.seq,
        scope: r.scope,
        base: r.base,
        length: r.length,
        uri: r.document.uri.toString(),
        tokenizer: r.primary.tokenizer,
        ids: Array.from(r.primary.table.ids),
        compare: r.compare?.tokenizer ?? null,
        compareIds: r.compare ? Array.from(r.compare.table.ids) : null,
      }
    );
  }

  /** Resolves with the first report of a render on screen (a big document's first paint), without waiting for the update to finish. */
  async painted(timeoutMs = 60_000): Promise<RenderedReport | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (!this.isDisposed && !(this.report && this.report.segmentCount > 0) && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timeout = setTimeout(resolve, deadline - Date.now());
        this.reportWaiters.push(() => {
          clearTimeout(timeout);
          resolve();
        });
      });
    }
    return this.report;
  }

  /** Resolves once the webview is ready, no update is pending, and it has reported the latest render. */
  settled(timeoutMs = 15_000): Promise<RenderedReport | undefined> {
    return new Promise((resolve) => {
      const timeout = setTimeout(() => done(), timeoutMs);
      const done = () => {
        clearTimeout(timeout);
        resolve(this.report);
      };
      this.waiters.push(done);
      this.checkSettled();
    });
  }

  /** Test seam: posts a raw message to the webview (which must ignore anything malformed). */
  postRaw(message: unknown): Thenable<boolean> {
    return this.panel.webview.postMessage(message);
  }

  /** Test seam: handles a raw message as if the webview had sent it (through the same guard). */
  receiveRaw(message: unknown): void {
    this.arrive(message);
  }

  private isSettled(): boolean {
    if (this.isDisposed) return true;
    const idle = this.isReady && !this.timer && !this.updating;
    // Only a test-mode page reports its renders; a published one is settled once the render is posted.
    return idle && (!this.testMode || (this.report !== undefined && this.report.seq === this.seq));
  }

  private checkSettled(): void {
    if (this.isSettled()) this.flushWaiters();
  }

  private flushWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private track(editor: vscode.TextEditor): void {
    this.document = editor.document;
    if (editor.viewColumn) this.lastColumn = editor.viewColumn;
  }

  private editorFor(document: vscode.TextDocument): vscode.TextEditor | undefined {
    const active = vscode.window.activeTextEditor;
    if (active?.document === document) return active;
    return (
      vscode.window.visibleTextEditors.find((e) => e.document === document && e.viewColumn === this.lastColumn) ??
      vscode.window.visibleTextEditors.find((e) => e.document === document)
    );
  }

  private schedule(delay?: number): void {
    if (!this.isReady) return;
    if (!this.panel.visible) return; // the new page's ready brings it up to date
    const document = this.document;
    const length = document && document.lineCount > 0 ? document.offsetAt(document.lineAt(document.lineCount - 1).range.end) : 0;
    const wait = delay ?? (length > LARGE ? DEBOUNCE_LARGE_MS : DEBOUNCE_MS);
    if (this.timer) clearTimeout(this.timer);
    this.cancellation.cancelled = true;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.runUpdate();
    }, wait);
  }

  private async runUpdate(): Promise<void> {
    // One update at a time; a newer one cancels the running one between chunks.
    if (this.updating) await this.updating.catch(() => undefined);
    if (this.timer || this.isDisposed) return;
    const running = this.update().catch((error: unknown) => this.failed(error));
    this.updating = running;
    try {
      await running;
    } finally {
      if (this.updating === running) this.updating = undefined;
      this.checkSettled();
    }
  }

  /** Anything unexpected: the details to the log, a sentence in the panel. */
  private failed(error: unknown): void {
    this.rendered = undefined;
    if (error instanceof UnknownTokenizerError || error instanceof ModelLoadError || error instanceof NotExactError) {
      // Both name what is wrong (a model's message names its tokenizer.json); the page shows it as text.
      if (error instanceof ModelLoadError) this.log.error(error.message);
      this.post(this.emptyMessage(error.message));
      return;
    }
    const message = this.locale.t('Token Lens could not tokenize this text.');
    this.log.error(message, error);
    this.post(this.emptyMessage(`${message} ${this.locale.t('The Token Lens output has the details.')}`));
  }

  private emptyMessage(reason: string): ToWebview {
    return {
      type: 'empty',
      seq: ++this.seq,
      reason,
      tokenizers: exactTokenizerNames(),
      tokenizer: config.tokenizer,
      options: this.options,
    };
  }

  /** Only a slow update says so: an edit in a big document usually re-tokenizes a few lines. */
  private busyNotice(length: number): ReturnType<typeof setTimeout> | undefined {
    if (length <= LARGE) return undefined;
    const label = plural(this.locale, length, 'Tokenizing {0} character…', 'Tokenizing {0} characters…');
    return setTimeout(() => this.post({ type: 'busy', label }), BUSY_AFTER_MS);
  }

  private async update(): Promise<void> {
    const cancellation: Cancellation = { cancelled: false };
    this.cancellation = cancellation;
    const document = this.document;
    if (!document || document.isClosed) {
      this.rendered = undefined;
      this.post(this.emptyMessage(this.locale.t('Open a text editor to see how it splits into tokens.')));
      return;
    }
    const editor = this.editorFor(document);
    const selection = editor?.selection;
    const scope: 'document' | 'selection' = selection && !selection.isEmpty ? 'selection' : 'document';
    const { text, truncatedFrom } = capped(scope === 'selection' ? document.getText(selection) : document.getText());
    const base = scope === 'selection' ? document.offsetAt(selection!.start) : 0;
    const version = document.version;
    const busy = this.busyNotice(text.length);
    const primaryName = config.tokenizer;
    const compareName = this.options.compare;
    const engineOptions = { specialTokens: config.specialTokens };
    const where =
      scope === 'selection'
        ? this.locale.t('{0} — selection {1}–{2}', label(document), lineColumn(selection!.start), lineColumn(selection!.end))
        : label(document);
    let primary: PaneData;
    let compare: PaneData | undefined;
    try {
      const keyOf = (name: string): string => `${name} ${engineOptions.specialTokens}`;
      this.tables.keepOnly(compareName ? [keyOf(primaryName), keyOf(compareName)] : [keyOf(primaryName)]);
      // An estimate has no tokens to show: the page says so rather than show the base vocabulary's tokens as the model's.
      if (findTokenizer(primaryName)?.estimate) throw new NotExactError(primaryName);
      const primaryTokenizer = await loadTokenizer(primaryName, engineOptions);
      const compareTokenizer = compareName ? await loadTokenizer(compareName, engineOptions) : undefined;
      if (cancellation.cancelled || document.version !== version) return;
      if (this.firstPaint && scope === 'document' && this.tables.cost(keyOf(primaryName), primaryTokenizer, text) > FIRST_PAINT_FROM) {
        this.paintVisible(
          { document, version, text, where, editor, selection, truncatedFrom },
          [primaryName, primaryTokenizer],
          compareName && compareTokenizer ? [compareName, compareTokenizer] : undefined,
        );
      }
      const tokenize = async (name: string, tokenizer: Tokenizer): Promise<PaneData | undefined> => {
        const table = await this.tables.table(keyOf(name), tokenizer, text, cancellation);
        return table && { tokenizer: name, nTokens: table.ids.length, table };
      };
      const p = await tokenize(primaryName, primaryTokenizer);
      if (!p || cancellation.cancelled) return;
      primary = p;
      if (compareName && compareTokenizer) {
        compare = await tokenize(compareName, compareTokenizer);
        if (!compare || cancellation.cancelled) return;
      }
    } finally {
      clearTimeout(busy);
    }
    if (this.isDisposed || document.version !== version) {
      // An edit arrived while tokenizing: its own update is already scheduled.
      if (!this.timer) this.schedule(0);
      return;
    }
    const g = gauge(primary.nTokens, config.contextWindow);
    this.postRender(
      { document, version, text, where, editor, selection, truncatedFrom },
      { base, scope, primary, compare },
      {
        nChars: countChars(text),
        ...(g ? { gauge: { text: gaugeText(primary.nTokens, g, this.locale), level: g.level } } : {}),
      },
    );
  }

  /**
   * First paint of a big document, before the whole of it is tokenized: the part the editor shows,
   * tokenized from a safe cut before it to one after it (the tokens there are the whole document's),
   * with the totals pending. Its cost depends on what is visible, not on the document's size.
   */
  private paintVisible(source: RenderSource, [primaryName, primaryTokenizer]: Named, comparing: Named | undefined): void {
    const { document, text, editor } = source;
    const visible = editor?.visibleRanges[0];
    // The text may stop short of the view (the MAX_CHARS cap).
    const start = Math.min(text.length, visible ? document.offsetAt(visible.start) : 0);
    const end = visible ? document.offsetAt(visible.end) : 0;
    const window = boundaryWindow(primaryTokenizer, text, start, Math.max(end, start + VISIBLE_GUESS));
    // The whitespace tokenizer numbers words from the text's start: only a window that starts there is exact for it.
    if (comparing && !canSlice(comparing[1]) && window.from > 0) return;
    const pane = (name: string, table: SegmentTable): PaneData => {
      const wire = toWireTable(table);
      return { tokenizer: name, nTokens: wire.ids.length, table: wire };
    };
    const primary = pane(primaryName, window.table);
    const compare =
      comparing && pane(comparing[0], chunkTable(comparing[1], window.text, 0, () => false, performance.now() + WINDOW_MS).table);
    // Document scope: the inspected text starts at the document's start. The cap's note waits for the complete render.
    this.postRender(
      { ...source, text: window.text, truncatedFrom: undefined },
      { base: window.from, scope: 'document', primary, compare },
      {
        nChars: countChars(window.text),
        partial: { from: window.from, top: Math.max(0, start - window.from), total: text.length },
      },
    );
  }

  /** Records what is shown (to map the page's offsets back to the document) and posts it. */
  private postRender(
    source: RenderSource,
    shown: Pick<Rendered, 'base' | 'scope' | 'primary' | 'compare'>,
    extra: Pick<RenderMessage, 'nChars' | 'gauge' | 'partial'>,
  ): void {
    const { document, version, text, where, selection, truncatedFrom } = source;
    const { base, scope, primary, compare } = shown;
    const seq = ++this.seq;
    this.rendered = {
      seq,
      document,
      version,
      base,
      length: text.length,
      scope,
      selection: scope === 'selection' ? selection : undefined,
      primary,
      compare,
    };
    const origin = document.positionAt(base);
    const mark = scope === 'document' && selection ? this.relative(selection) : undefined;
    this.post({
      type: 'render',
      seq,
      source: where,
      scope,
      text,
      truncatedFrom,
      tokenizers: exactTokenizerNames(),
      primary,
      compare,
      options: this.options,
      mark,
      origin: [origin.line, origin.character],
      ...extra,
    });
  }

  /** A document selection as offsets into the rendered text, or undefined when it lies outside. */
  private relative(selection: vscode.Selection | vscode.Range): [number, number] | undefined {
    const r = this.rendered;
    if (!r) return undefined;
    const start = r.document.offsetAt(selection.start) - r.base;
    const end = r.document.offsetAt(selection.end) - r.base;
    if (end < 0 || start > r.length) return undefined;
    return [Math.max(0, start), Math.min(r.length, end)];
  }

  private selectionChanged(event: vscode.TextEditorSelectionChangeEvent): void {
    if (event.textEditor.document !== this.document || !this.isReady) return;
    if (event.textEditor.viewColumn) this.lastColumn = event.textEditor.viewColumn;
    const selection = event.selections[0];
    if (!selection) return;
    const pending = this.pendingSelection;
    this.pendingSelection = undefined;
    const r = this.rendered;
    if (pending && selection.isEqual(pending)) {
      // The panel asked for this selection (a click): mark it, keep what is inspected.
      this.postMark(selection, false);
      return;
    }
    if (r && r.document.version === event.textEditor.document.version && !this.timer) {
      if (r.scope === 'document' && selection.isEmpty) {
        this.postMark(selection, true);
        return;
      }
      if (r.scope === 'selection' && r.selection && selection.isEqual(r.selection)) return;
    }
    this.schedule();
  }

  private postMark(selection: vscode.Selection, reveal: boolean): void {
    const range = this.relative(selection);
    if (!range || !this.rendered) return;
    this.post({ type: 'mark', seq: this.rendered.seq, start: range[0], end: range[1], reveal });
  }

  /** A hidden webview is destroyed (no retainContextWhenHidden): its report is gone, its update pointless. */
  protected override onHidden(): void {
    this.report = undefined;
    this.cancellation.cancelled = true;
  }

  /** The page listens, with the options it persisted (they win over the extension's, e.g. the serializer's). */
  protected onReady(state: unknown): void {
    this.post({ type: 'strings', strings: translatePage(this.locale.t) });
    const persisted = (state as { options?: unknown } | undefined)?.options;
    if (persisted !== undefined) this.options = sanitizeOptions(persisted, exactTokenizerNames());
    this.schedule(0);
  }

  protected receive(message: FromWebview): void {
    switch (message.type) {
      case 'ready':
        return; // the base's: onReady()
      case 'options': {
        const next = sanitizeOptions(message.options, exactTokenizerNames());
        const recompute = next.compare !== this.options.compare;
        this.options = next;
        if (recompute) this.schedule(0);
        return;
      }
      case 'setTokenizer':
        if (exactTokenizerNames().includes(message.tokenizer) && message.tokenizer !== config.tokenizer) {
          // The status bar's command writes the setting and reports a failure.
          void vscode.commands.executeCommand('tokenLens.selectTokenizer', message.tokenizer);
        }
        return;
      case 'select':
        this.select(message.seq, message.start, message.end).catch((error: unknown) =>
          this.log.error('Token Lens could not select the token in the editor:', error),
        );
        return;
      case 'copyIds':
        this.copyIds(message.pane).catch((error: unknown) => this.log.error('Token Lens could not copy the token ids:', error));
        return;
      case 'painted': {
        const { type: _type, ...report } = message;
        if (message.seq <= this.seq) this.report = report;
        for (const resolve of this.reportWaiters.splice(0)) resolve();
        this.checkSettled();
        return;
      }
    }
  }

  /** Click in the panel: select the token's text in the editor, keeping focus in the panel. */
  private async select(seq: number, start: number, end: number): Promise<void> {
    const r = this.rendered;
    if (!r || seq !== r.seq || end > r.length || r.document.isClosed || r.document.version !== r.version) return;
    const document = r.document;
    const selection = new vscode.Selection(document.positionAt(r.base + start), document.positionAt(r.base + end));
    this.pendingSelection = selection;
    const editor = this.editorFor(document);
    if (editor) {
      editor.selection = selection;
      editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    } else {
      await vscode.window.showTextDocument(document, {
        viewColumn: this.lastColumn ?? vscode.ViewColumn.One,
        selection,
        preserveFocus: true,
      });
    }
    // Mark right away too: setting the selection it already has reports no change.
    this.postMark(selection, false);
  }

  private async copyIds(pane: 0 | 1): Promise<void> {
    const data = pane === 0 ? this.rendered?.primary : this.rendered?.compare;
    if (!data) return;
    await vscode.env.clipboard.writeText(JSON.stringify(Array.from(data.table.ids)));
    vscode.window.setStatusBarMessage(
      plural(
        this.locale,
        data.nTokens,
        'Token Lens: copied {0} token id of {1}',
        'Token Lens: copied {0} token ids of {1}',
        data.tokenizer,
      ),
      3000,
    );
  }
}

/** Creates the panel beside the active editor, without taking focus from it. */
export function createInspectorPanel(
  extensionUri: vscode.Uri,
  environment: PanelEnvironment,
  options: InspectorOptions = DEFAULT_OPTIONS,
): InspectorPanel {
  const panel = vscode.window.createWebviewPanel(
    VIEW_TYPE,
    environment.locale.t(InspectorPanel.title),
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    panelOptions(extensionUri),
  );
  return new InspectorPanel(panel, extensionUri, options, environment);
}

/** The text cut to MAX_CHARS (never inside a surrogate pair), and its length before, if it was cut. */
function capped(whole: string): { text: string; truncatedFrom?: number } {
  if (whole.length <= MAX_CHARS) return { text: whole };
  const c = whole.charCodeAt(MAX_CHARS - 1);
  const cut = c >= 0xd800 && c <= 0xdbff ? MAX_CHARS - 1 : MAX_CHARS;
  return { text: whole.slice(0, cut), truncatedFrom: whole.length };
}
