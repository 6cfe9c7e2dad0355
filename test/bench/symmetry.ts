/**
 * The symmetry section: the space group of perovskite SrTiO3 supercells of 10, 100 and 1,000 atoms by moyo-wasm
 * (core/crystallography/symmetry.ts analyzeSymmetry, what the editor runs: JSON in, dataset out, validated) and
 * by spglib from Python (Debian's python3-spglib, get_symmetry_dataset, timed inside Python so the process start
 * is not counted), same run, same structures, same symprec, with the ratio; and moyo's first load (read, compile,
 * instantiate its .wasm), which the editor pays on its first search, never at activation.
 */
import { spawnSync } from 'node:child_process';
import { supercell } from '../../src/core/crystallography/operations';
import { analyzeSymmetry, type MoyoBindings } from '../../src/core/crystallography/symmetry';
import type { Cell } from '../../src/core/crystallography/cell';
import type { Mat3 } from '../../src/core/poscar/types';
import { loadMoyoNode } from '../../src/platform/moyoNode';
import { PYTHON } from '../unit/spglibOracle';

const A = 3.905;
const PEROVSKITE: Cell = {
  lattice: [
    [A, 0, 0],
    [0, A, 0],
    [0, 0, A],
  ],
  frac: [
    [0, 0, 0],
    [0.5, 0.5, 0.5],
    [0.5, 0.5, 0],
    [0.5, 0, 0.5],
    [0, 0.5, 0.5],
  ],
  species: ['Sr', 'Ti', 'O', 'O', 'O'],
};
const diag = (a: number, b: number, c: number): Mat3 => [
  [a, 0, 0],
  [0, b, 0],
  [0, 0, c],
];
const SIZES: [number, Mat3][] = [
  [10, diag(1, 1, 2)],
  [100, diag(2, 2, 5)],
  [1000, diag(5, 5, 8)],
];
const SYMPREC = 1e-3;

export interface SymmetryBenchRow {
  atoms: number;
  number: number;
  oursMs: number;
  spglibMs: number | undefined;
  spglibNumber: number | undefined;
}

export interface SymmetryBench {
  loadMs: number;
  rows: SymmetryBenchRow[];
  spglib: string;
}

const SCRIPT = String.raw`
import json, sys, time
import spglib
req = json.load(sys.stdin)
out = []
for s in req['cells']:
    cell = (s['lattice'], s['frac'], s['numbers'])
    d = spglib.get_symmetry_dataset(cell, symprec=req['symprec'])
    runs, start = 0, time.perf_counter()
    while runs < 3 or (time.perf_counter() - start < req['budget'] and runs < 1000):
        spglib.get_symmetry_dataset(cell, symprec=req['symprec']); runs += 1
    out.append({'ms': (time.perf_counter() - start) * 1000 / runs, 'number': int(d['number'])})
print(json.dumps({'version': spglib.__version__, 'results': out}))
`;

function median(times: number[]): number {
  const s = [...times].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timeOurs(moyo: MoyoBindings, cell: Cell, budgetMs: number): { ms: number; number: number } {
  const number = analyzeSymmetry(moyo, cell, SYMPREC).number;
  const times: number[] = [];
  const start = performance.now();
  while (times.length < 3 || (performance.now() - start < budgetMs && times.length < 1000)) {
    const t = performance.now();
    analyzeSymmetry(moyo, cell, SYMPREC);
    times.push(performance.now() - t);
  }
  return { ms: median(times), number };
}

export async function benchSymmetry(quick: boolean): Promise<SymmetryBench> {
  const start = performance.now();
  const moyo = await loadMoyoNode();
  const loadMs = performance.now() - start;
  const budget = quick ? 300 : 2000;
  const cells = SIZES.map(([n, p]) => {
    const cell = supercell(PEROVSKITE, p);
    if (cell.frac.length !== n) throw new Error(`expected ${n} atoms`);
    return cell;
  });
  const ours = cells.map((c) => timeOurs(moyo, c, budget));
  const Z: Record<string, number> = { Sr: 38, Ti: 22, O: 8 };
  const run = spawnSync(PYTHON, ['-c', SCRIPT], {
    input: JSON.stringify({
      symprec: SYMPREC,
      budget: budget / 1000,
      cells: cells.map((c) => ({ lattice: c.lattice, frac: c.frac, numbers: c.species.map((s) => Z[s]) })),
    }),
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    timeout: 600_000,
  });
  const spglib = run.status === 0 ? (JSON.parse(run.stdout) as { version: string; results: { ms: number; number: number }[] }) : undefined;
  return {
    loadMs,
    spglib: spglib ? `spglib ${spglib.version} (${PYTHON})` : `spglib not available (${PYTHON}: apt-get install python3-spglib)`,
    rows: cells.map((c, i) => ({
      atoms: c.frac.length,
      number: ours[i]!.number,
      oursMs: ours[i]!.ms,
      spglibMs: spglib?.results[i]?.ms,
      spglibNumber: spglib?.results[i]?.number,
    })),
  };
}

export function formatSymmetryBench(b: SymmetryBench): string[] {
  return [
    `moyo-wasm first load (read + compile + instantiate the 0.7 MB .wasm): ${b.loadMs.toFixed(1)} ms (on the first search, not at activation)`,
    `against ${b.spglib}, same structures (SrTiO3 supercells), symprec ${SYMPREC} Å, median per search:`,
    ...b.rows.map((r) => {
      const ratio = r.spglibMs === undefined ? 'no spglib' : `${(r.spglibMs / r.oursMs).toFixed(2)}x spglib (${r.spglibMs.toFixed(3)} ms)`;
      const agree =
        r.spglibNumber === undefined ? '' : r.spglibNumber === r.number ? ', same group' : `, DIFFERENT group (spglib ${r.spglibNumber})`;
      return `  ${String(r.atoms).padStart(5)} atoms: moyo-wasm ${r.oursMs.toFixed(3)} ms, group ${r.number}; ${ratio}${agree}`;
    }),
  ];
}
