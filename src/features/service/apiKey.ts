/**
 * API keys, one per service origin, kept only in VS Code's SecretStorage (never in a setting, never in a log).
 * Editor edge: the prompt and its validation; storage is core/service/keyStore.ts, the origin rules core/service/origin.ts.
 */
import * as vscode from 'vscode';
import { KeyStore } from '../../core/service/keyStore';
import { normalizeApiKey } from '../../core/service/origin';

/** Why an entered key cannot be right, or undefined when it can. */
export function validateApiKey(value: string): string | undefined {
  const key = normalizeApiKey(value);
  if (!key) return vscode.l10n.t('Enter the API key from the account settings of the service’s web site.');
  if (/\s/.test(key)) return vscode.l10n.t('An API key has no spaces or line breaks: paste just the key.');
  return undefined;
}

/** The key store with the editor's prompt for a missing key. */
export class ApiKeyStore extends KeyStore {
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
