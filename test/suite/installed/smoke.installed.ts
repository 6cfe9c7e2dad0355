/**
 * The packaged build, installed from the .vsix as a user installs it (not the development folder):
 * it activates, the status bar counts an open document, the tokenizers whose rank files are shared
 * give their own ids, claude (estimate) reads the rank file the build wrote, the inspector works with no test hooks in the build, and a POSCAR file gets its
 * diagnostics.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TokenLensApi } from '../../../src/api';
import { TEST_SEAM_TRACES } from '../../package/vsixRules';
import {
  activateExtension,
  aiTokenizerClaude,
  closeAllEditors,
  getExtension,
  openDocument,
  openWorkspaceFile,
  patience,
  REPO_ROOT,
  screenshot,
  ui,
  waitFor,
} from '../util';

/** The status bar entry as the window renders it (id: `<extension id>.<item id>`). */
const STATUS_ITEM = '[id="token-lens.token-lens.tokenLens.count"]';

const statusText = async () => (await ui({ op: 'read', selector: STATUS_ITEM })) ?? '';
const digits = (text: string) => Number(/([\d.,\s\u00a0\u202f]+)\s+tokens?/.exec(text)?.[1]?.replace(/\D/g, '') ?? NaN);

suite('Installed .vsix', () => {
  let api: TokenLensApi;

  suiteSetup(async function () {
    this.timeout(patience(60_000));
    api = await activateExtension<TokenLensApi>();
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('tokenLens').update('tokenizer', undefined, vscode.ConfigurationTarget.Global);
    await closeAllEditors();
  });

  test('Token Lens runs from the installed package, not from the repository', () => {
    const ext = getExtension();
    const installedAt = process.env.TOKEN_LENS_INSTALLED_PATH;
    assert.ok(installedAt, 'the runner names the installed folder (run with --vsix)');
    assert.strictEqual(path.resolve(ext.extensionPath), path.resolve(installedAt));
    // The runner's extensions folder may sit inside the repository (.vscode-test/): what matters is that it is not the development folder.
    assert.notStrictEqual(path.resolve(ext.extensionPath), path.resolve(REPO_ROOT), 'not the development folder');
    assert.ok(
      !fs.existsSync(path.join(ext.extensionPath, 'src')) && !fs.existsSync(path.join(ext.extensionPath, 'test')),
      `${ext.extensionPath} holds the package only, no sources or tests`,
    );
    assert.ok(ext.isActive);
    const repoManifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.strictEqual((ext.packageJSON as { version: string }).version, repoManifest.version);
    assert.ok(!fs.existsSync(path.join(ext.extensionPath, 'dist', 'extension.js.map')), 'no source map installed');
  });

  test('the status bar counts the open document, as the count command does', async function () {
    this.timeout(patience(60_000));
    const editor = await openWorkspaceFile('prompt.md');
    const expected = await api.count(editor.document.getText());
    assert.ok(expected > 10, 'prompt.md has some tokens');
    let shown = '';
    const text = await waitFor(
      async () => {
        shown = await statusText();
        return digits(shown) === expected ? shown : undefined;
      },
      20_000,
      () => `status bar to show ${expected} tokens (it shows "${shown}")`,
    );
    assert.match(text, /cl100k_base/);
    await screenshot('installed-status-bar');
    const summary = await vscode.commands.executeCommand<{ tokens: number; scope: string } | undefined>('tokenLens.countSelection');
    assert.strictEqual(summary?.tokens, expected);
    assert.strictEqual(summary?.scope, 'document');
  });

  test("gpt2 and p50k_edit, which read another encoding's rank file, give their own ids", async function () {
    this.timeout(patience(60_000));
    assert.deepStrictEqual((await api.tokenize('hello world', 'gpt2')).token_ids, [31373, 995]);
    assert.deepStrictEqual((await api.tokenize('hello world', 'cl100k_base')).token_ids, [15339, 1917]);
    const edit = await api.tokenize('def f():\n    return 1', 'p50k_edit');
    assert.deepStrictEqual(edit.token_ids, (await api.tokenize('def f():\n    return 1', 'p50k_base')).token_ids);
    await openDocument('hello world', 'plaintext');
    await vscode.commands.executeCommand('tokenLens.selectTokenizer', 'gpt2');
    await waitFor(async () => /\b2 tokens?\b.*gpt2/.test(await statusText()), 20_000, 'status bar: 2 tokens with gpt2');
  });

  test('claude (estimate) counts with the rank file the build wrote into the package, as ai-tokenizer does', async function () {
    this.timeout(patience(60_000));
    assert.ok(fs.existsSync(path.join(getExtension().extensionPath, 'dist', 'ranks', 'claude.js')), 'dist/ranks/claude.js installed');
    const text = 'Claude counts with the vocabulary Anthropic published, 東京 🎉';
    assert.strictEqual(await api.count(text, 'claude (estimate)'), aiTokenizerClaude(text));
  });

  test('the published build carries no test hooks, and the inspector works without them', async function () {
    this.timeout(patience(60_000));
    assert.deepStrictEqual(
      Object.keys(api).sort(),
      ['count', 'countConversation', 'tokenize', 'tokenizers'],
      'the API has no test-only values',
    );
    const commands = new Set(await vscode.commands.getCommands(true));
    assert.ok(commands.has('tokenLens.openInspector'));
    assert.deepStrictEqual(
      [...commands].filter((c) => /^tokenLens\..*\.test$/.test(c)),
      [],
      'no test command',
    );
    // Not only unregistered: compiled out (TEST_HOOKS), so the shipped scripts do not even name them.
    const root = getExtension().extensionPath;
    const scripts = [
      'dist/extension.js',
      'dist/web/extension.js',
      ...fs.readdirSync(path.join(root, 'media', 'build')).map((f) => `media/build/${f}`),
    ];
    for (const script of scripts) {
      const text = fs.readFileSync(path.join(root, script), 'latin1');
      assert.doesNotMatch(text, TEST_SEAM_TRACES, `${script} holds test hooks`);
    }
    await openDocument('The published inspector shows these tokens.', 'plaintext');
    assert.strictEqual(await vscode.commands.executeCommand('tokenLens.openInspector'), undefined, 'the page reports nothing back');
    const tab = await waitFor(
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('tokenLens.inspector')),
      10_000,
      'the inspector tab',
    );
    assert.strictEqual(tab.label, 'Token Inspector', 'its title, through vscode.l10n.t');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await screenshot('installed-inspector');
  });

  test('a POSCAR with a mistake gets its diagnostic', async function () {
    this.timeout(patience(60_000));
    const editor = await openWorkspaceFile('POSCAR_broken');
    assert.strictEqual(editor.document.languageId, 'poscar');
    const diagnostics = await waitFor(
      () => {
        const found = vscode.languages.getDiagnostics(editor.document.uri);
        return found.length ? found : undefined;
      },
      20_000,
      'diagnostics on POSCAR_broken',
    );
    const onCounts = diagnostics.find((d) => d.range.start.line === 6);
    assert.ok(
      onCounts,
      `a diagnostic on the counts line "1   two": ${diagnostics.map((d) => `${d.range.start.line}: ${d.message}`).join('; ')}`,
    );
    assert.strictEqual(onCounts.severity, vscode.DiagnosticSeverity.Error);
    await screenshot('installed-poscar');
  });
});
