/**
 * The one place that decides how any service request runs in the editor (policy.ts is what the runs see): refusal
 * in Restricted Mode, URL and key prompting (one key per service origin), the one-time confirmations of a
 * workspace's URL and of plain http://, progress with cancellation, the log line, and the message the user sees
 * when it fails.
 */
import * as vscode from 'vscode';
import { config, inspectServiceBaseUrl } from '../../platform/config';
import { Disposable, toDisposable } from '../../platform/disposable';
import { isServiceError, type ServiceError } from '../../core/service/errors';
import { isUnencryptedRemote, serviceOrigin, urlSource, validateServiceUrl } from '../../core/service/origin';
import { quantity } from '../../core/util/quantity';
import { hostLocale } from '../../platform/locale';
import { ServiceClient, type RequestLogEntry } from './client';
import type { ServiceCommands, ServiceParts } from './commands';
import { failureMessage } from '../../core/service/failure';
import { labels, type ShownMessage } from './messages';
import type { CallOptions, CallOutcome, RequestPolicy, Target, UrlOutcome } from './policy';

export class ServiceRequests extends Disposable implements RequestPolicy {
  private readonly inFlight = new Set<AbortController>();

  constructor(
    private readonly parts: ServiceParts,
    private readonly commands: ServiceCommands,
  ) {
    super();
    this.register(toDisposable(() => this.inFlight.forEach((c) => c.abort())));
  }

  show(...args: Parameters<RequestPolicy['show']>): ShownMessage {
    return this.parts.messages.show(...args);
  }

  refuseInRestrictedMode(): ShownMessage | undefined {
    return this.parts.messages.refuseInRestrictedMode();
  }

  setServiceUrl(url?: string, explanation?: string): Promise<UrlOutcome> {
    return this.commands.setServiceUrl(url, explanation);
  }

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
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Token Lens: {0}', title), cancellable: true },
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
        const message = this.show(
          'error',
          vscode.l10n.t('Token Lens: {0} failed unexpectedly: {1}', title, (error as Error).message ?? String(error)),
          [labels().showLog],
        );
        this.parts.log.error(`${title} failed: ${(error as Error).stack ?? String(error)}`);
        return { status: 'error', message };
      }
      if (error.kind === 'cancelled') {
        this.parts.log.info(`${title}: cancelled`);
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
    await this.parts.keys.settled();
    const stored =
      (await this.parts.keys.get(origin)) ||
      (await this.parts.keys.prompt(origin, vscode.l10n.t('This command needs your API key for {0}.', origin)));
    if (stored) return { apiKey: stored };
    // Entering the key from here runs the command, as after a 401: the user asked for the command, not a setting.
    const message = this.show(
      'warning',
      vscode.l10n.t(
        'Token Lens needs an API key for {0} to use the service; nothing was sent. Run “Token Lens: Set API Key” when you have one.',
        origin,
      ),
      [labels().enterNewKey],
      async (choice) => {
        if (choice !== labels().enterNewKey || !(await this.parts.keys.prompt(origin))) return;
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
      locale: hostLocale(),
    });
  }

  /**
   * Where a request may go, or why it may not. Every service request passes here (through call()), so a
   * command added later inherits the Restricted Mode refusal, the confirmations and the key binding.
   */
  async target(): Promise<Target | { status: 'untrusted' | 'noUrl' | 'declined'; message: ShownMessage }> {
    const refused = this.refuseInRestrictedMode();
    if (refused) return { status: 'untrusted', message: refused };
    if (config.serviceBuiltin) return this.parts.builtin.target();
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
          [labels().setUrl, labels().useBuiltin],
          async (choice) => {
            if (choice === labels().setUrl) await this.setServiceUrl();
            else if (choice === labels().useBuiltin) await this.commands.useBuiltinService();
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
        [labels().setUrl, labels().openSettings],
      );
      return { status: 'noUrl', message };
    }
    if (urlSource(inspectServiceBaseUrl()) === 'workspace' && !(await this.parts.confirmations.workspaceUrl(url, origin))) {
      const message = this.show(
        'warning',
        vscode.l10n.t(
          'Token Lens did not use the service URL {0} from this workspace’s settings, and sent nothing. Run the command again to confirm it, or remove tokenLens.service.baseUrl from the workspace settings to use your own.',
          url,
        ),
      );
      return { status: 'declined', message };
    }
    if (isUnencryptedRemote(url) && !(await this.parts.confirmations.unencrypted(origin))) {
      const message = this.show(
        'warning',
        vscode.l10n.t(
          'Token Lens sent nothing to {0}: plain http:// would carry your API key and data unencrypted. Use an https:// URL, or run the command again and choose “{1}” on a network you trust.',
          origin,
          labels().sendUnencrypted,
        ),
        [labels().setUrl],
      );
      return { status: 'declined', message };
    }
    return { url, origin };
  }

  /** The failure's message; its actions enter a key, retry, set the URL, show the log or open the settings. */
  private showServiceError(error: ServiceError, { url, origin }: Target, retry: () => Thenable<unknown>): ShownMessage {
    const { text, actions } = failureMessage(error, url, Math.round(config.serviceTimeoutMs / 1000), hostLocale());
    const { enterNewKey, tryAgain, setUrl, showLog, openSettings } = labels();
    return this.show('error', text, actions, async (choice) => {
      if (choice === enterNewKey) {
        const key = await this.parts.keys.prompt(origin, vscode.l10n.t('The service did not accept the stored API key.'));
        if (key) await retry();
      } else if (choice === tryAgain) {
        await retry();
      } else if (choice === setUrl) {
        const set = await this.setServiceUrl();
        if (set.status === 'ok') await retry();
      } else if (choice === showLog) {
        this.parts.log.show(true);
      } else if (choice === openSettings) {
        await vscode.commands.executeCommand('workbench.action.openSettings', 'tokenLens.service');
      }
    });
  }

  private logRequest(entry: RequestLogEntry): void {
    const retries = entry.retries ? `, ${quantity(entry.retries, 'retry', 'retries')}` : '';
    const paced = entry.pacedMs >= 50 ? `, waited ${entry.pacedMs} ms for the rate limit` : '';
    const outcome = entry.error ? `${entry.status ?? '—'} ${entry.error}` : String(entry.status);
    const line = `${entry.method} ${entry.path} → ${outcome} in ${entry.durationMs} ms${retries}${paced}`;
    if (entry.error === 'cancelled') this.parts.log.info(line);
    else if (entry.error) this.parts.log.warn(`${line}: ${entry.message ?? ''}`);
    else this.parts.log.info(line);
    if (entry.requestBody !== undefined) this.parts.log.info(`  request body: ${entry.requestBody}`);
    if (entry.responseBody !== undefined) this.parts.log.info(`  response body: ${entry.responseBody}`);
  }
}
