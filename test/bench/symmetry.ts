/**
 * The symmetry section: the space group of perovskite SrTiO3 supercells of 10, 100, 1,000 and 8,000 atoms, and of a
 * 1,000-atom cell with no symmetry (random positions, P1: no primitive cell to reduce to), by our search
 * (core/crystallography/symmetry.ts analyzeSymmetry, what the editor runs on its worker: the primitive cell by the
 * pure translations, moyo-wasm on it, the answer mapped back to every site) and
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
import { PYTHON } from '../support/python';

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
  [8000, diag(10, 10, 16)],
];

/** 1,000 atoms of SiO2's stoichiometry at random positions (a fixed seed), at least 1.2 Å apart: group 1. */
function randomCell(n: number): Cell {
  const side = Math.cbrt(n * 15);
  let seed = 29;
  const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const frac: Cell['frac'] = [];
  while (frac.length < n) {
    const f: Cell['frac'][number] = [random(), random(), random()];
    const far = frac.every((g) => Math.hypot(...g.map((x, k) => (x - f[k]! - Math.round(x - f[k]!)) * side)) > 1.2);
    if (far) frac.push(f);
  }
  return { lattice: diag(side, side, side), frac, species: frac.map((_, i) => (i % 3 === 0 ? 'Si' : 'O')) };
}
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
  cells.push(randomCell(1000));
  const ours = cells.map((c) => timeOurs(moyo, c, budget));
  const Z: Record<string, number> = { Sr: 38, Ti: 22, O: 8, Si: 14 };
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
    `against ${b.spglib}, same structures (SrTiO3 supercells; the last: 1,000 atoms at random, P1), symprec ${SYMPREC} Å, median per search (a loaded machine: the ratio is the measure):`,
    ...b.rows.map((r) => {
      const ratio = r.spglibMs === undefined ? 'no spglib' : `${(r.spglibMs / r.oursMs).toFixed(2)}x spglib (${r.spglibMs.toFixed(3)} ms)`;
      const agree =
        r.spglibNumber === undefined ? '' : r.spglibNumber === r.number ? ', same group' : `, DIFFERENT group (spglib ${r.spglibNumber})`;
      return `  ${String(r.atoms).padStart(5)} atoms: ours (primitive cell + moyo-wasm) ${r.oursMs.toFixed(3)} ms, group ${r.number}; ${ratio}${agree}`;
    }),
  ];
}

/** Faster than spglib on the supercells of 1,000 atoms and more, and the same group as spglib on every structure. */
export function symmetryGoals(goal: (ok: boolean | undefined, text: string) => void, b: SymmetryBench): void {
  const big = b.rows.slice(0, SIZES.length).filter((r) => r.atoms >= 1000);
  const known = big.every((r) => r.spglibMs !== undefined);
  goal(
    known ? big.every((r) => r.oursMs < r.spglibMs!) : undefined,
    `symmetry: supercells of ${big.map((r) => r.atoms.toLocaleString('en-US')).join(' and ')} atoms faster than spglib (${big.map((r) => (r.spglibMs === undefined ? 'n/a' : `${(r.spglibMs / r.oursMs).toFixed(2)}x`)).join(', ')})`,
  );
  goal(
    b.rows.every((r) => r.spglibNumber !== undefined) ? b.rows.every((r) => r.spglibNumber === r.number) : undefined,
    'symmetry: the same space group as spglib on every benchmark structure',
  );
}
