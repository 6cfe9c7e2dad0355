import { config } from './config';
import type { CountSummary } from './statusBar/summary';
import { loadTokenizer, type TokenizeResult } from './tokenizers';

/** What activate() returns: for other extensions, and for the extension-host tests. */
export interface TokenLensApi {
  /** The spec 2.2 result for text, with the configured tokenizer unless one is named. */
  tokenize(text: string, tokenizer?: string): Promise<TokenizeResult>;
  count(text: string, tokenizer?: string): Promise<number>;
  /** How long activate() took, in milliseconds. */
  readonly activationMs: number;
  /** What the status bar shows now. */
  readonly statusBar: { visible: boolean; text: string; tooltip: string; summary: CountSummary | undefined };
}

export function createApi(activationMs: number, statusBar: () => TokenLensApi['statusBar']): TokenLensApi {
  const load = (name?: string) => loadTokenizer(name ?? config.tokenizer, { specialTokens: config.specialTokens });
  return {
    async tokenize(text, tokenizer) {
      return (await load(tokenizer)).tokenize(text);
    },
    async count(text, tokenizer) {
      return (await load(tokenizer)).count(text);
    },
    activationMs,
    get statusBar() {
      return statusBar();
    },
  };
}
