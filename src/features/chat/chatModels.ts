/**
 * How the configured tokenizer's model reads conversations, for the editor: its tokenizer in the right
 * special-token mode and its format (a chat template found beside a model's tokenizer.json, OpenAI's framing,
 * Harmony, or none). Built once per tokenizer name and dropped when a model under that name changes. The host
 * says where templates render (desktop: a worker thread) and how a model's chat files are read (desktop: from
 * the disk); without those (the web), a model counts its messages' text alone and says so.
 */
import { formatFor, type ChatModel, type ModelChatConfig, type Renderer } from '../../core/chat/index';
import { findTokenizer, loadTokenizer, onModelsChanged } from '../../core/tokenizers/index';
import { Disposable, toDisposable } from '../../platform/disposable';
import type { Locale } from '../../core/util/locale';

export interface ChatHost {
  /** The chat template and special tokens from the files beside a tokenizer.json. */
  readChatConfig(tokenizerFile: string): Promise<ModelChatConfig>;
  render: Renderer;
}

export class ChatModels extends Disposable {
  private readonly models = new Map<string, Promise<ChatModel>>();

  constructor(
    private readonly host: ChatHost | undefined,
    /** The formats' labels are worded in it. */
    private readonly locale: Locale,
  ) {
    super();
    this.register(toDisposable(onModelsChanged((name) => this.models.delete(name))));
  }

  /** The model as it reads conversations; a broken chat file rejects (with the file named) and is read again next time. */
  model(name: string): Promise<ChatModel> {
    let model = this.models.get(name);
    if (!model) {
      model = this.build(name);
      this.models.set(name, model);
      model.catch(() => this.models.get(name) === model && this.models.delete(name));
    }
    return model;
  }

  private async build(name: string): Promise<ChatModel> {
    const info = findTokenizer(name);
    const source = info?.kind === 'huggingface' ? info.source : undefined;
    const config = source && this.host ? await this.host.readChatConfig(source) : undefined;
    // A closed model's estimate scans with a base encoding, but OpenAI's framing is not its format.
    const { format, specialTokens } = formatFor(info?.estimate ? 'estimate' : (info?.kind ?? name), config, this.locale.t);
    const tokenizer = await loadTokenizer(name, { specialTokens });
    return { tokenizer, format, ...(format.kind === 'template' && this.host ? { render: this.host.render } : {}) };
  }
}
