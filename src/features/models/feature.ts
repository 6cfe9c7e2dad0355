/**
 * Open models in the editor (desktop): tokenizer.json files of the user's own (tokenLens.models.tokenizerFiles,
 * Use a tokenizer.json File…) and ones downloaded from a Hugging Face hub (Add Model Tokenizer…), cached
 * in global storage and registered again from there at activation, so they count offline after a reload.
 * The registry (core) lists them everywhere; this feature only says where each tokenizer.json is.
 */
import * as vscode from 'vscode';
import { findTokenizer, loadTokenizer, provideModel, registerModel, type PreparedHuggingFace } from '../../core/tokenizers/index';
import { serviceOrigin } from '../../core/service/origin';
import type { Locale } from '../../core/util/locale';
import { plainText } from '../../core/util/outsideText';
import { config, onDidChangeConfig, updateSetting } from '../../platform/config';
import { Disposable, toDisposable } from '../../platform/disposable';
import { notify } from '../../platform/notify';
import { addTokenizerPickerActions } from '../statusBar/commands';
import { CATALOG, isRepoId, type CatalogModel } from './catalog';
import { HubError } from './hub';
import {
  cachedModelFile,
  installFromHub,
  MAX_TOKENIZER_BYTES,
  nameForFile,
  readCachedModels,
  readTokenizerFile,
  brokenModelMessage,
  removeCachedModel,
  type CachedModel,
} from './store';

/**
 * Where the access token for gated repositories is kept (SecretStorage: never in settings, never logged), one per
 * hub origin: a token entered for one hub never goes to another that tokenLens.models.hubEndpoint names later.
 */
const TOKEN_SECRET = 'tokenLens.huggingFace.token';
const tokenSecret = (origin: string): string => `${TOKEN_SECRET}@${origin}`;

type ModelPick = vscode.QuickPickItem & { repo?: string; model?: CatalogModel };

export class ModelsFeature extends Disposable {
  private readonly cacheDir: string;
  /** Registered tokenizer.json files by path, and downloaded models by repository: what removes each. */
  private readonly files = new Map<string, { name: string; remove: () => void }>();
  private readonly downloaded = new Map<string, () => void>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly locale: Locale,
  ) {
    super();
    this.cacheDir = context.globalStorageUri.fsPath;
    for (const model of readCachedModels(this.cacheDir, (message) => log.warn(message))) this.registerDownloaded(model);
    this.syncFiles();
    this.register(
      toDisposable(() => {
        for (const { remove } of this.files.values()) remove();
        for (const remove of this.downloaded.values()) remove();
      }),
    );
    this.register(
      onDidChangeConfig((affects) => {
        if (affects('models.tokenizerFiles')) this.syncFiles();
      }),
    );
    const command = (id: string, run: (...args: unknown[]) => unknown) => this.register(vscode.commands.registerCommand(id, run));
    command('tokenLens.addModel', (repo) => this.addModel(typeof repo === 'string' ? repo : undefined));
    command('tokenLens.useTokenizerFile', (file) =>
      this.useFile(file instanceof vscode.Uri ? file.fsPath : typeof file === 'string' ? file : undefined),
    );
    command('tokenLens.removeModel', () => this.removeModel());
    command('tokenLens.setHubToken', () => this.setToken());
    command('tokenLens.clearHubToken', () => this.clearToken());
    const { t } = locale;
    this.register(
      addTokenizerPickerActions([
        {
          label: `$(cloud-download) ${t('Add Model Tokenizer…')}`,
          description: t('Llama, Qwen, DeepSeek, Gemma, gpt-oss, … from Hugging Face'),
          command: 'tokenLens.addModel',
        },
        { label: `$(file) ${t('Use a tokenizer.json File…')}`, command: 'tokenLens.useTokenizerFile' },
      ]),
    );
  }

  private registerDownloaded(model: CachedModel): void {
    const file = cachedModelFile(this.cacheDir, model.repo);
    try {
      this.downloaded.get(model.repo)?.();
      const remove = registerModel({
        name: model.name,
        description: this.locale.t('Hugging Face: {0}', model.repo),
        ...(model.family ? { family: model.family } : {}),
        ...(model.contextWindow ? { contextWindow: model.contextWindow } : {}),
        source: file,
        load: () => readTokenizerFile(file),
        onLoadFailed: (reason) => this.dropBroken(model, remove, reason),
      });
      this.downloaded.set(model.repo, remove);
    } catch (error) {
      this.log.warn(`Token Lens could not list the model ${model.repo}: ${(error as Error).message}`);
    }
  }

  /**
   * A downloaded model whose cached tokenizer.json cannot be read or built (damaged, or refused by this version)
   * leaves the lists, with a message saying why and how to get it back; its files stay for Add Model Tokenizer… to replace.
   */
  private dropBroken(model: CachedModel, remove: () => void, reason: string): void {
    if (this.downloaded.get(model.repo) !== remove) return;
    remove();
    this.downloaded.delete(model.repo);
    const message = brokenModelMessage(model, reason, this.locale.t);
    this.log.warn(message);
    void notify.warning(message);
  }

  /** Registers the files the setting lists and removes the ones it no longer does; a file kept is not read again. */
  private syncFiles(): void {
    const wanted = new Set(config.modelFiles);
    for (const [file, { remove }] of this.files) {
      if (!wanted.has(file)) {
        remove();
        this.files.delete(file);
      }
    }
    for (const file of wanted) if (!this.files.has(file)) this.registerFile(file);
  }

  private registerFile(file: string): string | undefined {
    const name = nameForFile(file, (n) => findTokenizer(n) !== undefined);
    try {
      const remove = registerModel({ name, description: file, source: file, load: () => readTokenizerFile(file, MAX_TOKENIZER_BYTES) });
      this.files.set(file, { name, remove });
      return name;
    } catch (error) {
      this.log.warn(`Token Lens could not list ${file}: ${(error as Error).message}`);
      return undefined;
    }
  }

  /** Use a tokenizer.json File…: read and checked first, so a bad file is a message and never lands in the setting. */
  private async useFile(requested?: string): Promise<string | undefined> {
    const { t } = this.locale;
    let file = requested;
    if (file === undefined) {
      const picked = await vscode.window.showOpenDialog({
        title: t('Token Lens: a Hugging Face tokenizer.json to count with'),
        canSelectMany: false,
        filters: { 'tokenizer.json': ['json'] },
        openLabel: t('Use This Tokenizer'),
      });
      file = picked?.[0]?.fsPath;
    }
    if (file === undefined) return undefined;
    // A file listed already is registered afresh, so one fixed since a failed read is read again.
    const known = this.files.has(file);
    if (known) {
      this.files.get(file)!.remove();
      this.files.delete(file);
    }
    const name = this.registerFile(file);
    if (!name) return undefined;
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Reading {0}…', file) }, () =>
        loadTokenizer(name),
      );
    } catch (error) {
      if (!known) {
        this.files.get(file)?.remove();
        this.files.delete(file);
      }
      this.log.error(`Use a tokenizer.json File: ${(error as Error).message}`);
      void notify.error((error as Error).message);
      return undefined;
    }
    if (!known) await updateSetting('models.tokenizerFiles', [...config.modelFiles, file]);
    await updateSetting('tokenizer', name);
    void notify.info(t('Token Lens counts with {0} now (from {1}).', name, file));
    return name;
  }

  /** Add Model Tokenizer…: a model of the catalog or any repository id; returns the name it counts under. */
  private async addModel(requested?: string): Promise<string | undefined> {
    const choice = requested !== undefined ? { repo: requested.trim() } : await this.pickModel();
    if (!choice) return undefined;
    const { t } = this.locale;
    if (!isRepoId(choice.repo)) {
      void notify.error(t('"{0}" is not a Hugging Face repository id (owner/name).', choice.repo));
      return undefined;
    }
    const known = choice.model ?? CATALOG.find((m) => m.repo === choice.repo);
    try {
      const cached = await this.download(choice.repo, known);
      if (!cached) return undefined;
      const { prepared, ...model } = cached;
      this.registerDownloaded(model);
      provideModel(model.name, prepared);
      await updateSetting('tokenizer', cached.name);
      void notify.info(t('Token Lens counts with {0} now. Its tokenizer.json is saved, so it works offline.', cached.name));
      return cached.name;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.error(`Add Model Tokenizer: ${message}`);
      if (error instanceof HubError && error.kind === 'gated') {
        // Not awaited: the command ends now; the button, if chosen, opens Set Hugging Face Access Token.
        const set = t('Set Access Token');
        void notify.error(message, set).then((chosen) => chosen === set && vscode.commands.executeCommand('tokenLens.setHubToken'));
      } else void notify.error(message);
      return undefined;
    }
  }

  /** Downloads with a cancellable progress notification; undefined when the user cancelled. */
  private async download(
    repo: string,
    model: CatalogModel | undefined,
  ): Promise<(CachedModel & { prepared: PreparedHuggingFace }) | undefined> {
    const { t } = this.locale;
    const endpoint = config.hubEndpoint;
    const token = await this.hubToken(endpoint);
    const title = t('Token Lens: downloading the tokenizer.json of {0}', repo);
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, cancel) => {
        const controller = new AbortController();
        cancel.onCancellationRequested(() => controller.abort());
        let shown = 0;
        try {
          return await installFromHub(
            this.cacheDir,
            {
              endpoint,
              repo,
              ...(token ? { token } : {}),
              maxBytes: MAX_TOKENIZER_BYTES,
              signal: controller.signal,
              t: this.locale.t,
              onProgress: (received, total) => {
                if (!total) return progress.report({ message: vscode.l10n.t('{0} MB', (received / 1048576).toFixed(1)) });
                const percent = Math.floor((100 * received) / total);
                if (percent > shown) progress.report({ increment: percent - shown, message: `${percent} %` });
                shown = Math.max(shown, percent);
              },
            },
            { ...(model ? { family: model.family, contextWindow: model.contextWindow } : {}) },
          );
        } catch (error) {
          if (error instanceof HubError && error.kind === 'cancelled') return undefined;
          throw error;
        }
      },
    );
  }

  private async pickModel(): Promise<{ repo: string; model?: CatalogModel } | undefined> {
    const { t } = this.locale;
    const enter: ModelPick = {
      label: `$(edit) ${t('Enter a Hugging Face repository id…')}`,
      description: t('owner/name, e.g. {0}', 'Qwen/Qwen3-14B'),
    };
    const items: ModelPick[] = [
      enter,
      { label: t('Models'), kind: vscode.QuickPickItemKind.Separator },
      ...CATALOG.map((model) => ({
        label: model.label,
        description: [
          model.family,
          t('{0} tokens of context', this.locale.number(model.contextWindow)),
          model.gated ? t('gated: needs an access token') : '',
          this.downloaded.has(model.repo) ? t('added') : '',
        ]
          .filter(Boolean)
          .join(' · '),
        detail: model.repo,
        repo: model.repo,
        model,
      })),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: t('Token Lens: add a model tokenizer (downloads its tokenizer.json once from {0})', config.hubEndpoint),
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (!picked) return undefined;
    if (picked.repo) return { repo: picked.repo, ...(picked.model ? { model: picked.model } : {}) };
    const typed = await vscode.window.showInputBox({
      title: t('Token Lens: Hugging Face repository'),
      prompt: t('The repository id, owner/name, whose tokenizer.json to download'),
      placeHolder: vscode.l10n.t('Qwen/Qwen3-14B'),
      validateInput: (value) => (isRepoId(repoOf(value)) ? undefined : t('owner/name, e.g. {0}', 'Qwen/Qwen3-14B')),
    });
    return typed === undefined ? undefined : { repo: repoOf(typed) };
  }

  /** Remove Model Tokenizer…: a downloaded model leaves the cache, a file leaves the setting. */
  private async removeModel(): Promise<void> {
    const { t } = this.locale;
    const items = [
      ...[...this.downloaded.keys()].map((repo) => ({ label: plainText(repo), description: t('downloaded'), repo })),
      ...[...this.files].map(([file, { name }]) => ({ label: plainText(name), description: plainText(file), file })),
    ];
    if (!items.length) {
      void notify.info(t('Token Lens: no model tokenizer was added.'));
      return;
    }
    const picked = await vscode.window.showQuickPick(items, { title: t('Token Lens: remove a model tokenizer') });
    if (!picked) return;
    if ('repo' in picked) {
      this.downloaded.get(picked.repo)?.();
      this.downloaded.delete(picked.repo);
      await removeCachedModel(this.cacheDir, picked.repo);
    } else {
      await updateSetting(
        'models.tokenizerFiles',
        config.modelFiles.filter((f) => f !== picked.file),
      );
    }
    if (!findTokenizer(config.tokenizer)) await updateSetting('tokenizer', undefined);
  }

  /**
   * The token for this endpoint's hub. The single token of earlier versions was entered for the hub configured then,
   * whose address its prompt named: it moves to the hub configured now, once, and is not kept for any other.
   */
  private async hubToken(endpoint: string): Promise<string | undefined> {
    const origin = serviceOrigin(endpoint);
    if (!origin) return undefined;
    const legacy = await this.context.secrets.get(TOKEN_SECRET);
    if (legacy !== undefined) {
      await this.context.secrets.delete(TOKEN_SECRET);
      if ((await this.context.secrets.get(tokenSecret(origin))) === undefined)
        await this.context.secrets.store(tokenSecret(origin), legacy);
    }
    return this.context.secrets.get(tokenSecret(origin));
  }

  private async setToken(): Promise<void> {
    const { t } = this.locale;
    const origin = serviceOrigin(config.hubEndpoint);
    if (!origin) {
      void notify.error(t('Token Lens: tokenLens.models.hubEndpoint is not an address: {0}', config.hubEndpoint));
      return;
    }
    const value = await vscode.window.showInputBox({
      title: t('Token Lens: Hugging Face access token'),
      prompt: t(
        'For gated repositories (Llama, Gemma, …): a read token from huggingface.co/settings/tokens. Kept in the secret storage, sent only to {0}.',
        origin,
      ),
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (/^\S{8,}$/.test(v.trim()) ? undefined : t('Paste the whole token (hf_…).')),
    });
    if (value === undefined) return;
    await this.context.secrets.store(tokenSecret(origin), value.trim());
    void notify.info(t('Token Lens: the Hugging Face access token is saved.'));
  }

  private async clearToken(): Promise<void> {
    const origin = serviceOrigin(config.hubEndpoint);
    await this.context.secrets.delete(TOKEN_SECRET);
    if (origin) await this.context.secrets.delete(tokenSecret(origin));
    void notify.info(this.locale.t('Token Lens: the Hugging Face access token is removed.'));
  }
}

/** A repository id from what was typed: owner/name, or a hub page's address. */
function repoOf(typed: string): string {
  const trimmed = typed.trim();
  const url = /^https?:\/\/[^/]+\/([^/]+\/[^/?#]+)/.exec(trimmed);
  return url ? url[1]! : trimmed;
}
