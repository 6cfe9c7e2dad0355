/**
 * The commands that choose the service and its key: Use the Built-in Local Service, Set Service URL, Set API Key
 * and Clear API Key. Each returns what it did (what tests assert on) besides what it shows.
 */
import * as vscode from 'vscode';
import { config, inspectServiceBaseUrl, updateSetting, updateUserSetting } from '../../platform/config';
import { isUnencryptedRemote, normalizeApiKey, serviceOrigin, urlSource, validateServiceUrl } from '../../core/service/origin';
import { validateApiKey, type ApiKeyStore } from './apiKey';
import type { BuiltinService } from './builtin';
import type { Confirmations } from './confirmations';
import { labels, type Messages } from './messages';
import type { UrlOutcome } from './policy';

/** What the commands and the request policy (requests.ts) share. */
export interface ServiceParts {
  log: vscode.LogOutputChannel;
  messages: Messages;
  keys: ApiKeyStore;
  builtin: BuiltinService;
  confirmations: Confirmations;
}

export class ServiceCommands {
  constructor(private readonly parts: ServiceParts) {}

  /** tokenLens.useBuiltinService: the reference service on this machine, from now on (tokenLens.service.builtin). */
  async useBuiltinService(): Promise<{ status: 'ok' | 'untrusted' | 'failed'; url?: string; message?: string }> {
    const refused = this.parts.messages.refuseInRestrictedMode();
    if (refused) return { status: 'untrusted', message: refused.text };
    await updateUserSetting('service.builtin', true);
    const target = await this.parts.builtin.target();
    if ('status' in target) return { status: 'failed', message: target.message.text };
    const message = this.parts.messages.show(
      'info',
      vscode.l10n.t(
        'Token Lens now uses its built-in local service ({0}): the reference models, computed on this machine, offline and without an account. Every answer names its model in “method”. “Set Service URL” switches to another service.',
        target.url,
      ),
    );
    return { status: 'ok', url: target.url, message: message.text };
  }

  /** tokenLens.setServiceUrl: with a URL (programmatic use) sets it; without, asks in an input box. */
  async setServiceUrl(url?: string, explanation?: string): Promise<UrlOutcome> {
    const refused = this.parts.messages.refuseInRestrictedMode();
    if (refused) return { status: 'untrusted', message: refused.text };
    const value = url ?? (await askUrl(explanation));
    if (value === undefined) return { status: 'cancelled' };
    const problem = validateServiceUrl(value);
    if (problem) {
      this.parts.messages.show('error', vscode.l10n.t('Token Lens did not save the service URL: {0}', problem));
      return { status: 'invalid', message: problem };
    }
    const normalized = value.trim().replace(/\/+$/, '');
    await updateSetting('service.baseUrl', normalized);
    if (config.serviceBuiltin) await updateUserSetting('service.builtin', undefined);
    // Saved into the workspace's settings (where its URL was) by the user: nothing left to confirm.
    if (urlSource(inspectServiceBaseUrl()) === 'workspace') await this.parts.confirmations.workspaceUrlSaved(normalized);
    const message = await this.urlSavedMessage(normalized);
    // Typed by the user from the palette: confirm it. Inside a command's flow, the command goes on instead.
    if (url === undefined && explanation === undefined) this.parts.messages.show('info', message);
    return { status: 'ok', url: normalized, message };
  }

  /** Which URL is now used, whether its origin's key is already stored, and the http warning where it applies. */
  private async urlSavedMessage(url: string): Promise<string> {
    const origin = serviceOrigin(url)!;
    await this.parts.keys.settled();
    const saved = (await this.parts.keys.get(origin))
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
        message: this.parts.messages.show(
          'warning',
          vscode.l10n.t('Set the service URL first: an API key belongs to one service and is sent only to it.'),
          [labels().setUrl],
        ).text,
      };
    if (key !== undefined) {
      const problem = validateApiKey(key);
      if (problem) {
        this.parts.messages.show('error', vscode.l10n.t('Token Lens did not save the API key: {0}', problem));
        return { status: 'invalid', origin, message: problem };
      }
      await this.parts.keys.set(origin, normalizeApiKey(key)!);
      this.parts.log.info(`API key for ${origin} saved in secret storage`);
      return { status: 'ok', origin };
    }
    const entered = await this.parts.keys.prompt(origin);
    if (!entered) return { status: 'cancelled', origin };
    this.parts.log.info(`API key for ${origin} saved in secret storage`);
    const message = this.parts.messages.show(
      'info',
      vscode.l10n.t('Token Lens saved the API key for {0} in VS Code’s secret storage. It is sent only to {0}.', origin),
    );
    return { status: 'ok', origin, message: message.text };
  }

  /** tokenLens.clearApiKey: removes the key of the current service origin; other origins keep theirs. */
  async clearApiKey(): Promise<{ status: 'ok' | 'noUrl'; origin?: string; hadKey: boolean; message: string }> {
    const origin = await this.currentOrigin(false);
    if (!origin) {
      const message = this.parts.messages.show(
        'info',
        vscode.l10n.t('No service URL is set, so there is no current service whose API key could be removed.'),
      );
      return { status: 'noUrl', hadKey: false, message: message.text };
    }
    const hadKey = (await this.parts.keys.get(origin)) !== undefined;
    await this.parts.keys.delete(origin);
    this.parts.log.info(`API key for ${origin} removed from secret storage`);
    const message = this.parts.messages.show(
      'info',
      hadKey
        ? vscode.l10n.t('Token Lens removed the API key for {0}. The next service command will ask for one.', origin)
        : vscode.l10n.t('Token Lens had no API key stored for {0}.', origin),
    );
    return { status: 'ok', origin, hadKey, message: message.text };
  }

  /** The origin of the URL in effect, after any pending key migration; asks for the URL first when `ask`. */
  private async currentOrigin(ask: boolean): Promise<string | undefined> {
    await this.parts.keys.settled();
    if (!config.serviceBaseUrl && ask)
      await this.setServiceUrl(undefined, vscode.l10n.t('An API key belongs to one service. Which service is it for?'));
    return serviceOrigin(config.serviceBaseUrl);
  }
}

/** The service URL typed into an input box (warned about plain http://), or undefined when dismissed. */
function askUrl(explanation: string | undefined): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Token Lens: Service URL'),
    prompt: `${explanation ? `${explanation} ` : ''}${vscode.l10n.t('The base URL of the tokenization and materials service, e.g. https://example.org/api. Saved in the setting tokenLens.service.baseUrl.')}`,
    value: config.serviceBaseUrl || 'https://',
    placeHolder: vscode.l10n.t('https://example.org/api'),
    ignoreFocusOut: true,
    validateInput: (text) => {
      const problem = validateServiceUrl(text);
      if (problem) return problem;
      if (isUnencryptedRemote(text)) {
        return {
          message: vscode.l10n.t('With http:// the API key travels unencrypted. Use https:// unless this is a trusted network.'),
          severity: vscode.InputBoxValidationSeverity.Warning,
        };
      }
      return undefined;
    },
  });
}
