/**
 * Helpers for extension-host tests (run inside VS Code, headless or Electron).
 *
 *   const api = await activateExtension();
 *   const editor = await openDocument('hello world', 'markdown');
 *   await waitFor(() => statusText().includes('tokens'), 5000, 'status bar count');
 *   await screenshot('status-bar');   // -> test-results/screenshots/status-bar.png
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { MARKERS, REPO_ROOT } from '../runner/paths';
import { patience } from '../support/patience';

export { patience };

export const EXTENSION_ID = 'token-lens.token-lens';

export { REPO_ROOT };

/** Where screenshots go; the headless runner passes its --screenshots folder via the environment. */
export const SCREENSHOT_DIR = process.env.TOKEN_LENS_SCREENSHOT_DIR || path.join(REPO_ROOT, 'test-results', 'screenshots');

/**
 * What claude (estimate) should show for `text`: ai-tokenizer's count with its claude encoding (a devDependency, read
 * by the tests only) × its Claude multiplier, rounded.
 */
export function aiTokenizerClaude(text: string): number {
  const ai = require('ai-tokenizer') as { Tokenizer: new (encoding: unknown) => { count(text: string): number } };
  return Math.round(new ai.Tokenizer(require('ai-tokenizer/encoding/claude')).count(text) * 1.1);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits longer than this are logged with what they waited for: where the suite's time goes. */
const SLOW_WAIT_MS = 2000;

function describe(message: string | (() => string)): string {
  try {
    return typeof message === 'function' ? message() : message;
  } catch (err) {
    return `(message threw: ${(err as Error).message})`;
  }
}

function logSlowWait<T>(value: T, started: number, message: string | (() => string)): T {
  const took = Date.now() - started;
  if (took >= SLOW_WAIT_MS) console.log(`[slow wait] ${(took / 1000).toFixed(1)} s: ${describe(message).slice(0, 160)}`);
  return value;
}

/**
 * Poll `predicate` (sync or async) every `intervalMs` until it returns a truthy value,
 * which is returned. Throws `Timed out after N ms waiting for <message>` otherwise;
 * `message` may be a function, evaluated at timeout (to show the state at that moment).
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  timeoutMs = 5000,
  message: string | (() => string) = 'condition',
  intervalMs = 50,
): Promise<NonNullable<T>> {
  const budget = patience(timeoutMs);
  const started = Date.now();
  const deadline = started + budget;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return logSlowWait(value, started, message);
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const detail = lastError ? ` (last error: ${(lastError as Error).message ?? String(lastError)})` : '';
      throw new Error(`Timed out after ${budget} ms waiting for ${describe(message)}${detail}`);
    }
    await sleep(intervalMs);
  }
}

/** The Token Lens extension object; throws if it is not loaded in this window. */
export function getExtension<T = unknown>(): vscode.Extension<T> {
  const ext = vscode.extensions.getExtension<T>(EXTENSION_ID);
  if (!ext) throw new Error(`Extension ${EXTENSION_ID} is not loaded (is extensionDevelopmentPath the repo root?)`);
  return ext;
}

/** Activate Token Lens (idempotent) and return its exported API. */
export async function activateExtension<T = unknown>(): Promise<T> {
  const ext = getExtension<T>();
  return ext.isActive ? ext.exports : await ext.activate();
}

/**
 * Open an untitled document with `content` in `language` and show it in the active editor.
 * Returns the editor; close it with `closeAllEditors()` in teardown.
 */
export async function openDocument(content: string, language = 'plaintext'): Promise<vscode.TextEditor> {
  // A name never used before: VS Code gives "Untitled-1" again once it is closed, and a document
  // opened under a name that was closed a moment ago can meet the old one in the extension host.
  const uri = vscode.Uri.from({ scheme: 'untitled', path: `/token-lens-test-${process.pid}-${++untitled}` });
  // Set explicitly, so that language detection does not change it (and reopen the document) later.
  const doc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), language);
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  if (content) await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), content));
  editor.selection = new vscode.Selection(0, 0, 0, 0);
  return editor;
}
let untitled = 0;

/** Open a file of the test workspace (path relative to the workspace folder). */
export async function openWorkspaceFile(relativePath: string): Promise<vscode.TextEditor> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('No workspace folder is open');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, relativePath));
  return vscode.window.showTextDocument(doc, { preview: false });
}

/**
 * Puts user settings back to their defaults, writing only those a test set: each write is a round trip to the
 * settings file, and a teardown that cleared five settings after every test spent most of its time writing nothing.
 */
export async function resetSettings(section: string, keys: readonly string[]): Promise<void> {
  const config = vscode.workspace.getConfiguration(section);
  for (const key of keys) {
    if (config.inspect(key)?.globalValue !== undefined) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
  }
}

/**
 * Close every tab of every group without a save prompt: a dirty document (an untitled one) is shown
 * and reverted first, whichever group it is in; everything else (webviews too) is closed directly.
 */
export async function closeAllEditors(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const tab = vscode.window.tabGroups.all.flatMap((group) => group.tabs)[0];
    if (!tab) return;
    const uri = tab.input instanceof vscode.TabInputText ? tab.input.uri.toString() : undefined;
    const dirty = uri && vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri && d.isDirty);
    if (dirty) {
      await vscode.window.showTextDocument(dirty, { viewColumn: tab.group.viewColumn, preview: false });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } else {
      await vscode.window.tabGroups.close(tab);
    }
  }
  throw new Error(
    `closeAllEditors: tabs still open: ${vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .map((t) => t.label)
      .join(', ')}`,
  );
}

/**
 * Do what a user does in the window: click a button (a notification's action, by its label) or type
 * into whatever has focus (with `inputBox`: once an input box has opened and has focus), then Enter;
 * or read what the window shows (`read`: the visible text of the first element matching a CSS selector,
 * returned). The headless runner does it with Playwright; throws when it could not (no such button).
 * Needs `screenshotsSupported()`.
 */
export async function ui(
  action:
    | { op: 'click'; button: string }
    | { op: 'type'; text: string; enter?: boolean; inputBox?: boolean }
    | { op: 'read' | 'html' | 'count'; selector: string },
  timeoutMs = 20_000,
): Promise<string | undefined> {
  if (!screenshotsSupported()) throw new Error('ui(): this runner cannot act on the window');
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const done = path.join(SCREENSHOT_DIR, `.ui-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  console.log(`${MARKERS.ui} ${JSON.stringify({ ...action, done })}`);
  await waitFor(
    () => fs.existsSync(done),
    timeoutMs,
    `the runner to ${action.op === 'click' ? `click "${action.button}"` : action.op}`,
    100,
  );
  const outcome = JSON.parse(fs.readFileSync(done, 'utf8')) as { ok: boolean; error?: string; text?: string };
  fs.rmSync(done, { force: true });
  if (!outcome.ok) throw new Error(`ui ${action.op} failed: ${outcome.error}`);
  return outcome.text;
}

/** The toasts' container, always in the window (a read of one toast that goes meanwhile would wait out its budget). */
export const TOASTS = '.notifications-toasts';
/** The window's notification toasts and its open quick input (a pick list or an input box). */
export const TOAST = `${TOASTS} .notification-toast`;
export const QUICK_INPUT = '.quick-input-widget';

/** How many elements matching a CSS selector the window shows now (the headless runner reads it; no waiting). */
export async function shownCount(selector: string): Promise<number> {
  return Number(await ui({ op: 'count', selector }));
}

/**
 * Waits until the window shows an element matching `selector`. Only the headless runner reads the window: elsewhere
 * this pauses a second, as the tests did before it could.
 */
export async function untilShown(selector: string, what: string): Promise<void> {
  if (!screenshotsSupported()) return sleep(1000);
  await waitFor(async () => (await shownCount(selector)) > 0, 10_000, what, 100);
}

/** No toast in the window: earlier ones cleared, and progress toasts of finished requests gone (they outlive them a moment). */
export async function noToasts(): Promise<void> {
  if (!screenshotsSupported()) {
    await sleep(1000);
    await vscode.commands.executeCommand('notifications.clearAll');
    return;
  }
  let shown = '';
  await waitFor(
    async () => {
      await vscode.commands.executeCommand('notifications.clearAll');
      if ((await shownCount(TOAST)) === 0) return true;
      // What will not go away is named if the wait fails (a progress toast of a request that never ended, say).
      shown = (await ui({ op: 'read', selector: TOASTS }).catch(() => '')) ?? '';
      return false;
    },
    10_000,
    () => `no notification toast in the window (still shown: ${JSON.stringify(shown.slice(0, 200))})`,
    100,
  );
}

/** True when a runner that can take screenshots drives this window (the headless runner). */
export function screenshotsSupported(): boolean {
  return process.env.TOKEN_LENS_SCREENSHOTS === '1';
}

/**
 * Ask the runner for a PNG of the whole window, saved as `<SCREENSHOT_DIR>/<name>.png`.
 * Resolves with the file path once the file exists, or `undefined` when the current runner
 * cannot take screenshots (e.g. @vscode/test-electron). Give the UI a moment to settle
 * (e.g. `waitFor` the state you want to show) before calling.
 */
export async function screenshot(name: string, timeoutMs = 10_000): Promise<string | undefined> {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '-');
  const file = path.join(SCREENSHOT_DIR, `${safe}.png`);
  if (!screenshotsSupported()) {
    console.log(`[token-lens] screenshot '${safe}' skipped: this runner does not take screenshots`);
    return undefined;
  }
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  fs.rmSync(file, { force: true });
  console.log(`${MARKERS.screenshot} ${file}`);
  await waitFor(() => fs.existsSync(file), timeoutMs, `screenshot ${file}`, 100);
  return file;
}

/** Waits for a notification toast holding `fragment` whose text matches `pattern` (read from the window); returns its text. */
export async function toastSays(fragment: string, pattern: RegExp): Promise<string | undefined> {
  if (!screenshotsSupported()) return undefined;
  let last = '';
  return waitFor(
    async () => {
      const selector = `.notifications-toasts .notification-list-item-message:has-text(${JSON.stringify(fragment)})`;
      last = (await ui({ op: 'read', selector }, 5000)) ?? '';
      return pattern.test(last) ? last : undefined;
    },
    20_000,
    () => `a notification with "${fragment}" matching ${pattern}; it says "${last}"`,
    200,
  );
}
