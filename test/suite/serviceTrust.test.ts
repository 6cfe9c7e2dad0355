/**
 * The API key bound to its service origin, a workspace's URL used only once confirmed, plain http:// to another
 * machine asked about first. Each reference server records the Authorization header of every request it
 * receives, so the tests see exactly which key reached which origin.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createServer, type ReferenceServer } from '../../src/server/http/app';
import { activateExtension, closeAllEditors, patience, QUICK_INPUT, screenshot, screenshotsSupported, sleep, ui, untilShown } from './util';

interface Outcome {
  status: string;
  errorKind?: string;
  message?: { severity: string; text: string; actions: string[] };
}
interface Recorded {
  server: ReferenceServer;
  /** The Authorization header of every request received, in order ('' when there was none). */
  seen: string[];
  port: number;
}

const settings = () => vscode.workspace.getConfiguration('tokenLens');
const remote = (text: string) => vscode.commands.executeCommand<Outcome>('tokenLens.tokenizeRemote', { text, show: false });
const setUrl = (url: string) => vscode.commands.executeCommand<{ status: string }>('tokenLens.setServiceUrl', url);
const setKey = (key: string) => vscode.commands.executeCommand<{ status: string; origin?: string }>('tokenLens.setApiKey', key);
const clearKey = () =>
  vscode.commands.executeCommand<{ status: string; origin?: string; hadKey: boolean; message: string }>('tokenLens.clearApiKey');

async function recordedServer(apiKey: string, host = '127.0.0.1'): Promise<Recorded> {
  const server = createServer({ apiKey, ratePerMinute: 10_000 });
  const seen: string[] = [];
  server.http.prependListener('request', (req) => seen.push(String(req.headers.authorization ?? '')));
  await server.listen(0, host);
  return { server, seen, port: (server.http.address() as { port: number }).port };
}

/** Waits until an input box has focus (the runner types nothing), then dismisses it as Escape would. */
async function dismissInputBox(): Promise<void> {
  await ui({ op: 'type', text: '', inputBox: true });
  await sleep(300);
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
}

/** This machine's address on a network interface (not loopback), if it has one. */
function externalAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

suite('Service trust: keys per origin, workspace URLs, plain http', () => {
  const KEY_A = 'origin-a-key-71c3';
  const KEY_B = 'origin-b-key-0d9e';
  const KEY_C = 'origin-c-key-5a42';
  let a: Recorded;
  let b: Recorded;
  let c: Recorded;
  let urlA: string;
  let urlB: string;
  let urlC: string;
  const workspaceSettings = () => path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode', 'settings.json');
  let hadWorkspaceSettings = false;

  suiteSetup(async function () {
    if (!screenshotsSupported()) this.skip(); // answers input boxes and dialogs as a user does: needs the headless runner
    this.timeout(patience(30_000));
    await activateExtension();
    a = await recordedServer(KEY_A);
    b = await recordedServer(KEY_B, '0.0.0.0'); // also reachable on the machine's network address (the http test)
    c = await recordedServer(KEY_C);
    urlA = `http://127.0.0.1:${a.port}`;
    urlB = `http://127.0.0.1:${b.port}`;
    urlC = `http://127.0.0.1:${c.port}`;
    hadWorkspaceSettings = fs.existsSync(workspaceSettings());
  });

  suiteTeardown(async () => {
    if (!a) return;
    await settings().update('service.baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
    if (!hadWorkspaceSettings) fs.rmSync(path.dirname(workspaceSettings()), { recursive: true, force: true });
    for (const url of [urlA, urlB, urlC]) {
      await setUrl(url);
      await clearKey();
    }
    await settings().update('service.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await Promise.all([a, b, c].map((r) => r.server.close()));
  });

  teardown(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await closeAllEditors();
    // VS Code drops toasts beyond three in 800 ms (spam protection); the next test's question must show.
    await sleep(1000);
  });

  test('a key is sent only to the origin it was entered for; a new origin asks for its own key, naming it', async () => {
    assert.equal((await setUrl(`${urlA}/`)).status, 'ok');
    const stored = await setKey(KEY_A);
    assert.equal(stored.origin, urlA, 'Set API Key says which service the key is for');
    assert.equal((await remote('to A')).status, 'ok');
    assert.deepEqual(a.seen, [`Bearer ${KEY_A}`]);

    await setUrl(urlB);
    const dismissed = remote('to B, key dismissed');
    await dismissInputBox();
    const noKey = await dismissed;
    assert.equal(noKey.status, 'noKey');
    assert.ok(noKey.message!.text.includes(urlB), `the message names the origin: ${noKey.message!.text}`);
    assert.equal(b.seen.length, 0, 'nothing reached B, and certainly not A’s key');

    const typed = remote('to B with its own key');
    await untilShown(`${QUICK_INPUT}:has-text(${JSON.stringify(new URL(urlB).host)})`, "the input box, titled with B's origin");
    await screenshot('service-key-for-new-origin');
    await ui({ op: 'type', text: KEY_B, enter: true, inputBox: true });
    assert.equal((await typed).status, 'ok');
    assert.deepEqual(b.seen, [`Bearer ${KEY_B}`]);

    await setUrl(urlA);
    assert.equal((await remote('back to A: its key, no question')).status, 'ok');
    assert.deepEqual(a.seen, [`Bearer ${KEY_A}`, `Bearer ${KEY_A}`]);
    assert.ok(!b.seen.some((h) => h.includes(KEY_A)) && !a.seen.some((h) => h.includes(KEY_B)), 'no key ever crossed');

    const typedUrl = vscode.commands.executeCommand<{ status: string; message: string }>('tokenLens.setServiceUrl');
    await ui({ op: 'type', text: urlB, enter: true, inputBox: true }); // replaces the selected current URL
    assert.equal((await typedUrl).message, `Token Lens now uses ${urlB}, with the API key stored for ${urlB}.`);
    const fresh = await vscode.commands.executeCommand<{ message: string }>('tokenLens.setServiceUrl', `http://localhost:${a.port}`);
    assert.equal(
      fresh.message,
      `Token Lens now uses http://localhost:${a.port}. No API key is stored for http://localhost:${a.port} yet: the first service command asks for it.`,
      'localhost and 127.0.0.1 are different origins',
    );
    await setUrl(urlA);

    const cleared = await clearKey();
    assert.equal(cleared.origin, urlA);
    assert.match(cleared.message, new RegExp(`removed the API key for ${urlA.replace(/[.]/g, '\\.')}`));
    await setUrl(urlB);
    assert.equal((await remote('B keeps its key')).status, 'ok', 'clearing A’s key left B’s');
  });

  test('a workspace-provided URL is used only once confirmed, and never receives the key of another origin', async () => {
    await setUrl(urlA);
    await setKey(KEY_A);
    await settings().update('service.baseUrl', urlC, vscode.ConfigurationTarget.Workspace);
    assert.equal(settings().get('service.baseUrl'), urlC, 'the workspace value is in effect');

    const declined = remote('declined');
    await untilShown('.monaco-button:has-text("Don’t Use")', 'the question');
    await screenshot('service-workspace-url-confirm');
    await ui({ op: 'click', button: 'Don’t Use' });
    const outcome = await declined;
    assert.equal(outcome.status, 'declined');
    assert.match(outcome.message!.text, /did not use the service URL .* from this workspace’s settings, and sent nothing/);

    const confirmed = remote('confirmed, key dismissed');
    await ui({ op: 'click', button: 'Use This URL' });
    await dismissInputBox(); // C's own key is asked for: A's is not offered to it
    const noKey = await confirmed;
    assert.equal(noKey.status, 'noKey');
    assert.ok(noKey.message!.text.includes(urlC), noKey.message!.text);
    assert.equal(c.seen.length, 0, 'nothing reached the workspace’s service');

    const remembered = remote('confirmation remembered, C’s key typed');
    await ui({ op: 'type', text: KEY_C, enter: true, inputBox: true }); // straight to the key: no second dialog
    assert.equal((await remembered).status, 'ok');
    assert.deepEqual(c.seen, [`Bearer ${KEY_C}`]);
    assert.ok(!c.seen.some((h) => h.includes(KEY_A)));

    await settings().update('service.baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
    const before = a.seen.length;
    assert.equal((await remote('workspace value gone: the user’s own URL again')).status, 'ok');
    assert.deepEqual(a.seen.slice(before), [`Bearer ${KEY_A}`]);
  });

  test('the key of an earlier version moves to the URL in the user settings, never to a workspace’s', async () => {
    const LEGACY = KEY_A; // the earlier version was used with A
    await setUrl(urlA);
    await clearKey(); // A has no key stored now: if its key is sent below, it came from the old name
    await settings().update('service.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('tokenLens.service.test', 'storeLegacyKey', LEGACY);
    const workspaceUrl = `http://localhost:${c.port}`; // an origin of its own, with no key
    await settings().update('service.baseUrl', workspaceUrl, vscode.ConfigurationTarget.Workspace);
    const seenByC = c.seen.length;
    const pending = remote('workspace URL, old key not offered');
    await ui({ op: 'click', button: 'Use This URL' });
    await dismissInputBox(); // asked for this origin's key: the old key did not go to the workspace's URL
    assert.equal((await pending).status, 'noKey');
    assert.equal(c.seen.length, seenByC);

    await settings().update('service.baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
    await setUrl(urlA); // the user's own URL: the old key moves to its origin
    const before = a.seen.length;
    assert.equal((await remote('the old key, now bound to A')).status, 'ok');
    assert.deepEqual(a.seen.slice(before), [`Bearer ${LEGACY}`]);
  });

  test('Open Application Page asks before opening a workspace’s service URL, as a request does', async () => {
    const pages = `http://localhost:${c.port}/pages`; // a URL of the workspace's own, never confirmed
    await settings().update('service.baseUrl', pages, vscode.ConfigurationTarget.Workspace);
    try {
      const opening = vscode.commands.executeCommand<{ status: string; url?: string }>('tokenLens.openApplicationPage', 'hea');
      await untilShown('.monaco-button:has-text("Don’t Use")', 'the question');
      await ui({ op: 'click', button: 'Don’t Use' });
      assert.deepEqual(await opening, { status: 'declined' });
      const labels = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
      assert.ok(!labels.some((l) => /Simple Browser|hea/i.test(l)), `no page opened: ${labels.join(', ')}`);
    } finally {
      await settings().update('service.baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('plain http:// to another machine asks before anything is sent, whether the URL came from an argument or the settings', async function () {
    const address = externalAddress();
    if (!address) this.skip(); // no network interface besides loopback
    const unencrypted = `http://${address}:${b.port}`;
    const set = await vscode.commands.executeCommand<{ status: string; message: string }>('tokenLens.setServiceUrl', unencrypted);
    assert.match(
      set.message,
      /plain http:\/\/ to another machine, so the key and your data would travel unencrypted/,
      'an argument is warned about at once',
    );
    const before = b.seen.length;
    const declined = remote('declined over http');
    await untilShown('.monaco-button:has-text("Don’t Send")', 'the warning');
    await screenshot('service-http-warning');
    await ui({ op: 'click', button: 'Don’t Send' });
    const outcome = await declined;
    assert.equal(outcome.status, 'declined');
    assert.match(outcome.message!.text, /sent nothing to .*unencrypted/);
    assert.equal(b.seen.length, before, 'nothing was sent');

    await setUrl(urlA);
    await settings().update('service.baseUrl', `${unencrypted}/`, vscode.ConfigurationTarget.Global);
    const accepted = remote('accepted over http');
    await ui({ op: 'click', button: 'Send Unencrypted' });
    await ui({ op: 'type', text: KEY_B, enter: true, inputBox: true }); // another origin than 127.0.0.1: its own key
    assert.equal((await accepted).status, 'ok');
    assert.deepEqual(b.seen.slice(before), [`Bearer ${KEY_B}`]);
    assert.equal((await remote('asked once per origin')).status, 'ok');
    await clearKey();
  });
});
