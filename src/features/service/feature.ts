/**
 * The service commands (editor edge): service URL, API key, remote tokenization, the log. `call()` is the one
 * place that decides how any service request runs in the editor: refusal in Restricted Mode, URL and key
 * prompting (one key per service origin), the one-time confirmations of a workspace's URL and of plain
 * http://, progress with cancellation, the log line, and the message the user sees when it fails.
 */
import * as vscode from 'vscode';
import { config, inspectServiceBaseUrl, onDidChangeConfig, updateSetting, updateUserSetting } from '../../platform/config';
import {
  countChars,
  loadTokenizer,
  NotExactError,
  tokenizeAsync,
  UnknownTokenizerError,
  type TokenizeResult,
} from '../../core/tokenizers/index';
import { Disposable, toDisposable } from '../../platform/disposable';
import { randomBytes } from 'node:crypto';
import { ApiKeyStore, validateApiKey } from './apiKey';
import { LocalService } from './localService';
import { MAX_TEXT_CHARS } from '../../core/service/limits';
import { ServiceClient, type RequestLogEntry } from './client';
import { compareResults, comparisonMarkdown, type Comparison } from '../../core/service/compare';
import { isServiceError, ServiceError, type ServiceErrorKind } from '../../core/service/errors';
import {
  isUnencryptedRemote,
  validateServiceUrl,
  LEGACY_API_KEY_SECRET,
  legacyKeyOrigin,
  normalizeApiKey,
  serviceOrigin,
  urlSource,
} from '../../core/service/origin';
import { quantity } from '../../core/util/quantity';
import { notify } from '../../platform/notify';

export const ENTER_NEW_KEY = 'Enter new API key';
export const SET_URL = 'Set Service URL';
export const SHOW_LOG = 'Show Log';
export const OPEN_SETTINGS = 'Open Settings';
export const TRY_AGAIN = 'Try Again';
/** Development and test mode only. */
export const SERVICE_TEST_COMMAND = 'tokenLens.service.test';
export const MANAGE_TRUST = 'Manage Workspace Trust';
export const USE_WORKSPACE_URL = 'Use This URL';
export const SEND_UNENCRYPTED = 'Send Unencrypted';
export const DONT_USE = 'Don’t Use';
export const DONT_SEND = 'Don’t Send';
export const USE_BUILTIN = 'Use the Built-in Local Service';

/** SecretStorage: the key the built-in local service accepts, made once. globalState: its last port. */
const BUILTIN_KEY = 'tokenLens.builtinService.key';
const BUILTIN_PORT = 'tokenLens.builtinService.port';

/** workspaceState: the workspace-provided service URL the user confirmed for this workspace. */
const CONFIRMED_WORKSPACE_URL = 'tokenLens.service.confirmedWorkspaceUrl';
/** globalState: http:// origins on other machines the user agreed to send to unencrypted. */
const UNENCRYPTED_ORIGINS = 'tokenLens.service.unencryptedOrigins';

/** A message shown to the user; commands return it, which is what tests assert on. */
export interface ShownMessage {
  severity: 'info' | 'warning' | 'error';
  text: string;
  actions: string[];
}

/** `untrusted`: refused in Restricted Mode. `declined`: the user did not confirm a workspace URL or plain http://. */
export type CallStatus = 'ok' | 'cancelled' | 'noUrl' | 'noKey' | 'error' | 'untrusted' | 'declined';

export type CallOutcome<T> =
  | { status: 'ok'; value: T }
  | { status: Exclude<CallStatus, 'ok'>; error?: ServiceError; errorKind?: ServiceErrorKind; message?: ShownMessage };

export interface CallOptions {
  /** Whether the request needs the API key (every POST does, spec 5). Default true. */
  needsKey?: boolean;
  /** Cancels the call from outside (besides the progress notification's Cancel button). */
  signal?: AbortSignal;
  /**
   * The whole command again, for "Try Again" and "Enter new API key": what it does with the answer
   * (a report, a message) must happen for the retried request too. Default: the request alone.
   */
  again?: () => Thenable<unknown>;
  /** Count the seconds in the progress notification (for runs that take a while). */
  showElapsed?: boolean;
}

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

/** Where a request may go: the URL read once, and the origin its key belongs to. */
interface Target {
  url: string;
  origin: string;
}

export class ServiceFeature extends Disposable {
  private readonly keys: ApiKeyStore;
  private readonly documents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly inFlight = new Set<AbortController>();
  private reportCount = 0;
  /** The move of an earlier version's key to its origin; key look-ups wait for it. */
  private migration: Promise<void>;

  private builtin: LocalService | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
    testMode: boolean,
  ) {
    super();
    this.keys = new ApiKeyStore(context.secrets);
    this.migration = this.migrateLegacyKey();
    this.register(this.changed);
    this.register(toDisposable(() => this.inFlight.forEach((c) => c.abort())));
    this.register(
      vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
        onDidChange: this.changed.event,
        provideTextDocumentContent: (uri) => this.documents.get(uri.toString()) ?? '',
      }),
    );
    this.register(
      onDidChangeConfig((affects) => {
        if (!affects('service.baseUrl')) return;
        const url = config.serviceBaseUrl;
        this.log.info(`Service URL is now ${url || '(not set)'}`);
        if (isUnencryptedRemote(url))
          this.log.warn(`${url} is plain http:// to another machine: the API key and the data would travel unencrypted`);
        this.migration = this.migration.then(() => this.migrateLegacyKey());
      }),
    );
    this.register(
      vscode.commands.registerCommand('tokenLens.setServiceUrl', (url?: unknown) =>
        this.setServiceUrl(typeof url === 'string' ? url : undefined),
      ),
    );
    this.register(
      vscode.commands.registerCommand('tokenLens.setApiKey', (key?: unknown) => this.setApiKey(typeof key === 'string' ? key : undefined)),
    );
    this.register(vscode.commands.registerCommand('tokenLens.clearApiKey', () => this.clearApiKey()));
    this.register(vscode.commands.registerCommand('tokenLens.tokenizeRemote', (args?: unknown) => this.tokenizeRemote(asArgs(args))));
    this.register(vscode.commands.registerCommand('tokenLens.showLog', () => this.log.show(true)));
    this.register(vscode.commands.registerCommand('tokenLens.useBuiltinService', () => this.useBuiltinService()));
    this.register(toDisposable(() => this.builtin?.dispose()));
    if (TEST_HOOKS && testMode) {
      // Tests stand in for an earlier version, which kept one key under the old name.
      this.register(
        vscode.commands.registerCommand(SERVICE_TEST_COMMAND, (action: unknown, value: unknown) =>
          action === 'storeLegacyKey' && typeof value === 'string' ? context.secrets.store(LEGACY_API_KEY_SECRET, value) : undefined,
        ),
      );
    }
  }

  // ---- commands -------------------------------------------------------------------------------------------

  /** tokenLens.useBuiltinService: the reference service on this machine, from now on (tokenLens.service.builtin). */
  async useBuiltinService(): Promise<{ status: 'ok' | 'untrusted' | 'failed'; url?: string; message?: string }> {
    const refused = this.refuseInRestrictedMode();
    if (refused) return { status: 'untrusted', message: refused.text };
    await updateUserSetting('service.builtin', true);
    const target = await this.builtinTarget();
    if ('status' in target) return { status: 'failed', message: target.message.text };
    const message = this.show(
      'info',
      vscode.l10n.t(
        'Token Lens now uses its built-in local service ({0}): the reference models, computed on this machine, offline and without an account. Every answer names its model in “method”. “Set Service URL” switches to another service.',
        target.url,
      ),
    );
    return { status: 'ok', url: target.url, message: message.text };
  }

  /** The built-in service's URL and origin, started when needed, its key stored for its origin like any other. */
  private async builtinTarget(): Promise<Target | { status: 'noUrl'; message: ShownMessage }> {
    try {
      let key = await this.context.secrets.get(BUILTIN_KEY);
      if (!key) await this.context.secrets.store(BUILTIN_KEY, (key = randomBytes(24).toString('base64url')));
      this.builtin ??= new LocalService({
        script: this.context.asAbsolutePath('dist/server/main.js'),
        key,
        port: this.context.globalState.get<number>(BUILTIN_PORT) ?? 0,
        log: (line) => this.log.info(line),
      });
      const url = await this.builtin.url();
      const origin = serviceOrigin(url)!;
      if ((await this.keys.get(origin)) !== key) await this.keys.set(origin, key);
      await this.context.globalState.update(BUILTIN_PORT, Number(new URL(url).port));
      return { url, origin };
    } catch (error) {
      this.log.error('The built-in local service did not start', error);
      return {
        status: 'noUrl',
        message: this.show(
          'error',
          vscode.l10n.t(
            'The built-in local service could not start: {0}. The Token Lens output has the details.',
            error instanceof Error ? error.message : String(error),
          ),
          [SHOW_LOG],
        ),
      };
    }
  }

  /** tokenLens.setServiceUrl: with a URL (programmatic use) sets it; without, asks in an input box. */
  async setServiceUrl(
    url?: string,
    explanation?: string,
  ): Promise<{ status: 'ok' | 'cancelled' | 'invalid' | 'untrusted'; url?: string; message?: string }> {
    const refused = this.refuseInRestrictedMode();
    if (refused) return { status: 'untrusted', message: refused.text };
    let value = url;
    if (value === undefined) {
      value = await vscode.window.showInputBox({
        title: 'Token Lens: Service URL',
        prompt: `${explanation ? `${explanation} ` : ''}The base URL of the tokenization and materials service, e.g. https://example.org/api. Saved in the setting tokenLens.service.baseUrl.`,
        value: config.serviceBaseUrl || 'https://',
        placeHolder: 'https://example.org/api',
        ignoreFocusOut: true,
        validateInput: (text) => {
          const problem = validateServiceUrl(text);
          if (problem) return problem;
          if (isUnencryptedRemote(text)) {
            return {
              message: 'With http:// the API key travels unencrypted. Use https:// unless this is a trusted network.',
              severity: vscode.InputBoxValidationSeverity.Warning,
            };
          }
          return undefined;
        },
      });
      if (value === undefined) return { status: 'cancelled' };
    }
    const problem = validateServiceUrl(value);
    if (problem) {
      this.show('error', `Token Lens did not save the service URL: ${problem}`);
      return { status: 'invalid', message: problem };
    }
    const normalized = value.trim().replace(/\/+$/, '');
    await updateSetting('service.baseUrl', normalized);
    if (config.serviceBuiltin) await updateUserSetting('service.builtin', undefined);
    // Saved into the workspace's settings (where its URL was) by the user: nothing left to confirm.
    if (urlSource(inspectServiceBaseUrl()) === 'workspace') await this.context.workspaceState.update(CONFIRMED_WORKSPACE_URL, normalized);
    const message = await this.urlSavedMessage(normalized);
    // Typed by the user from the palette: confirm it. Inside a command's flow, the command goes on instead.
    if (url === undefined && explanation === undefined) this.show('info', message);
    return { status: 'ok', url: normalized, message };
  }

  /** Which URL is now used, whether its origin's key is already stored, and the http warning where it applies. */
  private async urlSavedMessage(url: string): Promise<string> {
    const origin = serviceOrigin(url)!;
    await this.migration;
    const saved = (await this.keys.get(origin))
      ? vscode.l10n.t('Token Lens now uses {0}, with the API key stored for {1}.', url, origin)
      : vscode.l10n.t('Token Lens now uses {0}. No API key is stored for {1} yet: the first service command asks for it.', url, origin);
    return isUnencryptedRemote(url)
      ? `${saved} ${vscode.l10n.t('It is plain http:// to another machine, so the key and your data would travel unencrypted; Token Lens asks before the first request.')}`
      : saved;
  }

  /**
   * tokenLens.setApiKey: the key of the current service origin. With a key (programmatic use) stores it;
   * without, asks in a password box naming the origin (and first for the URL when none is set).
   */
  async setApiKey(key?: string): Promise<{ status: 'ok' | 'cancelled' | 'invalid' | 'noUrl'; origin?: string; message?: string }> {
    const origin = await this.currentOrigin(key === undefined);
    if (!origin)
      return {
        status: 'noUrl',
        message: this.show(
          'warning',
          vscode.l10n.t('Set the service URL first: an API key belongs to one service and is sent only to it.'),
          [SET_URL],
        ).text,
      };
    if (key !== undefined) {
      const problem = validateApiKey(key);
      if (problem) {
        this.show('error', vscode.l10n.t('Token Lens did not save the API key: {0}', problem));
        return { status: 'invalid', origin, message: problem };
      }
      await this.keys.set(origin, normalizeApiKey(key)!);
      this.log.info(`API key for ${origin} saved in secret storage`);
      return { status: 'ok', origin };
    }
    const entered = await this.keys.prompt(origin);
    if (!entered) return { status: 'cancelled', origin };
    this.log.info(`API key for ${origin} saved in secret storage`);
    const message = this.show(
      'info',
      vscode.l10n.t('Token Lens saved the API key for {0} in VS Code’s secret storage. It is sent only to {0}.', origin),
    );
    return { status: 'ok', origin, message: message.text };
  }

  /** tokenLens.clearApiKey: removes the key of the current service origin; other origins keep theirs. */
  async clearApiKey(): Promise<{ status: 'ok' | 'noUrl'; origin?: string; hadKey: boolean; message: string }> {
    const origin = await this.currentOrigin(false);
    if (!origin) {
      const message = this.show(
        'info',
        vscode.l10n.t('No service URL is set, so there is no current service whose API key could be removed.'),
      );
      return { status: 'noUrl', hadKey: false, message: message.text };
    }
    const hadKey = (await this.keys.get(origin)) !== undefined;
    await this.keys.delete(origin);
    this.log.info(`API key for ${origin} removed from secret storage`);
    const message = this.show(
      'info',
      hadKey
        ? vscode.l10n.t('Token Lens removed the API key for {0}. The next service command will ask for one.', origin)
        : vscode.l10n.t('Token Lens had no API key stored for {0}.', origin),
    );
    return { status: 'ok', origin, hadKey, message: message.text };
  }

  /** tokenLens.tokenizeRemote: the selection (or the document) on the service, next to the local count. */
  async tokenizeRemote(args: RemoteTokenizeArgs = {}): Promise<RemoteTokenizeOutcome> {
    const editor = vscode.window.activeTextEditor;
    let text = args.text;
    if (text === undefined && editor) {
      const selected = editor.selections.filter((s) => !s.isEmpty).map((s) => editor.document.getText(s));
      text = selected.length ? selected.join('\n') : editor.document.getText();
    }
    if (text === undefined) {
      const message = this.show(
        'warning',
        'Open a file or select text first: Token Lens sends the selection (or the whole document) to the service.',
      );
      return { status: 'noText', message };
    }
    const chars = countChars(text);
    if (chars > MAX_TEXT_CHARS) {
      const message = this.show(
        'warning',
        `The text has ${chars.toLocaleString('en-US')} characters; the service accepts at most ${MAX_TEXT_CHARS.toLocaleString('en-US')}. Select a shorter part and run the command again. Nothing was sent.`,
      );
      return { status: 'tooLong', message };
    }
    const tokenizer = args.tokenizer ?? config.tokenizer;
    const specialTokens = config.specialTokens;
    const sent = text;
    const outcome = await this.call(
      `Tokenizing ${quantity(chars, 'character')} with ${tokenizer} on the service`,
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
    const comparison = local ? compareResults(tokenizer, text, result, local, specialTokens) : undefined;
    const summary = local
      ? comparison!.identical
        ? `The service counts ${quantity(result.n_tokens, 'token')} with ${result.tokenizer}; Token Lens counts the same.`
        : `The service counts ${quantity(result.n_tokens, 'token')} with ${result.tokenizer}; Token Lens counts ${local.n_tokens}. ${comparison!.explanations[0]}`
      : `The service counts ${quantity(result.n_tokens, 'token')} with ${result.tokenizer}; Token Lens has no local tokenizer of that name to compare with.`;
    this.log.info(summary);
    if (args.show !== false) await this.openReport(comparisonMarkdown(tokenizer, result, local, comparison, config.serviceBaseUrl));
    const message = this.show('info', summary);
    return { status: 'ok', result, ...(local ? { local } : {}), ...(comparison ? { comparison } : {}), message };
  }

  // ---- the one policy for running a service request --------------------------------------------------------

  /**
   * Runs one service operation the way every command should: refuses in Restricted Mode; asks for the URL
   * when missing; has a workspace-provided URL and plain http:// to another machine confirmed once; uses the
   * key of the URL's origin only (asking for it, naming the origin, when there is none); shows progress with
   * a Cancel button (cancelling aborts the request at once), logs it, and on failure shows a message that
   * says what happened and what to do. On 401 it offers "Enter new API key" and, once one is entered, runs
   * the command again (`options.again`). Never throws for service failures; resolves with the outcome.
   */
  async call<T>(
    title: string,
    run: (client: ServiceClient, signal: AbortSignal) => Promise<T>,
    options: CallOptions = {},
  ): Promise<CallOutcome<T>> {
    const target = await this.target();
    if ('status' in target) return target;
    const { url, origin } = target;
    const key =
      options.needsKey === false
        ? { apiKey: undefined }
        : await this.keyFor(origin, () => (options.again ? options.again() : this.call(title, run, options)));
    if ('status' in key) return key;
    const { apiKey } = key;

    const controller = new AbortController();
    const external = options.signal;
    const onExternalAbort = (): void => controller.abort();
    external?.addEventListener('abort', onExternalAbort, { once: true });
    if (external?.aborted) controller.abort();
    this.inFlight.add(controller);
    const client = this.client(url, apiKey);
    try {
      const value = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Token Lens: ${title}`, cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          const started = Date.now();
          const ticker = options.showElapsed
            ? setInterval(() => progress.report({ message: `${Math.round((Date.now() - started) / 1000)} s` }), 1000)
            : undefined;
          try {
            return await run(client, controller.signal);
          } finally {
            clearInterval(ticker);
          }
        },
      );
      return { status: 'ok', value };
    } catch (error) {
      if (!isServiceError(error)) {
        const message = this.show('error', `Token Lens: ${title} failed unexpectedly: ${(error as Error).message ?? String(error)}`, [
          SHOW_LOG,
        ]);
        this.log.error(`${title} failed: ${(error as Error).stack ?? String(error)}`);
        return { status: 'error', message };
      }
      if (error.kind === 'cancelled') {
        this.log.info(`${title}: cancelled`);
        return { status: 'cancelled', error, errorKind: 'cancelled' };
      }
      const message = this.showServiceError(error, target, options.again ?? (() => this.call(title, run, options)));
      return { status: 'error', error, errorKind: error.kind, message };
    } finally {
      this.inFlight.delete(controller);
      external?.removeEventListener('abort', onExternalAbort);
    }
  }

  /** The key of this origin, asked for when there is none; declining says how to add one and keeps the command to run after. */
  private async keyFor(
    origin: string,
    again: () => Thenable<unknown>,
  ): Promise<{ apiKey: string } | { status: 'noKey'; message: ShownMessage }> {
    await this.migration;
    const stored =
      (await this.keys.get(origin)) || (await this.keys.prompt(origin, vscode.l10n.t('This command needs your API key for {0}.', origin)));
    if (stored) return { apiKey: stored };
    // Entering the key from here runs the command, as after a 401: the user asked for the command, not a setting.
    const message = this.show(
      'warning',
      vscode.l10n.t(
        'Token Lens needs an API key for {0} to use the service; nothing was sent. Run “Token Lens: Set API Key” when you have one.',
        origin,
      ),
      [ENTER_NEW_KEY],
      async (choice) => {
        if (choice !== ENTER_NEW_KEY || !(await this.keys.prompt(origin))) return;
        await again();
      },
    );
    return { status: 'noKey', message };
  }

  private client(url: string, apiKey: string | undefined): ServiceClient {
    return new ServiceClient({
      baseUrl: url,
      ...(apiKey ? { apiKey } : {}),
      timeoutMs: config.serviceTimeoutMs,
      maxRetries: config.serviceMaxRetries,
      logBodies: config.serviceLogBodies,
      maxResponseBytes: config.serviceMaxResponseBytes,
      log: (entry) => this.logRequest(entry),
    });
  }

  /**
   * Where a request may go, or why it may not. Every service request passes here (through call()), so a
   * command added later inherits the Restricted Mode refusal, the confirmations and the key binding.
   */
  private async target(): Promise<Target | { status: 'untrusted' | 'noUrl' | 'declined'; message: ShownMessage }> {
    const refused = this.refuseInRestrictedMode();
    if (refused) return { status: 'untrusted', message: refused };
    if (config.serviceBuiltin) return this.builtinTarget();
    if (!config.serviceBaseUrl) {
      const set = await this.setServiceUrl(
        undefined,
        vscode.l10n.t('This command sends data to the Token Lens service, and no service URL is set yet.'),
      );
      if (set.status !== 'ok') {
        const message = this.show(
          'warning',
          vscode.l10n.t(
            'Token Lens needs the service URL to run this command. Run “Token Lens: Set Service URL” when you have it, or try the built-in local service (offline, no account).',
          ),
          [SET_URL, USE_BUILTIN],
          async (choice) => {
            if (choice === SET_URL) await this.setServiceUrl();
            else if (choice === USE_BUILTIN) await this.useBuiltinService();
          },
        );
        return { status: 'noUrl', message };
      }
    }
    const url = config.serviceBaseUrl.replace(/\/+$/, '');
    const origin = serviceOrigin(url);
    const problem = validateServiceUrl(url);
    if (!origin || problem) {
      const message = this.show(
        'error',
        vscode.l10n.t('The service URL “{0}” in the settings cannot be used: {1} Nothing was sent.', url, problem ?? ''),
        [SET_URL, OPEN_SETTINGS],
      );
      return { status: 'noUrl', message };
    }
    if (urlSource(inspectServiceBaseUrl()) === 'workspace' && !(await this.confirmWorkspaceUrl(url, origin))) {
      const message = this.show(
        'warning',
        vscode.l10n.t(
          'Token Lens did not use the service URL {0} from this workspace’s settings, and sent nothing. Run the command again to confirm it, or remove tokenLens.service.baseUrl from the workspace settings to use your own.',
          url,
        ),
      );
      return { status: 'declined', message };
    }
    if (isUnencryptedRemote(url) && !(await this.confirmUnencrypted(origin))) {
      const message = this.show(
        'warning',
        vscode.l10n.t(
          'Token Lens sent nothing to {0}: plain http:// would carry your API key and data unencrypted. Use an https:// URL, or run the command again and choose “{1}” on a network you trust.',
          origin,
          SEND_UNENCRYPTED,
        ),
        [SET_URL],
      );
      return { status: 'declined', message };
    }
    return { url, origin };
  }

  /**
   * The one Restricted Mode check: shows why service commands do not run there, or returns undefined when trusted.
   * Public for commands that ask the user something first (Run with Options…), so that they refuse before asking.
   */
  refuseInRestrictedMode(): ShownMessage | undefined {
    if (vscode.workspace.isTrusted) return undefined;
    return this.show(
      'error',
      vscode.l10n.t(
        'Token Lens does not use the service in Restricted Mode: this workspace is not trusted, and its settings could send your text, structures and API key to a server of its choosing. Token counts and the inspector work as usual. Trust the workspace to use the service commands.',
      ),
      [MANAGE_TRUST],
    );
  }

  /**
   * A workspace's URL is used once the user confirms it; the answer holds for this workspace until its URL
   * changes. A notification with buttons, not a modal dialog (which VS Code refuses to show in extension
   * tests): the request waits for the answer either way, and closing it is "no".
   */
  private async confirmWorkspaceUrl(url: string, origin: string): Promise<boolean> {
    if (this.context.workspaceState.get(CONFIRMED_WORKSPACE_URL) === url) return true;
    const choice = await notify.warning(
      vscode.l10n.t(
        'This workspace’s settings set the Token Lens service URL to {0}. Token Lens would send your text or structure there, with the API key you keep for {1} (other services’ keys are never sent there). Use it for this workspace?',
        url,
        origin,
      ),
      USE_WORKSPACE_URL,
      DONT_USE,
    );
    if (choice !== USE_WORKSPACE_URL) return false;
    await this.context.workspaceState.update(CONFIRMED_WORKSPACE_URL, url);
    this.log.info(`Workspace service URL ${url} confirmed for this workspace`);
    return true;
  }

  /** Plain http:// to another machine is used once the user agrees, per origin, remembered across workspaces. */
  private async confirmUnencrypted(origin: string): Promise<boolean> {
    const accepted = this.context.globalState.get<string[]>(UNENCRYPTED_ORIGINS, []);
    if (accepted.includes(origin)) return true;
    const choice = await notify.warning(
      vscode.l10n.t(
        '{0} is plain http://: anyone on the network between you and it could read your API key and what you send. Use https:// unless this is a network you trust. Send unencrypted to {0} (asked once for this origin)?',
        origin,
      ),
      SEND_UNENCRYPTED,
      DONT_SEND,
    );
    if (choice !== SEND_UNENCRYPTED) return false;
    await this.context.globalState.update(UNENCRYPTED_ORIGINS, [...accepted, origin]);
    this.log.warn(`Sending to ${origin} over plain http:// (the user agreed)`);
    return true;
  }

  /** The origin of the URL in effect, after any pending key migration; asks for the URL first when `ask`. */
  private async currentOrigin(ask: boolean): Promise<string | undefined> {
    await this.migration;
    if (!config.serviceBaseUrl && ask)
      await this.setServiceUrl(undefined, vscode.l10n.t('An API key belongs to one service. Which service is it for?'));
    return serviceOrigin(config.serviceBaseUrl);
  }

  /** Earlier versions kept one key for whatever URL was set: it moves to the user's own URL's origin, once there is one. */
  private async migrateLegacyKey(): Promise<void> {
    const origin = legacyKeyOrigin(inspectServiceBaseUrl());
    try {
      if (origin && (await this.keys.adoptLegacyKey(origin)))
        this.log.info(`The API key of an earlier version is now bound to ${origin}, the service URL in your user settings`);
    } catch (error) {
      this.log.error(`Could not move the earlier version's API key: ${String(error)}`);
    }
  }

  // ---- messages -------------------------------------------------------------------------------------------

  private showServiceError(error: ServiceError, { url, origin }: Target, retry: () => Thenable<unknown>): ShownMessage {
    const seconds = Math.round(config.serviceTimeoutMs / 1000);
    let text: string;
    let actions: string[];
    switch (error.kind) {
      case 'unauthorized':
        text = `${sentence(error.message)} Enter a new API key (from the account settings of the service’s web site) and Token Lens will try again.`;
        actions = [ENTER_NEW_KEY];
        break;
      case 'badRequest':
        text = /tokenizer/i.test(error.detail ?? '')
          ? `${sentence(error.message)} Choose a tokenizer the service lists (Token Lens: Select Tokenizer) and try again.`
          : `${sentence(error.message)} Check the input and try again.`;
        actions = [SHOW_LOG];
        break;
      case 'notFound':
        text = `${sentence(error.message)} If the service URL (${url}) is wrong, set it again.`;
        actions = [SET_URL, SHOW_LOG];
        break;
      case 'rateLimited': {
        const wait = error.retryAfterMs !== undefined ? ` in ${Math.ceil(error.retryAfterMs / 1000)} s` : ' in a minute';
        text = `${sentence(error.message)} The service allows 100 requests per minute per API key; try again${wait}.`;
        actions = [TRY_AGAIN];
        break;
      }
      case 'server':
        text = `${sentence(error.message)}${error.retries ? ` Token Lens retried ${error.retries} times.` : ''} Try again later; the log has the details.`;
        actions = [TRY_AGAIN, SHOW_LOG];
        break;
      case 'notImplemented':
        text = `${sentence(error.message)}`;
        actions = [SHOW_LOG];
        break;
      case 'timeout':
        text = `${sentence(error.message)} Large computations can take a minute; raise “tokenLens.service.timeoutSeconds” (now ${seconds} s) or try again.`;
        actions = [TRY_AGAIN, OPEN_SETTINGS];
        break;
      case 'network':
        text = `${sentence(error.message)} Check the service URL (${url}) and your network connection.`;
        actions = [TRY_AGAIN, SET_URL, SHOW_LOG];
        break;
      case 'malformedResponse':
        text = `${sentence(error.message)} Check that the service URL (${url}) points at the service and not at another web site.`;
        actions = [SET_URL, SHOW_LOG];
        break;
      default:
        text = `${sentence(error.message)}`;
        actions = [SET_URL];
    }
    return this.show('error', text, actions, async (choice) => {
      if (choice === ENTER_NEW_KEY) {
        const key = await this.keys.prompt(origin, vscode.l10n.t('The service did not accept the stored API key.'));
        if (key) await retry();
      } else if (choice === TRY_AGAIN) {
        await retry();
      } else if (choice === SET_URL) {
        const set = await this.setServiceUrl();
        if (set.status === 'ok') await retry();
      } else if (choice === SHOW_LOG) {
        this.log.show(true);
      } else if (choice === OPEN_SETTINGS) {
        await vscode.commands.executeCommand('workbench.action.openSettings', 'tokenLens.service');
      }
    });
  }

  /** Shows a message without waiting for it; a chosen action runs `onChoice`. */
  show(
    severity: ShownMessage['severity'],
    text: string,
    actions: string[] = [],
    onChoice?: (choice: string) => Promise<unknown>,
  ): ShownMessage {
    const message: ShownMessage = { severity, text, actions };
    const showFn = severity === 'error' ? notify.error : severity === 'warning' ? notify.warning : notify.info;
    void Promise.resolve(showFn(message.text, ...actions))
      .then((choice) => {
        if (choice === SET_URL && !onChoice) return this.setServiceUrl();
        if (choice === ENTER_NEW_KEY && !onChoice) return this.setApiKey();
        if (choice === MANAGE_TRUST) return vscode.commands.executeCommand('workbench.trust.manage');
        if (choice && onChoice) return onChoice(choice);
        return undefined;
      })
      .then(undefined, (error: unknown) => this.log.error(`Message action failed: ${String(error)}`));
    return message;
  }

  private logRequest(entry: RequestLogEntry): void {
    const retries = entry.retries ? `, ${quantity(entry.retries, 'retry', 'retries')}` : '';
    const paced = entry.pacedMs >= 50 ? `, waited ${entry.pacedMs} ms for the rate limit` : '';
    const outcome = entry.error ? `${entry.status ?? '—'} ${entry.error}` : String(entry.status);
    const line = `${entry.method} ${entry.path} → ${outcome} in ${entry.durationMs} ms${retries}${paced}`;
    if (entry.error === 'cancelled') this.log.info(line);
    else if (entry.error) this.log.warn(`${line}: ${entry.message ?? ''}`);
    else this.log.info(line);
    if (entry.requestBody !== undefined) this.log.info(`  request body: ${entry.requestBody}`);
    if (entry.responseBody !== undefined) this.log.info(`  response body: ${entry.responseBody}`);
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

/** Ends a message with a full stop unless it already ends with punctuation. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

function asArgs(value: unknown): RemoteTokenizeArgs {
  if (!value || typeof value !== 'object' || value instanceof vscode.Uri) return {};
  const args = value as Record<string, unknown>;
  return {
    ...(typeof args.text === 'string' ? { text: args.text } : {}),
    ...(typeof args.tokenizer === 'string' ? { tokenizer: args.tokenizer } : {}),
    ...(typeof args.show === 'boolean' ? { show: args.show } : {}),
  };
}
