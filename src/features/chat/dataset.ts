/**
 * JSON Lines datasets of conversations (OpenAI's chat fine-tuning format) in the editor: each line counted as the
 * configured model reads it, a CodeLens per line with its count (resolved only for the lines on screen, so a
 * 100,000-line file stays cheap), and problems on the lines that are no conversation or do not fit the context
 * window. The whole file is counted in time slices after typing pauses; a newer pass cancels an older one.
 */
import * as vscode from 'vscode';
import type { LineOutcome } from '../../core/chat/index';
import { gauge, type ContextWindow } from '../../core/counts/summary';
import { CancelledError, findTokenizer } from '../../core/tokenizers/index';
import { plural, type Locale } from '../../core/util/locale';
import { plainText } from '../../core/util/outsideText';
import { Debouncer } from '../../core/util/debounce';
import { config, onDidChangeConfig } from '../../platform/config';
import { Disposable, toDisposable } from '../../platform/disposable';
import { datasetKind, type ConversationCounts } from './conversationCounts';
import { isConversationDataset } from '../../core/chat/index';

/** The window a dataset's conversations are measured against: the setting's, else the model's own; undefined when neither is known. */
export function datasetWindow(name: string): ContextWindow | undefined {
  const configured = config.contextWindow;
  const size = configured.size || findTokenizer(name)?.contextWindow || 0;
  return size > 0 ? { ...configured, size } : undefined;
}

/** More lines than this get no CodeLens (the counts and problems still cover the whole file). */
const MAX_LENSES = 200_000;

/** A line's lens knows its document (resolveCodeLens gets the lens back, not the document). */
class LineLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly document: vscode.TextDocument,
  ) {
    super(range);
  }
}

interface Pass {
  version: number;
  name: string;
  lines: Map<number, LineOutcome>;
}

export class DatasetFeature extends Disposable {
  private readonly diagnostics = this.register(vscode.languages.createDiagnosticCollection('tokenLens.datasets'));
  private readonly passes = new Map<vscode.TextDocument, Pass>();
  private readonly running = new Map<vscode.TextDocument, AbortController>();
  private readonly lensesChanged = this.register(new vscode.EventEmitter<void>());
  private readonly soon = new Map<vscode.TextDocument, Debouncer>();

  constructor(
    private readonly conversations: ConversationCounts,
    private readonly log: vscode.LogOutputChannel,
    private readonly locale: Locale,
  ) {
    super();
    const selector: vscode.DocumentSelector = [{ language: 'jsonl' }, { pattern: '**/*.{jsonl,ndjson}' }];
    this.register(
      vscode.languages.registerCodeLensProvider(selector, {
        onDidChangeCodeLenses: this.lensesChanged.event,
        provideCodeLenses: (document) => this.lenses(document),
        resolveCodeLens: (lens, token) => (lens instanceof LineLens ? this.resolve(lens, token) : lens),
      }),
    );
    this.register(vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d)));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)));
    this.register(vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)));
    this.register(
      onDidChangeConfig((affects) => {
        if (!['tokenizer', 'contextWindow', 'chat'].some(affects)) return;
        this.passes.clear();
        for (const document of vscode.workspace.textDocuments) this.schedule(document);
        this.lensesChanged.fire();
      }),
    );
    this.register(
      toDisposable(() => {
        for (const document of [...this.running.keys()]) this.forget(document);
      }),
    );
    for (const document of vscode.workspace.textDocuments) this.schedule(document);
  }

  private isDataset(document: vscode.TextDocument): boolean {
    return config.countConversations && datasetKind(document) === 'jsonl' && isConversationDataset(document.getText());
  }

  private schedule(document: vscode.TextDocument): void {
    if (datasetKind(document) !== 'jsonl') return;
    let debouncer = this.soon.get(document);
    if (!debouncer) this.soon.set(document, (debouncer = new Debouncer(400, () => void this.count(document))));
    debouncer.schedule();
  }

  private forget(document: vscode.TextDocument): void {
    this.running.get(document)?.abort();
    this.running.delete(document);
    this.soon.get(document)?.dispose();
    this.soon.delete(document);
    this.passes.delete(document);
    this.diagnostics.delete(document.uri);
  }

  /** Counts every line of the document and sets its problems; a newer pass for the document cancels this one. */
  private async count(document: vscode.TextDocument): Promise<void> {
    this.running.get(document)?.abort();
    if (document.isClosed || !this.isDataset(document)) {
      this.diagnostics.delete(document.uri);
      return;
    }
    const abort = new AbortController();
    this.running.set(document, abort);
    const pass: Pass = { version: document.version, name: config.tokenizer, lines: new Map() };
    try {
      for await (const result of this.conversations.lines(document.getText(), pass.name, abort.signal)) {
        const { line, ...outcome } = result;
        pass.lines.set(line, outcome);
      }
      if (abort.signal.aborted || document.version !== pass.version) return;
      this.passes.set(document, pass);
      this.diagnostics.set(document.uri, this.problems(document, pass));
      this.lensesChanged.fire();
    } catch (error) {
      if (!(error instanceof CancelledError))
        this.log.error(`Token Lens could not count the conversations of ${document.uri.toString(true)}:`, error);
    } finally {
      if (this.running.get(document) === abort) this.running.delete(document);
    }
  }

  private problems(document: vscode.TextDocument, pass: Pass): vscode.Diagnostic[] {
    const { t } = this.locale;
    const window = datasetWindow(pass.name);
    const out: vscode.Diagnostic[] = [];
    for (const [line, outcome] of pass.lines) {
      const range = document.lineAt(Math.min(line - 1, document.lineCount - 1)).range;
      let diagnostic: vscode.Diagnostic | undefined;
      if ('problem' in outcome) {
        diagnostic = new vscode.Diagnostic(
          range,
          t('Not a conversation: {0}', plainText(outcome.problem)),
          vscode.DiagnosticSeverity.Error,
        );
        diagnostic.code = 'not-a-conversation';
      } else {
        const g = window && gauge(outcome.count.total, window);
        if (g?.level === 'error') {
          const message = t(
            'This conversation is {0} tokens as {1} reads it ({2}), {3} over the usable context window of {4}.',
            this.locale.number(outcome.count.total),
            plainText(pass.name),
            plainText(outcome.count.format),
            this.locale.number(-g.remaining),
            this.locale.number(g.usable),
          );
          diagnostic = new vscode.Diagnostic(range, message, vscode.DiagnosticSeverity.Warning);
          diagnostic.code = 'over-context-window';
        }
      }
      if (diagnostic) {
        diagnostic.source = 'Token Lens';
        out.push(diagnostic);
      }
    }
    return out;
  }

  private lenses(document: vscode.TextDocument): LineLens[] {
    if (!this.isDataset(document)) return [];
    const lenses: LineLens[] = [];
    for (let line = 0; line < document.lineCount && lenses.length < MAX_LENSES; line++) {
      const text = document.lineAt(line);
      if (!text.isEmptyOrWhitespace) lenses.push(new LineLens(text.range, document));
    }
    return lenses;
  }

  /** A line's count: from the last whole-file pass, else counted now (a visible line of a file still being counted). */
  private async resolve(lens: LineLens, token: vscode.CancellationToken): Promise<vscode.CodeLens> {
    const { document } = lens;
    const line = lens.range.start.line + 1;
    const pass = this.passes.get(document);
    let outcome = pass && pass.version === document.version && pass.name === config.tokenizer ? pass.lines.get(line) : undefined;
    if (!outcome && !document.isClosed && line <= document.lineCount) {
      const abort = new AbortController();
      const cancel = token.onCancellationRequested(() => abort.abort());
      try {
        for await (const result of this.conversations.lines(document.lineAt(line - 1).text, config.tokenizer, abort.signal))
          outcome = result;
      } catch (error) {
        if (!(error instanceof CancelledError)) this.log.error('Token Lens could not count a conversation line:', error);
      } finally {
        cancel.dispose();
      }
    }
    lens.command = { title: outcome ? this.title(outcome) : this.locale.t('counting…'), command: '' };
    return lens;
  }

  private title(outcome: LineOutcome): string {
    const { locale } = this;
    if ('problem' in outcome) return `$(warning) ${locale.t('not a conversation: {0}', plainText(outcome.problem, 80))}`;
    const { total, text, messages } = outcome.count;
    const share = total > 0 ? locale.number((100 * (total - text)) / total, 0) : '0';
    return [
      `$(symbol-numeric) ${plural(locale, total, '{0} token', '{0} tokens')}`,
      plural(locale, messages, '{0} message', '{0} messages'),
      locale.t('{0} % added by the format', share),
    ].join(' · ');
  }
}
