/**
 * CIF benchmark (`npm run bench -- --only=cif`): readCif next to the readers a user would otherwise use,
 * ASE 3.22 (`ase.io.read(f, format='cif')`) and pymatgen 2022.11 (`CifParser(f).get_structures(primitive=False)`),
 * in the same run on the same files:
 *
 * - a generated 9,984-atom CIF: 52 sites in general positions of Fm-3m, expanded by its 192 listed operations
 *   (test/support/cifSamples.ts), so the time is parsing plus symmetry expansion with duplicate merging;
 * - every CIF of Debian's pymatgen-test-files (86 real files), read one after the other, when installed.
 *
 * Times are CPU time of the reading process (Node: process.cpuUsage; Python: time.process_time), so that
 * other work on the machine does not count; wall time is printed beside. Ours: the first read (cold JIT)
 * and the fastest of 7 after it; ASE and pymatgen: one read each of the large file (ASE's takes minutes:
 * its Spacegroup.equivalent_sites compares each new site with every site kept so far), the fastest of 2
 * over the real files. Python's start-up and imports are not counted.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readCif } from '../../src/core/structures/cif/index';
import { largeFm3mCif } from '../support/cifSamples';

const TEST_FILES = '/usr/share/doc/pymatgen-test-files/examples/test_files';

const TIMER = String.raw`
import json, sys, time, warnings
warnings.simplefilter('ignore')
from ase.io import read
from pymatgen.io.cif import CifParser

def timed(f, paths):
    t0, w0, n = time.process_time(), time.perf_counter(), 0
    for p in paths:
        try:
            n += f(p)
        except Exception:
            pass
    return {'cpu': (time.process_time() - t0) * 1000, 'wall': (time.perf_counter() - w0) * 1000, 'atoms': n}

ase = lambda p: sum(len(a) for a in read(p, format='cif', index=':'))
pmg = lambda p: sum(len(s) for s in CifParser(p).get_structures(primitive=False))
out = []
for job in json.loads(sys.argv[1]):
    paths, runs = job['paths'], job['runs']
    out.append({k: min((timed(f, paths) for _ in range(runs)), key=lambda r: r['cpu']) for k, f in (('ase', ase), ('pymatgen', pmg))})
print(json.dumps(out))
`;

interface Timing {
  cpu: number;
  wall: number;
  atoms: number;
}

export interface CifBenchRow {
  name: string;
  files: number;
  ours: { coldCpu: number; cpu: number; wall: number; atoms: number };
  ase?: Timing;
  pymatgen?: Timing;
  error?: string;
}

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

function ours(texts: string[]): CifBenchRow['ours'] {
  const once = () => {
    const t0 = process.cpuUsage();
    const w0 = performance.now();
    let atoms = 0;
    for (const text of texts) for (const frame of readCif(text).frames) atoms += frame.positions.length;
    return { cpu: cpuMs(t0), wall: performance.now() - w0, atoms };
  };
  const cold = once();
  let best = once();
  for (let i = 0; i < 6; i++) {
    const run = once();
    if (run.cpu < best.cpu) best = run;
  }
  return { coldCpu: cold.cpu, ...best };
}

function cifFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .flatMap((name) => {
      const p = path.join(dir, name);
      return fs.statSync(p).isDirectory() ? cifFiles(p) : name.endsWith('.cif') ? [p] : [];
    })
    .sort();
}

export function benchCif(): CifBenchRow[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-cif-'));
  try {
    const large = largeFm3mCif(52);
    const largePath = path.join(dir, 'large_Fm-3m.cif');
    fs.writeFileSync(largePath, large.text);
    const real = fs.existsSync(TEST_FILES) ? cifFiles(TEST_FILES) : [];
    const rows: CifBenchRow[] = [
      { name: `${large.atoms.toLocaleString('en-US')} atoms: 52 sites × 192 operations (Fm-3m)`, files: 1, ours: ours([large.text]) },
    ];
    const jobs = [{ paths: [largePath], runs: 1 }];
    if (real.length) {
      rows.push({
        name: `pymatgen-test-files: ${real.length} real CIFs`,
        files: real.length,
        ours: ours(real.map((p) => fs.readFileSync(p, 'latin1'))),
      });
      jobs.push({ paths: real, runs: 2 });
    }
    const python = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
    const py = spawnSync(python, ['-c', TIMER, JSON.stringify(jobs)], { encoding: 'utf8', timeout: 900_000, maxBuffer: 16 << 20 });
    if (py.status === 0) {
      const timings = JSON.parse(py.stdout) as Array<{ ase: Timing; pymatgen: Timing }>;
      rows.forEach((row, i) => Object.assign(row, timings[i]));
    } else {
      const why = py.error?.message ?? py.stderr.trim().split('\n').pop() ?? `exit ${py.status}`;
      for (const row of rows) row.error = `ASE / pymatgen not measured (${why}): apt-get install python3-ase python3-pymatgen`;
    }
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

export function formatCifBench(rows: CifBenchRow[]): string[] {
  const lines = [
    '\n## CIF: readCif (parse + symmetry expansion) next to ASE and pymatgen, same files, same run (CPU ms; wall in brackets)',
  ];
  for (const r of rows) {
    lines.push(`${r.name}`);
    lines.push(
      `  Token Lens readCif    ${ms(r.ours.cpu).padStart(9)} ms [${ms(r.ours.wall)}]  (cold ${ms(r.ours.coldCpu)} ms)  ${r.ours.atoms} atoms`,
    );
    for (const [label, t] of [
      ['ASE ase.io.read      ', r.ase],
      ['pymatgen CifParser   ', r.pymatgen],
    ] as const)
      if (t)
        lines.push(
          `  ${label} ${ms(t.cpu).padStart(9)} ms [${ms(t.wall)}]  ${t.atoms} atoms   ours is ${(t.cpu / r.ours.cpu).toFixed(t.cpu / r.ours.cpu >= 100 ? 0 : 1)}× faster (cold: ${(t.cpu / r.ours.coldCpu).toFixed(1)}×)`,
        );
    if (r.error) lines.push(`  ${r.error}`);
  }
  return lines;
}
