/**
 * Idempotent setup for the headless extension-host tests and `npm start`:
 *
 *  1. Debian packages: chromium (the browser), and — only when code-server must be
 *     built — ripgrep plus the headers its native modules compile against; meanwhile
 *     npm downloads code-server@4.100.3 (VS Code 1.100.3) into .vscode-test/code-server/,
 *     outside the project's dependencies, without running its scripts (both are downloads).
 *  2. Seeds @vscode/ripgrep's download cache from Debian's /usr/bin/rg (offline machines), then
 *     runs the install scripts, with an `allowScripts` policy so npm 11 runs the postinstalls
 *     that build its native modules (on every core).
 *  3. Verifies the install by starting code-server once, then writes a stamp file.
 *
 * A second call with the stamp in place only checks that chromium exists (milliseconds).
 * The commands' output (apt, npm, the native builds) goes to .vscode-test/setup.log; the terminal
 * gets one line of progress, and on failure the log's tail and its path.
 * Run directly: `node out/test/runner/setup.js [--force]`.
 */
import { spawn, SpawnOptions, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { makeRunDir, prepareUserDataDir, safeTail, startCodeServer } from './codeServer';
import {
  CACHE_DIR,
  CHROMIUM_PATH,
  CODE_SERVER_DIR,
  CODE_SERVER_ENTRY,
  CODE_SERVER_PKG,
  CODE_SERVER_VERSION,
  DEFAULT_WORKSPACE,
  SETUP_STAMP,
} from './paths';

/** The browser, and fonts so that screenshots show emoji and CJK text instead of empty boxes. */
const RUNTIME_APT = ['chromium', 'fonts-dejavu-core', 'fonts-noto-color-emoji', 'fonts-wqy-microhei'];
const BUILD_APT = ['ripgrep', 'libkrb5-dev', 'libx11-dev', 'libxkbfile-dev', 'libsecret-1-dev', 'pkg-config', 'g++', 'make', 'python3'];

const RIPGREP_CACHE_VERSION = '1.15.11';
const RIPGREP_ASSET = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';

/** Dependencies (by package name) whose install scripts must run, per package.json. */
const ALLOW_SCRIPTS: Record<string, string[]> = {
  // .vscode-test/code-server/package.json
  '.': ['code-server', 'argon2'],
  // code-server's postinstall runs `npm install` in these two folders.
  'node_modules/code-server/lib/vscode': [
    '@parcel/watcher',
    '@vscode/deviceid',
    '@vscode/ripgrep',
    '@vscode/spdlog',
    '@vscode/windows-ca-certs',
    '@vscode/windows-process-tree',
    '@vscode/windows-registry',
    'kerberos',
    'native-watchdog',
    'node-pty',
  ],
  'node_modules/code-server/lib/vscode/extensions': ['@parcel/watcher', 'esbuild'],
};

interface Stamp {
  codeServer: string;
  nodeAbi: string;
  platform: string;
  installedAt: string;
}

export const SETUP_LOG = path.join(CACHE_DIR, 'setup.log');

const STEPS = ['downloading Debian packages and code-server', 'building its native modules', 'starting it once'] as const;

/**
 * One line on the terminal: the step and the time it has taken (rewritten in place every second on
 * a terminal; one line per step otherwise, as in CI logs).
 */
class Progress {
  private readonly started = Date.now();
  private line = '';
  private timer: NodeJS.Timeout | undefined;

  step(name: (typeof STEPS)[number]): void {
    this.line = `[setup] Installing VS Code (code-server ${CODE_SERVER_VERSION}) for npm start and the tests, once: ${STEPS.indexOf(name) + 1}/${STEPS.length} ${name}…`;
    if (!process.stdout.isTTY) {
      process.stdout.write(`${this.line} (at ${this.seconds()} s)\n`);
      return;
    }
    this.render();
    this.timer ??= setInterval(() => this.render(), 1000);
  }

  private render(): void {
    process.stdout.write(`\r\x1b[K${this.line} ${this.seconds()} s`);
  }

  seconds(): number {
    return Math.round((Date.now() - this.started) / 1000);
  }

  end(message: string): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    process.stdout.write(`${process.stdout.isTTY ? '\r\x1b[K' : ''}[setup] ${message}\n`);
  }
}

/** Runs a command with its output appended to the setup log; rejects when it fails. */
function run(cmd: string, args: string[], opts: SpawnOptions = {}): Promise<void> {
  fs.appendFileSync(SETUP_LOG, `\n$ ${cmd} ${args.join(' ')}${opts.cwd ? `   (in ${opts.cwd})` : ''}\n`);
  const out = fs.openSync(SETUP_LOG, 'a');
  return new Promise<void>((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', out, out] });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}`)),
    );
  }).finally(() => fs.closeSync(out));
}

function commandExists(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function missingDebPackages(pkgs: string[]): string[] {
  if (!commandExists('dpkg-query')) return [];
  return pkgs.filter((p) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' });
    return r.status !== 0 || !/install ok installed/.test(r.stdout);
  });
}

async function ensureAptPackages(pkgs: string[]): Promise<void> {
  const missing = missingDebPackages(pkgs);
  if (missing.length === 0) return;
  if (!commandExists('apt-get')) {
    throw new Error(`Missing packages ${missing.join(', ')} and no apt-get to install them; install them by hand.`);
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const prefix = isRoot ? [] : commandExists('sudo') ? ['sudo', '-E'] : null;
  if (!prefix) throw new Error(`Missing packages ${missing.join(', ')}; run as root or install sudo.`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (...args: string[]) => {
    const argv = [...prefix, 'apt-get', ...args];
    return run(argv[0]!, argv.slice(1), { env });
  };
  fs.appendFileSync(SETUP_LOG, `installing Debian packages: ${missing.join(' ')}\n`);
  await apt('update', '-q');
  await apt('install', '-y', '-q', '--no-install-recommends', ...missing);
}

/** @vscode/ripgrep's postinstall uses this cached asset instead of downloading from GitHub. */
async function seedRipgrepCache(): Promise<void> {
  const dir = path.join(os.tmpdir(), `vscode-ripgrep-cache-${RIPGREP_CACHE_VERSION}`);
  const asset = path.join(dir, RIPGREP_ASSET);
  if (fs.existsSync(asset) && fs.statSync(asset).size > 0) return;
  const rg = ['/usr/bin/rg', '/usr/local/bin/rg'].find((p) => fs.existsSync(p));
  if (!rg) throw new Error('ripgrep (rg) not found; install the Debian package `ripgrep`.');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rg-seed-'));
  try {
    fs.copyFileSync(rg, path.join(tmp, 'rg'));
    fs.chmodSync(path.join(tmp, 'rg'), 0o755);
    fs.mkdirSync(dir, { recursive: true });
    await run('tar', ['-C', tmp, '-czf', `${asset}.partial`, 'rg']);
    fs.renameSync(`${asset}.partial`, asset);
    fs.appendFileSync(SETUP_LOG, `seeded ripgrep cache ${asset} from ${rg}\n`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function setAllowScripts(pkgJsonPath: string, names: string[]): void {
  const pkg = JSON.parse(fs.readFileSync(pkgJsonPath, 'utf8'));
  pkg.allowScripts = { ...(pkg.allowScripts ?? {}), ...Object.fromEntries(names.map((n) => [n, true])) };
  fs.writeFileSync(pkgJsonPath, JSON.stringify(pkg, null, 2) + '\n');
}

function readStamp(): Stamp | undefined {
  try {
    return JSON.parse(fs.readFileSync(SETUP_STAMP, 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
}

function stampIsValid(): boolean {
  const s = readStamp();
  return (
    !!s &&
    s.codeServer === CODE_SERVER_VERSION &&
    s.nodeAbi === process.versions.modules &&
    s.platform === `${process.platform}-${process.arch}` &&
    fs.existsSync(CODE_SERVER_ENTRY)
  );
}

/** Writes .vscode-test/code-server/package.json and returns the environment its npm commands run in. */
function prepareCodeServerDir(): NodeJS.ProcessEnv {
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== 20) {
    throw new Error(`code-server@${CODE_SERVER_VERSION} needs Node 20; this is Node ${process.versions.node}.`);
  }
  fs.rmSync(CODE_SERVER_DIR, { recursive: true, force: true });
  fs.mkdirSync(CODE_SERVER_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(CODE_SERVER_DIR, 'package.json'),
    JSON.stringify(
      {
        name: 'token-lens-code-server-cache',
        private: true,
        description: 'code-server for the Token Lens headless tests; generated by test/runner/setup.ts',
        dependencies: { 'code-server': CODE_SERVER_VERSION },
      },
      null,
      2,
    ) + '\n',
  );
  setAllowScripts(path.join(CODE_SERVER_DIR, 'package.json'), ALLOW_SCRIPTS['.']!);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_unsafe_perm: 'true', // code-server's postinstall refuses root otherwise
    npm_config_yes: 'true', // node-pty's postinstall runs `npx node-gyp`
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    JOBS: 'max', // node-gyp compiles each native module on every core
  };
  // Offline node-gyp: use the installed Node headers rather than downloading them.
  if (!process.env.npm_config_nodedir && fs.existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';
  // npm scripts export npm_config_* of the outer project; don't let them leak into this install.
  delete env.npm_config_prefix;
  delete env.npm_config_global;
  delete env.npm_config_local_prefix;
  delete env.npm_package_json;
  delete env.INIT_CWD;
  return env;
}

/** Fetches the package tree without running anything. */
async function downloadCodeServer(env: NodeJS.ProcessEnv): Promise<void> {
  await run('npm', ['install', '--ignore-scripts', '--no-package-lock', '--loglevel=error'], { cwd: CODE_SERVER_DIR, env });
  // code-server's postinstall runs `npm install` inside lib/vscode and
  // lib/vscode/extensions; give those package.json files their allowScripts too.
  for (const [rel, names] of Object.entries(ALLOW_SCRIPTS)) {
    if (rel !== '.') setAllowScripts(path.join(CODE_SERVER_DIR, rel, 'package.json'), names);
  }
}

/** Runs the allowed install scripts (argon2, code-server -> VS Code's native modules). */
async function buildCodeServer(env: NodeJS.ProcessEnv): Promise<void> {
  await seedRipgrepCache();
  await run('npm', ['rebuild', '--foreground-scripts', '--loglevel=error'], { cwd: CODE_SERVER_DIR, env });

  const rgBin = path.join(CODE_SERVER_PKG, 'lib', 'vscode', 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg');
  const pty = path.join(CODE_SERVER_PKG, 'lib', 'vscode', 'node_modules', 'node-pty', 'build', 'Release', 'pty.node');
  for (const f of [CODE_SERVER_ENTRY, rgBin, pty]) {
    if (!fs.existsSync(f)) throw new Error(`code-server install is incomplete: ${f} is missing`);
  }
}

async function verifyCodeServer(): Promise<void> {
  const runDir = makeRunDir('verify');
  try {
    const userDataDir = path.join(runDir, 'user-data');
    prepareUserDataDir(userDataDir);
    const server = await startCodeServer({
      workspace: fs.existsSync(DEFAULT_WORKSPACE) ? DEFAULT_WORKSPACE : os.tmpdir(),
      userDataDir,
      logFile: path.join(runDir, 'code-server.log'),
    });
    await server.stop();
    fs.appendFileSync(SETUP_LOG, `verified: code-server ${CODE_SERVER_VERSION} answers on 127.0.0.1\n`);
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

/** Both are downloads: code-server's package tree comes while apt installs (its build needs apt's packages). */
async function aptAndDownload(installing: boolean): Promise<NodeJS.ProcessEnv | undefined> {
  const env = installing ? prepareCodeServerDir() : undefined;
  const [apt, download] = await Promise.allSettled([
    ensureAptPackages(installing ? [...RUNTIME_APT, ...BUILD_APT] : RUNTIME_APT),
    env ? downloadCodeServer(env) : undefined,
  ]);
  for (const r of [apt, download]) if (r.status === 'rejected') throw r.reason;
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (set CHROMIUM_PATH to override).`);
  return env;
}

export async function ensureSetup(options: { force?: boolean } = {}): Promise<void> {
  const installing = options.force || !stampIsValid();
  const progress = new Progress();
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const aptNeeded = installing || missingDebPackages(RUNTIME_APT).length > 0;
  if (aptNeeded) fs.writeFileSync(SETUP_LOG, `# ${new Date().toISOString()} test/runner/setup.ts\n`);
  try {
    if (aptNeeded) progress.step('downloading Debian packages and code-server');
    if (installing) fs.rmSync(SETUP_STAMP, { force: true });
    const env = await aptAndDownload(installing);
    if (!env) {
      if (aptNeeded) progress.end(`Debian packages installed in ${progress.seconds()} s`);
      return;
    }
    progress.step('building its native modules');
    await buildCodeServer(env);
    progress.step('starting it once');
    await verifyCodeServer();
  } catch (err) {
    progress.end(`FAILED: ${(err as Error).message}`);
    if (fs.existsSync(SETUP_LOG))
      process.stderr.write(
        `[setup] last lines of ${path.relative(process.cwd(), SETUP_LOG)}:\n${safeTail(SETUP_LOG, 30)}\n[setup] full log: ${SETUP_LOG}\n`,
      );
    throw new Error(`setup failed: ${(err as Error).message} (log: ${SETUP_LOG})`, { cause: err });
  }
  const stamp: Stamp = {
    codeServer: CODE_SERVER_VERSION,
    nodeAbi: process.versions.modules,
    platform: `${process.platform}-${process.arch}`,
    installedAt: new Date().toISOString(),
  };
  fs.writeFileSync(SETUP_STAMP, JSON.stringify(stamp, null, 2) + '\n');
  progress.end(
    `VS Code (code-server ${CODE_SERVER_VERSION}) installed in ${progress.seconds()} s (log ${path.relative(process.cwd(), SETUP_LOG)})`,
  );
}

if (require.main === module) {
  ensureSetup({ force: process.argv.includes('--force') }).catch((err) => {
    console.error(`[setup] ${(err as Error).message}`);
    process.exit(1);
  });
}
