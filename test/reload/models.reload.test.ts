/**
 * "Offline after the first download; the cache survives a reload", in a real VS Code: Add Model Tokenizer… downloads
 * from the stand-in hub, the hub is stopped and the window really reloads (workbench.action.reloadWindow: a new
 * extension host activates Token Lens from nothing). The suite then runs again; this time the model must be listed,
 * in the pick too, and count exactly, read from the cache in global storage with no hub to ask.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { TokenLensTestApi } from '../../src/api';
import { loadHuggingFaceTokenizer } from '../../src/core/tokenizers/huggingFace/huggingFace';
import { modelFile, startStandInHub } from '../support/standInHub';
import { activateExtension, openDocument, patience, ui, waitFor } from '../suite/util';
import { acrossReload } from './reload';

const REPO = 'test-org/qwen3';
// Qwen 3 gives 36 tokens, cl100k_base 33: the count tells the tokenizers apart.
const TEXT = 'Open models count exactly: 通义千问 和 Llama 3 读 "héllo" 👋 differently, 1234567 times.\n';

/** What the first run leaves for the one after the reload. */
interface BeforeReload {
  endpoint: string;
}

const settings = () => vscode.workspace.getConfiguration('tokenLens');

suite('A downloaded model across a window reload', () => {
  test('added from the hub, the hub stopped, the window reloaded: listed, in the pick, and counting exactly from the cache', async function () {
    this.timeout(patience(180_000));
    await acrossReload(this, 'models', addModel, afterReload);
  });
});

/** The first run: adds the model, stops the hub; returns what the next run checks. */
async function addModel(): Promise<BeforeReload> {
  const api = await activateExtension<TokenLensTestApi>();
  assert.ok(!api.tokenizers().includes(REPO), 'a fresh profile has no model yet');
  const hub = await startStandInHub();
  await settings().update('models.hubEndpoint', hub.endpoint, vscode.ConfigurationTarget.Global);
  assert.equal(await vscode.commands.executeCommand('tokenLens.addModel', REPO), REPO);
  assert.equal(settings().get('tokenizer'), REPO, 'the model added is the one counted with');
  await hub.close();
  return { endpoint: hub.endpoint };
}

async function afterReload(before: BeforeReload): Promise<void> {
  assert.equal(settings().get('models.hubEndpoint'), before.endpoint);
  await assert.rejects(fetch(`${before.endpoint}/api/models/${REPO}`), 'the hub is gone: nothing could be downloaded again');
  try {
    const api = await activateExtension<TokenLensTestApi>();
    assert.ok(api.tokenizers().includes(REPO), `listed after the reload: ${api.tokenizers().join(', ')}`);
    const expected = loadHuggingFaceTokenizer(fs.readFileSync(modelFile('qwen3'), 'utf8')).count(TEXT);
    assert.notEqual(expected, await api.count(TEXT, 'cl100k_base'), 'a count that tells the tokenizers apart');
    await openDocument(TEXT, 'markdown');
    const shown = `$(symbol-numeric) ${expected} tokens · ${REPO}`;
    await waitFor(
      () => api.statusBar.text === shown,
      60_000,
      () => `the status bar to show "${shown}"; it shows "${api.statusBar.text}" (${api.statusBar.tooltip})`,
    );
    assert.equal(await api.count(TEXT, REPO), expected);

    void vscode.commands.executeCommand('tokenLens.selectTokenizer');
    const list = await waitFor(
      async () => {
        const text = await ui({ op: 'read', selector: '.quick-input-widget .quick-input-list' });
        return text?.includes(REPO) ? text : undefined;
      },
      20_000,
      'the pick to list the model',
    );
    assert.match(list, /Open models \(tokenizer\.json\)/);
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    for (const key of ['models.hubEndpoint', 'tokenizer']) await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
  }
}
