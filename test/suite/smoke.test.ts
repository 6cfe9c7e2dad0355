/**
 * Smoke test: the real extension loads in the extension host, activates, and every
 * command declared in package.json is registered. Leaves a screenshot of the window.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TokenLensTestApi } from '../../src/api';
import { EXTENSION_ID, REPO_ROOT, activateExtension, closeAllEditors, getExtension, openWorkspaceFile, screenshot, waitFor } from './util';

interface Manifest {
  contributes?: { commands?: { command: string }[]; menus?: Record<string, { command: string; when?: string }[]> };
}

suite('Smoke', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
  const declared = (manifest.contributes?.commands ?? []).map((c) => c.command);

  suiteTeardown(async () => {
    await closeAllEditors();
  });

  test('the extension is installed in development mode and activates', async () => {
    const ext = getExtension();
    assert.strictEqual(ext.id, EXTENSION_ID);
    await activateExtension();
    assert.ok(ext.isActive, 'extension should be active after activate()');
  });

  test('every command in package.json is registered', async () => {
    await activateExtension();
    assert.ok(declared.length > 0, 'package.json declares commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepStrictEqual(missing, [], `commands declared but not registered: ${missing.join(', ')}`);
  });

  test('every command in a menu is declared and registered; count and inspector are in the editor context menu', async () => {
    await activateExtension();
    const registered = new Set(await vscode.commands.getCommands(true));
    const menus = manifest.contributes?.menus ?? {};
    for (const [menu, entries] of Object.entries(menus)) {
      for (const entry of entries) {
        assert.ok(declared.includes(entry.command), `${menu}: ${entry.command} is declared`);
        assert.ok(registered.has(entry.command), `${menu}: ${entry.command} is registered`);
      }
    }
    const context = (menus['editor/context'] ?? []).map((e) => e.command);
    assert.ok(context.includes('tokenLens.countSelection') && context.includes('tokenLens.openInspector'), context.join(', '));
  });

  test('the materials side starts on first use (a command, a POSCAR, the Runs view) and then its commands and views are the real ones', async () => {
    const api = await activateExtension<TokenLensTestApi>();
    if (api.materialsStartedBy === undefined) await vscode.commands.executeCommand('tokenLens.showLog');
    assert.match(
      api.materialsStartedBy ?? '',
      /^(the command tokenLens\.|an? (poscar|diffraction) document|the Structure Runs view|a result or 3D view)/,
    );
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const seam of ['tokenLens.results.test', 'tokenLens.structure.test', 'tokenLens.runs.test', 'tokenLens.service.test'])
      assert.ok(registered.has(seam), seam);
    // A stand-in would answer nothing; the real Runs tree lists its entries.
    assert.ok(Array.isArray(await vscode.commands.executeCommand('tokenLens.runs.test', 'items')));
  });

  test('a workspace is open and a window screenshot can be taken', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test workspace folder is open');
    const editor = await openWorkspaceFile('prompt.md');
    assert.ok(editor.document.getText().length > 0, 'prompt.md has content');
    // The picture shows the count: taken once the status bar has it, not after a fixed second.
    const api = await activateExtension<TokenLensTestApi>();
    await waitFor(
      () => api.statusBar.visible && / tokens · /.test(api.statusBar.text),
      10_000,
      () => `the count; shown: ${api.statusBar.text}`,
    );
    const file = await screenshot('smoke-window');
    if (file) assert.ok(fs.statSync(file).size > 1000, 'screenshot PNG is not empty');
  });
});
