/**
 * API keys kept per service origin in a secret store (pure: VS Code's SecretStorage in the extension, a Map in
 * tests). The prompt that fills it is in features/service/apiKey.ts.
 */
import { apiKeySecretName, LEGACY_API_KEY_SECRET, normalizeApiKey } from './origin';

/** The part of VS Code's SecretStorage used here. */
export interface Secrets {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

export class KeyStore {
  constructor(protected readonly secrets: Secrets) {}

  async get(origin: string): Promise<string | undefined> {
    return normalizeApiKey(await this.secrets.get(apiKeySecretName(origin)));
  }

  async set(origin: string, key: string): Promise<void> {
    const normalized = normalizeApiKey(key);
    if (!normalized) throw new Error('An empty API key cannot be stored.');
    await this.secrets.store(apiKeySecretName(origin), normalized);
  }

  async delete(origin: string): Promise<void> {
    await this.secrets.delete(apiKeySecretName(origin));
  }

  /**
   * Moves the key of earlier versions (one key for any URL) to `origin`, the service the user configured
   * themselves. An origin that has a key already keeps it, and the old key is dropped all the same: left
   * behind, it would be given to whichever service came next. Resolves true when there was an old key.
   */
  async adoptLegacyKey(origin: string): Promise<boolean> {
    const legacy = normalizeApiKey(await this.secrets.get(LEGACY_API_KEY_SECRET));
    if (!legacy) return false;
    if (!(await this.get(origin))) await this.set(origin, legacy);
    await this.secrets.delete(LEGACY_API_KEY_SECRET);
    return true;
  }
}
