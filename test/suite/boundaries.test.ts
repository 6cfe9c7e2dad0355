import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  activateExtension,
  closeAllEditors,
  openWorkspaceFile,
  patience,
  resetSettings,
  screenshot,
  toastSays,
  untilShown,
  waitFor,
} from './util';

interface Toggled {
  enabled: boolean;
  segments: number;
}

/** A token's box as the editor draws it (the decoration types' generated classes). */
const BOUNDARY = '.monaco-editor .view-overlays [class*="TextEditorDecorationType"]';

const toggle = (on: boolean) => vscode.commands.executeCommand<Toggled>('tokenLens.toggleTokenBoundaries', on);

async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position)) ?? [];
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
}

suite('Token boundaries in the editor', () => {
  suiteSetup(async () => {
    await activateExtension();
  });

  teardown(async () => {
    await toggle(false);
    await resetSettings('workbench', ['colorTheme']);
    await closeAllEditors();
  });

  test('emoji and CJK: every token drawn, split characters drawn whole, a hover names the ids and bytes', async () => {
    const editor = await openWorkspaceFile('emoji.txt');
    const on = await toggle(true);
    assert.equal(on.enabled, true);
    assert.ok(on.segments > 20, `segments drawn: ${on.segments}`);
    const text = editor.document.getText();
    const family = editor.document.positionAt(text.indexOf('👨‍👩‍👧‍👦') + 2);
    const hover = await hoverText(editor.document.uri, family);
    // The hover is Markdown: the tokenizer's name is escaped in its source (it shows as cl100k_base).
    assert.match(hover, /\*\*\d+ tokens\*\* \(cl100k\\_base\)/);
    assert.match(hover, /- id `\d+` · bytes `[0-9a-f ]+`/);
    assert.match(hover, /each hold part of one character, so they are drawn as one/);
    const word = editor.document.positionAt(text.indexOf('checklist') + 3);
    assert.match(
      await hoverText(editor.document.uri, word),
      /^\*\*Token\*\* \(cl100k\\_base\)\n\n- id `\d+` · bytes `(20 )?63 68 65 63 6b/m,
    );
    await untilShown(BOUNDARY, 'the boundaries drawn');
    await screenshot('boundaries-emoji');

    const cjk = await openWorkspaceFile('cjk.txt');
    assert.ok((await toggle(true)).segments > 20);
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
    await untilShown(`.monaco-workbench.vs-dark ${BOUNDARY}`, 'the boundaries drawn in the dark theme');
    await screenshot('boundaries-cjk-dark');
    const off = await toggle(false);
    assert.deepEqual(off, { enabled: false, segments: 0 });
    assert.equal(await hoverText(cjk.document.uri, new vscode.Position(0, 1)), '', 'no hover once the boundaries are off');
  });

  test('boundaries follow edits and scrolling in a large document', async function () {
    this.timeout(patience(60_000));
    const line = 'The quick brown fox jumps over the lazy dog, again and again. ';
    const document = await vscode.workspace.openTextDocument({
      content: Array.from({ length: 20_000 }, (_, i) => `${i}: ${line}`).join('\n'),
    });
    const editor = await vscode.window.showTextDocument(document);
    await toggle(true);
    editor.revealRange(new vscode.Range(15_000, 0, 15_000, 0), vscode.TextEditorRevealType.AtTop);
    // Redrawn 30 ms after scrolling settles; on a loaded machine later: wait for it rather than a fixed time.
    const drawnAt = (position: vscode.Position, pattern: RegExp, what: string) =>
      waitFor(async () => pattern.test(await hoverText(document.uri, position)), 10_000, what, 100);
    await drawnAt(new vscode.Position(15_005, 10), /\*\*Token\*\* \(cl100k\\_base\)/, 'the scrolled-to lines are drawn');
    await editor.edit((e) => e.insert(new vscode.Position(15_005, 0), 'inserted words '));
    await drawnAt(
      new vscode.Position(15_005, 2),
      /\*\*Token\*\* \(cl100k\\_base\)\n\n- id `\d+` · bytes `69 6e 73 65 72 74`/,
      'the inserted text is drawn: "insert" is a token of its own',
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('a word too long to split within the window: drawn up to it, and the user is told where and why, once', async function () {
    this.timeout(patience(60_000));
    await vscode.commands.executeCommand('notifications.clearAll');
    // One "word" of three million letters is one piece whose merge takes far longer than a window's 150 ms.
    const document = await vscode.workspace.openTextDocument({ content: `A short first line.\n${'a'.repeat(3_000_000)}\n` });
    await vscode.window.showTextDocument(document);
    const on = await toggle(true);
    assert.ok(on.segments > 0, 'the first line is drawn');
    assert.match(await hoverText(document.uri, new vscode.Position(0, 3)), /\*\*Token\*\* \(cl100k\\_base\)/);
    assert.equal(await hoverText(document.uri, new vscode.Position(1, 10)), '', 'the long word is left undrawn');
    await toastSays('Token boundaries stop at line 2', /cl100k_base took longer than 150 ms .*rather than freeze the editor/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('a minified one-line document of 3 MB: only the part of the line the editor draws is decorated', async function () {
    this.timeout(patience(60_000));
    const document = await vscode.workspace.openTextDocument({ content: 'word '.repeat(600_000) });
    await vscode.window.showTextDocument(document);
    const limit = vscode.workspace.getConfiguration('editor', document).get<number>('stopRenderingLineAfter', 10_000);
    const on = await toggle(true);
    // "word " is one token: the drawn part holds limit / 5 of them, the whole line 600,000.
    assert.ok(
      on.segments > limit / 10 && on.segments <= limit / 5 + 2,
      `segments drawn: ${on.segments} (the editor draws ${limit} characters)`,
    );
    assert.match(await hoverText(document.uri, new vscode.Position(0, 7)), /\*\*Token\*\* \(cl100k\\_base\)/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
