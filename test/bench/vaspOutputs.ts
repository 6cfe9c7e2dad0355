/**
 * VASP outputs, for `npm run bench -- --only=vasp`:
 *
 * - vasprun.xml: a ~200 MB file made by repeating the <calculation> blocks of a real one (pymatgen's test
 *   file vasprun.xml from Debian's pymatgen-test-files, MIT; written to a temporary directory, deleted after),
 *   read from disk in 1 MB slices through VasprunReader with a yield between slices, while a 1 ms heartbeat
 *   measures the longest event-loop block; peak memory (rss) sampled by the heartbeat, in a fresh process.
 *   The same file through pymatgen's Vasprun(parse_potcar_file=False) and ASE's read(index=':',
 *   format='vasp-xml') (Debian's python3 with python3-pymatgen and python3-ase), each capped by a timeout.
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
import { VasprunReader } from '../../src/core/structures/vasprun/index';

export const VASP_FILES = '/usr/share/doc/pymatgen-test-files/examples/test_files';
const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const TARGET_BYTES = 200 << 20;
const SLICE = 1 << 20;
const PYTHON_TIMEOUT_S = 300;

const PY_TIMER = String.raw`
import resource, sys, time, warnings
warnings.filterwarnings('ignore')
kind, f = sys.argv[1], sys.argv[2]
if kind == 'pymatgen-vasprun':
    from pymatgen.io.vasp import Vasprun
    t = time.time(); v = Vasprun(f, parse_potcar_file=False); n = len(v.ionic_steps)
elif kind == 'ase-vasprun':
    import ase.io
    t = time.time(); n = len(ase.io.read(f, index=':', format='vasp-xml'))
elif kind == 'ase-outcar':
    import ase.io
    t = time.time(); n = len(ase.io.read(f, index=':', format='vasp-out'))
elif kind == 'pymatgen-outcar':
    from pymatgen.io.vasp import Outcar
    t = time.time(); o = Outcar(f); n = 1
print((time.time() - t) * 1000, n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
`;

interface PyResult {
  ms?: number;
  steps?: number;
  rss?: number;
  over?: boolean;
  error?: string;
}

function python(kind: string, file: string, timeoutS = PYTHON_TIMEOUT_S): PyResult {
  const run = spawnSync(PYTHON, ['-c', PY_TIMER, kind, file], { encoding: 'utf8', timeout: timeoutS * 1000, maxBuffer: 1 << 20 });
  if (run.error && (run.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') return { over: true };
  if (run.status !== 0) return { error: (run.stderr || String(run.error)).trim().split('\n').pop() };
  const [ms, steps, rss] = run.stdout.trim().split(/\s+/).map(Number);
  return { ms: ms!, steps: steps!, rss: rss! };
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
  maxBlockMs: number;
  peakRss: number;
  baseRss: number;
  frames: number;
  diagnostics: number;
}

/** In this process: the file read in 1 MB slices, each pushed and then a yield; a heartbeat measures blocks and memory. */
export async function streamVasprun(file: string): Promise<StreamResult> {
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
  const started = (last = performance.now());
  maxBlock = 0;
  const reader = new VasprunReader();
  const stream = fs.createReadStream(file, { highWaterMark: SLICE, encoding: 'latin1' });
  for await (const chunk of stream) {
    reader.push(chunk as string);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const result = reader.finish();
  const ended = performance.now();
  maxBlock = Math.max(maxBlock, ended - last);
  clearInterval(beat);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  return {
    ms: ended - started,
    maxBlockMs: maxBlock,
    peakRss,
    baseRss,
    frames: result.frames.length,
    diagnostics: result.diagnostics.length,
  };
}

/** streamVasprun in a fresh process (so rss is the reader's, not the benchmark's). */
function streamInChild(file: string): Promise<StreamResult | { error: string }> {
  return new Promise((resolve) => {
    const child = fork(__filename, ['--stream-vasprun', file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve(m as StreamResult));
    child.once('exit', (code) => resolve({ error: `exited with ${code}` }));
  });
}

if (process.argv[2] === '--stream-vasprun') {
  void streamVasprun(process.argv[3]!).then((r) => {
    process.send!(r);
    process.exit(0);
  });
}

const mb = (bytes: number) => `${(bytes / (1 << 20)).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function pyLine(name: string, r: PyResult, oursMs: number): string {
  if (r.over) return `${name.padEnd(40)} over ${PYTHON_TIMEOUT_S} s (>${((PYTHON_TIMEOUT_S * 1000) / oursMs).toFixed(0)}x slower)`;
  if (r.error !== undefined) return `${name.padEnd(40)} error: ${r.error}`;
  return `${name.padEnd(40)} ${s(r.ms!).padStart(9)}  peak rss ${mb(r.rss!).padStart(7)}  ${r.steps} steps  (${(r.ms! / oursMs).toFixed(1)}x slower than Token Lens)`;
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
    out.push(
      `\n## vasprun.xml: ${mb(size)} (${calculations} <calculation> blocks of pymatgen's test vasprun.xml, repeated), read from disk in 1 MB slices`,
    );
    const ours = await streamInChild(big);
    if ('error' in ours) {
      out.push(`Token Lens VasprunReader: ${ours.error}`);
      return out;
    }
    out.push(
      `${'Token Lens VasprunReader (1 MB slices)'.padEnd(40)} ${s(ours.ms).padStart(9)}  peak rss ${mb(ours.peakRss).padStart(7)} (${mb(ours.peakRss - ours.baseRss)} over the process's ${mb(ours.baseRss)})  ${ours.frames} steps  longest event-loop block ${ours.maxBlockMs.toFixed(1)} ms`,
    );
    out.push(pyLine('pymatgen Vasprun(parse_potcar_file=False)', python('pymatgen-vasprun', big), ours.ms));
    out.push(pyLine("ASE read(index=':', format='vasp-xml')", python('ase-vasprun', big), ours.ms));
    out.push(
      `${ours.maxBlockMs < 50 ? 'PASS' : 'FAIL'}  VasprunReader never blocks the event loop 50 ms on ${mb(size)}: longest ${ours.maxBlockMs.toFixed(1)} ms`,
    );

    const text = fs.readFileSync(outcar, 'utf8');
    const times: number[] = [];
    let steps = 0;
    for (let i = 0; i < 6; i++) {
      const t = performance.now();
      steps = readOutcar(text).frames.length;
      times.push(performance.now() - t);
    }
    const warm = times.slice(1).sort((a, b) => a - b)[2]!;
    out.push(
      `\n## OUTCAR: ${path.relative(VASP_FILES, outcar)} (${mb(text.length)}, ${steps} ionic steps; Token Lens: cold ${times[0]!.toFixed(0)} ms, median warm)`,
    );
    out.push(`${'Token Lens readOutcar'.padEnd(40)} ${s(warm).padStart(9)}  ${steps} steps`);
    out.push(pyLine("ASE read(index=':', format='vasp-out')", python('ase-outcar', outcar), warm));
    out.push(pyLine('pymatgen Outcar', python('pymatgen-outcar', outcar), warm));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
