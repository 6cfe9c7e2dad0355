/**
 * Extension-host test entry point (the `extensionTestsPath` module).
 *
 * The same file is used by the headless runner (code-server + Chromium) and by
 * @vscode/test-electron. VS Code calls `run()` inside the extension host; it runs every
 * compiled `*.test.js` next to this file with mocha (TDD ui: `suite` / `test`), prints a
 * `[token-lens:result] N passed, N failed` marker line the headless runner parses, and
 * rejects when anything failed (VS Code then exits with code 1).
 *
 * Optional environment (set on the runner, inherited by the extension host):
 *   TOKEN_LENS_TEST_GREP   only run tests whose full title matches this regexp
 *   TOKEN_LENS_WAIT_SCALE  stretch waits and the default test timeout on a shared machine (test/support/patience.ts)
 */
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';
import { patience } from '../support/patience';
import { MARKERS } from '../runner/paths';
import { screenshot } from './util';

/**
 * After this many failures the rest of the suite is not run: later failures are then mostly the first one's
 * consequences (a window left in a bad state), and each costs its full stretched timeout, so a cascade used to run
 * into the runner's time limit and the report that names the first failures never came.
 */
const MAX_FAILURES = 3;

function findFiles(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findFiles(full, suffix));
    else if (entry.isFile() && entry.name.endsWith(suffix)) out.push(full);
  }
  return out.sort();
}

export function run(): Promise<void> {
  return runMocha(__dirname, '.test.js');
}

/** Runs every compiled file under `dir` whose name ends with `suffix` (also the webview benchmark's entry). */
export function runMocha(dir: string, suffix: string): Promise<void> {
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    timeout: patience(20_000),
    slow: 5_000,
    reporter: 'spec',
  });
  if (process.env.TOKEN_LENS_TEST_GREP) mocha.grep(new RegExp(process.env.TOKEN_LENS_TEST_GREP));

  const files = findFiles(dir, suffix);
  for (const f of files) mocha.addFile(f);

  return new Promise<void>((resolve, reject) => {
    let passed = 0;
    let failed = 0;
    let runner: Mocha.Runner;
    try {
      runner = mocha.run(() => {
        // `fail` counts failing tests and failing hooks; a suite that errors while loading
        // shows up as a failed hook or a thrown error below.
        const notRun = runner.total - passed - failed - (runner.stats?.pending ?? 0);
        if (failed >= MAX_FAILURES && notRun > 0) console.log(`${notRun} test(s) not run: the suite stops after ${MAX_FAILURES} failures`);
        console.log(`${MARKERS.result} ${passed} passed, ${failed} failed`);
        if (failed > 0) reject(new Error(`${failed} extension-host test(s) failed`));
        else if (passed === 0) reject(new Error('no extension-host test ran'));
        else resolve();
      });
    } catch (err) {
      // e.g. a syntax/runtime error while requiring a test file
      console.error('Failed to load the extension-host tests:', err);
      console.log(`${MARKERS.result} 0 passed, 1 failed`);
      reject(err);
      return;
    }
    // So that a run that never ends can say where it stopped, even when the extension host is blocked.
    runner.on('test', (test: Mocha.Test) => console.log(`${MARKERS.running} ${test.fullTitle()}`));
    runner.on('hook', (hook: Mocha.Hook) => console.log(`${MARKERS.running} ${hook.fullTitle()}`));
    runner.on('pass', () => passed++);
    runner.on('fail', (test: Mocha.Runnable, err: Error) => {
      if (++failed >= MAX_FAILURES) runner.abort();
      // The runner repeats these at the end of its output, where a truncated log still shows them.
      console.log(`${MARKERS.failed} ${test.fullTitle()}: ${(String(err?.message).split('\n')[0] ?? '').slice(0, 300)}`);
      // The window as the failure left it, before the hooks tidy it away (the runner takes it as the next steps run).
      void screenshot(`failed-${test.fullTitle()}`.slice(0, 120)).catch(() => undefined);
    });
    timeSpent(runner);
  });
}

/**
 * Where the suite's time went, printed at its end: the tests', the hooks' (which mocha's report leaves out), and the
 * slowest hooks by suite, so that a slow teardown is as easy to find as a slow test.
 */
function timeSpent(runner: Mocha.Runner): void {
  const hooks = new Map<string, number>();
  let started = 0;
  let tests = 0;
  runner.on('hook', () => (started = Date.now()));
  runner.on('hook end', (hook: Mocha.Hook) => {
    const name = `${hook.parent?.title ?? ''}: ${hook.title.replace(/^"(.*)" hook.*$/, '$1')}`;
    hooks.set(name, (hooks.get(name) ?? 0) + Date.now() - started);
  });
  runner.on('test end', (test: Mocha.Test) => (tests += test.duration ?? 0));
  runner.on('end', () => {
    const inHooks = [...hooks.values()].reduce((a, b) => a + b, 0);
    const slowest = [...hooks].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(`[time] tests ${(tests / 1000).toFixed(0)} s, hooks ${(inHooks / 1000).toFixed(0)} s; slowest hooks:`);
    for (const [name, ms] of slowest) console.log(`[time]   ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`);
  });
}
