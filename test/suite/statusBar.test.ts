import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TokenLensTestApi } from '../../src/api';
import {
  activateExtension,
  closeAllEditors,
  openDocument,
  QUICK_INPUT,
  resetSettings,
  screenshot,
  screenshotsSupported,
  sleep,
  ui,
  untilShown,
  waitFor,
} from './util';

suite('Status bar', () => {
  let api: TokenLensTestApi;

  suiteSetup(async () => {
    api = await activateExtension<TokenLensTestApi>();
    console.log(`[activation] activate() took ${api.activationMs.toFixed(1)} ms, loading and activating ${api.loadMs.toFixed(1)} ms`);
  });

  teardown(async () => {
    await resetSettings('tokenLens', [
      'tokenizer',
      'specialTokens',
      'contextWindow.size',
      'contextWindow.reserve',
      'contextWindow.warningPercent',
    ]);
    await closeAllEditors();
  });

  const tokens = (n: number, tokenizer = 'cl100k_base', selected = false) =>
    `$(symbol-numeric) ${n.toLocaleString('en-US')} ${selected ? 'selected ' : ''}${n === 1 ? 'token' : 'tokens'} · ${tokenizer}`;
  const shows = (text: string) =>
    waitFor(
      () => api.statusBar.visible && api.statusBar.text === text,
      10_000,
      () => `status bar to show "${text}", it shows "${api.statusBar.text}"`,
    );

  test('counts the whole document when nothing is selected, and names the tokenizer', async () => {
    await openDocument('Hello world', 'plaintext');
    await shows('$(symbol-numeric) 2 tokens · cl100k_base');
    assert.match(api.statusBar.tooltip, /\| Characters \| 11 \|/);
    assert.match(api.statusBar.tooltip, /\| Characters per token \| 5\.50 \|/);
  });

  test('the cost as input: at the shipped price with its source, at yours once set', async () => {
    await openDocument('Hello world', 'plaintext');
    await shows('$(symbol-numeric) 2 tokens · cl100k_base');
    assert.match(api.statusBar.tooltip, /\| Cost as input \| \$0\.000060 \(at \$30\.00 per 1M tokens\) \|/);
    assert.match(api.statusBar.tooltip, /gpt-4's price of 2026-04-21 from LiteLLM's table of the providers' price pages/);
    const settings = vscode.workspace.getConfiguration('tokenLens');
    await settings.update('prices', { cl100k_base: { input: 20 } }, vscode.ConfigurationTarget.Global);
    try {
      await waitFor(
        () => api.statusBar.tooltip.includes('Your price for cl100k'),
        10_000,
        () => api.statusBar.tooltip,
      );
      assert.match(api.statusBar.tooltip, /\| Cost as input \| \$0\.000040 \(at \$20\.00 per 1M tokens\) \|/);
    } finally {
      await settings.update('prices', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('the context-window gauge: share used, warning past the threshold, error past 100 %, tokens left in the tooltip', async () => {
    const settings = vscode.workspace.getConfiguration('tokenLens');
    const text = 'word '.repeat(400); // 401 tokens with cl100k_base
    const n = await api.count(text);
    await openDocument(text, 'markdown');
    await shows(tokens(n));
    assert.equal(api.statusBar.background, undefined, 'no gauge, no colour');
    await settings.update('contextWindow.size', 1000, vscode.ConfigurationTarget.Global);
    await shows(`$(symbol-numeric) ${n} / 1,000 · ${(n / 10).toFixed(1)} % · cl100k_base`);
    assert.equal(api.statusBar.background, undefined);
    assert.match(
      api.statusBar.tooltip,
      new RegExp(`${1000 - n} tokens left of a 1,000-token context window \\(${(n / 10).toFixed(1)} % used\\)`),
    );
    await settings.update('contextWindow.reserve', 500, vscode.ConfigurationTarget.Global);
    await shows(`$(symbol-numeric) ${n} / 500 · ${(n / 5).toFixed(1)} % · cl100k_base`);
    await waitFor(() => api.statusBar.background === 'statusBarItem.warningBackground', 5000, 'warning colours past 80 %');
    assert.match(api.statusBar.tooltip, /less 500 reserved for the answer/);
    await screenshot('gauge-warning');
    await settings.update('contextWindow.size', 800, vscode.ConfigurationTarget.Global);
    await waitFor(() => api.statusBar.background === 'statusBarItem.errorBackground', 5000, 'error colours past 100 %');
    assert.match(api.statusBar.text, new RegExp(`^\\$\\(symbol-numeric\\) ${n} / 300 · ${(n / 3).toFixed(1)} % · cl100k_base$`));
    assert.match(api.statusBar.tooltip, new RegExp(`\\*\\*${n - 300} tokens over\\*\\*`));
    await screenshot('gauge-error');
    assert.equal(await vscode.commands.executeCommand('tokenLens.setContextWindow', 128_000), 128_000);
    assert.equal(vscode.workspace.getConfiguration('tokenLens').get('contextWindow.size'), 128_000);
    assert.equal(await vscode.commands.executeCommand('tokenLens.setContextWindow', -5), undefined, 'a negative window is refused');
  });

  test('tooltip adds the same text counted with the other encodings', async () => {
    await openDocument('Tokenizers disagree about café and 中文字符.', 'markdown');
    const expected = await Promise.all(
      ['o200k_base', 'o200k_harmony', 'p50k_base', 'p50k_edit', 'r50k_base', 'gpt2'].map(
        async (name) => `| ${name} | ${await api.count('Tokenizers disagree about café and 中文字符.', name)} |`,
      ),
    );
    await waitFor(
      () => expected.every((row) => api.statusBar.tooltip.includes(row)),
      10_000,
      () => `tooltip rows ${expected.join(' ')} in ${api.statusBar.tooltip}`,
    );
    assert.ok(!api.statusBar.tooltip.includes('| cl100k_base |'), 'the current encoding is not repeated');
  });

  test('counts the selection, and the sum of several selections', async () => {
    const editor = await openDocument('alpha beta gamma delta', 'plaintext');
    editor.selection = new vscode.Selection(0, 6, 0, 10); // "beta"
    await shows(
      `$(symbol-numeric) ${await api.count('beta')} selected ${(await api.count('beta')) === 1 ? 'token' : 'tokens'} · cl100k_base`,
    );
    editor.selections = [new vscode.Selection(0, 0, 0, 5), new vscode.Selection(0, 11, 0, 22)]; // "alpha", "gamma delta"
    const sum = (await api.count('alpha')) + (await api.count('gamma delta'));
    await shows(`$(symbol-numeric) ${sum} selected tokens · cl100k_base`);
    assert.match(api.statusBar.tooltip, /2 selections/);
    editor.selection = new vscode.Selection(0, 3, 0, 3);
    await shows(`$(symbol-numeric) ${await api.count('alpha beta gamma delta')} tokens · cl100k_base`);
  });

  test('follows edits', async () => {
    const editor = await openDocument('one two', 'plaintext');
    await shows('$(symbol-numeric) 2 tokens · cl100k_base');
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 7), ' three four five'));
    await shows('$(symbol-numeric) 5 tokens · cl100k_base');
    await editor.edit((edit) => edit.delete(new vscode.Range(0, 0, 0, 4)));
    await shows(`$(symbol-numeric) ${await api.count(editor.document.getText())} tokens · cl100k_base`);
  });

  test('follows a language change (the document is closed and reopened under the same name)', async () => {
    const editor = await openDocument('one two', 'plaintext');
    await shows(tokens(2));
    const reopened = await vscode.languages.setTextDocumentLanguage(editor.document, 'markdown');
    const active = await waitFor(
      () => (vscode.window.activeTextEditor?.document === reopened ? vscode.window.activeTextEditor : undefined),
      5000,
      'the reopened document in the editor',
    );
    await active.edit((edit) => edit.insert(new vscode.Position(0, 7), ' three'));
    await shows(tokens(3));
  });

  test('multi-cursor edits keep the incremental count equal to a full count', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i}: The quick brown fox, naïve café 👍 ${'x'.repeat(i % 7)}`);
    const editor = await openDocument(lines.join('\n'), 'plaintext');
    await waitFor(
      () => api.statusBar.text.includes(' tokens · '),
      10_000,
      () => api.statusBar.text,
    );
    editor.selections = [0, 50, 100, 199].map((line) => new vscode.Selection(line, 0, line, 0));
    for (const typed of ['<|', 'endoftext', '|>', ' ', '\n']) {
      await editor.edit((edit) => editor.selections.forEach((s) => edit.insert(s.active, typed)));
    }
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    await shows(tokens(await api.count(editor.document.getText())));
  });

  test('switching the tokenizer applies at once', async () => {
    await openDocument('Hello world', 'plaintext');
    await shows('$(symbol-numeric) 2 tokens · cl100k_base');
    assert.equal(await vscode.commands.executeCommand('tokenLens.selectTokenizer', 'character'), 'character');
    await shows('$(symbol-numeric) 11 tokens · character');
    await vscode.commands.executeCommand('tokenLens.selectTokenizer', 'model-4o (o200k)');
    await shows(`$(symbol-numeric) ${await api.count('Hello world', 'o200k_base')} tokens · model-4o (o200k)`);
    await vscode.commands.executeCommand('tokenLens.selectTokenizer', 'whitespace');
    await shows('$(symbol-numeric) 2 tokens · whitespace');
  });

  test('a click on the count opens the tokenizer pick; the one chosen applies at once', async function () {
    if (!screenshotsSupported()) this.skip(); // needs the headless runner to click and type
    await openDocument('Hello world', 'plaintext');
    await shows(tokens(2));
    await ui({ op: 'click', button: '2 tokens, cl100k_base' });
    await ui({ op: 'type', text: 'o200k_base', enter: true, inputBox: true });
    await shows(tokens(await api.count('Hello world', 'o200k_base'), 'o200k_base'));
    assert.equal(vscode.workspace.getConfiguration('tokenLens').get('tokenizer'), 'o200k_base', 'the setting follows the pick');
  });

  test('an unknown tokenizer in the settings is a clear warning, not a crash', async () => {
    await openDocument('Hello world', 'plaintext');
    await vscode.workspace.getConfiguration('tokenLens').update('tokenizer', 'gpt-9', vscode.ConfigurationTarget.Global);
    await shows('$(warning) Unknown tokenizer "gpt-9"');
    assert.match(api.statusBar.tooltip, /Valid tokenizers: cl100k_base, .*whitespace/);
    assert.equal(await vscode.commands.executeCommand('tokenLens.selectTokenizer', 'gpt-9'), undefined);
  });

  test("special-token text counts as text by default, as one token when configured (o200k_harmony's too)", async () => {
    const text = '<|endoftext|>';
    await openDocument(text, 'plaintext');
    const asText = await api.count(text, 'cl100k_base');
    assert.ok(asText > 1);
    await shows(`$(symbol-numeric) ${asText} tokens · cl100k_base`);
    await vscode.workspace.getConfiguration('tokenLens').update('specialTokens', 'special', vscode.ConfigurationTarget.Global);
    await shows('$(symbol-numeric) 1 token · cl100k_base');
    // gpt-oss's Harmony format: <|start|> user <|message|> Hi <|end|> with o200k_harmony, whose special tokens they are.
    await openDocument('<|start|>user<|message|>Hi<|end|>', 'plaintext');
    await vscode.workspace.getConfiguration('tokenLens').update('tokenizer', 'o200k_harmony', vscode.ConfigurationTarget.Global);
    await shows('$(symbol-numeric) 5 tokens · o200k_harmony');
  });

  test('countSelection shows and returns the counts with every encoding', async () => {
    const editor = await openDocument('Count me, please.', 'plaintext');
    editor.selection = new vscode.Selection(0, 0, 0, 8);
    const summary = await vscode.commands.executeCommand<{
      tokens: number;
      characters: number;
      scope: string;
      comparisons: { tokenizer: string }[];
    }>('tokenLens.countSelection');
    assert.equal(summary.scope, 'selection');
    assert.equal(summary.tokens, await api.count('Count me'));
    assert.equal(summary.characters, 8);
    assert.deepEqual(
      summary.comparisons.map((c) => c.tokenizer),
      ['o200k_base', 'o200k_harmony', 'p50k_base', 'p50k_edit', 'r50k_base', 'gpt2'],
    );
  });

  test("keeps showing the last text editor's count while a webview (the inspector) has focus", async () => {
    await openDocument('Hello world', 'plaintext');
    await shows(tokens(2));
    await vscode.commands.executeCommand('tokenLens.openInspector');
    await vscode.commands.executeCommand('workbench.action.focusSecondEditorGroup');
    await waitFor(() => vscode.window.activeTextEditor === undefined, 5000, 'the focus to move into the inspector');
    await sleep(500); // past the refresh debounce
    assert.ok(api.statusBar.visible, 'the count stays visible');
    assert.equal(api.statusBar.text, tokens(2));
    await vscode.commands.executeCommand('notifications.clearAll');
    await screenshot('status-bar-inspector-focused');
  });

  test('the tooltip comparison is counted once per version and selection: cursor moves and pauses recount nothing', async () => {
    const text = 'Tokenizers disagree about café.\nSecond line.';
    const editor = await openDocument(text, 'plaintext');
    await waitFor(
      () => api.statusBar.tooltip.includes('| gpt2 |'),
      10_000,
      () => `the comparison in ${api.statusBar.tooltip}`,
    );
    const before = api.comparisons;
    for (let i = 0; i < 6; i++) {
      editor.selection = new vscode.Selection(i % 2, i, i % 2, i);
      await sleep(150);
    }
    await sleep(1000);
    assert.equal(api.comparisons, before, 'no recount for cursor moves or a pause');
    assert.ok(api.statusBar.tooltip.includes('| gpt2 |'), 'the tooltip keeps its comparison');
    await editor.edit((edit) => edit.insert(new vscode.Position(1, 0), 'Edited '));
    const gpt2 = await api.count(editor.document.getText(), 'gpt2');
    await waitFor(
      () => api.statusBar.tooltip.includes(`| gpt2 | ${gpt2} |`),
      10_000,
      () => `the new gpt2 count ${gpt2} in ${api.statusBar.tooltip}`,
    );
    assert.equal(api.comparisons, before + 1, 'an edit: one new comparison');
  });

  test('Count Tokens in Selection shows the whole result in a quick pick, one row per number; picking a row copies it', async function () {
    if (!screenshotsSupported()) this.skip(); // needs the headless runner to type
    const editor = await openDocument('Count me, please.', 'plaintext');
    editor.selection = new vscode.Selection(0, 0, 0, 8);
    const summary = await vscode.commands.executeCommand<{ comparisons: { tokenizer: string; tokens: number }[] }>(
      'tokenLens.countSelection',
    );
    await vscode.commands.executeCommand('notifications.clearAll');
    await untilShown(QUICK_INPUT, 'the result in a quick pick');
    await screenshot('count-result');
    const gpt2 = summary.comparisons.find((c) => c.tokenizer === 'gpt2')!.tokens;
    assert.equal(gpt2, await api.count('Count me', 'gpt2'));
    await vscode.env.clipboard.writeText('');
    await ui({ op: 'type', text: 'gpt2', enter: true, inputBox: true });
    await waitFor(async () => (await vscode.env.clipboard.readText()) === String(gpt2), 5000, "the gpt2 row's number on the clipboard");
  });

  test('a 1 MB document is counted in the background and stays exact', async () => {
    const paragraph = 'Large documents are counted in time slices, so the editor never freezes. ';
    const text = `${paragraph.repeat(14_000)}\n${'a'.repeat(100_000)}\n`;
    const expected = await api.count(text);
    const expectedAfterEdit = await api.count(`Edited: ${text}`);
    const started = Date.now();
    let longestGap = 0;
    let last = Date.now();
    const heartbeat = setInterval(() => {
      longestGap = Math.max(longestGap, Date.now() - last);
      last = Date.now();
    }, 5);
    try {
      const editor = await openDocument(text, 'plaintext');
      await shows(tokens(expected));
      await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'Edited: '));
      await shows(tokens(expectedAfterEdit));
    } finally {
      clearInterval(heartbeat);
    }
    console.log(
      `[status bar] 1 MB document counted and edited in ${Date.now() - started} ms; longest event-loop gap ${longestGap} ms (opening a 1 MB document included)`,
    );
  });

  test('hidden when no text editor is active; a screenshot of it showing', async () => {
    const editor = await openDocument('Token Lens counts what you select.\nSelect a line to see its tokens.', 'markdown');
    editor.selection = new vscode.Selection(0, 0, 0, 34);
    await waitFor(
      () => api.statusBar.text.includes('selected'),
      10_000,
      () => api.statusBar.text,
    );
    await vscode.commands.executeCommand('notifications.clearAll');
    await screenshot('status-bar');
    await closeAllEditors();
    await waitFor(
      () => !api.statusBar.visible,
      10_000,
      () => 'status bar to hide',
    );
  });
});
