/**
 * An open model's chat template and special tokens, as transformers reads them: `chat_template` in
 * tokenizer_config.json (a string, or a list of {name, template}), or a separate chat_template.jinja, which
 * newer transformers write and prefer; `bos_token`, `eos_token` and the other special tokens from
 * tokenizer_config.json (a string or an AddedToken object {content, …}).
 */
import { isRecord } from '../util/guards';
import { MAX_TEMPLATE_CHARS } from './render';
import { ENGLISH, type Translate } from '../util/locale';

/** The special tokens transformers.js hands a template (SPECIAL_TOKEN_ATTRIBUTES). */
const SPECIAL_TOKEN_KEYS = ['bos_token', 'eos_token', 'unk_token', 'sep_token', 'pad_token', 'cls_token', 'mask_token'] as const;

export interface ChatTemplates {
  /** One template, or several by name (then `default`, or `tool_use` when tools are given, as transformers picks). */
  templates: string | Readonly<Record<string, string>>;
  /** Where they came from, as shown: "tokenizer_config.json", "chat_template.jinja", a path. */
  source: string;
}

export interface ModelChatConfig {
  templates?: ChatTemplates;
  /** bos_token, eos_token, … as strings, for the template's context. */
  specialTokens: Readonly<Record<string, string>>;
}

export class ChatConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChatConfigError';
  }
}

/**
 * What a model's tokenizer_config.json (text, or undefined when there is none) and chat_template.jinja (text,
 * or undefined) say about its chat. A broken tokenizer_config.json is a ChatConfigError naming the file.
 */
export function readModelChatConfig(configText: string | undefined, jinjaText?: string, where = ''): ModelChatConfig {
  const config = configText === undefined ? {} : parseConfig(configText, where);
  const specialTokens: Record<string, string> = {};
  for (const key of SPECIAL_TOKEN_KEYS) {
    const token = tokenText(config[key]);
    if (token !== undefined) specialTokens[key] = token;
  }
  if (jinjaText !== undefined)
    return {
      templates: { templates: checkLength(jinjaText, 'chat_template.jinja'), source: `${where}chat_template.jinja` },
      specialTokens,
    };
  const templates = configTemplates(config.chat_template, `${where}tokenizer_config.json`);
  return templates ? { templates, specialTokens } : { specialTokens };
}

function parseConfig(text: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ChatConfigError(`${where}tokenizer_config.json is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(value)) throw new ChatConfigError(`${where}tokenizer_config.json is not a JSON object.`);
  return value;
}

/** A token as a string: the string itself, or an AddedToken's content. */
function tokenText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return isRecord(value) && typeof value.content === 'string' ? value.content : undefined;
}

function configTemplates(value: unknown, source: string): ChatTemplates | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return { templates: checkLength(value, source), source };
  if (!Array.isArray(value)) throw new ChatConfigError(`"chat_template" in ${source} is neither a string nor a list of {name, template}.`);
  const named: Record<string, string> = {};
  for (const item of value) {
    if (!isRecord(item) || typeof item.name !== 'string' || typeof item.template !== 'string')
      throw new ChatConfigError(`"chat_template" in ${source} lists an entry that is not {name, template}.`);
    named[item.name] = checkLength(item.template, `${source} (${item.name})`);
  }
  return { templates: named, source };
}

function checkLength(text: string, what: string): string {
  if (text.length > MAX_TEMPLATE_CHARS)
    throw new ChatConfigError(
      `The chat template in ${what} is ${text.length.toLocaleString('en-US')} characters, more than the ${MAX_TEMPLATE_CHARS.toLocaleString('en-US')} a template may have.`,
    );
  return text;
}

/** The template to render and its label: transformers' choice among named templates (tool_use with tools, else default). */
export function chooseTemplate(templates: ChatTemplates, hasTools: boolean, t: Translate = ENGLISH.t): { text: string; label: string } {
  const { source } = templates;
  if (typeof templates.templates === 'string') return { text: templates.templates, label: source };
  const named = templates.templates;
  const name = hasTools && Object.hasOwn(named, 'tool_use') ? 'tool_use' : Object.hasOwn(named, 'default') ? 'default' : undefined;
  if (name === undefined)
    throw new ChatConfigError(
      `${source} has several chat templates and none is called "default" (${Object.keys(named).sort().join(', ')}); give a template of its own.`,
    );
  return { text: named[name]!, label: t('{0}, template "{1}"', source, name) };
}
