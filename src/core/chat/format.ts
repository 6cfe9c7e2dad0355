/**
 * How a model reads a conversation (its "format"): a chat template rendered with the conversation, OpenAI's
 * documented framing, the Harmony format, or none (the messages' text alone). Framing a conversation gives
 * the texts to count and the tokens counted outside them.
 */
import { messageText, type Conversation, type Framed } from './conversation';
import { frameHarmony, HARMONY_LABEL, type HarmonyOptions } from './harmony';
import { frameOpenAI, OPENAI_FRAMING_LABEL } from './openai';
import { compileTemplate, renderTemplate, RENDER_LIMITS, type CompiledTemplate, type RenderLimits } from './render';
import { chooseTemplate, type ModelChatConfig } from './template';
import { ENGLISH, type Translate } from '../util/locale';

export interface FrameOptions {
  /** Ends the prompt with the assistant's header, as a request for a reply does (templates, Harmony). */
  addGenerationPrompt?: boolean;
}

/** A template rendering request: what a renderer in another thread needs (plain data). */
export interface RenderRequest {
  template: string;
  context: Record<string, unknown>;
}
/** Renders in this thread (renderTemplate's bounds) or elsewhere (a worker thread with a memory limit). */
export type Renderer = (request: RenderRequest) => Promise<string>;

export type FormatKind = 'template' | 'openai' | 'harmony' | 'none';

export interface ChatFormat {
  readonly kind: FormatKind;
  /** What is shown beside a count: the template's source and name, "OpenAI framing (…)", "no chat template …". */
  readonly label: string;
  frame(conversation: Conversation, options: FrameOptions, render: Renderer): Promise<Framed>;
}

export const NO_TEMPLATE_LABEL = "no chat template: the messages' text alone";

export const noFormat: ChatFormat = {
  kind: 'none',
  label: NO_TEMPLATE_LABEL,
  frame: (conversation) => Promise.resolve({ pieces: conversation.messages.flatMap(messageText), extra: 0 }),
};

export const openAIFormat: ChatFormat = {
  kind: 'openai',
  label: OPENAI_FRAMING_LABEL,
  frame: (conversation) => Promise.resolve(frameOpenAI(conversation)),
};

export function harmonyFormat(options: HarmonyOptions = {}): ChatFormat {
  return {
    kind: 'harmony',
    label: HARMONY_LABEL,
    frame: (conversation, { addGenerationPrompt = false }) => Promise.resolve(frameHarmony(conversation, addGenerationPrompt, options)),
  };
}

/** A model's chat template (or none: then noFormat), rendered with the context transformers gives it. */
export function templateFormat(config: ModelChatConfig, t: Translate = ENGLISH.t): ChatFormat {
  const { templates } = config;
  if (!templates) return labelled(noFormat, t);
  return {
    kind: 'template',
    label: t('chat template from {0}', templates.source),
    frame: async (conversation, { addGenerationPrompt = false }, render) => {
      const { text, label } = chooseTemplate(templates, conversation.tools !== undefined, t);
      const shown = await render({ template: text, context: templateContext(conversation, config, addGenerationPrompt) });
      return { pieces: [shown], extra: 0, shown, label: t('chat template from {0}', label) };
    },
  };
}

/**
 * How a tokenizer's model reads conversations: its chat template when the files beside its tokenizer.json give
 * one; else the framing OpenAI documents for its chat encodings (Harmony for gpt-oss's o200k_harmony); else none.
 * A template's special tokens are recognised, so it counts in 'special' mode; the others count as text.
 */
export function formatFor(
  kind: string,
  config: ModelChatConfig | undefined,
  t: Translate = ENGLISH.t,
): { format: ChatFormat; specialTokens: 'special' | 'text' } {
  if (config?.templates) return { format: templateFormat(config, t), specialTokens: 'special' };
  if (kind === 'o200k_harmony') return { format: labelled(harmonyFormat(), t), specialTokens: 'text' };
  return { format: labelled(kind === 'cl100k_base' || kind === 'o200k_base' ? openAIFormat : noFormat, t), specialTokens: 'text' };
}

/** A fixed format with its label in the user's language (the English is OPENAI_FRAMING_LABEL, HARMONY_LABEL, NO_TEMPLATE_LABEL). */
function labelled(format: ChatFormat, t: Translate): ChatFormat {
  const label =
    format.kind === 'openai'
      ? t('OpenAI framing (cookbook: 3 tokens per message, 1 per name, 3 for the reply)')
      : format.kind === 'harmony'
        ? t('Harmony format (gpt-oss)')
        : t("no chat template: the messages' text alone");
  return label === format.label ? format : { ...format, label };
}

/** transformers' apply_chat_template context: messages, tools (None when absent), documents, the special tokens, the flag. */
export function templateContext(
  conversation: Conversation,
  config: ModelChatConfig,
  addGenerationPrompt: boolean,
): Record<string, unknown> {
  return {
    messages: conversation.messages,
    add_generation_prompt: addGenerationPrompt,
    tools: conversation.tools ?? null,
    documents: null,
    ...config.specialTokens,
  };
}

const compiled = new Map<string, Promise<CompiledTemplate>>();
const MAX_COMPILED = 8;

/** A template compiled once (the few a session uses are kept). */
export function compiledTemplate(text: string): Promise<CompiledTemplate> {
  let template = compiled.get(text);
  if (!template) {
    template = compileTemplate(text);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(text, template);
  }
  return template;
}

/** Renders in the calling thread, within the limits (time, depth, sizes); no memory limit of its own. */
export function inThreadRenderer(limits: RenderLimits = RENDER_LIMITS): Renderer {
  return async ({ template, context }) => renderTemplate(await compiledTemplate(template), context, limits);
}
