/**
 * Well-known locations shared by the test runners (setup, headless, electron, start).
 * Everything is resolved from the repository root so the scripts work from any cwd.
 * Compiled location: out/test/runner/paths.js -> repo root is three levels up.
 */
import * as path from 'path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Git-ignored cache for code-server, user-data dirs and run logs. */
export const CACHE_DIR = path.join(REPO_ROOT, '.vscode-test');

export const CODE_SERVER_VERSION = '4.100.3';
export const CODE_SERVER_DIR = path.join(CACHE_DIR, 'code-server');
export const CODE_SERVER_PKG = path.join(CODE_SERVER_DIR, 'node_modules', 'code-server');
export const CODE_SERVER_ENTRY = path.join(CODE_SERVER_PKG, 'out', 'node', 'entry.js');
export const SETUP_STAMP = path.join(CODE_SERVER_DIR, '.token-lens-setup.json');

export const RUNS_DIR = path.join(CACHE_DIR, 'runs');
export const EXTENSIONS_DIR = path.join(CACHE_DIR, 'extensions');

export const DEFAULT_SUITE = path.join(REPO_ROOT, 'out', 'test', 'suite', 'index.js');
export const DEFAULT_WORKSPACE = path.join(REPO_ROOT, 'test', 'fixtures', 'workspace');
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'screenshots');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Marker lines exchanged between the suite (inside the extension host) and the runner. */
export const MARKERS = {
  screenshot: '[token-lens:screenshot]',
  result: '[token-lens:result]',
  /** Followed by a failed test's full title and the first line of its error; repeated at the end of the run. */
  failed: '[token-lens:failed]',
  /** Followed by the full title of the test that starts now; named when the run never ends. */
  running: '[token-lens:running]',
  /** Followed by JSON: a click on a button or keys typed in the window, done as a user would (see test/suite/util.ts ui()). */
  ui: '[token-lens:ui]',
} as const;
