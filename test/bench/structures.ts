/**
 * Structure benchmarks (extension side and reference server), for `npm run bench`:
 *
 * - POSCAR parse + diagnose (`parsePoscar`, which the extension calls on the host in one go) for
 *   1,000 and 10,000 atoms, each size in a fresh worker thread (cold = the first parse with a fresh
 *   JIT, warm = the median of the runs after it); the longest single parse is the time the host is blocked.
 * - The reference server's relax, MD and band structure of a 64-atom Si cell, POSTed with fetch to a
 *   server in this process while a 1 ms heartbeat measures the longest event-loop stall.
 *
 * The webview side (structure view, result views) is test/bench/webview/structures.bench.ts.
 */
import { fork, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createServer } from '../../src/server/http/app';
import { withHeartbeat } from './heartbeat';
import { seededRandom } from '../../src/server/physics/rng';
import { DIAMOND } from '../support/cubicCells';
import { fastestParse, LAYOUTS, layoutPoscar, type Layout } from '../support/poscarLayouts';

// ---------------------------------------------------------------------------------------------
// The 64-atom Si cell

/**
 * Si, 2×2×2 conventional diamond cells (a = 5.431 Å): 64 atoms, Cartesian coordinates; with
 * `rattle` every coordinate is moved by a seeded uniform ±rattle Å (so a relaxation takes steps).
 */
export function si64Poscar(rattle = 0, seed = 7): string {
  const a = 5.431;
  const L = 2 * a;
  const random = seededRandom(seed);
  const lines = [
    `Si64 2x2x2 diamond${rattle ? ` rattled ±${rattle} A (seed ${seed})` : ''}`,
    '1.0',
    `${L.toFixed(6)} 0 0`,
    `0 ${L.toFixed(6)} 0`,
    `0 0 ${L.toFixed(6)}`,
    'Si',
    '64',
    'Cartesian',
  ];
  for (let i = 0; i < 2; i++)
    for (let j = 0; j < 2; j++)
      for (let k = 0; k < 2; k++)
        for (const [x, y, z] of DIAMOND) {
          const p = [(i + x) * a, (j + y) * a, (k + z) * a].map((c) => c + (rattle ? (2 * random() - 1) * rattle : 0));
          lines.push(p.map((c) => c.toFixed(8)).join(' '));
        }
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// POSCAR parse + diagnose

export interface PoscarBenchRow {
  atoms: number;
  chars: number;
  diagnostics: number;
  errors: number;
  coldMs: number;
  warm: number[];
  error?: string;
}

/** One size in a fresh worker (poscarWorker.ts): the first parse, then `runs` more. */
function poscarInWorker(dims: [number, number, number], runs: number): Promise<PoscarBenchRow> {
  return new Promise((resolve) => {
    const worker = new Worker(path.join(__dirname, 'poscarWorker.js'), { workerData: { dims, runs } });
    const fail = (error: string): void =>
      resolve({ atoms: dims[0] * dims[1] * dims[2], chars: 0, diagnostics: 0, errors: 0, coldMs: NaN, warm: [], error });
    const timer = setTimeout(() => {
      void worker.terminate();
      fail('timed out (> 120 s)');
    }, 120_000);
    worker.once('message', (row: PoscarBenchRow) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(row);
    });
    worker.once('error', (e) => {
      clearTimeout(timer);
      fail(e.message);
    });
  });
}

export async function benchPoscar(runs = 15): Promise<PoscarBenchRow[]> {
  const rows: PoscarBenchRow[] = [];
  for (const dims of [
    [10, 10, 10],
    [25, 20, 20],
  ] as Array<[number, number, number]>)
    rows.push(await poscarInWorker(dims, runs)); // 1,000 and 10,000 atoms
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Reference server

export interface ServerBenchRow {
  name: string;
  path: string;
  status: number;
  wallMs: number;
  maxStallMs: number;
  beats: number;
  detail: string;
  error?: string;
}

const KEY = 'bench-key';

export async function benchServer(): Promise<ServerBenchRow[]> {
  const server = createServer({ apiKey: KEY, ratePerMinute: 100_000 });
  const url = await server.listen(0);
  const post = async (route: string, body: object): Promise<{ status: number; value: Record<string, unknown> }> => {
    const res = await fetch(`${url}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, value: (await res.json()) as Record<string, unknown> };
  };
  const jobs: Array<{ name: string; path: string; body: object; detail: (v: Record<string, unknown>) => string }> = [
    {
      name: 'relax (rattled ±0.05 Å, fmax 0.05)',
      path: '/gnn_ff_dynamics/relax',
      body: { poscar: si64Poscar(0.05) },
      detail: (v) => `${v.steps_taken} steps, converged ${v.converged}`,
    },
    {
      name: 'MD (200 steps, 1 fs, 300 K)',
      path: '/gnn_ff_dynamics/md',
      body: { poscar: si64Poscar() },
      detail: (v) => `${v.steps} steps, ${(v.trajectory as unknown[] | undefined)?.length ?? '?'} frames`,
    },
    {
      name: 'band structure (kpath_density 1)',
      path: '/tightbinding/compute',
      body: { poscar: si64Poscar(), kpath_density: 1 },
      detail: (v) => `${(v.kpoints as unknown[] | undefined)?.length ?? '?'} k-points × ${v.nbands} bands`,
    },
  ];
  const rows: ServerBenchRow[] = [];
  try {
    await post('/gnn_ff_dynamics/single_point', { poscar: si64Poscar() }); // connection, parser and potential warmed once
    for (const job of jobs) {
      try {
        const run = await withHeartbeat(() => post(job.path, job.body));
        const { status, value } = run.value;
        rows.push({
          name: job.name,
          path: job.path,
          status,
          wallMs: run.totalMs,
          maxStallMs: run.maxGapMs,
          beats: run.beats,
          detail: status === 200 ? job.detail(value) : String(value.detail),
          ...(status === 200 ? {} : { error: `HTTP ${status}: ${String(value.detail)}` }),
        });
      } catch (error) {
        rows.push({
          name: job.name,
          path: job.path,
          status: 0,
          wallMs: NaN,
          maxStallMs: NaN,
          beats: 0,
          detail: '',
          error: (error as Error).message,
        });
      }
    }
  } finally {
    await server.close();
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// POSCAR parse in four layouts, and next to ASE's reader on the same files

export interface LayoutBenchRow {
  layout: Layout;
  atoms: number;
  ms: number;
}

export function benchLayouts(sizes = [1_000, 10_000, 100_000]): LayoutBenchRow[] {
  const rows: LayoutBenchRow[] = [];
  for (const layout of LAYOUTS) {
    for (const atoms of sizes) {
      const text = layoutPoscar(layout, atoms);
      rows.push({ layout, atoms, ms: fastestParse(text, atoms >= 100_000 ? 3 : 7) });
    }
  }
  return rows;
}

export interface AseBenchRow {
  atoms: number;
  oursMs: number;
  aseMs?: number;
}

const ASE_TIMER = String.raw`
import sys, time, ase.io
for f in sys.argv[1:]:
    ase.io.read(f, format='vasp')
    best = min((lambda t: (ase.io.read(f, format='vasp'), time.perf_counter() - t)[1])(time.perf_counter()) for _ in range(5))
    print(best * 1000)
`;

/** Parse + diagnose (ours, warm, fastest of 7) and ASE's ase.io.read (warm, fastest of 5) of the same files; aseMs absent without python3-ase. */
export function benchAgainstAse(sizes = [10_000, 100_000]): AseBenchRow[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-ase-'));
  try {
    const files = sizes.map((atoms) => {
      const file = path.join(dir, `POSCAR-${atoms}`);
      fs.writeFileSync(file, layoutPoscar('uniform', atoms));
      return file;
    });
    const python = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
    const ase = spawnSync(python, ['-c', ASE_TIMER, ...files], { encoding: 'utf8', timeout: 300_000 });
    const aseMs = ase.status === 0 ? ase.stdout.trim().split('\n').map(Number) : [];
    return sizes.map((atoms, i) => {
      const text = fs.readFileSync(files[i]!, 'utf8');
      fastestParse(text, 2);
      return { atoms, oursMs: fastestParse(text, 7), ...(aseMs[i] !== undefined ? { aseMs: aseMs[i] } : {}) };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Other clients' latency while one client's long request runs

/** The built server of a checkout (its `out/`, after `npm run build:tests` there): this one's by default. */
export function serverBuild(checkout = path.join(__dirname, '..', '..', '..')): string {
  const server = path.join(path.resolve(checkout), 'out', 'src', 'server');
  // Before the HTTP plumbing had its folder, app.js sat in server/ itself.
  return (
    [path.join(server, 'http', 'app.js'), path.join(server, 'app.js')].find((file) => fs.existsSync(file)) ??
    path.join(server, 'http', 'app.js')
  );
}

/** The server of `build` in a process of its own (latencyServer.ts): its URL, its longest event-loop stall since last asked, and close. */
async function serverProcess(build: string): Promise<{ url: string; stall(): Promise<number>; close(): Promise<void> }> {
  const child = fork(path.join(__dirname, 'latencyServer.js'), [build, KEY], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>(): Promise<T> =>
    new Promise((resolve, reject) => {
      const exited = (code: number | null): void => reject(new Error(`the server process of ${build} exited (${code})`));
      child.once('exit', exited);
      child.once('message', (m) => {
        child.off('exit', exited);
        resolve(m as T);
      });
    });
  const { url } = await next<{ url: string }>();
  return {
    url,
    async stall() {
      const answer = next<{ stallMs: number }>();
      child.send('stall');
      return (await answer).stallMs;
    },
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}

export interface LatencyRow {
  scenario: string;
  /** Statuses of the long requests, and how long each took. */
  longStatus: number[];
  longMs: number[];
  /** Each small request's time, sent one after another while a long one ran. */
  smallMs: number[];
  /** The longest the server's event loop was held meanwhile (1 ms heartbeat in its own process). */
  stallMs: number;
  idleMs: number[];
}

const PRIMITIVE_SI = 'Si primitive\n1.0\n0 2.7155 2.7155\n2.7155 0 2.7155\n2.7155 2.7155 0\nSi\n2\nDirect\n0 0 0\n0.25 0.25 0.25\n';
/** 50,000 CJK ideographs: the longest text a tokenize may carry, and the slowest kind to tokenize. */
const CJK_50K = Array.from({ length: 50_000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20_000))).join('');

/** Each long request, and a first request that starts the workers it uses and loads what they load. */
export const LATENCY_SCENARIOS: ReadonlyArray<{ name: string; path: string; body: object; warm: object; times: number }> = [
  {
    name: 'a 50,000-character CJK tokenize (cl100k_base)',
    path: '/tokenizer/tokenize',
    body: { text: CJK_50K },
    warm: { text: CJK_50K.slice(0, 5000) },
    times: 5,
  },
  {
    name: 'a band structure of primitive Si, kpath_density 1000 (a 2 MB answer)',
    path: '/tightbinding/compute',
    body: { poscar: PRIMITIVE_SI, kpath_density: 1000 },
    warm: { poscar: PRIMITIVE_SI },
    times: 3,
  },
];

/**
 * For each scenario, on a fresh server of `build` in its own process: small tokenizes one after another while the
 * long request runs, `times` over.
 */
export async function benchLatency(build = serverBuild()): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  for (const scenario of LATENCY_SCENARIOS) {
    const server = await serverProcess(build);
    const url = server.url;
    const post = async (route: string, body: string): Promise<number> => {
      const res = await fetch(`${url}${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body,
      });
      await res.arrayBuffer();
      return res.status;
    };
    const small = async (): Promise<number> => {
      const t = performance.now();
      await post('/tokenizer/tokenize', '{"text":"ping","tokenizer":"character"}');
      return performance.now() - t;
    };
    const long = JSON.stringify(scenario.body);
    try {
      await post(scenario.path, JSON.stringify(scenario.warm));
      const row: LatencyRow = { scenario: scenario.name, longStatus: [], longMs: [], smallMs: [], stallMs: 0, idleMs: [] };
      for (let i = 0; i < 20; i++) row.idleMs.push(await small());
      for (let i = 0; i < scenario.times; i++) {
        const started = performance.now();
        let done = false;
        const pending = post(scenario.path, long).then((status) => {
          done = true;
          row.longStatus.push(status);
          row.longMs.push(performance.now() - started);
        });
        await server.stall();
        while (!done) row.smallMs.push(await small());
        await pending;
        row.stallMs = Math.max(row.stallMs, await server.stall());
      }
      rows.push(row);
    } finally {
      await server.close();
    }
  }
  return rows;
}
