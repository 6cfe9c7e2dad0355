/**
 * Exact Claude and Gemini counts on request (desktop): **Count Exactly with the Provider…** sends the selection or
 * the document (a conversation as its messages) to the provider's counting endpoint, after a consent that says what
 * goes where, with the key kept in SecretStorage for that provider and endpoint. The status bar then shows the
 * confirmed count in place of the estimate (statusBar/exact.ts). Nothing is sent without a user action.
 */
import * as vscode from 'vscode';
import { providerById, providerForEstimate, providerInput, PROVIDERS, type Provider } from '../../core/providers/providers';
import { KeyStore } from '../../core/service/keyStore';
import { serviceOrigin } from '../../core/service/origin';
import type { Locale } from '../../core/util/locale';
import { Debouncer } from '../../core/util/debounce';
import { config } from '../../platform/config';
import { Disposable, toDisposable } from '../../platform/disposable';
import { notify } from '../../platform/notify';
import { exactCountsChanged, provideExactCounts } from '../statusBar/exact';
import { ExactCounts, ProviderCountError, type ExactCount } from './exactCounts';

/** globalState: the provider endpoints (provider id and origin) the user agreed to send text to. */
const CONSENTS = 'tokenLens.providerConsents';
/** Live mode asks this long after typing pauses. */
const LIVE_DELAY_MS = 3000;

export interface ExactCountResult {
  status: 'ok' | 'cancelled' | 'error';
  count?: ExactCount;
  message?: string;
}

export class ProvidersFeature extends Disposable {
  private readonly exact: ExactCounts;
  private readonly liveSoon = this.register(new Debouncer(LIVE_DELAY_MS, () => void this.countLive()));
  private live: AbortController | undefined;
  /** One secret per provider and endpoint origin: a key entered for Anthropic never goes to a proxy set later, or to Google. */
  private readonly keys: KeyStore;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly locale: Locale,
  ) {
    super();
    this.exact = new ExactCounts({ locale });
    this.keys = new KeyStore(context.secrets);
    const command = (id: string, run: (...args: unknown[]) => unknown) => this.register(vscode.commands.registerCommand(id, run));
    command('tokenLens.countExactly', (id) => this.countExactly(typeof id === 'string' ? providerById(id) : undefined));
    command('tokenLens.setProviderKey', (id, key) =>
      this.setKey(typeof id === 'string' ? providerById(id) : undefined, typeof key === 'string' ? key : undefined),
    );
    command('tokenLens.clearProviderKey', (id) => this.clearKey(typeof id === 'string' ? providerById(id) : undefined));
    command('tokenLens.forgetProviderConsents', () => this.context.globalState.update(CONSENTS, undefined));
    const scheduleLive = () => {
      if (config.providerLiveCounts) this.liveSoon.schedule();
    };
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => e.document === vscode.window.activeTextEditor?.document && scheduleLive()),
    );
    this.register(vscode.window.onDidChangeActiveTextEditor(scheduleLive));
    this.register(vscode.window.onDidChangeTextEditorSelection(scheduleLive));
    this.register(toDisposable(() => this.live?.abort()));
    this.register(
      provideExactCounts({
        lookup: (tokenizer, input) => {
          const provider = providerForEstimate(tokenizer);
          if (!provider) return undefined;
          const { endpoint, model } = config.provider(provider.id);
          const count = this.exact.lookup(provider, endpoint, model, input);
          return count && { tokens: count.tokens, provider: provider.label, model: count.model, at: count.at };
        },
      }),
    );
  }

  /**
   * Live mode: the active text counted by the provider of the configured estimate, quietly (a failure is logged and
   * the estimate stays), only where consent and a key were already given; an older request is cancelled.
   */
  private async countLive(): Promise<void> {
    const provider = providerForEstimate(config.tokenizer);
    const editor = vscode.window.activeTextEditor;
    if (!config.providerLiveCounts || !provider || !editor) return;
    const { endpoint, model } = config.provider(provider.id);
    const origin = serviceOrigin(endpoint);
    if (!origin || !this.context.globalState.get<string[]>(CONSENTS, []).includes(`${provider.id} ${origin}`)) return;
    const key = await this.keys.get(ProvidersFeature.keyOwner(provider, origin));
    if (!key) return;
    this.live?.abort();
    const abort = (this.live = new AbortController());
    const selected = editor.selections.filter((s) => !s.isEmpty);
    const text = selected.length ? selected.map((s) => editor.document.getText(s)).join('\n') : editor.document.getText();
    try {
      await this.exact.count({ provider, endpoint, model, key, input: providerInput(text), signal: abort.signal });
      if (!abort.signal.aborted) exactCountsChanged();
    } catch (error) {
      if (!(error instanceof ProviderCountError)) throw error;
      if (error.kind !== 'cancelled') this.log.warn(`Live count: ${error.message}`);
    }
  }

  /** The secret's name: the provider and the endpoint's origin (KeyStore names it by this "origin"). */
  private static keyOwner(provider: Provider, origin: string): string {
    return `${provider.id}|${origin}`;
  }

  private async countExactly(requested?: Provider): Promise<ExactCountResult> {
    const { t } = this.locale;
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void notify.info(t('Token Lens: open a document (or select text) to count it exactly.'));
      return { status: 'cancelled' };
    }
    const provider = requested ?? providerForEstimate(config.tokenizer) ?? (await this.pickProvider());
    if (!provider) return { status: 'cancelled' };
    const { endpoint, model } = config.provider(provider.id);
    const origin = serviceOrigin(endpoint);
    if (!origin)
      return this.fail(
        t(
          '{0}: the endpoint "{1}" is not an http(s) URL (setting tokenLens.providers.{2}.endpoint).',
          provider.label,
          endpoint,
          provider.id,
        ),
      );
    const selected = editor.selections.filter((s) => !s.isEmpty);
    const text = selected.length ? selected.map((s) => editor.document.getText(s)).join('\n') : editor.document.getText();
    const input = providerInput(text);
    if (!(await this.consent(provider, origin, model, text.length, selected.length > 0))) return { status: 'cancelled' };
    const key = (await this.keys.get(ProvidersFeature.keyOwner(provider, origin))) ?? (await this.askKey(provider, origin));
    if (!key) return { status: 'cancelled' };
    try {
      const count = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: t('Asking {0} for the exact count…', provider.label) },
        () => this.exact.count({ provider, endpoint, model, key, input }),
      );
      this.log.info(`${provider.label} counted ${count.tokens} tokens for ${model} (${text.length} characters sent to ${origin})`);
      exactCountsChanged();
      void notify.info(t('{0} counts {1} tokens for {2}.', provider.label, this.locale.number(count.tokens), model));
      return { status: 'ok', count };
    } catch (error) {
      if (!(error instanceof ProviderCountError)) throw error;
      return this.fail(t('{0} The status bar keeps the estimate (≈).', error.message), error.message);
    }
  }

  private fail(message: string, logged = message): ExactCountResult {
    this.log.warn(logged);
    void notify.warning(message);
    return { status: 'error', message };
  }

  private async pickProvider(): Promise<Provider | undefined> {
    const picked = await vscode.window.showQuickPick(
      PROVIDERS.map((p) => ({ label: p.label, description: config.provider(p.id).model, provider: p })),
      { title: this.locale.t('Token Lens: which provider should count exactly?') },
    );
    return picked?.provider;
  }

  /** Asked once per provider and endpoint, in words that say what text goes where; remembered across workspaces. */
  private async consent(provider: Provider, origin: string, model: string, characters: number, selection: boolean): Promise<boolean> {
    const { t } = this.locale;
    const id = `${provider.id} ${origin}`;
    const given = this.context.globalState.get<string[]>(CONSENTS, []);
    if (given.includes(id)) return true;
    const send = t('Send to {0}', provider.label);
    const choice = await notify.warning(
      t(
        "To count exactly, Token Lens sends the text of {0} ({1} characters) with your {2} API key to {3} ({2}'s token-counting endpoint for {4}). It sends only when you run this command. Allow it for {3} from now on?",
        selection ? t('the selection') : t('this document'),
        this.locale.number(characters),
        provider.label,
        origin,
        model,
      ),
      send,
      t('Cancel'),
    );
    if (choice !== send) return false;
    await this.context.globalState.update(CONSENTS, [...given, id]);
    this.log.info(`The user agreed to send text to ${provider.label} at ${origin} for exact counts`);
    return true;
  }

  private async askKey(provider: Provider, origin: string): Promise<string | undefined> {
    const key = await vscode.window.showInputBox({
      title: this.locale.t('Token Lens: your {0} API key', provider.label),
      prompt: this.locale.t("Kept in VS Code's secret storage, sent only to {0}.", origin),
      password: true,
      ignoreFocusOut: true,
    });
    if (!key?.trim()) return undefined;
    await this.keys.set(ProvidersFeature.keyOwner(provider, origin), key);
    return key.trim();
  }

  private async setKey(requested: Provider | undefined, key: string | undefined): Promise<{ status: string }> {
    const provider = requested ?? (await this.pickProvider());
    const origin = provider && serviceOrigin(config.provider(provider.id).endpoint);
    if (!provider || !origin) return { status: 'cancelled' };
    if (key === undefined) return { status: (await this.askKey(provider, origin)) ? 'ok' : 'cancelled' };
    await this.keys.set(ProvidersFeature.keyOwner(provider, origin), key);
    return { status: 'ok' };
  }

  private async clearKey(requested: Provider | undefined): Promise<{ status: string }> {
    const provider = requested ?? (await this.pickProvider());
    const origin = provider && serviceOrigin(config.provider(provider.id).endpoint);
    if (!provider || !origin) return { status: 'cancelled' };
    await this.keys.delete(ProvidersFeature.keyOwner(provider, origin));
    return { status: 'ok' };
  }
}
