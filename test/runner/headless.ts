/**
 * Headless extension-host test runner: the real VS Code (1.100.3) served by code-server,
 * driven by Debian's Chromium through playwright-core.
 *
 *   node out/test/runner/headless.js [--suite out/test/suite/index.js]
 *        [--workspace test/fixtures/workspace] [--extension .] [--timeout 1500]
 *        [--screenshots test-results/screenshots] [--grep REGEXP] [--verbose] [--raw]
 *
 * The suite module (exports `run()`) runs inside the extension host. Its console output
 * is forwarded to the page console, which we print. Two marker lines are special:
 *   [token-lens:screenshot] /abs/path.png   -> we save a PNG of the whole window there
 *   [token-lens:result] N passed, N failed  -> the counts we report
 *   [token-lens:failed] title: error        -> a failure, listed again at the end of our output (a log cut to its
 *                                              tail still names it)
 *   [token-lens:running] title              -> the test that starts now, named if the run never ends
 *   [token-lens:ui] {"op":"click","button":"…","done":"/abs.json"}  -> we click that button in the window
 *   [token-lens:ui] {"op":"type","text":"…","enter":true,"inputBox":true,"done":"/abs.json"}  -> we type into what has focus
 *                   (with inputBox: once an input box has focus)
 *   [token-lens:ui] {"op":"read","selector":"…","done":"/abs.json"}  -> we write the element's visible text as `text`
 *   [token-lens:ui] {"op":"html","selector":"…","done":"/abs.json"}  -> we write the element's HTML as `text` (what the DOM holds: links, not just words)
 *   [token-lens:ui] {"op":"count","selector":"…","done":"/abs.json"} -> we write how many matching elements are visible now as `text` (no waiting)
 * The workbench calls window.codeAutomationExit(code) when the suite is done.
 * workbench.action.reloadWindow reloads the page: a new extension host runs the suite module again from the start
 * (test/reload/ uses that; TOKEN_LENS_RUN_DIR is this run's folder, which outlives the reload), and the result
 * marker of that second run is the one reported.
 *
 * Exit code 0 only when the suite reported >=1 passed and 0 failed, and VS Code exited 0.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as util from 'util';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import {
  CodeServer,
  delay,
  freePort,
  installExtension,
  makeRunDir,
  prepareUserDataDir,
  safeTail,
  startCodeServer,
  UNTRUSTED_USER_SETTINGS,
  workbenchUrl,
} from './codeServer';
import { watchFrames, type FrameWatch } from './frames';
import { CHROMIUM_PATH, DEFAULT_SUITE, DEFAULT_WORKSPACE, MARKERS, REPO_ROOT, SCREENSHOT_DIR } from './paths';
import { ensureSetup } from './setup';
import { mainThreadStack } from './stack';
import { patience } from '../support/patience';

interface Options {
  suite: string;
  workspace: string;
  extension: string;
  timeoutSec: number;
  screenshots: string;
  grep?: string;
  /** Test this packaged build, installed into a fresh extensions dir, instead of the development folder. */
  vsix?: string;
  verbose: boolean;
  raw: boolean;
  /** Open the workspace in Restricted Mode (workspace trust on, the folder not trusted). */
  untrusted: boolean;
}

const USAGE = `Usage: node out/test/runner/headless.js [options]
  --suite PATH        compiled suite module exporting run()   (default out/test/suite/index.js)
  --workspace DIR     folder opened in the window              (default test/fixtures/workspace)
  --extension DIR     extensionDevelopmentPath                 (default: the repository root)
  --timeout SEC       overall time limit for the run           (default 1500)
  --screenshots DIR   where screenshot('name') PNGs are saved  (default test-results/screenshots)
  --grep REGEXP       only run tests whose title matches
  --vsix FILE         install FILE into a fresh extensions dir and test that installed build
                      (use with --suite out/test/suite/installed; --extension is ignored)
  --untrusted         open the workspace in Restricted Mode (workspace trust on, folder not trusted)
  --verbose           also print workbench and driver logs
  --raw               print every browser console message unfiltered`;

const isMarker = (line: string): boolean => Object.values(MARKERS).some((m) => line.includes(m));

/** The test polls for the file: it must never see half of it. */
function writeAtomically(file: string, data: string | Buffer): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

/** What a test asks the runner to do as a user would; the outcome `{ ok, error? }` is written to `done`. */
type UiAction =
  | { op: 'click'; button: string; done: string }
  | { op: 'type'; text: string; enter: boolean; inputBox: boolean; done: string }
  | { op: 'read'; selector: string; done: string }
  | { op: 'html'; selector: string; done: string }
  | { op: 'count'; selector: string; done: string };

function parseUiAction(json: string): UiAction | undefined {
  try {
    const a = JSON.parse(json) as Record<string, unknown>;
    if (typeof a.done !== 'string' || !path.isAbsolute(a.done)) return undefined;
    if (a.op === 'click' && typeof a.button === 'string') return { op: 'click', button: a.button, done: a.done };
    if ((a.op === 'read' || a.op === 'html' || a.op === 'count') && typeof a.selector === 'string')
      return { op: a.op, selector: a.selector, done: a.done };
    if (a.op === 'type' && typeof a.text === 'string')
      return { op: 'type', text: a.text, enter: a.enter === true, inputBox: a.inputBox === true, done: a.done };
  } catch {
    // not a marker we understand: ignored
  }
  return undefined;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    suite: DEFAULT_SUITE,
    workspace: DEFAULT_WORKSPACE,
    extension: REPO_ROOT,
    timeoutSec: 1500,
    screenshots: SCREENSHOT_DIR,
    verbose: false,
    raw: false,
    untrusted: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case '--suite':
        opts.suite = path.resolve(value());
        break;
      case '--workspace':
        opts.workspace = path.resolve(value());
        break;
      case '--extension':
        opts.extension = path.resolve(value());
        break;
      case '--timeout':
        opts.timeoutSec = Number(value());
        break;
      case '--screenshots':
        opts.screenshots = path.resolve(value());
        break;
      case '--grep':
        opts.grep = value();
        break;
      case '--vsix':
        opts.vsix = path.resolve(value());
        break;
      case '--verbose':
        opts.verbose = true;
        break;
      case '--raw':
        opts.raw = true;
        break;
      case '--untrusted':
        opts.untrusted = true;
        break;
      case '-h':
      case '--help':
        console.log(USAGE);
        process.exit(0);
      // falls through (unreachable)
      default:
        throw new Error(`Unknown argument ${arg}\n${USAGE}`);
    }
  }
  if (!Number.isFinite(opts.timeoutSec) || opts.timeoutSec <= 0) throw new Error('--timeout must be a positive number of seconds');
  let suite = opts.suite;
  if (fs.existsSync(suite) && fs.statSync(suite).isDirectory()) suite = path.join(suite, 'index.js');
  if (!fs.existsSync(suite)) throw new Error(`Suite not found: ${suite} (did you run npm run build:tests?)`);
  opts.suite = suite;
  if (!fs.existsSync(opts.workspace) || !fs.statSync(opts.workspace).isDirectory())
    throw new Error(`Workspace folder not found: ${opts.workspace}`);
  if (opts.vsix && !fs.existsSync(opts.vsix)) throw new Error(`No such .vsix: ${opts.vsix} (npm run package builds it)`);
  if (!fs.existsSync(path.join(opts.extension, 'package.json'))) throw new Error(`No extension manifest in ${opts.extension}`);
  return opts;
}

// ---------------------------------------------------------------------------------------
// Console output. In extension-test mode the workbench forwards the extension host's
// console to its log service, which prints to the page console as
//   console.log('%c INFO', 'color: #33f', <original format>, ...<original args>)
// (ERR / WARN likewise). We re-format the original arguments with util.format, so mocha's
// spec reporter reads exactly as in a terminal, and drop the workbench's own chatter.

const LOG_PREFIX = /^%c\s*(TRACE|DEBUG|INFO|WARN|ERR)\s*$/;

/** Workbench log lines that are expected in this setup (offline, web) and only add noise. */
const NOISE: RegExp[] = [
  /^Resolving connection token/,
  /^Resolved connection token/,
  /^Creating a socket/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^ChatSessionStore:/,
  /open-vsx\.org/,
  /ENOTFOUND/,
  /^Started local extension host/,
  /^\[.*\] potential listener LEAK/,
  /^Ignoring fetching additional builtin extensions from gallery/,
  // run() rejecting after mocha's own report: the runner prints the summary instead
  /^Error: \d+ extension-host test\(s\) failed/,
  /^Error: no extension-host test ran/,
];

export interface LogLine {
  /** 'info' | 'warn' | 'error' ... for workbench-logger lines, undefined for raw browser console */
  level?: string;
  text: string;
}

export async function decodeConsole(msg: ConsoleMessage): Promise<LogLine> {
  const handles = msg.args();
  const values = await Promise.all(handles.map((h) => h.jsonValue().catch(() => undefined)));
  const head = values[0];
  const m = typeof head === 'string' ? LOG_PREFIX.exec(head) : null;
  if (m && values.length >= 3 && typeof values[1] === 'string') {
    const rest = values.slice(2).map((v) => (v === undefined ? '' : v));
    const text = rest.length ? util.format(...(rest as [unknown, ...unknown[]])) : '';
    return { level: m[1]!.toLowerCase(), text };
  }
  return { text: msg.text() };
}

// ---------------------------------------------------------------------------------------

/** Path relative to the repository when inside it, else absolute. */
function rel(p: string): string {
  const r = path.relative(REPO_ROOT, p);
  return r && !r.startsWith('..') && !path.isAbsolute(r) ? r : p;
}

/**
 * Installs the .vsix into this run's own extensions dir (other runs keep theirs). The suite still
 * needs a development extension to run in: an empty one with another id, so Token Lens itself is
 * the installed build, in production mode.
 */
function installVsix(vsix: string, runDir: string, userDataDir: string): { extensionsDir: string; extensionPath: string; driver: string } {
  const extensionsDir = path.join(runDir, 'extensions');
  const extensionPath = installExtension(vsix, extensionsDir, userDataDir, path.join(runDir, 'install-extension.log'));
  const driver = path.join(runDir, 'test-driver');
  fs.mkdirSync(driver, { recursive: true });
  const manifest = { name: 'installed-build-tests', publisher: 'token-lens-tests', version: '0.0.0', engines: { vscode: '*' } };
  fs.writeFileSync(path.join(driver, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  return { extensionsDir, extensionPath, driver };
}

interface Result {
  passed: number;
  failed: number;
  reported: boolean;
}

/** Debian's Chromium, headless; started while code-server starts (each takes seconds, on separate cores). */
async function launchChromium(runDir: string): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // We clean up ourselves (server first needs the browser gone); Playwright's own
    // handlers would exit the process before code-server is stopped.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    // keep Chromium's crash-report database out of ~/.config
    env: { ...process.env, XDG_CONFIG_HOME: path.join(runDir, 'xdg-config') },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * What the quick input shows (hidden or not, its title, prompt, message and list; not the typed value); given what it
 * showed before, that only once it shows something else. Runs in the page.
 */
function quickInput(was?: string): string | false {
  const widget = document.querySelector<HTMLElement>('.quick-input-widget');
  const now = widget && widget.offsetParent !== null ? `${widget.textContent}|${widget.querySelector('input')?.placeholder}` : 'hidden';
  return was === undefined ? now : now !== was && now;
}

/**
 * Enter in a quick input, then the moment it changes (a pick list gives way to the next input box in the same widget,
 * a message appears, it closes), within a second: the next keys go to what comes next, not to what was there. When
 * Enter changes nothing (a refused value stays with its message), the second passes.
 */
async function enterInQuickInput(page: Page): Promise<void> {
  const before = (await page.evaluate(quickInput, undefined)) as string;
  await page.keyboard.press('Enter');
  await page.waitForFunction(quickInput, before, { timeout: 1000, polling: 50 }).catch(() => undefined);
}

async function runHeadless(opts: Options): Promise<number> {
  const t0 = Date.now();
  const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  const say = (msg: string) => process.stdout.write(`[runner] ${msg}\n`);

  await ensureSetup();
  const runDir = makeRunDir('headless');
  const userDataDir = path.join(runDir, 'user-data');
  prepareUserDataDir(userDataDir, opts.untrusted ? UNTRUSTED_USER_SETTINGS : {});
  fs.mkdirSync(opts.screenshots, { recursive: true });
  const installed = opts.vsix ? installVsix(opts.vsix, runDir, userDataDir) : undefined;
  if (installed) say(`installed ${rel(opts.vsix!)} into ${rel(installed.extensionPath)}`);

  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let frames: FrameWatch | undefined;
  const launching = launchChromium(runDir);
  launching.catch(() => undefined); // awaited below, or by cleanup(): never an unhandled rejection meanwhile
  let cleaning: Promise<void> | undefined;
  // Memoized: the signal handler and the finally block may both call it; both wait for the end.
  const cleanup = () =>
    (cleaning ??= (async () => {
      frames?.stop();
      // A browser still starting when code-server failed is closed too, once it is up.
      await (browser ?? (await launching.catch(() => undefined)))?.close().catch(() => undefined);
      await server?.stop().catch(() => undefined);
    })());
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    if (interrupted) return; // second Ctrl+C while cleaning up
    interrupted = sig;
    say(`${sig}: stopping code-server and Chromium`);
    void cleanup().finally(() => {
      console.log(`${result.passed} passed, ${Math.max(result.failed, 1)} failed`);
      process.exit(130);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const result: Result = { passed: 0, failed: 0, reported: false };
  let failure: string | undefined;
  let vscodeExit: number | undefined;
  let overallTimer: NodeJS.Timeout | undefined;
  let inspectPort: number | undefined;
  let hostStack: string | undefined;
  const pendingShots: Promise<void>[] = [];
  const failures: string[] = [];
  let running = '';

  try {
    say(`suite ${rel(opts.suite)}, workspace ${rel(opts.workspace)}${opts.untrusted ? ' in Restricted Mode' : ''}`);
    inspectPort = await freePort();
    server = await startCodeServer({
      inspectPort,
      workspace: opts.workspace,
      userDataDir,
      workspaceTrust: opts.untrusted,
      logFile: path.join(runDir, 'code-server.log'),
      extensionsDir: installed?.extensionsDir,
      env: {
        ...(installed ? { TOKEN_LENS_INSTALLED_PATH: installed.extensionPath } : {}),
        TOKEN_LENS_SCREENSHOTS: '1',
        TOKEN_LENS_SCREENSHOT_DIR: opts.screenshots,
        // This run's own folder: a suite that reloads the window keeps what it needs across the reload there.
        TOKEN_LENS_RUN_DIR: runDir,
        ...(opts.grep ? { TOKEN_LENS_TEST_GREP: opts.grep } : {}),
      },
    });
    say(`code-server ${server.baseUrl} ready after ${elapsed()} (log ${rel(server.logFile)})`);

    browser = await launching;
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page: Page = await context.newPage();
    frames = await watchFrames(page, say);

    let resolveExit!: (code: number) => void;
    const exited = new Promise<number>((r) => (resolveExit = r));
    await page.exposeFunction('codeAutomationExit', (code: number) => {
      resolveExit(typeof code === 'number' ? code : 1);
    });
    await page.exposeFunction('codeAutomationLog', (level: string, message: string) => {
      if (opts.raw || opts.verbose) process.stdout.write(`[driver:${level}] ${message}\n`);
    });

    const takeScreenshot = async (file: string) => {
      const t = Date.now();
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        await frames?.ensure();
        // Transitions (a toast sliding in, a panel opening) are shown finished: the test waits for the state, not the animation.
        const png = await page.screenshot({ fullPage: false, animations: 'disabled' });
        writeAtomically(file, png);
        say(`screenshot ${rel(file)} (${Date.now() - t} ms)`);
      } catch (err) {
        say(`screenshot ${file} failed: ${(err as Error).message}`);
      }
    };

    const doUi = async (action: UiAction) => {
      let error: string | undefined;
      let text: string | undefined;
      try {
        if (action.op === 'read')
          text = await page
            .locator(action.selector)
            .first()
            .innerText({ timeout: patience(10_000) });
        else if (action.op === 'html')
          text = await page
            .locator(action.selector)
            .first()
            .innerHTML({ timeout: patience(10_000) });
        else if (action.op === 'count') text = String(await page.locator(action.selector).filter({ visible: true }).count());
        else if (action.op === 'click')
          await page
            .getByRole('button', { name: action.button, exact: true })
            .first()
            .click({ timeout: patience(10_000) });
        else {
          if (action.inputBox)
            await page
              .locator('.quick-input-widget input:focus')
              .first()
              .waitFor({ state: 'visible', timeout: patience(10_000) });
          await page.keyboard.type(action.text);
          if (action.enter && action.inputBox) await enterInQuickInput(page);
          else if (action.enter) await page.keyboard.press('Enter');
        }
      } catch (err) {
        error = (err as Error).message.split('\n')[0];
      }
      writeAtomically(action.done, JSON.stringify(error === undefined ? { ok: true, text } : { ok: false, error }));
    };

    const onLine = (line: string) => {
      const ui = line.indexOf(MARKERS.ui);
      if (ui >= 0) {
        const action = parseUiAction(line.slice(ui + MARKERS.ui.length));
        if (action) pendingShots.push(doUi(action));
        return;
      }
      const shot = line.indexOf(MARKERS.screenshot);
      if (shot >= 0) {
        const file = line.slice(shot + MARKERS.screenshot.length).trim();
        if (path.isAbsolute(file) && file.endsWith('.png')) pendingShots.push(takeScreenshot(file));
        return;
      }
      const fail = line.indexOf(MARKERS.failed);
      if (fail >= 0) {
        failures.push(line.slice(fail + MARKERS.failed.length).trim());
        return;
      }
      const started = line.indexOf(MARKERS.running);
      if (started >= 0) {
        running = line.slice(started + MARKERS.running.length).trim();
        return;
      }
      const res = line.indexOf(MARKERS.result);
      if (res >= 0) {
        const m = /(\d+) passed, (\d+) failed/.exec(line.slice(res));
        if (m) {
          result.passed = Number(m[1]);
          result.failed = Number(m[2]);
          result.reported = true;
        }
        return;
      }
      process.stdout.write(`${line}\n`);
    };

    // Decode sequentially so lines keep their order.
    let consoleQueue: Promise<void> = Promise.resolve();
    page.on('console', (msg: ConsoleMessage) => {
      consoleQueue = consoleQueue
        .then(async () => {
          if (opts.raw) process.stdout.write(`[console:${msg.type()}] ${msg.text()}\n`);
          const { level, text } = await decodeConsole(msg);
          const lines = text.split('\n');
          if (lines.some(isMarker)) {
            for (const l of lines) if (isMarker(l)) onLine(l);
            return;
          }
          if (opts.raw) return;
          if (level === undefined) {
            // the browser's own console (resource 404s, iframe sandbox warnings...)
            if (opts.verbose) process.stdout.write(`[browser:${msg.type()}] ${text}\n`);
            return;
          }
          if (!opts.verbose && NOISE.some((re) => re.test(text))) return;
          const tag = level === 'info' ? '' : `[${level}] `;
          for (const l of lines) onLine(tag + l);
        })
        .catch(() => undefined);
    });
    page.on('pageerror', (err) => {
      if (opts.verbose || opts.raw) process.stdout.write(`[pageerror] ${err.message}\n`);
    });

    const timeout = new Promise<'timeout'>((r) => (overallTimer = setTimeout(() => r('timeout'), opts.timeoutSec * 1000)));
    const serverDied = server.exited.then((code) => `code-server exited unexpectedly (code ${code})`);
    const browserDied = new Promise<string>((r) => browser!.on('disconnected', () => r('Chromium disconnected')));

    const url = workbenchUrl(server, {
      workspace: opts.workspace,
      extensionDevelopmentPath: installed?.driver ?? opts.extension,
      extensionTestsPath: opts.suite,
    });
    if (opts.verbose) say(`opening ${url}`);
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    say(`workbench loaded after ${elapsed()}; running the extension-host suite`);

    const outcome = await Promise.race([exited, timeout, serverDied, browserDied, server.extensionHostDied]);
    if (outcome === 'timeout') {
      failure = `time limit of ${opts.timeoutSec} s reached (hang?)`;
      await takeScreenshot(path.join(opts.screenshots, 'timeout.png'));
      const pid = server.extensionHostPid();
      if (pid && inspectPort) hostStack = `the extension host (pid ${pid}): ${await mainThreadStack(pid, inspectPort)}`;
    } else if (typeof outcome === 'string') {
      failure = outcome;
    } else {
      vscodeExit = outcome;
      // The result marker is logged before run() settles; give the console a moment.
      for (let i = 0; i < 20 && !result.reported; i++) await delay(100);
      await Promise.race([consoleQueue, delay(2000)]);
    }
    await Promise.race([Promise.all(pendingShots), delay(10_000)]);
  } catch (err) {
    failure = (err as Error).message;
  } finally {
    if (overallTimer) clearTimeout(overallTimer);
    await cleanup();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }

  // A failure of the harness itself (hang, crash, no report) counts as one failed test.
  let harnessFailed = !!failure;
  if (!failure && !result.reported) {
    failure = `the suite did not report a result (VS Code exit code ${vscodeExit})`;
    harnessFailed = true;
  }
  if (!failure && result.passed + result.failed === 0) failure = 'no extension-host test ran';
  if (!failure && vscodeExit !== 0 && result.failed === 0) {
    failure = `VS Code exited with code ${vscodeExit} (the suite rejected)`;
    harnessFailed = true;
  }
  if (interrupted) await new Promise(() => undefined); // the signal handler prints and exits
  if (failure) {
    say(`FAILED: ${failure}`);
    if (server) process.stdout.write(`[runner] last lines of ${rel(server.logFile)}:\n${safeTail(server.logFile, 15)}\n`);
  }
  if (pendingShots.length) say(`${pendingShots.length} screenshots and actions in the window (screenshots in ${rel(opts.screenshots)})`);
  for (const f of failures) say(`failed: ${f}`);
  if (failure && running) say(`the last test to start: ${running}`);
  if (hostStack) say(hostStack);
  say(`finished in ${elapsed()}`);
  const failed = result.failed + (harnessFailed && result.failed === 0 ? 1 : 0);
  console.log(`${result.passed} passed, ${failed} failed`);
  return !failure && result.failed === 0 && result.passed > 0 ? 0 : 1;
}

if (require.main === module) {
  let opts: Options;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  runHeadless(opts).then(
    (code) => process.exit(code),
    (err) => {
      console.error(`[runner] ${(err as Error).stack ?? err}`);
      console.log('0 passed, 1 failed');
      process.exit(1);
    },
  );
}
