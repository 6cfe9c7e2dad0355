/**
 * Run the extension-host suite in desktop VS Code through @vscode/test-electron.
 * Needs internet (downloads VS Code into .vscode-test/) and a display; on a Linux machine
 * without one, wrap it: `xvfb-run -a npm run test:electron`.
 *
 *   node out/test/runner/electron.js [--suite out/test/suite/index.js]
 *        [--workspace test/fixtures/workspace] [--vscode-version 1.100.3|stable|insiders]
 *        [--grep REGEXP]
 *
 * Screenshots requested with screenshot('name') are skipped in this mode (the helper logs
 * that and returns undefined); only the headless runner can capture the window.
 */
import * as fs from 'fs';
import * as path from 'path';
import { runTests } from '@vscode/test-electron';
import { makeRunDir, prepareUserDataDir } from './codeServer';
import { DEFAULT_SUITE, DEFAULT_WORKSPACE, EXTENSIONS_DIR, REPO_ROOT } from './paths';

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  let suite = DEFAULT_SUITE;
  let workspace = DEFAULT_WORKSPACE;
  let version = '1.100.3';
  let grep: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${argv[i - 1]} needs a value`);
      return v;
    };
    switch (argv[i]) {
      case '--suite':
        suite = path.resolve(next());
        break;
      case '--workspace':
        workspace = path.resolve(next());
        break;
      case '--vscode-version':
        version = next();
        break;
      case '--grep':
        grep = next();
        break;
      default:
        throw new Error(`Unknown argument ${argv[i]}`);
    }
  }
  if (fs.existsSync(suite) && fs.statSync(suite).isDirectory()) suite = path.join(suite, 'index.js');
  if (!fs.existsSync(suite)) throw new Error(`Suite not found: ${suite} (run npm run build:tests)`);
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    console.warn('[electron] no DISPLAY: run `xvfb-run -a npm run test:electron`, or use the headless runner (`npm test`).');
  }

  const runDir = makeRunDir('electron');
  const userDataDir = path.join(runDir, 'user-data');
  prepareUserDataDir(userDataDir);
  try {
    const code = await runTests({
      version,
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: suite,
      launchArgs: [
        workspace,
        `--user-data-dir=${userDataDir}`,
        `--extensions-dir=${EXTENSIONS_DIR}`,
        '--disable-extensions', // other installed extensions; the one under development still loads
        '--disable-telemetry',
      ],
      extensionTestsEnv: {
        ...(grep ? { TOKEN_LENS_TEST_GREP: grep } : {}),
      },
    });
    console.log(`[electron] VS Code exited with code ${code}`);
    return code;
  } catch (err) {
    // runTests rejects (TestRunFailedError) when VS Code exits non-zero, i.e. a test failed.
    console.error(`[electron] ${(err as Error).message}`);
    return 1;
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`[electron] ${(err as Error).message}`);
    process.exit(1);
  },
);
