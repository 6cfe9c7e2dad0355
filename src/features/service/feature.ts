/**
 * The service side of the editor, wired: the key store, the messages, the built-in local service, the
 * confirmations, the URL and key commands (commands.ts), the one request policy (requests.ts; the runs see it as
 * policy.ts's RequestPolicy) and remote tokenization (remoteTokenize.ts), and the commands registered.
 */
import * as vscode from 'vscode';
import { config, onDidChangeConfig } from '../../platform/config';
import { Disposable } from '../../platform/disposable';
import { isUnencryptedRemote } from '../../core/service/origin';
import { ApiKeyStore } from './apiKey';
import { BuiltinService } from './builtin';
import { ServiceCommands } from './commands';
import { Confirmations } from './confirmations';
import { Messages } from './messages';
import type { RequestPolicy } from './policy';
import { asArgs, RemoteTokenization } from './remoteTokenize';
import { ServiceRequests } from './requests';
import { serviceTestDriver } from './testDriver';

export class ServiceFeature extends Disposable {
  /** What the runs send their requests through. */
  readonly requests: RequestPolicy;

  constructor(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, testMode: boolean) {
    super();
    const keys = new ApiKeyStore(context.secrets, log);
    // A message's "Set Service URL" and "Enter new API key" run the commands, which show messages themselves.
    const messages = new Messages(log, {
      setServiceUrl: (): Thenable<unknown> => commands.setServiceUrl(),
      setApiKey: (): Thenable<unknown> => commands.setApiKey(),
    });
    const builtin = this.register(new BuiltinService(context, log, keys, messages));
    const parts = { log, messages, keys, builtin, confirmations: new Confirmations(context, log) };
    const commands = new ServiceCommands(parts);
    const requests = this.register(new ServiceRequests(parts, commands));
    this.requests = requests;
    const remote = this.register(new RemoteTokenization(log, requests));
    this.register(
      onDidChangeConfig((affects) => {
        if (!affects('service.baseUrl')) return;
        const url = config.serviceBaseUrl;
        log.info(`Service URL is now ${url || '(not set)'}`);
        if (isUnencryptedRemote(url))
          log.warn(`${url} is plain http:// to another machine: the API key and the data would travel unencrypted`);
        keys.migrateAgain();
      }),
    );
    const command = (id: string, run: (...args: unknown[]) => unknown): void =>
      void this.register(vscode.commands.registerCommand(id, run));
    command('tokenLens.setServiceUrl', (url?: unknown) => commands.setServiceUrl(typeof url === 'string' ? url : undefined));
    command('tokenLens.setApiKey', (key?: unknown) => commands.setApiKey(typeof key === 'string' ? key : undefined));
    command('tokenLens.clearApiKey', () => commands.clearApiKey());
    command('tokenLens.tokenizeRemote', (args?: unknown) => remote.tokenizeRemote(asArgs(args)));
    command('tokenLens.showLog', () => log.show(true));
    command('tokenLens.useBuiltinService', () => commands.useBuiltinService());
    if (TEST_HOOKS && testMode) this.register(serviceTestDriver(context.secrets));
  }
}
