/**
 * The built-in local service as a service target: the reference server on this machine (localService.ts),
 * started when first needed with a key made once, its port kept so that its origin (and the key stored for
 * it, like any other origin's) stays the same across sessions.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { serviceOrigin } from '../../core/service/origin';
import type { ApiKeyStore } from './apiKey';
import { LocalService } from './localService';
import { labels, type Messages, type ShownMessage } from './messages';
import type { Target } from './policy';

/** SecretStorage: the key the built-in local service accepts, made once. globalState: its last port. */
const BUILTIN_KEY = 'tokenLens.builtinService.key';
const BUILTIN_PORT = 'tokenLens.builtinService.port';

export class BuiltinService implements vscode.Disposable {
  private service: LocalService | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly keys: ApiKeyStore,
    private readonly messages: Messages,
  ) {}

  /** Its URL and origin, started when needed, its key stored for its origin like any other. */
  async target(): Promise<Target | { status: 'noUrl'; message: ShownMessage }> {
    try {
      let key = await this.context.secrets.get(BUILTIN_KEY);
      if (!key) await this.context.secrets.store(BUILTIN_KEY, (key = randomBytes(24).toString('base64url')));
      this.service ??= new LocalService({
        script: this.context.asAbsolutePath('dist/server/main.js'),
        key,
        port: this.context.globalState.get<number>(BUILTIN_PORT) ?? 0,
        log: (line) => this.log.info(line),
      });
      const url = await this.service.url();
      const origin = serviceOrigin(url)!;
      if ((await this.keys.get(origin)) !== key) await this.keys.set(origin, key);
      await this.context.globalState.update(BUILTIN_PORT, Number(new URL(url).port));
      return { url, origin };
    } catch (error) {
      this.log.error('The built-in local service did not start', error);
      return {
        status: 'noUrl',
        message: this.messages.show(
          'error',
          vscode.l10n.t(
            'The built-in local service could not start: {0}. The Token Lens output has the details.',
            error instanceof Error ? error.message : String(error),
          ),
          [labels().showLog],
        ),
      };
    }
  }

  dispose(): void {
    this.service?.dispose();
  }
}
