/**
 * Conversations counted as the model reads them, for the status bar and the dataset view: a JSON document or
 * selection holding one conversation, and JSON Lines datasets, whose lines are counted once per text (an edit
 * counts again only the lines it changed). Counting runs in time slices and stops when its signal aborts.
 */
import * as vscode from 'vscode';
import {
  conversationInJson,
  countConversation,
  countDataset,
  isConversationDataset,
  type LineCache,
  type LineOutcome,
  type LineResult,
} from '../../core/chat/index';
import type { ConversationSummary } from '../../core/counts/summary';
import { onModelsChanged } from '../../core/tokenizers/index';
import { Disposable, toDisposable } from '../../platform/disposable';
import type { ChatModels } from './chatModels';

/** A conversation text's count: the tokens the model reads, and the summary the tooltip shows. */
export interface ConversationTotal {
  tokens: number;
  conversation: ConversationSummary;
}

/** A text that looks like a conversation but is not valid: counted as text, with the reason. */
export interface NotAConversation {
  problem: string;
}

export type DatasetKind = 'json' | 'jsonl';

/** JSON Lines by language or by name (VS Code names the language `jsonl`; older versions call the files plain JSON). */
export function datasetKind(document: vscode.TextDocument): DatasetKind | undefined {
  if (document.languageId === 'jsonl' || /\.(jsonl|ndjson)$/i.test(document.fileName)) return 'jsonl';
  return document.languageId === 'json' || document.languageId === 'jsonc' ? 'json' : undefined;
}

/** Line outcomes kept per model, up to this many characters of line text in all (then forgotten and counted again). */
const MAX_CACHED_CHARS = 64 * 1024 * 1024;

class BoundedLineCache implements LineCache {
  private readonly outcomes = new Map<string, LineOutcome>();
  private chars = 0;

  get(raw: string): LineOutcome | undefined {
    return this.outcomes.get(raw);
  }

  set(raw: string, outcome: LineOutcome): void {
    if (this.chars + raw.length > MAX_CACHED_CHARS) this.clear();
    this.outcomes.set(raw, outcome);
    this.chars += raw.length;
  }

  clear(): void {
    this.outcomes.clear();
    this.chars = 0;
  }
}

export class ConversationCounts extends Disposable {
  private readonly caches = new Map<string, BoundedLineCache>();

  constructor(readonly models: ChatModels) {
    super();
    this.register(toDisposable(onModelsChanged((name) => this.caches.delete(name))));
  }

  /** The count of a conversation document as `name`'s model reads it; undefined when the document holds none. */
  async countDocument(
    document: vscode.TextDocument,
    name: string,
    signal: AbortSignal,
  ): Promise<ConversationTotal | NotAConversation | undefined> {
    const kind = datasetKind(document);
    if (kind === 'json') return this.countJson(document.getText(), name, signal);
    if (kind !== 'jsonl' || !isConversationDataset(document.getText())) return undefined;
    let tokens = 0;
    let text = 0;
    let conversations = 0;
    let problems = 0;
    const model = await this.models.model(name);
    for await (const result of this.lines(document.getText(), name, signal)) {
      if ('problem' in result) problems++;
      else {
        conversations++;
        tokens += result.count.total;
        text += result.count.text;
      }
    }
    return { tokens, conversation: { conversations, text, problems, format: model.format.label } };
  }

  /** A JSON text holding one conversation (a document or a selection); undefined when it holds none. */
  async countJson(json: string, name: string, signal: AbortSignal): Promise<ConversationTotal | NotAConversation | undefined> {
    const found = conversationInJson(json);
    if (!found || 'problem' in found) return found;
    const model = await this.models.model(name);
    const count = await countConversation(found.conversation, model, { signal });
    return { tokens: count.total, conversation: { conversations: 1, text: count.text, problems: 0, format: count.format } };
  }

  /** Each line of a dataset counted (or its problem), from the cache where the line's text was counted before. */
  async *lines(text: string, name: string, signal: AbortSignal): AsyncGenerator<LineResult> {
    const model = await this.models.model(name);
    let cache = this.caches.get(name);
    if (!cache) this.caches.set(name, (cache = new BoundedLineCache()));
    yield* countDataset(text, model, { signal, cache });
  }
}
