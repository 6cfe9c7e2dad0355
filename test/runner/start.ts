/**
 * `npm start`: open Token Lens in development mode in the real VS Code served by
 * code-server, on 127.0.0.1, with the sample workspace. Nothing else to install: the
 * first run sets up code-server (and Chromium, used by the tests) via setup.ts.
 *
 *   node out/test/runner/start.js [--port 8080] [--workspace DIR]
 *
 * Open the printed URL in a browser: a short address on --port that redirects to the workbench URL
 * code-server needs (its query carries the development path), served from another free port.
 * After changing the code, run `npm run build` and reload the browser tab (Developer: Reload Window)
 * to pick it up. Ctrl+C stops the server, also while it is starting.
 * Settings and state persist in .vscode-test/start-user-data/ between runs.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as path from 'path';
import { CodeServer, freePort, startCodeServer, workbenchUrl, TEST_USER_SETTINGS } from './codeServer';
import { CACHE_DIR, DEFAULT_WORKSPACE, REPO_ROOT } from './paths';
import { ensureSetup } from './setup';

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * The settings of the npm start window: the test settings, and the built-in local service, so that a
 * newcomer's first Relax works with no account and no other step. Settings a user changed since are kept;
 * the service is only switched on where no service was chosen.
 */
function writeStartSettings(file: string): void {
  let settings: Record<string, unknown>;
  if (fs.existsSync(file)) {
    try {
      settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      return; // edited by hand (comments): left as it is
    }
  } else {
    const { 'window.restoreWindows': _ignored, ...defaults } = TEST_USER_SETTINGS;
    settings = defaults;
  }
  if (settings['tokenLens.service.baseUrl'] === undefined && settings['tokenLens.service.builtin'] === undefined)
    settings['tokenLens.service.builtin'] = true;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
}

/** The short URL: every request is sent on to code-server, `/` to the workbench with the extension. */
function startRedirect(port: number, workbench: string, baseUrl: string): Promise<http.Server> {
  const redirect = http.createServer((req, res) => {
    res.writeHead(302, { Location: req.url === '/' ? workbench : `${baseUrl}${req.url ?? '/'}` });
    res.end();
  });
  return new Promise((resolve, reject) => {
    redirect.once('error', reject);
    redirect.listen(port, '127.0.0.1', () => resolve(redirect));
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const argv = process.argv.slice(2);
  let port = 8080;
  let workspace = DEFAULT_WORKSPACE;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port') port = Number(argv[++i]);
    else if (argv[i] === '--workspace') workspace = path.resolve(argv[++i] ?? '.');
    else throw new Error(`Unknown argument ${argv[i]} (use --port N, --workspace DIR)`);
  }
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist', 'extension.js'))) {
    console.warn('[start] dist/extension.js is missing: run `npm run build` (npm start does it for you).');
  }
  await ensureSetup();
  if (!(await portIsFree(port))) {
    const taken = port;
    port = await freePort();
    console.log(`[start] port ${taken} is busy, using ${port}`);
  }
  console.log('[start] Starting VS Code (code-server) with Token Lens in development mode…');

  const stateDir = path.join(CACHE_DIR, 'start');
  const userDataDir = path.join(CACHE_DIR, 'start-user-data');
  writeStartSettings(path.join(userDataDir, 'User', 'settings.json'));

  let starting: Promise<CodeServer> | undefined;
  let redirect: http.Server | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    stopping = true;
    redirect?.close();
    // Ctrl+C while code-server is still starting must not leave it running.
    await starting?.then((s) => s.stop()).catch(() => undefined);
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  starting = startCodeServer({
    workspace,
    userDataDir,
    logFile: path.join(stateDir, 'code-server.log'),
  });
  const server = await starting;
  const url = workbenchUrl(server, { workspace, extensionDevelopmentPath: REPO_ROOT });
  redirect = await startRedirect(port, url, server.baseUrl);
  console.log(`  Workspace: ${path.relative(process.cwd(), workspace) || workspace}`);
  console.log(`  Log:       ${path.relative(process.cwd(), server.logFile)}`);
  console.log('  After `npm run build`, run "Developer: Reload Window" in the page. Ctrl+C stops.');
  console.log(`Ready in ${Math.round((Date.now() - started) / 1000)} s: http://127.0.0.1:${port}/`);
  const code = await server.exited;
  if (stopping) return;
  console.error(`[start] code-server exited (code ${code}); see ${server.logFile}`);
  await stop(code ?? 1);
}

main().catch((err) => {
  console.error(`[start] ${(err as Error).message}`);
  process.exit(1);
});
