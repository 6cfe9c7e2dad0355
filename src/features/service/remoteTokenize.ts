/**
 * tokenLens.tokenizeRemote: the selection (or the document) tokenized on the service, beside the local engine's
 * count for the same text and tokenizer, and the comparison opened as a read-only Markdown report.
 */
import * as vscode from 'vscode';
import { config } from '../../platform/config';
import { Disposable } from '../../platform/disposable';
import {
  countChars,
  loadTokenizer,
  NotExactError,
  tokenizeAsync,
  UnknownTokenizerError,
  type TokenizeResult,
} from '../../core/tokenizers/index';
import { MAX_TEXT_CHARS } from '../../core/service/limits';
import { compareResults, comparisonMarkdown, type Comparison } from '../../core/service/compare';
import type { ServiceErrorKind } from '../../core/service/errors';
import { plural } from '../../core/util/locale';
import { hostLocale } from '../../platform/locale';
import type { ShownMessage } from './messages';
import type { CallStatus, RequestPolicy } from './policy';

export interface RemoteTokenizeArgs {
  /** Text to send instead of the editor's selection or document. */
  text?: string;
  /** Tokenizer name instead of the tokenLens.tokenizer setting. */
  tokenizer?: string;
  /** Open the comparison document (default true). */
  show?: boolean;
}

export interface RemoteTokenizeOutcome {
  status: CallStatus | 'tooLong' | 'noText';
  /** The service's answer (spec 2.2). */
  result?: TokenizeResult;
  /** The local engine's answer for the same text and tokenizer. */
  local?: TokenizeResult;
  comparison?: Comparison;
  errorKind?: ServiceErrorKind;
  message?: ShownMessage;
}

const SCHEME = 'token-lens-service';

export class RemoteTokenization extends Disposable {
  private readonly documents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private reportCount = 0;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly service: RequestPolicy,
  ) {
    super();
    this.register(this.changed);
    this.register(
      vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
        onDidChange: this.changed.event,
        provideTextDocumentContent: (uri) => this.documents.get(uri.toString()) ?? '',
      }),
    );
  }

  async tokenizeRemote(args: RemoteTokenizeArgs = {}): Promise<RemoteTokenizeOutcome> {
    const editor = vscode.window.activeTextEditor;
    let text = args.text;
    if (text === undefined && editor) {
      const selected = editor.selections.filter((s) => !s.isEmpty).map((s) => editor.document.getText(s));
      text = selected.length ? selected.join('\n') : editor.document.getText();
    }
    if (text === undefined) {
      const message = this.service.show(
        'warning',
        vscode.l10n.t('Open a file or select text first: Token Lens sends the selection (or the whole document) to the service.'),
      );
      return { status: 'noText', message };
    }
    const chars = countChars(text);
    if (chars > MAX_TEXT_CHARS) {
      const message = this.service.show(
        'warning',
        vscode.l10n.t(
          'The text has {0} characters; the service accepts at most {1}. Select a shorter part and run the command again. Nothing was sent.',
          hostLocale().number(chars),
          hostLocale().number(MAX_TEXT_CHARS),
        ),
      );
      return { status: 'tooLong', message };
    }
    const tokenizer = args.tokenizer ?? config.tokenizer;
    const specialTokens = config.specialTokens;
    const sent = text;
    const outcome = await this.service.call(
      plural(
        hostLocale(),
        chars,
        'Tokenizing {0} character with {1} on the service',
        'Tokenizing {0} characters with {1} on the service',
        tokenizer,
      ),
      (client, signal) => client.tokenize({ text: sent, tokenizer }, { signal }),
      { again: () => this.tokenizeRemote({ ...args, text: sent, tokenizer }) },
    );
    if (outcome.status !== 'ok') {
      return {
        status: outcome.status,
        ...(outcome.errorKind ? { errorKind: outcome.errorKind } : {}),
        ...(outcome.message ? { message: outcome.message } : {}),
      };
    }
    const result = outcome.value;
    let local: TokenizeResult | undefined;
    try {
      local = await tokenizeAsync(await loadTokenizer(tokenizer, { specialTokens }), text);
    } catch (error) {
      // An estimate has no tokens to compare with: as for a name Token Lens does not know.
      if (!(error instanceof UnknownTokenizerError || error instanceof NotExactError)) throw error;
    }
    const comparison = local ? compareResults(tokenizer, text, result, local, specialTokens, hostLocale().t) : undefined;
    const summary = countSummary(result, local, comparison);
    this.log.info(summary);
    if (args.show !== false)
      await this.openReport(comparisonMarkdown(tokenizer, result, local, comparison, config.serviceBaseUrl, undefined, hostLocale().t));
    const message = this.service.show('info', summary);
    return { status: 'ok', result, ...(local ? { local } : {}), ...(comparison ? { comparison } : {}), message };
  }

  private async openReport(markdown: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/Service tokenization ${++this.reportCount}.md` });
    this.documents.set(uri.toString(), markdown);
    // Keep only the last few reports in memory.
    while (this.documents.size > 5) this.documents.delete(this.documents.keys().next().value!);
    // Rendered (tables read better than their source); the text itself where Markdown preview is unavailable.
    const document = await vscode.workspace.openTextDocument(uri);
    try {
      const options: vscode.TextDocumentShowOptions = { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true };
      await vscode.commands.executeCommand('vscode.openWith', uri, 'vscode.markdown.preview.editor', options);
    } catch {
      await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
    }
  }
}

/** What the message says: the service's count, and Token Lens's beside it (the first difference explained) when it has the tokenizer. */
function countSummary(remote: TokenizeResult, local: TokenizeResult | undefined, comparison: Comparison | undefined): string {
  const n = remote.n_tokens;
  const name = remote.tokenizer;
  if (!local)
    return plural(
      hostLocale(),
      n,
      'The service counts {0} token with {1}; Token Lens has no local tokenizer of that name to compare with.',
      'The service counts {0} tokens with {1}; Token Lens has no local tokenizer of that name to compare with.',
      name,
    );
  if (comparison?.identical)
    return plural(
      hostLocale(),
      n,
      'The service counts {0} token with {1}; Token Lens counts the same.',
      'The service counts {0} tokens with {1}; Token Lens counts the same.',
      name,
    );
  return plural(
    hostLocale(),
    n,
    'The service counts {0} token with {1}; Token Lens counts {2}. {3}',
    'The service counts {0} tokens with {1}; Token Lens counts {2}. {3}',
    name,
    local.n_tokens,
    comparison?.explanations[0] ?? '',
  );
}

/** The command's argument as RemoteTokenizeArgs: anything else (the Explorer's URI) is no argument. */
export function asArgs(value: unknown): RemoteTokenizeArgs {
  if (!value || typeof value !== 'object' || value instanceof vscode.Uri) return {};
  const args = value as Record<string, unknown>;
  return {
    ...(typeof args.text === 'string' ? { text: args.text } : {}),
    ...(typeof args.tokenizer === 'string' ? { tokenizer: args.tokenizer } : {}),
    ...(typeof args.show === 'boolean' ? { show: args.show } : {}),
  };
}
