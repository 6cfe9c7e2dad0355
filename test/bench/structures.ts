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
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createServer } from '../../src/server/app';
import { withHeartbeat } from './heartbeat';
import { seededRandom } from '../../src/server/physics/rng';

// ---------------------------------------------------------------------------------------------
// The 64-atom Si cell


const DIAMOND: Array<[number, number, number]> = [
  [0, 0, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0],
  [0.25, 0.25, 0.25], [0.25, 0.75, 0.75], [0.75, 0.25, 0.75], [0.75, 0.75, 0.25],
];

/**
 * Si, 2×2×2 conventional diamond cells (a = 5.431 Å): 64 atoms, Cartesian coordinates; with
 * `rattle` every coordinate is moved by a seeded uniform ±rattle Å (so a relaxation takes steps).
 */
export function si64Poscar(rattle = 0, seed = 7): string {
  const a = 5.431;
  const L = 2 * a;
  const random = seededRandom(seed);
  const lines = [`Si64 2x2x2 diamond${rattle ? ` rattled ±${rattle} A (seed ${seed})` : ''}`, '1.0', `${L.toFixed(6)} 0 0`, `0 ${L.toFixed(6)} 0`, `0 0 ${L.toFixed(6)}`, 'Si', '64', 'Cartesian'];
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
    const fail = (error: string): void => resolve({ atoms: dims[0] * dims[1] * dims[2], chars: 0, diagnostics: 0, errors: 0, coldMs: NaN, warm: [], error });
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
  for (const dims of [[10, 10, 10], [25, 20, 20]] as Array<[number, number, number]>) rows.push(await poscarInWorker(dims, runs)); // 1,000 and 10,000 atoms
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
    const res = await fetch(`${url}${route}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, value: (await res.json()) as Record<string, unknown> };
  };
  const jobs: Array<{ name: string; path: string; body: object; detail: (v: Record<string, unknown>) => string }> = [
    {
      name: 'relax (rattled ±0.05 Å, fmax 0.05)', path: '/gnn_ff_dynamics/relax', body: { poscar: si64Poscar(0.05) },
      detail: (v) => `${v.steps_taken} steps, converged ${v.converged}`,
    },
    {
      name: 'MD (200 steps, 1 fs, 300 K)', path: '/gnn_ff_dynamics/md', body: { poscar: si64Poscar() },
      detail: (v) => `${v.steps} steps, ${(v.trajectory as unknown[] | undefined)?.length ?? '?'} frames`,
    },
    {
      name: 'band structure (kpath_density 20)', path: '/tightbinding/compute', body: { poscar: si64Poscar(), kpath_density: 20 },
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
          name: job.name, path: job.path, status, wallMs: run.totalMs, maxStallMs: run.maxGapMs, beats: run.beats,
          detail: status === 200 ? job.detail(value) : String(value.detail),
          ...(status === 200 ? {} : { error: `HTTP ${status}: ${String(value.detail)}` }),
        });
      } catch (error) {
        rows.push({ name: job.name, path: job.path, status: 0, wallMs: NaN, maxStallMs: NaN, beats: 0, detail: '', error: (error as Error).message });
      }
    }
  } finally {
    await server.close();
  }
  return rows;
}
