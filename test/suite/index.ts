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

const RESULT_MARKER = '[token-lens:result]';

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
        console.log(`${RESULT_MARKER} ${passed} passed, ${failed} failed`);
        if (failed > 0) reject(new Error(`${failed} extension-host test(s) failed`));
        else if (passed === 0) reject(new Error('no extension-host test ran'));
        else resolve();
      });
    } catch (err) {
      // e.g. a syntax/runtime error while requiring a test file
      console.error('Failed to load the extension-host tests:', err);
      console.log(`${RESULT_MARKER} 0 passed, 1 failed`);
      reject(err);
      return;
    }
    runner.on('pass', () => passed++);
    runner.on('fail', () => failed++);
  });
}
