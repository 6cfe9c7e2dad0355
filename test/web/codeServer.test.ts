/**
 * The extension as VS Code for the Web runs it: a copy with only its `browser` entry (no `main`), so
 * code-server can run it nowhere but in the browser's web worker extension host, opened as a
 * development extension; the status bar must show the count of an opened file.
 * Needs code-server in the test cache (npm run test:host sets it up) and `npm run build`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { makeRunDir, prepareUserDataDir, startCodeServer, workbenchUrl, type CodeServer } from '../runner/codeServer';
import { launchChromium } from './chromium';
import { CODE_SERVER_ENTRY, REPO_ROOT } from '../runner/paths';

const available = fs.existsSync(CODE_SERVER_ENTRY);
if (!available) {
  console.error(
    `\n*** VS Code for the Web NOT TESTED in code-server: it is not installed at ${CODE_SERVER_ENTRY} (run npm run test:host once). ***\n`,
  );
}

let server: CodeServer | undefined;
let browser: Browser | undefined;
let page: Page;
const run = makeRunDir('web');
const consoleLines: string[] = [];

/** The package as the web sees it: the manifest without `main`, the web bundle, the ranks, media, strings. */
function browserOnlyCopy(dir: string): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  delete manifest.main;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
  for (const item of ['dist/web', 'dist/ranks', 'media', 'package.nls.json', 'l10n']) {
    const from = path.join(REPO_ROOT, item);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(dir, item), { recursive: true });
  }
}

before(async () => {
  if (!available) return;
  const extension = path.join(run, 'extension');
  const workspace = path.join(run, 'workspace');
  browserOnlyCopy(extension);
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, 'hello.txt'), 'Hello, world!');
  const userDataDir = path.join(run, 'user-data');
  prepareUserDataDir(userDataDir, { 'tokenLens.tokenizer': 'cl100k_base' });
  server = await startCodeServer({
    workspace,
    userDataDir,
    extensionsDir: path.join(run, 'extensions'),
    logFile: path.join(run, 'code-server.log'),
  });
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (message) => consoleLines.push(message.text()));
  await page.goto(workbenchUrl(server, { workspace, extensionDevelopmentPath: extension }));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test(
  'code-server runs the browser-only extension in its web worker host: the status bar counts an opened file',
  { skip: !available && 'code-server is not installed' },
  async () => {
    await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
    await page.keyboard.press('Control+P');
    await page.keyboard.type('hello.txt');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'hello.txt' }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
    const item = page.locator('.statusbar-item', { hasText: /·\s*cl100k_base/ });
    try {
      await item.first().waitFor({ timeout: 60_000 });
    } catch (error) {
      await page.screenshot({ path: path.join(REPO_ROOT, 'test-results', 'screenshots', 'web-code-server-failed.png') });
      const tail = consoleLines.slice(-40).join('\n');
      throw new Error(`No Token Lens status bar item. Browser console:\n${tail}`, { cause: error });
    }
    assert.match(await item.first().innerText(), /\b4 tokens\b/);
    await page.screenshot({ path: path.join(REPO_ROOT, 'test-results', 'screenshots', 'web-code-server.png') });
  },
);

test(
  'the Structure Runs view is hidden in the web worker host, where the service does not run',
  { skip: !available && 'code-server is not installed' },
  async () => {
    await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
    await page.keyboard.press('Control+Shift+E');
    await page.locator('.explorer-folders-view').first().waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('.pane-header', { hasText: 'Structure Runs' }).count(), 0);
  },
);

/** Runs a command from the palette by its title, as a user would. */
async function palette(title: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.keyboard.type(title);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
}

test('the token inspector opens in the web worker host', { skip: !available && 'code-server is not installed' }, async () => {
  await palette('Token Lens: Open Token Inspector');
  await page
    .locator('.tab', { hasText: /Token Inspector/ })
    .first()
    .waitFor({ timeout: 60_000 });
  // The page lives two iframes down; it must paint the opened file's tokens.
  const deadline = Date.now() + 60_000;
  let painted = '';
  while (Date.now() < deadline && !painted) {
    const texts = await Promise.all(page.frames().map((frame) => frame.evaluate(() => document.body?.innerText ?? '').catch(() => '')));
    painted = texts.find((text) => /\b13 chars\b/.test(text)) ?? '';
    if (!painted) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(REPO_ROOT, 'test-results', 'screenshots', 'web-code-server-inspector.png') });
  assert.match(painted, /4 tokens · 13 chars/, 'the inspector page counts the opened file');
});

test(
  'a service command says it needs the desktop instead of "command not found"',
  { skip: !available && 'code-server is not installed' },
  async () => {
    await palette('Token Lens: Set API Key');
    const message = page.locator('.notification-toast', { hasText: 'needs the desktop VS Code' });
    await message.first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(REPO_ROOT, 'test-results', 'screenshots', 'web-code-server-service.png') });
  },
);
