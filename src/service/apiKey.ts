/** The API key, kept only in VS Code's SecretStorage (never in a setting, never in a log). Editor edge. */
import * as vscode from 'vscode';

export const API_KEY_SECRET = 'tokenLens.service.apiKey';

/** Trims, drops a pasted "Bearer " prefix; undefined when nothing usable is left. */
export function normalizeApiKey(value: string | undefined): string | undefined {
  const key = value?.trim().replace(/^bearer\s+/i, '').trim();
  return key ? key : undefined;
}

/** Why an entered key cannot be right, or undefined when it can. */
export function validateApiKey(value: string): string | undefined {
  const key = normalizeApiKey(value);
  if (!key) return 'Enter the API key from the account settings of the service’s web site.';
  if (/\s/.test(key)) return 'An API key has no spaces or line breaks: paste just the key.';
  return undefined;
}

export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(): Promise<string | undefined> {
    return normalizeApiKey(await this.secrets.get(API_KEY_SECRET));
  }

  async set(key: string): Promise<void> {
    const normalized = normalizeApiKey(key);
    if (!normalized) throw new Error('An empty API key cannot be stored.');
    await this.secrets.store(API_KEY_SECRET, normalized);
  }

  async delete(): Promise<void> {
    await this.secrets.delete(API_KEY_SECRET);
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((event) => {
      if (event.key === API_KEY_SECRET) listener();
    });
  }

  /**
   * Asks for a key in a password input box and stores it. `reason` says why it is asked for now
   * (first use, or a key the service did not accept). Resolves with the key, or undefined when dismissed.
   */
  async prompt(reason?: string): Promise<string | undefined> {
    const entered = await vscode.window.showInputBox({
      title: 'Token Lens: Service API Key',
      prompt: `${reason ? `${reason} ` : ''}Get a key from the account settings of the service’s web site. It is kept in VS Code’s secret storage, never in settings.`,
      placeHolder: 'API key',
      password: true,
      ignoreFocusOut: true,
      validateInput: validateApiKey,
    });
    const key = normalizeApiKey(entered);
    if (!key) return undefined;
    await this.set(key);
    return key;
  }
}
