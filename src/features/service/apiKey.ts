/**
 * API keys, one per service origin, kept only in VS Code's SecretStorage (never in a setting, never in a log).
 * Editor edge: the prompt and its validation, and the move of an earlier version's key; storage is
 * core/service/keyStore.ts, the origin rules core/service/origin.ts.
 */
import * as vscode from 'vscode';
import { KeyStore } from '../../core/service/keyStore';
import { legacyKeyOrigin, normalizeApiKey } from '../../core/service/origin';
import { inspectServiceBaseUrl } from '../../platform/config';

/** Why an entered key cannot be right, or undefined when it can. */
export function validateApiKey(value: string): string | undefined {
  const key = normalizeApiKey(value);
  if (!key) return vscode.l10n.t('Enter the API key from the account settings of the service’s web site.');
  if (/\s/.test(key)) return vscode.l10n.t('An API key has no spaces or line breaks: paste just the key.');
  return undefined;
}

/** The key store with the editor's prompt for a missing key, and the earlier version's key moved to its origin. */
export class ApiKeyStore extends KeyStore {
  private migration: Promise<void>;

  constructor(
    secrets: vscode.SecretStorage,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super(secrets);
    this.migration = this.migrateLegacyKey();
  }

  /** The move of an earlier version's key to its origin, done: key look-ups wait for it. */
  settled(): Promise<void> {
    return this.migration;
  }

  /** The service URL changed: the earlier version's key may now have an origin of the user's own. */
  migrateAgain(): void {
    this.migration = this.migration.then(() => this.migrateLegacyKey());
  }

  /** Earlier versions kept one key for whatever URL was set: it moves to the user's own URL's origin, once there is one. */
  private async migrateLegacyKey(): Promise<void> {
    const origin = legacyKeyOrigin(inspectServiceBaseUrl());
    try {
      if (origin && (await this.adoptLegacyKey(origin)))
        this.log.info(`The API key of an earlier version is now bound to ${origin}, the service URL in your user settings`);
    } catch (error) {
      this.log.error(`Could not move the earlier version's API key: ${String(error)}`);
    }
  }

  /**
   * Asks for the key of `origin` in a password input box that names the origin, and stores it. `reason` says
   * why it is asked for now. Resolves with the key, or undefined when dismissed.
   */
  async prompt(origin: string, reason?: string): Promise<string | undefined> {
    const entered = await vscode.window.showInputBox({
      title: vscode.l10n.t('Token Lens: API Key for {0}', origin),
      prompt: [
        reason,
        vscode.l10n.t(
          'This key is sent only to {0}. Get it from the account settings of that service’s web site; it is kept in VS Code’s secret storage, never in settings.',
          origin,
        ),
      ]
        .filter(Boolean)
        .join(' '),
      placeHolder: vscode.l10n.t('API key for {0}', origin),
      password: true,
      ignoreFocusOut: true,
      validateInput: validateApiKey,
    });
    const key = normalizeApiKey(entered);
    if (!key) return undefined;
    await this.set(origin, key);
    return key;
  }
}
