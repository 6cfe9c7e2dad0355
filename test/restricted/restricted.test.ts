/**
 * Runs in a window whose folder is not trusted (the runner's --untrusted): counting and the inspector work,
 * every service command refuses with the reason and sends nothing.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TokenLensTestApi } from '../../src/api';
import { createServer, type ReferenceServer } from '../../src/server/http/app';
import { openOn } from '../suite/inspectorDriver';
import {
  activateExtension,
  closeAllEditors,
  openDocument,
  patience,
  screenshot,
  screenshotsSupported,
  sleep,
  ui,
  waitFor,
} from '../suite/util';

interface Outcome {
  status: string;
  message?: { severity: string; text: string; actions: string[] };
}

const KEY = 'restricted-key-90ab';
const settings = () => vscode.workspace.getConfiguration('tokenLens');

suite('Restricted Mode: local features work, service commands refuse', () => {
  let api: TokenLensTestApi;
  let server: ReferenceServer;
  let url: string;

  suiteSetup(async function () {
    this.timeout(patience(30_000));
    api = await activateExtension<TokenLensTestApi>();
    server = createServer({ apiKey: KEY, ratePerMinute: 10_000 });
    url = await server.listen(0);
    // The user's own URL and key: what is refused is the untrusted workspace, not a missing setting.
    await settings().update('service.baseUrl', url, vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tokenLens.clearApiKey');
    await settings().update('service.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await server?.close();
    await closeAllEditors();
  });

  test('the window really is in Restricted Mode', () => {
    assert.equal(vscode.workspace.isTrusted, false, 'run this suite with the runner’s --untrusted');
  });

  test('the extension activates and counts tokens in the status bar', async () => {
    assert.ok(vscode.extensions.getExtension('token-lens.token-lens')!.isActive);
    await openDocument('Hello world', 'plaintext');
    await waitFor(
      () => api.statusBar.visible && api.statusBar.text === '$(symbol-numeric) 2 tokens · cl100k_base',
      10_000,
      () => `the status-bar count, it shows "${api.statusBar.text}"`,
    );
  });

  test('the token inspector opens and shows the tokens', async () => {
    await openDocument('Restricted Mode keeps local counting.', 'plaintext');
    const report = await openOn('Restricted Mode keeps local counting.');
    assert.ok(report.segments.length > 1, `segments: ${JSON.stringify(report.segments)}`);
  });

  test('Set API Key still works: it stores a key for the user’s URL and sends nothing', async () => {
    const stored = await vscode.commands.executeCommand<{ status: string; origin: string }>('tokenLens.setApiKey', KEY);
    assert.equal(stored.status, 'ok');
    assert.equal(stored.origin, url);
  });

  test('every service command refuses, says why, offers to manage trust, and nothing reaches the service', async () => {
    const refused = (outcome: Outcome | undefined, what: string) => {
      assert.equal(outcome?.status, 'untrusted', `${what}: ${JSON.stringify(outcome)}`);
      assert.match(outcome.message!.text, /does not use the service in Restricted Mode: this workspace is not trusted/);
      assert.match(outcome.message!.text, /Token counts and the inspector work as usual/);
      assert.deepEqual(outcome.message!.actions, ['Manage Workspace Trust']);
    };
    refused(
      await vscode.commands.executeCommand<Outcome>('tokenLens.tokenizeRemote', { text: 'secret text', show: false }),
      'tokenizeRemote',
    );
    const poscar = fs.readFileSync(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'Si.vasp'), 'utf8');
    for (const kind of ['relax', 'singlePoint', 'md', 'tightbinding']) {
      refused(await vscode.commands.executeCommand<Outcome>(`tokenLens.${kind}`, { text: poscar, show: false }), kind);
    }
    // Run with Options… refuses before its form opens: nothing to fill in for a run that cannot be sent.
    for (const command of ['relaxWithOptions', 'mdWithOptions'])
      refused(await vscode.commands.executeCommand<Outcome>(`tokenLens.${command}`, { text: poscar, show: false }), command);
    const listed = await vscode.commands.executeCommand<unknown[]>('tokenLens.runs.test', 'items');
    assert.deepEqual(listed, [], 'a run refused before anything was sent is not listed as a failed run');
    const setUrl = await vscode.commands.executeCommand<{ status: string; message: string }>(
      'tokenLens.setServiceUrl',
      'https://elsewhere.example',
    );
    assert.equal(setUrl.status, 'untrusted');
    assert.match(setUrl.message, /Restricted Mode/);
    assert.equal(settings().get('service.baseUrl'), url, 'the URL is unchanged');
    assert.deepEqual(server.requests, [], 'no request reached the service');
  });

  test('a workspace’s service settings are ignored (restrictedConfigurations)', async () => {
    const folderSettings = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode');
    const existed = fs.existsSync(folderSettings);
    try {
      await settings().update('service.baseUrl', 'https://workspace-choice.example', vscode.ConfigurationTarget.Workspace);
      const file = path.join(folderSettings, 'settings.json');
      const written = await waitFor(
        () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined),
        5000,
        'the workspace settings file',
      );
      assert.match(written, /"tokenLens\.service\.baseUrl": "https:\/\/workspace-choice\.example"/, 'the workspace sets it');
      assert.equal(settings().get('service.baseUrl'), url, 'the user’s URL stays in effect');
    } finally {
      await settings().update('service.baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
      if (!existed) fs.rmSync(folderSettings, { recursive: true, force: true });
    }
  });

  test('the refusal as the user sees it', async function () {
    if (!screenshotsSupported()) this.skip(); // clicks the button as a user would: needs the headless runner
    await closeAllEditors();
    await vscode.commands.executeCommand('notifications.clearAll');
    await sleep(1000); // VS Code drops toasts beyond three in 800 ms, and the last test showed six
    await openDocument('Some text to tokenize on the service.', 'plaintext');
    await vscode.commands.executeCommand('tokenLens.tokenizeRemote');
    await sleep(1500); // the toast slides in
    await screenshot('restricted-mode-refusal');
    await ui({ op: 'click', button: 'Manage Workspace Trust' });
    await waitFor(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.label === 'Workspace Trust'),
      10_000,
      'the Workspace Trust editor',
    );
  });
});
