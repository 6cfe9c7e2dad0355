/**
 * `npm test`: every check, in lanes that run side by side, one lane per core.
 *
 *   node out/test/runner/all.js [--serial] [--only NAME,NAME…]
 *
 * The extension-host suites spend much of their time waiting for the window (a page to load, a view to draw),
 * so they share the machine with the CPU-bound checks: one lane runs the unit tests, the longest task, from the
 * start; the other type-checks and lints, then runs the suites in the real VS Code. Each task writes its output to
 * test-results/logs/NAME.log; the log is printed whole when the task ends (so lanes never interleave), a line every
 * minute says what is still running, and a table at the end gives each task's result and time, then the lines of
 * the failed tasks' logs that name what failed (CI may show only the end of the output). A failed task does
 * not stop the others: one run says everything that is wrong. --serial runs the tasks one after another (to measure
 * them, or on a busy machine); --only runs the named tasks (typecheck, lint, unit, host, restricted, reload, web) in
 * their lanes.
 *
 * The editor suites need VS Code (code-server) and Chromium, which a fresh clone installs first (test/runner/setup.ts,
 * a minute or two, mostly downloads and native builds): that setup starts at once, beside both lanes, while the editor
 * lane type-checks and lints, so the host suite finds it ready. A lane that runs out of tasks takes the other lane's
 * last waiting one, so neither idles while the other still has a queue.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { REPO_ROOT } from './paths';

interface Task {
  readonly name: string;
  readonly command: readonly string[];
  /** Runs once setup has installed code-server and Chromium. */
  readonly editor?: boolean;
}

interface Outcome {
  readonly task: Task;
  readonly ok: boolean;
  readonly seconds: number;
  /** What the task's log says failed, for the summary (CI may show only the end of the output). */
  readonly failures: readonly string[];
}

const LOG_DIR = path.join(REPO_ROOT, 'test-results', 'logs');
const headless = (...args: string[]): string[] => ['node', 'out/test/runner/headless.js', ...args];

/** Unit files run side by side too when the machine has cores to spare beyond the two lanes. */
function unitConcurrency(lanes: number): number {
  return Math.max(1, os.availableParallelism() - lanes + 1);
}

const SETUP: Task = { name: 'setup', command: ['node', 'out/test/runner/setup.js'] };

function lanes(serial: boolean): Task[][] {
  const typecheck: Task = { name: 'typecheck', command: ['npm', 'run', '-s', 'typecheck'] };
  const lint: Task = { name: 'lint', command: ['npm', 'run', '-s', 'lint'] };
  const unit: Task = {
    name: 'unit',
    command: ['node', '--test', `--test-concurrency=${unitConcurrency(serial ? 1 : 2)}`, 'out/test/unit/'],
  };
  const editor: Task[] = [
    { name: 'host', command: headless(), editor: true },
    { name: 'restricted', command: headless('--suite', 'out/test/restricted', '--untrusted'), editor: true },
    { name: 'reload', command: headless('--suite', 'out/test/reload'), editor: true },
    // Its two files side by side: one waits for code-server's window, the other counts in a browser worker.
    { name: 'web', command: ['node', '--test', '--test-concurrency=2', 'out/test/web/'], editor: true },
  ];
  return serial ? [[typecheck, lint, unit, ...editor]] : [[unit], [typecheck, lint, ...editor]];
}

/** Beside the CPU-bound lane, the editor suites' waits are stretched (test/support/patience.ts). */
const SHARED_WAIT_SCALE = '3';

/**
 * The lanes' environment: waits stretched when they share the machine, and a temporary folder of this run's own
 * (TMPDIR, which os.tmpdir() and Chromium read), removed at the end, so the files the tests make there do not pile up.
 */
function laneEnv(shared: boolean, scratch: string): NodeJS.ProcessEnv {
  return { ...process.env, TMPDIR: scratch, ...(shared ? { TOKEN_LENS_WAIT_SCALE: SHARED_WAIT_SCALE } : {}) };
}

function runTask(task: Task, running: Map<string, number>, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const log = path.join(LOG_DIR, `${task.name}.log`);
  const out = fs.openSync(log, 'w');
  const started = Date.now();
  running.set(task.name, started);
  return new Promise((resolve) => {
    const [command, ...args] = task.command;
    const child = spawn(command!, args, { cwd: REPO_ROOT, stdio: ['ignore', out, out], env });
    const finish = (ok: boolean, why?: string): void => {
      running.delete(task.name);
      fs.closeSync(out);
      const seconds = (Date.now() - started) / 1000;
      const text = fs.readFileSync(log, 'utf8');
      process.stdout.write(`\n::: ${task.name} (${task.command.join(' ')})\n${text}${text.endsWith('\n') ? '' : '\n'}`);
      process.stdout.write(`::: ${task.name}: ${ok ? 'passed' : `FAILED${why ? ` (${why})` : ''}`} in ${seconds.toFixed(0)} s\n`);
      resolve({ task, ok, seconds, failures: ok ? [] : failureLines(text) });
    };
    child.on('error', (error) => finish(false, error.message));
    child.on('exit', (code, signal) => finish(code === 0, signal ? `signal ${signal}` : code ? `exit ${code}` : undefined));
  });
}

/**
 * Runs its own queue, then the other lanes' last waiting tasks (the queues are shared and emptied as tasks start).
 * An editor task waits for setup and is not run when setup failed.
 */
async function runLane(
  own: Task[],
  all: Task[][],
  setup: Promise<Outcome> | undefined,
  running: Map<string, number>,
  env: NodeJS.ProcessEnv,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let task = own.shift(); task; task = own.shift() ?? all.find((queue) => queue.length > 0)?.pop()) {
    const ready = task.editor && setup ? await setup : undefined;
    if (ready && !ready.ok) {
      process.stdout.write(`::: ${task.name}: FAILED (setup failed) in 0 s\n`);
      outcomes.push({ task, ok: false, seconds: 0, failures: [] });
    } else outcomes.push(await runTask(task, running, env));
  }
  return outcomes;
}

function heartbeat(running: Map<string, number>): NodeJS.Timeout {
  return setInterval(() => {
    const now = Date.now();
    const what = [...running].map(([name, started]) => `${name} ${Math.round((now - started) / 1000)} s`).join(', ');
    if (what) process.stdout.write(`::: still running: ${what}\n`);
  }, 60_000);
}

/**
 * The lines of a log that name a failure: node --test's, the editor runner's, tsc's, ESLint's (with the file lines
 * it prints above its errors) and Prettier's.
 */
const FAILURE_LINE =
  /^\s*(?:✖|not ok\b)|\[runner\] (?:failed:|FAILED:|the last test to start)|error TS\d+:|^\s+\d+:\d+\s+error\s|^\[warn\] |^\/\S+\.[cm]?[jt]s$/;
const MAX_FAILURE_LINES = 12;

function failureLines(log: string): string[] {
  const lines = log.split('\n').filter((line) => FAILURE_LINE.test(line));
  const found = [...new Set(lines.map((line) => line.trim().slice(0, 240)))];
  return found.length > MAX_FAILURE_LINES
    ? [...found.slice(0, MAX_FAILURE_LINES), `… and ${found.length - MAX_FAILURE_LINES} more`]
    : found;
}

function summary(outcomes: readonly Outcome[], seconds: number): string {
  const rows = outcomes.map((o) => `  ${o.ok ? 'pass' : 'FAIL'}  ${o.task.name.padEnd(11)}${o.seconds.toFixed(0).padStart(5)} s`);
  const failed = outcomes.filter((o) => !o.ok).map((o) => o.task.name);
  const verdict = failed.length ? `FAILED: ${failed.join(', ')} (logs in ${path.relative(REPO_ROOT, LOG_DIR)}/)` : 'all passed';
  const why = outcomes.flatMap((o) => o.failures.map((line) => `  ${o.task.name}: ${line}`));
  return `\n::: npm test: ${verdict} in ${seconds.toFixed(0)} s\n${[...rows, ...why].join('\n')}\n`;
}

function optionValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<void> {
  const serial = process.argv.includes('--serial');
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const started = Date.now();
  const running = new Map<string, number>();
  const beat = heartbeat(running);
  const only = optionValue('--only')?.split(',');
  const plan = lanes(serial)
    .map((lane) => lane.filter((task) => !only || only.includes(task.name)))
    .filter((lane) => lane.length > 0);
  const needsSetup = plan.some((lane) => lane.some((task) => task.editor));
  process.stdout.write(
    `::: npm test: ${needsSetup ? `${SETUP.name} beside ` : ''}${plan.map((lane) => lane.map((t) => t.name).join(' → ')).join('  |  ')}\n`,
  );
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-tests-'));
  const env = laneEnv(plan.length > 1, scratch);
  // Setup keeps the machine's TMPDIR: its ripgrep cache there outlives the run.
  const setup = needsSetup ? runTask(SETUP, running, process.env) : undefined;
  if (serial) await setup; // one task at a time, so each is timed alone
  const outcomes = (await Promise.all(plan.map((lane) => runLane(lane, plan, setup, running, env)))).flat();
  if (setup) outcomes.unshift(await setup);
  clearInterval(beat);
  fs.rmSync(scratch, { recursive: true, force: true });
  process.stdout.write(summary(outcomes, (Date.now() - started) / 1000));
  process.exitCode = outcomes.every((o) => o.ok) ? 0 : 1;
}

void main();
