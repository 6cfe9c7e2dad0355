/**
 * VASP outputs, for `npm run bench -- --only=vasp`:
 *
 * - vasprun.xml: a ~200 MB file made by repeating the <calculation> blocks of a real one (pymatgen's test
 *   file vasprun.xml from Debian's pymatgen-test-files, MIT; written to a temporary directory, deleted after),
 *   read from disk in 1 MB slices and pushed through VasprunReader in the editor's pieces (sliced.ts's
 *   VASPRUN_PUSH_BYTES) with a yield after each, while a 1 ms heartbeat measures the longest event-loop
 *   block; peak memory (rss) sampled by the heartbeat, in a fresh process. The goal: no push holds the
 *   loop 50 ms, judged on the main thread's own CPU time (Linux's /proc/thread-self/schedstat), since the
 *   machine is shared and wall-clock time counts the turns the scheduler gives other processes; wall time
 *   is printed too. The same file through pymatgen's Vasprun(parse_potcar_file=False) and ASE's
 *   read(index=':', format='vasp-xml') (Debian's python3 with python3-pymatgen and python3-ase), each
 *   capped by a timeout, in the same run; the ratios are of CPU time (process-wide, as Python's process_time).
 * - OUTCAR: the largest real one in the package, readOutcar vs ASE's read(index=':', format='vasp-out') and
 *   pymatgen's Outcar.
 *
 * Python's times are for the parse alone (after the imports); its memory is ru_maxrss.
 */
import { spawnSync, fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readOutcar } from '../../src/core/structures/outcar/index';
import { VASPRUN_PUSH_BYTES } from '../../src/core/structures/sliced';
import { VasprunReader } from '../../src/core/structures/vasprun/index';

export const VASP_FILES = '/usr/share/doc/pymatgen-test-files/examples/test_files';
const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const TARGET_BYTES = 200 << 20;
const SLICE = 1 << 20;
const PYTHON_TIMEOUT_S = 300;

const MEMORY_CAP_GB = 8;
const PY_TIMER = String.raw`
import resource, sys, time, warnings
warnings.filterwarnings('ignore')
kind, f = sys.argv[1], sys.argv[2]
# A shared machine: a reader that would hold more than this fails with MemoryError instead of swapping.
resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
if kind == 'pymatgen-vasprun':
    from pymatgen.io.vasp import Vasprun
    t, c = time.time(), time.process_time(); v = Vasprun(f, parse_potcar_file=False); n = len(v.ionic_steps)
elif kind == 'ase-vasprun':
    import ase.io
    t, c = time.time(), time.process_time(); n = len(ase.io.read(f, index=':', format='vasp-xml'))
elif kind == 'ase-outcar':
    import ase.io
    t, c = time.time(), time.process_time(); n = len(ase.io.read(f, index=':', format='vasp-out'))
elif kind == 'pymatgen-outcar':
    from pymatgen.io.vasp import Outcar
    t, c = time.time(), time.process_time(); o = Outcar(f); n = 1
print((time.time() - t) * 1000, n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, (time.process_time() - c) * 1000)
`;

interface PyResult {
  ms?: number;
  cpuMs?: number;
  steps?: number;
  rss?: number;
  over?: boolean;
  error?: string;
}

function python(kind: string, file: string, timeoutS = PYTHON_TIMEOUT_S): PyResult {
  const script = PY_TIMER.replace(/MEMORY_CAP/g, String(MEMORY_CAP_GB * 2 ** 30));
  const run = spawnSync(PYTHON, ['-c', script, kind, file], { encoding: 'utf8', timeout: timeoutS * 1000, maxBuffer: 1 << 20 });
  if (run.error && (run.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') return { over: true };
  if (run.status !== 0) return { error: (run.stderr || String(run.error)).trim().split('\n').pop() };
  const [ms, steps, rss, cpuMs] = run.stdout.trim().split(/\s+/).map(Number);
  return { ms: ms!, steps: steps!, rss: rss!, cpuMs: cpuMs! };
}

/** header + the calculations repeated up to `target` bytes + tail, written to `file`; the number of calculations. */
export function makeLargeVasprun(source: string, file: string, target = TARGET_BYTES): number {
  const text = fs.readFileSync(source, 'latin1');
  const first = text.indexOf('<calculation>');
  const last = text.lastIndexOf('</calculation>') + '</calculation>'.length;
  const head = text.slice(0, first);
  const body = text.slice(first, last);
  const tail = text.slice(last);
  const per = (body.match(/<calculation>/g) ?? []).length;
  const fd = fs.openSync(file, 'w');
  let size = head.length + tail.length;
  let calculations = 0;
  fs.writeSync(fd, head, null, 'latin1');
  while (size < target) {
    fs.writeSync(fd, body + '\n', null, 'latin1');
    size += body.length + 1;
    calculations += per;
  }
  fs.writeSync(fd, tail, null, 'latin1');
  fs.closeSync(fd);
  return calculations;
}

export interface StreamResult {
  ms: number;
  /** CPU time of the whole process (every thread) from the first push to finish. */
  cpuMs: number;
  /** The heartbeat's longest gap: our work, garbage collection, and the scheduler on a shared machine. */
  maxBlockMs: number;
  /** The longest single push (or finish) in the main thread's CPU time: the time our code holds the loop. */
  longestPushMs: number;
  /** The longest push in wall-clock time (with the turns the scheduler gave other processes). */
  longestPushWallMs: number;
  /** Where longestPushMs comes from: the main thread's CPU time, or the process's where Linux's is not readable. */
  pushClock: string;
  push: number;
  peakRss: number;
  baseRss: number;
  frames: number;
  diagnostics: number;
}

const SCHEDSTAT = '/proc/thread-self/schedstat';

/** The calling thread's CPU time in ms (Linux), else the process's (every thread: V8's compiler and GC threads too). */
function threadClock(): { now: () => number; name: string } {
  try {
    const read = () => Number(fs.readFileSync(SCHEDSTAT, 'latin1').split(' ')[0]) / 1e6;
    if (Number.isFinite(read())) return { now: read, name: 'main-thread CPU' };
  } catch {
    // not Linux: the process's CPU time below
  }
  return {
    now: () => {
      const c = process.cpuUsage();
      return (c.user + c.system) / 1000;
    },
    name: 'process CPU',
  };
}

/** In this process: the file read in 1 MB slices, pushed in pieces of `push` characters with a yield after each; a heartbeat measures blocks and memory. */
export async function streamVasprun(file: string, push = VASPRUN_PUSH_BYTES): Promise<StreamResult> {
  const baseRss = process.memoryUsage().rss;
  let peakRss = baseRss;
  let last = performance.now();
  let maxBlock = 0;
  const beat = setInterval(() => {
    const now = performance.now();
    maxBlock = Math.max(maxBlock, now - last);
    last = now;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const clock = threadClock();
  const cpu0 = process.cpuUsage();
  const started = (last = performance.now());
  maxBlock = 0;
  const reader = new VasprunReader();
  const stream = fs.createReadStream(file, { highWaterMark: SLICE, encoding: 'latin1' });
  let longestPush = 0;
  let longestPushWall = 0;
  const timed = <T>(run: () => T): T => {
    const t = performance.now();
    const c = clock.now();
    const out = run();
    longestPush = Math.max(longestPush, clock.now() - c);
    longestPushWall = Math.max(longestPushWall, performance.now() - t);
    return out;
  };
  for await (const chunk of stream) {
    const text = chunk as string;
    for (let from = 0; from < text.length; from += push) {
      const piece = text.slice(from, from + push);
      timed(() => reader.push(piece));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const result = timed(() => reader.finish());
  const ended = performance.now();
  const cpu = process.cpuUsage(cpu0);
  maxBlock = Math.max(maxBlock, ended - last);
  clearInterval(beat);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  return {
    ms: ended - started,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxBlockMs: maxBlock,
    longestPushMs: longestPush,
    longestPushWallMs: longestPushWall,
    pushClock: clock.name,
    push,
    peakRss,
    baseRss,
    frames: result.frames.length,
    diagnostics: result.diagnostics.length,
  };
}

/** streamVasprun in a fresh process (so rss is the reader's, not the benchmark's). */
function streamInChild(file: string, push: number): Promise<StreamResult | { error: string }> {
  return new Promise((resolve) => {
    const child = fork(__filename, ['--stream-vasprun', file, String(push)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve(m as StreamResult));
    child.once('exit', (code) => resolve({ error: `exited with ${code}` }));
  });
}

if (process.argv[2] === '--stream-vasprun') {
  void streamVasprun(process.argv[3]!, Number(process.argv[4])).then((r) => {
    process.send!(r);
    process.exit(0);
  });
}

const mb = (bytes: number) => `${(bytes / (1 << 20)).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** A library's line; the ratio is of CPU time when both have one (`ours.cpuMs`), else of wall-clock time. */
function pyLine(name: string, r: PyResult, ours: { ms: number; cpuMs?: number }): string {
  if (r.over)
    return `${name.padEnd(40)} over ${PYTHON_TIMEOUT_S} s wall (>${((PYTHON_TIMEOUT_S * 1000) / ours.ms).toFixed(0)}x our wall time)`;
  if (r.error !== undefined)
    return `${name.padEnd(40)} error: ${r.error}${/MemoryError/.test(r.error) ? ` (over ${MEMORY_CAP_GB} GB)` : ''}`;
  const ratio =
    ours.cpuMs !== undefined && r.cpuMs !== undefined
      ? `${(r.cpuMs / ours.cpuMs).toFixed(1)}x Token Lens's CPU time`
      : `${(r.ms! / ours.ms).toFixed(1)}x Token Lens's wall time`;
  const cpu = r.cpuMs !== undefined ? ` (CPU ${s(r.cpuMs)})` : '';
  return `${name.padEnd(40)} ${s(r.ms!).padStart(9)}${cpu}  peak rss ${mb(r.rss!).padStart(7)}  ${r.steps} steps  (${ratio})`;
}

export async function benchVasp(): Promise<string[]> {
  const out: string[] = [];
  const source = path.join(VASP_FILES, 'vasprun.xml');
  const outcar = path.join(VASP_FILES, 'neb_analysis', 'neb1', 'neb', '01', 'OUTCAR');
  if (!fs.existsSync(source)) return ['\n## VASP outputs: skipped (apt-get install pymatgen-test-files python3-pymatgen python3-ase)'];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-vasprun-'));
  try {
    const big = path.join(dir, 'vasprun.xml');
    const calculations = makeLargeVasprun(source, big);
    const size = fs.statSync(big).size;
    const [load] = os.loadavg();
    out.push(
      `\n## vasprun.xml: ${mb(size)} (${calculations} <calculation> blocks of pymatgen's test vasprun.xml, repeated), read from disk in 1 MB slices, pushed in the editor's ${VASPRUN_PUSH_BYTES >> 10} KB pieces (shared machine: load ${load!.toFixed(1)} on ${os.cpus().length} cores)`,
    );
    const ours = await streamInChild(big, VASPRUN_PUSH_BYTES);
    if ('error' in ours) {
      out.push(`Token Lens VasprunReader: ${ours.error}`);
      return out;
    }
    out.push(
      `${`Token Lens VasprunReader`.padEnd(40)} ${s(ours.ms).padStart(9)} (CPU ${s(ours.cpuMs)})  peak rss ${mb(ours.peakRss).padStart(7)} (${mb(ours.peakRss - ours.baseRss)} over the process's ${mb(ours.baseRss)})  ${ours.frames} steps  longest push ${ours.longestPushMs.toFixed(1)} ms ${ours.pushClock} (${ours.longestPushWallMs.toFixed(1)} ms wall), longest event-loop gap ${ours.maxBlockMs.toFixed(1)} ms`,
    );
    out.push(pyLine('pymatgen Vasprun(parse_potcar_file=False)', python('pymatgen-vasprun', big), ours));
    out.push(pyLine("ASE read(index=':', format='vasp-xml')", python('ase-vasprun', big), ours));
    out.push(
      `${ours.longestPushMs < 50 ? 'PASS' : 'FAIL'}  VasprunReader holds the event loop under 50 ms per ${ours.push >> 10} KB push (the editor's) on ${mb(size)}: longest ${ours.longestPushMs.toFixed(1)} ms ${ours.pushClock} (wall ${ours.longestPushWallMs.toFixed(1)} ms and heartbeat gap ${ours.maxBlockMs.toFixed(1)} ms include the scheduler's turns for other processes and GC)`,
    );

    const text = fs.readFileSync(outcar, 'utf8');
    const times: { ms: number; cpuMs: number }[] = [];
    let steps = 0;
    for (let i = 0; i < 6; i++) {
      const t = performance.now();
      const c = process.cpuUsage();
      steps = readOutcar(text).frames.length;
      const cpu = process.cpuUsage(c);
      times.push({ ms: performance.now() - t, cpuMs: (cpu.user + cpu.system) / 1000 });
    }
    const warm = times.slice(1).sort((a, b) => a.cpuMs - b.cpuMs)[2]!;
    out.push(
      `\n## OUTCAR: ${path.relative(VASP_FILES, outcar)} (${mb(text.length)}, ${steps} ionic steps; Token Lens: cold ${times[0]!.cpuMs.toFixed(0)} ms CPU, median warm)`,
    );
    out.push(`${'Token Lens readOutcar'.padEnd(40)} ${s(warm.ms).padStart(9)} (CPU ${s(warm.cpuMs)})  ${steps} steps`);
    out.push(pyLine("ASE read(index=':', format='vasp-out')", python('ase-outcar', outcar), warm));
    out.push(pyLine('pymatgen Outcar', python('pymatgen-outcar', outcar), warm));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
