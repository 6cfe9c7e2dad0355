import { config } from './platform/config';
import type { CountSummary } from './core/counts/summary';
import { countAsync, loadTokenizer, shownCount, tokenizeAsync, tokenizerNames, type TokenizeResult } from './core/tokenizers/index';
import { countConversation, parseConversation } from './core/chat/index';
import type { ChatModels } from './features/chat/chatModels';

/** A conversation as the model reads it (its chat template, OpenAI's framing, Harmony, or none) and its text alone. */
export interface ConversationCountResult {
  tokens: number;
  textTokens: number;
  /** How it was read, e.g. "chat template from …/tokenizer_config.json" or "OpenAI framing (…)". */
  format: string;
}

/** What activate() returns to other extensions. */
export interface TokenLensApi {
  /** The spec 2.2 result for text, with the configured tokenizer unless one is named. */
  tokenize(text: string, tokenizer?: string): Promise<TokenizeResult>;
  count(text: string, tokenizer?: string): Promise<number>;
  /**
   * A conversation in OpenAI's chat format (the messages array, or {messages, tools}) counted as the model reads it.
   * Rejects with a message saying what is wrong when it is no conversation.
   */
  countConversation(conversation: unknown, tokenizer?: string): Promise<ConversationCountResult>;
  /** Every tokenizer name usable now: the built-in ones, then the model tokenizers the user added. */
  tokenizers(): string[];
}

/** What the status bar shows now. */
export interface StatusBarState {
  visible: boolean;
  text: string;
  tooltip: string;
  /** The theme colour behind the item (the context-window gauge's warning and error), if any. */
  background?: string;
  summary: CountSummary | undefined;
}

/** The API in development and test mode only: the extension-host tests and the bench read these too. */
export interface TokenLensTestApi extends TokenLensApi {
  /** How long activate() took, in milliseconds. */
  readonly activationMs: number;
  /** From the bundle's first line to the end of activate(): loading every module and library, then activating. */
  readonly loadMs: number;
  /** Of loadMs: evaluating the bundle's modules (desktop), and the host's own work between that and activate(). */
  readonly evaluationMs: number | undefined;
  readonly hostWaitMs: number | undefined;
  readonly statusBar: StatusBarState;
  /** How many times the status bar counted the other encodings (the bench checks an idle editor does not). */
  readonly comparisons: number;
  /** Desktop: what started the materials side (it starts on first use), or undefined while it has not. */
  readonly materialsStartedBy: string | undefined;
}

export interface TestHooks {
  activationMs: number;
  loadMs: number;
  evaluationMs?: number;
  hostWaitMs?: number;
  statusBar(): StatusBarState;
  comparisons(): number;
  materialsStartedBy?(): string | undefined;
}

/** The public API; with `hooks` (never in production) also the test-only values. */
export function createApi(models: ChatModels, hooks?: TestHooks): TokenLensApi {
  const load = (name?: string) => loadTokenizer(name ?? config.tokenizer, { specialTokens: config.specialTokens });
  const api: TokenLensApi = {
    async tokenize(text, tokenizer) {
      return tokenizeAsync(await load(tokenizer), text);
    },
    async count(text, tokenizer) {
      // An estimate's tokenizer counts its base encoding; the API answers with the estimate (round(base × factor)).
      const engine = await load(tokenizer);
      return shownCount(engine.info, await countAsync(engine, text));
    },
    async countConversation(conversation, tokenizer) {
      const model = await models.model(tokenizer ?? config.tokenizer);
      const counted = await countConversation(parseConversation(conversation), model);
      const shown = (n: number) => shownCount(model.tokenizer.info, n);
      return { tokens: shown(counted.total), textTokens: shown(counted.text), format: counted.format };
    },
    tokenizers: () => tokenizerNames(),
  };
  if (!hooks) return api;
  const testApi: TokenLensTestApi = {
    ...api,
    activationMs: hooks.activationMs,
    loadMs: hooks.loadMs,
    evaluationMs: hooks.evaluationMs,
    hostWaitMs: hooks.hostWaitMs,
    get statusBar() {
      return hooks.statusBar();
    },
    get comparisons() {
      return hooks.comparisons();
    },
    get materialsStartedBy() {
      return hooks.materialsStartedBy?.();
    },
  };
  return testApi;
}
