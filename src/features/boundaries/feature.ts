/**
 * Token Lens: Toggle Token Boundaries: every token of the visible text drawn in the editor with
 * alternating theme backgrounds (outlines in high-contrast themes), following scrolling, edits and the
 * tokenizer setting; a hover names the token's ids and bytes.
 */
import * as vscode from 'vscode';
import { config, onDidChangeConfig } from '../../platform/config';
import { getSegment, segmentAt, segmentCount } from '../../core/inspector/segments';
import { loadTokenizer, NotExactError } from '../../core/tokenizers/index';
import { notify } from '../../platform/notify';
import { Debouncer } from '../../core/util/debounce';
import { markdownText } from '../../core/util/outsideText';
import { Disposable } from '../../platform/disposable';
import { boundaryWindow, WINDOW_MS, type BoundaryWindow } from '../../core/inspector/window';

export const TOGGLE_BOUNDARIES = 'tokenLens.toggleTokenBoundaries';
const CONTEXT_KEY = 'tokenLens.boundaries';
/** Scrolling and typing settle this long before the decorations follow. */
const DELAY_MS = 30;

const decoration = (n: 'even' | 'odd'): vscode.TextEditorDecorationType =>
  vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor(`tokenLens.tokenBoundary.${n}Background`),
    border: '1px solid',
    borderColor: new vscode.ThemeColor(`tokenLens.tokenBoundary.${n}Border`),
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
  });

interface Drawn {
  version: number;
  tokenizer: string;
  windows: BoundaryWindow[];
}

export class TokenBoundariesFeature extends Disposable {
  private enabled = false;
  /** The estimate the user was last told cannot show boundaries (told again after an exact tokenizer drew). */
  private refused: string | undefined;
  /** The document and tokenizer the user was last told draw short (a window past WINDOW_MS), told once each. */
  private cutShort: string | undefined;
  private readonly even = this.register(decoration('even'));
  private readonly odd = this.register(decoration('odd'));
  private readonly drawn = new WeakMap<vscode.TextEditor, Drawn>();
  private readonly updater = this.register(new Debouncer(DELAY_MS, () => void this.drawAll()));

  constructor(private readonly log: vscode.LogOutputChannel) {
    super();
    this.register(
      vscode.commands.registerCommand(TOGGLE_BOUNDARIES, (on?: unknown) => this.toggle(typeof on === 'boolean' ? on : !this.enabled)),
    );
    const schedule = () => this.enabled && this.updater.schedule();
    this.register(vscode.window.onDidChangeTextEditorVisibleRanges(schedule));
    this.register(vscode.window.onDidChangeVisibleTextEditors(schedule));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length > 0 && schedule()));
    this.register(onDidChangeConfig((affects) => (affects('tokenizer') || affects('specialTokens')) && schedule()));
    this.register(
      vscode.languages.registerHoverProvider({ scheme: '*' }, { provideHover: (document, position) => this.hover(document, position) }),
    );
  }

  /** Turns the boundaries on or off; returns the new state (tests and keybindings read it). */
  async toggle(on: boolean): Promise<{ enabled: boolean; segments: number }> {
    this.enabled = on;
    await vscode.commands.executeCommand('setContext', CONTEXT_KEY, on);
    if (!on) {
      for (const editor of vscode.window.visibleTextEditors) this.clear(editor);
      return { enabled: false, segments: 0 };
    }
    return { enabled: true, segments: await this.drawAll() };
  }

  private clear(editor: vscode.TextEditor): void {
    editor.setDecorations(this.even, []);
    editor.setDecorations(this.odd, []);
    this.drawn.delete(editor);
  }

  private async drawAll(): Promise<number> {
    if (!this.enabled) return 0;
    let segments = 0;
    try {
      const tokenizer = await loadTokenizer(config.tokenizer, { specialTokens: config.specialTokens });
      if (tokenizer.info.estimate) return this.refuseEstimate(tokenizer.info.name);
      this.refused = undefined;
      for (const editor of vscode.window.visibleTextEditors) {
        segments += this.draw(editor, tokenizer);
        this.tellIfShort(editor, tokenizer.info.name);
      }
    } catch (error) {
      this.log.error(`Token boundaries: ${error instanceof Error ? error.message : String(error)}`);
    }
    return segments;
  }

  /**
   * A window that ran past WINDOW_MS (a slow pattern, or a word of millions of characters) stops short of the visible
   * text rather than freeze the editor: the user is told where, once per document and tokenizer.
   */
  private tellIfShort(editor: vscode.TextEditor, tokenizer: string): void {
    const short = this.drawn.get(editor)?.windows.find((w) => !w.complete);
    if (!short) return;
    const key = `${editor.document.uri.toString()}\n${tokenizer}`;
    if (this.cutShort === key) return;
    this.cutShort = key;
    const line = editor.document.positionAt(short.from + short.text.length).line + 1;
    void notify.warning(
      vscode.l10n.t(
        'Token boundaries stop at line {0}: {1} took longer than {2} ms to split the text in view (a very long word or a slow pattern), so the rest is left undrawn rather than freeze the editor. The Token Inspector counts it in the background.',
        line,
        tokenizer,
        WINDOW_MS,
      ),
    );
  }

  /** An estimate has no tokens of its own: nothing is drawn (not the base vocabulary's tokens), and the user is told once per name. */
  private refuseEstimate(name: string): number {
    for (const editor of vscode.window.visibleTextEditors) this.clear(editor);
    if (this.refused !== name) {
      this.refused = name;
      void notify.warning(new NotExactError(name).message);
    }
    return 0;
  }

  /** Decorates the visible ranges of one editor; returns how many segments it drew. */
  private draw(editor: vscode.TextEditor, tokenizer: Awaited<ReturnType<typeof loadTokenizer>>): number {
    const document = editor.document;
    const text = document.getText();
    const even: vscode.Range[] = [];
    const odd: vscode.Range[] = [];
    const limit = config.renderedLineLength(document);
    const windows = editor.visibleRanges
      .flatMap((visible) => renderedParts(document, visible, limit))
      .map(([start, end]) => {
        const window = boundaryWindow(tokenizer, text, start, end);
        const { bounds, tokenIndex } = window.table;
        for (let i = 0; i < segmentCount(window.table); i++) {
          const a = window.from + bounds[i]!;
          const b = window.from + bounds[i + 1]!;
          // Text no token covers (the whitespace tokenizer's spaces) is left plain.
          if (b <= start || a >= end || tokenIndex[i] === tokenIndex[i + 1]) continue;
          // Parity from the document offset's segment count is unknown; alternate by index within the window.
          (i % 2 === 0 ? even : odd).push(new vscode.Range(document.positionAt(a), document.positionAt(b)));
        }
        return window;
      });
    editor.setDecorations(this.even, even);
    editor.setDecorations(this.odd, odd);
    this.drawn.set(editor, { version: document.version, tokenizer: tokenizer.info.name, windows });
    return even.length + odd.length;
  }

  private hover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    if (!this.enabled) return undefined;
    const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
    const drawn = editor && this.drawn.get(editor);
    if (!drawn || drawn.version !== document.version) return undefined;
    const offset = document.offsetAt(position);
    const window = drawn.windows.find((w) => offset >= w.from && offset < w.from + w.text.length);
    if (!window) return undefined;
    const index = segmentAt(window.table, offset - window.from);
    if (index < 0) return undefined;
    const segment = getSegment(window.text, window.table, index);
    if (segment.ids.length === 0) return undefined;
    const range = new vscode.Range(document.positionAt(window.from + segment.start), document.positionAt(window.from + segment.end));
    const markdown = new vscode.MarkdownString();
    markdown.appendMarkdown(
      `**${segment.ids.length === 1 ? vscode.l10n.t('Token') : vscode.l10n.t('{0} tokens', segment.ids.length)}** (${markdownText(drawn.tokenizer)})\n\n`,
    );
    markdown.appendMarkdown(segment.ids.map((id, k) => `- id \`${id}\` · bytes \`${segment.tokenBytesHex[k] ?? ''}\``).join('\n'));
    if (segment.ids.length > 1)
      markdown.appendMarkdown(vscode.l10n.t('\n\nThese tokens each hold part of one character, so they are drawn as one.'));
    return new vscode.Hover(markdown, range);
  }
}

/**
 * The parts of a visible range the editor draws: its lines, except that of a line longer than `limit` (a minified
 * file's) only the first `limit` characters are drawn, so only those are decorated.
 */
function renderedParts(document: vscode.TextDocument, visible: vscode.Range, limit: number): [number, number][] {
  const parts: [number, number][] = [];
  let open: number | undefined = document.offsetAt(visible.start);
  for (let l = visible.start.line; l <= visible.end.line; l++) {
    const line = document.lineAt(l);
    const start = document.offsetAt(line.range.start);
    open ??= start;
    if (line.text.length > limit) {
      parts.push([open, Math.max(open, start + limit)]);
      open = undefined;
    }
  }
  if (open !== undefined) parts.push([open, document.offsetAt(document.lineAt(visible.end.line).rangeIncludingLineBreak.end)]);
  return parts;
}
