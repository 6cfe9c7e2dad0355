/**
 * gpt-oss reads conversations in OpenAI's Harmony format, on the o200k_harmony encoding. The format as
 * OpenAI's harmony documentation gives it (https://cookbook.openai.com/articles/openai-harmony and
 * github.com/openai/harmony, docs/format.md):
 *
 *   <|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.
 *   Knowledge cutoff: 2024-06
 *   Current date: 2025-06-28
 *
 *   Reasoning: medium
 *
 *   # Valid channels: analysis, commentary, final. Channel must be included for every message.<|end|>
 *   <|start|>developer<|message|># Instructions\n\n{system or developer text}<|end|>
 *   <|start|>user<|message|>{text}<|end|>
 *   <|start|>assistant<|channel|>final<|message|>{text}<|end|>
 *   <|start|>assistant<|channel|>commentary to=functions.{name} <|constrain|>json<|message|>{arguments}<|call|>
 *   <|start|>functions.{name} to=assistant<|channel|>commentary<|message|>{tool output}<|end|>
 *   <|start|>assistant                                   (the generation prompt)
 *
 * The renderer there builds token ids part by part: the format's special tokens are tokens, every text
 * (roles, headers, content) is encoded as text, so text that spells a special token stays text. So the
 * framing here is a list of texts plus the number of special tokens between them. Function tools are the
 * developer message's "# Tools" section (harmonyTools.ts), after the first system or developer message's
 * instructions, or in a developer message of their own when the conversation starts otherwise; the system
 * message then says where their calls go, as the renderer does.
 */
import { messageText, type Conversation, type Message } from './conversation';
import type { Framed } from './conversation';
import { functionTools, harmonyToolsSection } from './harmonyTools';

export const HARMONY_LABEL = 'Harmony format (gpt-oss)';

export interface HarmonyOptions {
  /** The system message's "Current date" (YYYY-MM-DD); today's date (UTC) by default. */
  date?: string;
  reasoning?: 'low' | 'medium' | 'high';
}

class Writer {
  readonly texts: string[] = [];
  specials = 0;
  shown = '';
  special(token: string): this {
    this.specials++;
    this.shown += token;
    return this;
  }
  text(text: string): this {
    this.texts.push(text);
    this.shown += text;
    return this;
  }
  /** <|start|>{header}<|message|>{body}{end} */
  message(header: string, body: string, end = '<|end|>'): this {
    return this.special('<|start|>').text(header).special('<|message|>').text(body).special(end);
  }
}

export function frameHarmony(conversation: Conversation, addGenerationPrompt: boolean, options: HarmonyOptions = {}): Framed {
  const out = new Writer();
  const functions = functionTools(conversation.tools);
  const tools = functions.length > 0 ? harmonyToolsSection(functions) : undefined;
  out.message('system', systemText(options, tools !== undefined));
  const [first] = conversation.messages;
  const instructions = first?.role === 'system' || first?.role === 'developer';
  if (tools !== undefined && !instructions) out.message('developer', tools);
  const toolNames = new Map<string, string>();
  conversation.messages.forEach((message, i) => writeMessage(out, message, toolNames, i === 0 ? tools : undefined));
  if (addGenerationPrompt) out.special('<|start|>').text('assistant');
  return { pieces: out.texts, extra: out.specials, shown: out.shown };
}

function systemText({ date = new Date().toISOString().slice(0, 10), reasoning = 'medium' }: HarmonyOptions, functions: boolean): string {
  const lines = [
    'You are ChatGPT, a large language model trained by OpenAI.',
    'Knowledge cutoff: 2024-06',
    `Current date: ${date}`,
    '',
    `Reasoning: ${reasoning}`,
    '',
    '# Valid channels: analysis, commentary, final. Channel must be included for every message.',
  ];
  if (functions) lines.push("Calls to these tools must go to the commentary channel: 'functions'.");
  return lines.join('\n');
}

/** `tools`: the tools section, given with the first message (it follows the instructions of a system or developer one). */
function writeMessage(out: Writer, message: Message, toolNames: Map<string, string>, tools: string | undefined): void {
  const text = messageText({ ...message, tool_calls: [] }).join('');
  switch (message.role) {
    case 'system':
    case 'developer':
      out.message('developer', `# Instructions\n\n${text}${tools === undefined ? '' : `\n\n${tools}`}`);
      return;
    case 'user':
      out.message('user', text);
      return;
    case 'tool': {
      const name = message.name ?? toolNames.get(message.tool_call_id ?? '') ?? 'tool';
      out.special('<|start|>').text(`functions.${name} to=assistant`).special('<|channel|>').text('commentary');
      out.special('<|message|>').text(text).special('<|end|>');
      return;
    }
    case 'assistant':
      if (text || !message.tool_calls?.length)
        out
          .special('<|start|>')
          .text('assistant')
          .special('<|channel|>')
          .text('final')
          .special('<|message|>')
          .text(text)
          .special('<|end|>');
      for (const call of message.tool_calls ?? []) {
        if (call.id !== undefined) toolNames.set(call.id, call.function.name);
        const args = call.function.arguments;
        out.special('<|start|>').text('assistant').special('<|channel|>').text(`commentary to=functions.${call.function.name} `);
        out
          .special('<|constrain|>')
          .text('json')
          .special('<|message|>')
          .text(typeof args === 'string' ? args : (JSON.stringify(args) ?? ''))
          .special('<|call|>');
      }
  }
}
