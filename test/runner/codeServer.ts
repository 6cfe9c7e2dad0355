/**
 * Start / stop the real VS Code that code-server serves, and build workbench URLs.
 *
 * code-server's CLI rejects --extensionDevelopmentPath / --extensionTestsPath; the web
 * workbench reads them from the `payload` query parameter instead (see workbenchUrl).
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as path from 'path';
import { CODE_SERVER_ENTRY, EXTENSIONS_DIR, RUNS_DIR } from './paths';

export interface CodeServerOptions {
  /** Folder opened by default. */
  workspace: string;
  /** Fresh directory for this run's user data (settings, state, logs). */
  userDataDir: string;
  extensionsDir?: string;
  /** 0 or undefined = pick a free port. */
  port?: number;
  /** Extra environment for code-server (inherited by the extension host). */
  env?: NodeJS.ProcessEnv;
  /** Where code-server's own stdout/stderr go. */
  logFile: string;
  /** Also echo code-server output to our stderr. */
  echo?: boolean;
  /** Leave workspace trust on (code-server's default), so a folder can open in Restricted Mode. */
  workspaceTrust?: boolean;
  /** The port an extension host's inspector opens on when sent SIGUSR1 (see stack.ts); none when unset. */
  inspectPort?: number;
}

export interface CodeServer {
  port: number;
  baseUrl: string;
  process: ChildProcess;
  logFile: string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
  /**
   * Resolves, saying how, when an extension host dies (a non-zero exit code or a signal: killed for memory, crashed).
   * A suite in it can then never report, so the runner stops at once instead of waiting out its time limit.
   */
  extensionHostDied: Promise<string>;
  /** The process id of the extension host launched last, once one has been. */
  extensionHostPid(): number | undefined;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function httpStatus(url: string, timeoutMs = 2000): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => {
      req.destroy();
      resolve(0);
    });
    req.on('error', () => resolve(0));
  });
}

/** User settings that keep a test window quiet and deterministic. */
export const TEST_USER_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.openRepositoryInParentFolders': 'never',
  'git.autoRepositoryDetection': false,
  'chat.commandCenter.enabled': false,
  'window.restoreWindows': 'none',
  'files.hotExit': 'off',
  'editor.minimap.enabled': false,
};

/** With these, the folder opens in Restricted Mode: trust is on, nothing trusted yet, and no startup dialog asks. */
export const UNTRUSTED_USER_SETTINGS: Record<string, unknown> = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.emptyWindow': false,
};

export function prepareUserDataDir(dir: string, extraSettings: Record<string, unknown> = {}): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'User', 'settings.json'), JSON.stringify({ ...TEST_USER_SETTINGS, ...extraSettings }, null, 2) + '\n');
}

/** A per-process run directory under .vscode-test/runs; old ones from dead processes are pruned. */
export function makeRunDir(kind: string): string {
  fs.mkdirSync(RUNS_DIR, { recursive: true });
  for (const name of fs.readdirSync(RUNS_DIR)) {
    const pid = Number(name.split('-').pop());
    if (!pid || pid === process.pid) continue;
    let alive: boolean;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {
      alive = false;
    }
    if (!alive) fs.rmSync(path.join(RUNS_DIR, name), { recursive: true, force: true });
  }
  const dir = path.join(RUNS_DIR, `${kind}-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  if (!fs.existsSync(CODE_SERVER_ENTRY)) {
    throw new Error(`code-server is not installed at ${CODE_SERVER_ENTRY}; run setup first`);
  }
  const port = opts.port || (await freePort());
  const extensionsDir = opts.extensionsDir ?? EXTENSIONS_DIR;
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  // An empty config file so code-server does not create ~/.config/code-server/config.yaml.
  const configFile = path.join(path.dirname(opts.logFile), 'code-server-config.yaml');
  fs.writeFileSync(configFile, '# generated by test/runner/codeServer.ts\nauth: none\n');

  const args = [
    CODE_SERVER_ENTRY,
    '--config',
    configFile,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    opts.userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    opts.workspace,
  ];
  const log = fs.createWriteStream(opts.logFile);
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      // Keep code-server's own config and logs (coder-logs) out of $HOME.
      XDG_CONFIG_HOME: path.join(path.dirname(opts.logFile), 'xdg-config'),
      XDG_DATA_HOME: path.join(path.dirname(opts.logFile), 'xdg-data'),
      // code-server lets $PORT override --bind-addr; npm start reads PORT for its own short URL.
      PORT: undefined,
      ...(opts.inspectPort
        ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect-port=127.0.0.1:${opts.inspectPort}`.trim() }
        : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group, so stop() can take down the extension host too
  });
  let reportDeath!: (how: string) => void;
  const extensionHostDied = new Promise<string>((r) => (reportDeath = r));
  const hosts = watchExtensionHosts(reportDeath);
  const onData = (lines: (chunk: Buffer) => void) => (chunk: Buffer) => {
    log.write(chunk);
    lines(chunk);
    if (opts.echo) process.stderr.write(chunk);
  };
  child.stdout.on('data', onData(hosts.reader()));
  child.stderr.on('data', onData(hosts.reader()));
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.on('error', () => resolve(-1));
  });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      killGroup(child.pid, 'SIGTERM');
      const done = await Promise.race([exited.then(() => true), delay(5000).then(() => false)]);
      if (!done) killGroup(child.pid, 'SIGKILL');
      await Promise.race([exited, delay(2000)]);
    }
    // Children (extension host, pty host, file watcher) share the process group.
    if (child.pid) killGroup(child.pid, 'SIGKILL');
    log.end();
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  let dead = false;
  void exited.then(() => (dead = true));
  while (Date.now() < deadline) {
    if (dead) break;
    if ((await httpStatus(`${baseUrl}/healthz`)) === 200) {
      return { port, baseUrl, process: child, logFile: opts.logFile, exited, extensionHostDied, extensionHostPid: hosts.latest, stop };
    }
    await delay(250);
  }
  await stop();
  const tail = safeTail(opts.logFile, 40);
  throw new Error(`code-server did not answer on ${baseUrl} (${dead ? 'it exited' : 'timeout'}). Log ${opts.logFile}:\n${tail}`);
}

/**
 * Reads code-server's output for its lines on extension hosts: which was launched last, and whether one died (a clean
 * exit, code 0 and no signal, is the window closing or reloading).
 */
function watchExtensionHosts(reportDeath: (how: string) => void): {
  reader(): (chunk: Buffer) => void;
  latest(): number | undefined;
} {
  let latest: number | undefined;
  const onLine = (line: string) => {
    const launched = /<(\d+)> Launched Extension Host Process/.exec(line);
    if (launched) latest = Number(launched[1]);
    const exit = /<(\d+)> Extension Host Process exited with code: (\S+), signal: (\S+?)\.?$/.exec(line.trim());
    if (!exit) return;
    if (Number(exit[1]) === latest) latest = undefined; // its pid may be reused by another process
    if (exit[2] !== '0' || exit[3] !== 'null') reportDeath(`the extension host died (exit code ${exit[2]}, signal ${exit[3]})`);
  };
  /** A line splitter for one stream (stdout and stderr each keep their own partial line). */
  const reader = () => {
    let pending = '';
    return (chunk: Buffer) => {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = (lines.pop() ?? '').slice(-4096);
      lines.forEach(onLine);
    };
  };
  return { reader, latest: () => latest };
}

/**
 * Installs a .vsix into `extensionsDir` with code-server's own CLI, as a user's
 * `code-server --install-extension` would; returns the installed extension's folder.
 */
export function installExtension(vsix: string, extensionsDir: string, userDataDir: string, logFile: string): string {
  fs.mkdirSync(extensionsDir, { recursive: true });
  const r = spawnSync(
    process.execPath,
    [
      CODE_SERVER_ENTRY,
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      userDataDir,
      '--install-extension',
      path.resolve(vsix),
      '--force',
    ],
    {
      encoding: 'utf8',
      env: {
        ...process.env,
        XDG_CONFIG_HOME: path.join(path.dirname(logFile), 'xdg-config'),
        XDG_DATA_HOME: path.join(path.dirname(logFile), 'xdg-data'),
      },
      timeout: 120_000,
    },
  );
  fs.writeFileSync(logFile, `${r.stdout ?? ''}${r.stderr ?? ''}`);
  const installed = fs.existsSync(extensionsDir)
    ? fs.readdirSync(extensionsDir).filter((d) => fs.existsSync(path.join(extensionsDir, d, 'package.json')))
    : [];
  if (r.status !== 0 || installed.length !== 1) {
    throw new Error(
      `installing ${vsix} failed (exit ${r.status ?? r.signal}, ${installed.length} extension(s) in ${extensionsDir}):\n${safeTail(logFile, 20)}`,
    );
  }
  return path.join(extensionsDir, installed[0]!);
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

export function safeTail(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export interface WorkbenchUrlOptions {
  workspace: string;
  extensionDevelopmentPath?: string;
  extensionTestsPath?: string;
}

/**
 * The workbench URL, with development/test paths passed through `payload`
 * (the web equivalent of --extensionDevelopmentPath / --extensionTestsPath).
 */
export function workbenchUrl(server: { baseUrl: string; port: number }, opts: WorkbenchUrlOptions): string {
  const remote = (p: string) => `vscode-remote://127.0.0.1:${server.port}${toPosix(path.resolve(p))}`;
  const payload: [string, string][] = [];
  if (opts.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(opts.extensionDevelopmentPath)]);
  if (opts.extensionTestsPath) payload.push(['extensionTestsPath', remote(opts.extensionTestsPath)]);
  payload.push(['skipWelcome', 'true']);
  const folder = toPosix(path.resolve(opts.workspace));
  return `${server.baseUrl}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
