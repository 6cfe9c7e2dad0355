import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createServer, type ReferenceServer } from '../../src/server/http/app';
import {
  activateExtension,
  closeAllEditors,
  noToasts,
  openDocument,
  patience,
  QUICK_INPUT,
  resetSettings,
  screenshot,
  screenshotsSupported,
  sleep,
  TOAST,
  ui,
  untilShown,
  waitFor,
} from './util';

/** What tokenLens.tokenizeRemote returns (src/features/service/remoteTokenize.ts RemoteTokenizeOutcome), as the tests see it. */
interface Outcome {
  status: string;
  result?: { tokenizer: string; text: string; n_tokens: number; n_chars: number; tokens: string[]; token_ids: number[] };
  local?: { tokenizer: string; n_tokens: number; tokens: string[]; token_ids: number[] };
  comparison?: { identical: boolean; sameSplit: boolean; explanations: string[] };
  errorKind?: string;
  message?: { severity: string; text: string; actions: string[] };
}

const KEY = 'suite-key-3b8e61d0';
const settings = () => vscode.workspace.getConfiguration('tokenLens');
const remote = (args?: object) => vscode.commands.executeCommand<Outcome>('tokenLens.tokenizeRemote', args);
/** The tab of a remote-tokenize report (a Markdown preview). */
const reportTab = () =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === 'vscode.markdown.preview.editor');

suite('Service: URL, API key and remote tokenization', () => {
  let server: ReferenceServer;
  let url: string;

  suiteSetup(async function () {
    this.timeout(patience(30_000));
    await activateExtension();
    server = createServer({ apiKey: KEY, ratePerMinute: 10_000, faults: true });
    url = await server.listen(0);
    const set = await vscode.commands.executeCommand<{ status: string; url: string }>('tokenLens.setServiceUrl', url);
    assert.equal(set.status, 'ok');
    assert.equal((await vscode.commands.executeCommand<{ status: string }>('tokenLens.setApiKey', KEY)).status, 'ok');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tokenLens.clearApiKey');
    for (const key of ['service.baseUrl', 'service.timeoutSeconds', 'service.maxRetries', 'specialTokens', 'tokenizer']) {
      await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
    }
    await server?.close();
  });

  teardown(async () => {
    server.faults.clear();
    await resetSettings('tokenLens', ['tokenizer', 'specialTokens', 'service.timeoutSeconds']);
    await closeAllEditors();
  });

  test('setServiceUrl with an argument saves the setting; an invalid URL is refused', async () => {
    assert.equal(settings().get('service.baseUrl'), url);
    const trailing = await vscode.commands.executeCommand<{ status: string; url: string }>('tokenLens.setServiceUrl', `${url}/`);
    assert.equal(trailing.url, url);
    const bad = await vscode.commands.executeCommand<{ status: string; message: string }>('tokenLens.setServiceUrl', 'not a url');
    assert.equal(bad.status, 'invalid');
    assert.equal(settings().get('service.baseUrl'), url, 'an invalid URL does not replace the setting');
  });

  test('tokenizeRemote sends the selection and shows the service result next to the local count', async () => {
    const editor = await openDocument('Ignore this. Tokenize exactly this sentence, please!', 'plaintext');
    editor.selection = new vscode.Selection(0, 13, 0, 52);
    const before = server.hits('/tokenizer/tokenize');
    const outcome = await remote();
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    assert.equal(server.hits('/tokenizer/tokenize') - before, 1);
    assert.equal(outcome.result!.text, 'Tokenize exactly this sentence, please!');
    assert.equal(outcome.result!.tokenizer, 'cl100k_base');
    assert.equal(outcome.result!.n_tokens, outcome.local!.n_tokens);
    assert.deepEqual(outcome.result!.token_ids, outcome.local!.token_ids);
    assert.equal(outcome.comparison!.identical, true);
    assert.match(
      outcome.message!.text,
      new RegExp(`The service counts ${outcome.result!.n_tokens} tokens with cl100k_base; Token Lens counts the same`),
    );
    const tab = await waitFor(reportTab, 5000, 'the comparison report in a Markdown preview');
    assert.match(tab.label, /Service tokenization \d+\.md/);
    assert.notEqual(tab.group.viewColumn, vscode.ViewColumn.One, 'beside the editor');
    await waitFor(() => vscode.window.activeTextEditor?.document === editor.document, 5000, 'focus back in the editor');
    assert.ok(vscode.window.activeTextEditor!.selection.isEqual(new vscode.Selection(0, 13, 0, 52)), 'the selection is kept');
    const report = vscode.workspace.textDocuments.find(
      (d) => d.uri.scheme === 'token-lens-service' && tab.label.includes(d.uri.path.slice(1)),
    )!;
    assert.match(report.getText(), /\| Tokens \| \d+ \| \d+ \|/);
    assert.match(report.getText(), /agree/);
    await sleep(500); // the preview renders
    await screenshot('service-tokenize-remote');
  });

  test('tokenizeRemote without a selection sends the whole document with the configured tokenizer', async () => {
    await settings().update('tokenizer', 'character', vscode.ConfigurationTarget.Global);
    await openDocument('añ🤖', 'plaintext');
    const outcome = await remote({ show: false });
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    assert.equal(outcome.result!.tokenizer, 'character');
    assert.deepEqual(outcome.result!.tokens, ['a', 'ñ', '🤖']);
    assert.equal(outcome.result!.n_chars, 3);
    assert.equal(outcome.comparison!.identical, true);
  });

  test('an alias is sent as named and compared with its local encoding', async () => {
    const outcome = await remote({ text: 'Alias check: model-4 is cl100k_base.', tokenizer: 'model-4', show: false });
    assert.equal(outcome.result!.tokenizer, 'model-4');
    assert.equal(outcome.comparison!.identical, true);
  });

  test('special-token text: the difference is explained', async () => {
    await settings().update('specialTokens', 'special', vscode.ConfigurationTarget.Global);
    const outcome = await remote({ text: 'end<|endoftext|>start', show: false });
    assert.equal(outcome.status, 'ok');
    assert.notEqual(outcome.result!.n_tokens, outcome.local!.n_tokens);
    assert.equal(outcome.comparison!.identical, false);
    assert.ok(
      outcome.comparison!.explanations.some((e) => /special-token strings/.test(e)),
      outcome.comparison!.explanations.join(' | '),
    );
  });

  test('text over 50,000 characters is refused before sending', async () => {
    const before = server.hits('/tokenizer/tokenize');
    const outcome = await remote({ text: 'x'.repeat(50_001) });
    assert.equal(outcome.status, 'tooLong');
    assert.match(outcome.message!.text, /50,001 characters; the service accepts at most 50,000/);
    assert.equal(server.hits('/tokenizer/tokenize'), before);
  });

  test('a 503 is retried and the command still succeeds', async () => {
    server.faults.next({ kind: 'status', status: 503, path: '/tokenizer/tokenize' });
    const before = server.hits('/tokenizer/tokenize');
    const outcome = await remote({ text: 'retry', show: false });
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    assert.equal(server.hits('/tokenizer/tokenize') - before, 2);
  });

  test('a dropped connection staged over HTTP (POST /__faults) is retried', async () => {
    const staged = await fetch(`${url}/__faults`, {
      method: 'POST',
      body: JSON.stringify({ fault: { kind: 'drop', path: '/tokenizer/tokenize' }, times: 1 }),
    });
    assert.equal(staged.status, 200);
    const before = server.hits('/tokenizer/tokenize');
    const outcome = await remote({ text: 'dropped once', show: false });
    assert.equal(outcome.status, 'ok', outcome.message?.text);
    assert.equal(server.hits('/tokenizer/tokenize') - before, 2);
  });

  test('with retries off, a dropped connection is a network error that says what to check', async () => {
    await settings().update('service.maxRetries', 0, vscode.ConfigurationTarget.Global);
    try {
      server.faults.next({ kind: 'drop', path: '/tokenizer/tokenize' });
      const outcome = await remote({ text: 'x', show: false });
      assert.equal(outcome.errorKind, 'network');
      assert.match(outcome.message!.text, /Could not reach the service/);
      assert.match(outcome.message!.text, /Check the service URL/);
      assert.ok(outcome.message!.actions.includes('Set Service URL'));
    } finally {
      await settings().update('service.maxRetries', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('an unknown tokenizer: the service detail and what to do next', async () => {
    const outcome = await remote({ text: 'x', tokenizer: 'not-a-tokenizer', show: false });
    assert.equal(outcome.status, 'error');
    assert.equal(outcome.errorKind, 'badRequest');
    assert.match(outcome.message!.text, /Unknown tokenizer "not-a-tokenizer"/);
    assert.match(outcome.message!.text, /Select Tokenizer/);
  });

  test('a timeout says what to change', async () => {
    await settings().update('service.timeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    server.faults.next({ kind: 'delay', ms: 2500, path: '/tokenizer/tokenize' });
    const outcome = await remote({ text: 'slow', show: false });
    assert.equal(outcome.errorKind, 'timeout');
    assert.match(outcome.message!.text, /tokenLens\.service\.timeoutSeconds/);
  });

  test('a wrong key leads to the "Enter new API key" offer, and the key is not in the message', async () => {
    try {
      assert.equal((await vscode.commands.executeCommand<{ status: string }>('tokenLens.setApiKey', 'wrong-key-for-suite')).status, 'ok');
      const outcome = await remote({ text: 'x', show: false });
      assert.equal(outcome.status, 'error');
      assert.equal(outcome.errorKind, 'unauthorized');
      assert.deepEqual(outcome.message!.actions, ['Enter new API key']);
      assert.match(outcome.message!.text, /did not accept the API key/);
      assert.ok(!outcome.message!.text.includes('wrong-key-for-suite'));
    } finally {
      await vscode.commands.executeCommand('tokenLens.setApiKey', KEY);
    }
    assert.equal((await remote({ text: 'x', show: false })).status, 'ok');
  });

  test("a service detail holding a command link shows as text: the notification's DOM has no link, and nothing ran", async function () {
    if (!screenshotsSupported()) this.skip(); // needs the headless runner to read the window's DOM
    await closeAllEditors();
    await noToasts();
    const hostile =
      '[Renew the key](command:tokenLens.setServiceUrl?%5B%22http%3A%2F%2Fevil.example%2F%22%5D) or [read more](https://evil.example/) $(alert)';
    server.faults.next({ kind: 'status', status: 400, path: '/tokenizer/tokenize', detail: hostile });
    const outcome = await remote({ text: 'x' });
    assert.equal(outcome.errorKind, 'badRequest');
    await untilShown(TOAST, 'the toast');
    const html = (await ui({ op: 'html', selector: '.notifications-toasts .notification-list-item-message' }))!;
    assert.match(html, /Renew the key/, 'the words are shown');
    assert.doesNotMatch(html, /<a\b/i, `no link in the notification: ${html}`);
    assert.doesNotMatch(html, /codicon-alert/, 'no icon from $(alert)');
    await screenshot('service-command-link-as-text');
    assert.equal(settings().get('service.baseUrl'), url, 'the service URL is unchanged');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  test('no key stored: dismissing the prompt, then "Enter new API key" on the message and typing it runs the command', async function () {
    if (!screenshotsSupported()) this.skip(); // needs the headless runner to click and type
    await closeAllEditors();
    await noToasts();
    await vscode.commands.executeCommand('tokenLens.clearApiKey');
    const before = server.hits('/tokenizer/tokenize');
    try {
      const pending = remote({ text: 'sent once the key is entered' });
      await untilShown(QUICK_INPUT, 'the input box');
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal((await pending).status, 'noKey');
      await ui({ op: 'click', button: 'Enter new API key' });
      await ui({ op: 'type', text: KEY, enter: true, inputBox: true });
      await waitFor(reportTab, 15_000, 'the report of the command run once the key was entered');
      assert.equal(server.hits('/tokenizer/tokenize') - before, 1, 'sent once, with the new key');
    } finally {
      await vscode.commands.executeCommand('tokenLens.setApiKey', KEY);
    }
  });

  test('a wrong key: clicking "Enter new API key" and typing the right one runs the command again, report and all', async function () {
    if (!screenshotsSupported()) this.skip(); // needs the headless runner to click and type
    // Earlier tests' toasts (a progress toast can outlive its quick request) would cover the new one.
    await closeAllEditors();
    await noToasts();
    const before = server.hits('/tokenizer/tokenize');
    try {
      await vscode.commands.executeCommand('tokenLens.setApiKey', 'wrong-key-for-suite');
      const outcome = await remote({ text: 'sent again with the new key' });
      assert.equal(outcome.errorKind, 'unauthorized');
      await untilShown(TOAST, 'the toast');
      await screenshot('service-wrong-key');
      await ui({ op: 'click', button: 'Enter new API key' });
      await ui({ op: 'type', text: KEY, enter: true, inputBox: true });
      const tab = await waitFor(reportTab, 15_000, 'the report of the request sent again');
      assert.equal(server.hits('/tokenizer/tokenize') - before, 2, 'one refused request, one accepted');
      const report = vscode.workspace.textDocuments.find(
        (d) => d.uri.scheme === 'token-lens-service' && tab.label.includes(d.uri.path.slice(1)),
      )!;
      assert.match(report.getText(), /agree/);
      assert.equal((await remote({ text: 'x', show: false })).status, 'ok', 'the new key was stored');
    } finally {
      await vscode.commands.executeCommand('tokenLens.setApiKey', KEY);
    }
  });

  test('clearApiKey removes the key; setApiKey refuses an empty key', async () => {
    const cleared = await vscode.commands.executeCommand<{ status: string; hadKey: boolean }>('tokenLens.clearApiKey');
    assert.equal(cleared.hadKey, true);
    const again = await vscode.commands.executeCommand<{ status: string; hadKey: boolean }>('tokenLens.clearApiKey');
    assert.equal(again.hadKey, false);
    const empty = await vscode.commands.executeCommand<{ status: string }>('tokenLens.setApiKey', '   ');
    assert.equal(empty.status, 'invalid');
    assert.equal((await vscode.commands.executeCommand<{ status: string }>('tokenLens.setApiKey', `Bearer ${KEY}`)).status, 'ok');
    assert.equal((await remote({ text: 'x', show: false })).status, 'ok', 'a pasted "Bearer " prefix is dropped');
  });

  test('with no URL set, the command asks for one; dismissing it sends nothing', async () => {
    await settings().update('service.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    try {
      const pending = remote({ text: 'x', show: false });
      await untilShown(QUICK_INPUT, 'the input box');
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      const outcome = await pending;
      assert.equal(outcome.status, 'noUrl');
      assert.match(outcome.message!.text, /needs the service URL/);
    } finally {
      await vscode.commands.executeCommand('tokenLens.setServiceUrl', url);
    }
  });

  test('with no key stored, the command asks for one; dismissing it sends nothing', async () => {
    await vscode.commands.executeCommand('tokenLens.clearApiKey');
    const before = server.hits('/tokenizer/tokenize');
    try {
      const pending = remote({ text: 'x', show: false });
      await untilShown(QUICK_INPUT, 'the input box');
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      const outcome = await pending;
      assert.equal(outcome.status, 'noKey');
      assert.deepEqual(outcome.message!.actions, ['Enter new API key']);
      assert.equal(server.hits('/tokenizer/tokenize'), before);
    } finally {
      await vscode.commands.executeCommand('tokenLens.setApiKey', KEY);
    }
  });

  test('showLog opens the Token Lens output channel', async () => {
    await vscode.commands.executeCommand('tokenLens.showLog');
  });
});
