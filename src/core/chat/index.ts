/** Conversations as a model reads them: the OpenAI chat format, chat templates, OpenAI framing, Harmony; counted. */
export * from './conversation';
export * from './count';
export * from './documents';
export * from './format';
export { HARMONY_LABEL, type HarmonyOptions } from './harmony';
export { OPENAI_FRAMING_LABEL } from './openai';
export { compileTemplate, renderTemplate, RENDER_LIMITS, MAX_TEMPLATE_CHARS, TemplateError, type RenderLimits } from './render';
export { readModelChatConfig, chooseTemplate, ChatConfigError, type ChatTemplates, type ModelChatConfig } from './template';
