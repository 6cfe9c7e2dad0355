/**
 * A language model tool for chat agents: exact token counts of text, files or the active selection
 * with a named tokenizer, so an agent can check whether context fits before it sends it.
 */
import * as vscode from 'vscode';
import { config } from '../../platform/config';
import { countAsync, countChars, loadTokenizer, shownCount, type Tokenizer } from '../../core/tokenizers/index';
import { Disposable } from '../../platform/disposable';
import { displayPath, readForCount } from '../fileCounts/files';
import { answerText, checkInput, TOOL_NAME, type CheckedInput, type CountedItem, type ToolInput } from './input';
import { ConversationError, countConversation, parseConversation } from '../../core/chat/index';
import type { ChatModels } from '../chat/chatModels';

function resolvePath(path: string): vscode.Uri {
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(path)) return vscode.Uri.parse(path);
  if (path.startsWith('/') || /^[a-z]:[\\/]/i.test(path)) return vscode.Uri.file(path);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, path) : vscode.Uri.file(path);
}

async function countItem(label: string, text: string, tokenizer: Tokenizer, signal: AbortSignal): Promise<CountedItem> {
  const counted = await countAsync(tokenizer, text, { signal });
  return { label, tokens: shownCount(tokenizer.info, counted), chars: countChars(text) };
}

async function countPath(path: string, tokenizer: Tokenizer, signal: AbortSignal): Promise<CountedItem> {
  const uri = resolvePath(path);
  const read = await readForCount(uri);
  return 'skip' in read
    ? { label: path, problem: read.skip === 'unreadable' ? 'no such file, or it cannot be read' : `${read.skip} file` }
    : countItem(displayPath(uri), read.text, tokenizer, signal);
}

function selectionItems(): { label: string; text: string }[] | string {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return 'there is no active text editor';
  const name = displayPath(editor.document.uri);
  const texts = editor.selections.filter((s) => !s.isEmpty).map((s) => editor.document.getText(s));
  return texts.length
    ? [{ label: `selection in ${name}`, text: texts.join('') }]
    : [{ label: `${name} (no selection: the whole document)`, text: editor.document.getText() }];
}

/** A conversation as the model reads it; the label says how (its template, OpenAI's framing, Harmony or none) and the text's share. */
async function countMessages(conversation: unknown, input: CheckedInput, models: ChatModels, signal: AbortSignal): Promise<CountedItem> {
  let parsed;
  try {
    parsed = parseConversation(conversation);
  } catch (error) {
    if (error instanceof ConversationError) return { label: 'messages', problem: error.message };
    throw error;
  }
  const model = await models.model(input.tokenizer);
  const counted = await countConversation(parsed, model, { signal });
  const chars = parsed.messages.reduce((n, m) => n + (typeof m.content === 'string' ? countChars(m.content) : 0), 0);
  return {
    label: `messages (${parsed.messages.length}, read through the ${counted.format}; the text alone ${counted.text} tokens)`,
    tokens: shownCount(model.tokenizer.info, counted.total),
    chars,
  };
}

async function count(input: CheckedInput, models: ChatModels, signal: AbortSignal): Promise<string> {
  const tokenizer = await loadTokenizer(input.tokenizer, { specialTokens: config.specialTokens });
  const items: CountedItem[] = [];
  if (input.text !== undefined) items.push(await countItem('text', input.text, tokenizer, signal));
  if (input.conversation) items.push(await countMessages(input.conversation, input, models, signal));
  if (input.activeSelection) {
    const selection = selectionItems();
    if (typeof selection === 'string') items.push({ label: 'active selection', problem: selection });
    else for (const s of selection) items.push(await countItem(s.label, s.text, tokenizer, signal));
  }
  for (const path of input.paths) items.push(await countPath(path, tokenizer, signal));
  return answerText(items, input.tokenizer, input.contextWindow, tokenizer.info.estimate, config.price(input.tokenizer));
}

export class CountTokensTool extends Disposable implements vscode.LanguageModelTool<ToolInput> {
  constructor(private readonly models: ChatModels) {
    super();
    // The lm namespace is missing where chat is not available: the rest of the extension works without it.
    if (vscode.lm?.registerTool) this.register(vscode.lm.registerTool(TOOL_NAME, this));
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ToolInput>): vscode.PreparedToolInvocation {
    const paths = Array.isArray(options.input.paths) ? options.input.paths.length : 0;
    const what = [
      options.input.text !== undefined ? 'text' : '',
      Array.isArray(options.input.messages) ? 'a conversation' : '',
      paths ? `${paths} ${paths === 1 ? 'file' : 'files'}` : '',
      options.input.activeSelection ? 'the selection' : '',
    ]
      .filter(Boolean)
      .join(', ');
    return { invocationMessage: `Counting tokens in ${what || 'nothing'}` };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<ToolInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const input = checkInput(options.input, config.tokenizer);
    // VS Code's tool guidelines: an error the model can act on is thrown with a message written for it.
    if (typeof input === 'string') throw new Error(input);
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    try {
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(await count(input, this.models, abort.signal))]);
    } finally {
      cancel.dispose();
    }
  }
}
