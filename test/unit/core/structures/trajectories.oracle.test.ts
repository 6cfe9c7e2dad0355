/**
 * readXyz, readXdatcar and writeExtxyz against the field's reference readers, ASE 3.22 (ase.io.read with
 * format='extxyz', 'xyz' and 'vasp-xdatcar') and pymatgen 2022.11 (Xdatcar(f).structures,
 * XYZ.from_file(f).all_molecules), on real files no one here wrote:
 * - every XDATCAR*, *.xyz and *.xyz.gz under /usr/share/doc/pymatgen-test-files/examples/test_files
 *   (Debian's pymatgen-test-files: pymatgen's test files, MIT, © the Pymatgen Development Team; see
 *   /usr/share/doc/pymatgen-test-files/copyright), recursively;
 * - /usr/lib/python3/dist-packages/ase/test/testdata/*.xyz (Debian's python3-ase: ASE's test data, LGPL-2.1+).
 * The files are read where the packages put them; none is copied here. One python subprocess per run
 * (JSON out) reads every file with both libraries, and reads back what writeExtxyz wrote.
 *
 * Compared: frame counts, atoms per frame, the species of every site (so the formulas), cells and
 * positions within 1e-6 Å, pbc, energies and forces. Where ASE and pymatgen disagree, or refuse a file,
 * DIFFERENCES says which we follow and why; the test checks that each library still behaves as the table
 * says, so the table cannot go stale.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { readXdatcar } from '../../../../src/core/structures/xdatcar/index';
import { KBAR_PER_EV_A3, readXyz, writeExtxyz } from '../../../../src/core/structures/xyz/index';
import type { Mat3, StructureFile, StructureFrame, Vec3 } from '../../../../src/core/structures/types';
import { PYTHON } from '../../../support/python';

const PYMATGEN_FILES = '/usr/share/doc/pymatgen-test-files/examples/test_files';
const ASE_FILES = '/usr/lib/python3/dist-packages/ase/test/testdata';
const MISSING = 'not installed: apt-get install pymatgen-test-files python3-ase python3-pymatgen';
const TOLERANCE = 1e-6;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/XDATCAR/.test(name) || /\.xyz(\.gz)?$/.test(name)) out.push(path);
  }
  return out;
}

const realFiles = (): string[] => [
  ...walk(PYMATGEN_FILES),
  ...(existsSync(ASE_FILES)
    ? readdirSync(ASE_FILES)
        .filter((n) => n.endsWith('.xyz'))
        .map((n) => join(ASE_FILES, n))
    : []),
];

const isXdatcar = (path: string) => /XDATCAR/.test(basename(path));

function readOurs(path: string): StructureFile {
  const bytes = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  return isXdatcar(path) ? readXdatcar(text) : readXyz(text);
}

interface OracleFrame {
  symbols: string[];
  positions: number[][];
  cell: number[][] | null;
  pbc?: boolean[];
  energy?: number;
  forces?: number[][];
  stress?: number[];
}
type OracleResult = { frames: OracleFrame[] } | { error: string };
interface OracleFile {
  path: string;
  ase?: OracleResult;
  asePlain?: OracleResult;
  pymatgen?: OracleResult;
  /** The last entry: kBar per eV/Å³ from ase.units (10 / GPa). */
  kbarPerEvA3?: number;
}

const SCRIPT = String.raw`
import json, sys, warnings
warnings.filterwarnings('ignore')
import numpy as np
from ase.io import read
from pymatgen.io.vasp import Xdatcar
from pymatgen.io.xyz import XYZ

def ase_frames(path, fmt):
    try:
        images = read(path, index=':', format=fmt)
    except Exception as e:
        return {'error': type(e).__name__ + ': ' + str(e)[:200]}
    out = []
    for a in images:
        f = {'symbols': a.get_chemical_symbols(), 'positions': a.positions.tolist(),
             'cell': a.cell.array.tolist() if a.cell.rank > 0 else None, 'pbc': [bool(p) for p in a.pbc]}
        if a.calc is not None:
            r = a.calc.results
            if 'energy' in r: f['energy'] = float(r['energy'])
            if 'forces' in r: f['forces'] = np.asarray(r['forces']).tolist()
            if 'stress' in r: f['stress'] = np.asarray(r['stress']).tolist()
        out.append(f)
    return {'frames': out}

def pmg_frames(path, xdatcar):
    try:
        if xdatcar:
            return {'frames': [{'symbols': [s.specie.symbol for s in st], 'positions': st.cart_coords.tolist(),
                                'cell': st.lattice.matrix.tolist()} for st in Xdatcar(path).structures]}
        return {'frames': [{'symbols': [s.specie.symbol for s in m], 'positions': m.cart_coords.tolist(), 'cell': None}
                           for m in XYZ.from_file(path).all_molecules]}
    except Exception as e:
        return {'error': type(e).__name__ + ': ' + str(e)[:200]}

out = []
for line in sys.stdin.read().split('\n'):
    if not line: continue
    kind, path = line.split('\t')
    if kind == 'xdatcar':
        out.append({'path': path, 'ase': ase_frames(path, 'vasp-xdatcar'), 'pymatgen': pmg_frames(path, True)})
    elif kind == 'xyz':
        out.append({'path': path, 'ase': ase_frames(path, 'extxyz'), 'asePlain': ase_frames(path, 'xyz'), 'pymatgen': pmg_frames(path, False)})
    else:
        out.append({'path': path, 'ase': ase_frames(path, 'extxyz')})
import ase.units
out.append({'path': '__units__', 'kbarPerEvA3': 10 / ase.units.GPa})
print(json.dumps(out))
`;

/** Every file read by both libraries in one python run; undefined (with the reason) when they cannot run. */
function runOracles(requests: [string, string][]): OracleFile[] | string {
  const run = spawnSync(PYTHON, ['-c', SCRIPT], {
    input: requests.map(([kind, path]) => `${kind}\t${path}`).join('\n'),
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    timeout: 300_000,
  });
  if (run.status !== 0) return `${PYTHON} cannot run ASE and pymatgen (${(run.stderr || String(run.error)).trim().split('\n').pop()})`;
  return JSON.parse(run.stdout) as OracleFile[];
}

/**
 * Files on which the libraries disagree with each other or with us, and what each does; the key is the
 * path below the test-files folder. 'refuses' means the library raises; a number is the frames it reads.
 * Everything not listed: ASE's extxyz (or vasp-xdatcar) and pymatgen read the same frames as we do.
 */
const DDEC =
  "Chargemol output: a frame, a blank line, then a report; ASE's plain reader fails at the blank line, ASE's extxyz stops there, pymatgen ignores the report: we keep the frame and warn that the report is ignored";
const DIFFERENCES: Record<string, { ase?: 'refuses' | number; asePlain?: 'refuses'; pymatgen?: 'refuses'; ours: number; why: string }> = {
  Traj_XDATCAR: {
    ase: 'refuses',
    ours: 100,
    why: 'an element label after each coordinate triple: ASE reads it as a number and fails, pymatgen ignores it, as we do',
  },
  Traj_Combine_Test_XDATCAR_1: { ase: 'refuses', ours: 100, why: 'labels after the coordinates, as Traj_XDATCAR' },
  Traj_Combine_Test_XDATCAR_2: { ase: 'refuses', ours: 100, why: 'labels after the coordinates, as Traj_XDATCAR' },
  Traj_Combine_Test_XDATCAR_Full: { ase: 'refuses', ours: 200, why: 'labels after the coordinates, as Traj_XDATCAR' },
  XDATCAR_4: {
    ase: 1,
    ours: 4,
    why: "blank lines instead of 'Direct configuration=' lines: ASE stops after the first configuration, pymatgen reads all four, as we do",
  },
  'chargemol/spin_polarized/DDEC6_even_tempered_atomic_spin_moments.xyz': { asePlain: 'refuses', ours: 1, why: DDEC },
  'chargemol/spin_polarized/DDEC6_even_tempered_bond_orders.xyz': { asePlain: 'refuses', ours: 1, why: DDEC },
  'chargemol/spin_polarized/DDEC6_even_tempered_net_atomic_charges.xyz': { asePlain: 'refuses', ours: 1, why: DDEC },
  'chargemol/spin_polarized/DDEC_atomic_Rcubed_moments.xyz': { asePlain: 'refuses', ours: 1, why: DDEC },
  'chargemol/spin_polarized/DDEC_atomic_Rfourth_moments.xyz': { asePlain: 'refuses', ours: 1, why: DDEC },
  'chargemol/spin_polarized/DDEC_atomic_Rsquared_moments.xyz': { asePlain: 'refuses', ours: 1, why: DDEC },
  'chargemol/spin_unpolarized/DDEC6_even_tempered_bond_orders.xyz': { asePlain: 'refuses', ours: 1, why: DDEC },
  'chargemol/spin_unpolarized/DDEC6_even_tempered_net_atomic_charges.xyz': { asePlain: 'refuses', ours: 1, why: DDEC },
  'chargemol/spin_unpolarized/DDEC_atomic_Rcubed_moments.xyz': { asePlain: 'refuses', ours: 1, why: DDEC },
  'chargemol/spin_unpolarized/DDEC_atomic_Rfourth_moments.xyz': { asePlain: 'refuses', ours: 1, why: DDEC },
  'chargemol/spin_unpolarized/DDEC_atomic_Rsquared_moments.xyz': { asePlain: 'refuses', ours: 1, why: DDEC },
  'chargemol/spin_unpolarized/overlap_populations.xyz': {
    ase: 'refuses',
    asePlain: 'refuses',
    pymatgen: 'refuses',
    ours: 0,
    why: 'a table of overlap populations, no XYZ frame: every reader refuses it; we report errors on its lines',
  },
  'lammps/peo_bulk.xyz': {
    asePlain: 'refuses',
    ours: 1,
    why: "a blank line after the frame: ASE's plain reader takes it for a count line; extxyz, pymatgen and we end there",
  },
  'lammps/peo_head.xyz': { asePlain: 'refuses', ours: 1, why: 'a blank line after the frame, as peo_bulk.xyz' },
  'molecules/structural_change/thiophene1.xyz': { asePlain: 'refuses', ours: 1, why: 'a blank line after the frame, as peo_bulk.xyz' },
  'opls_structure_ext.xyz': {
    asePlain: 'refuses',
    ours: 1,
    why: "extended XYZ with a cell: ASE's plain reader fails on the blank line after it; pymatgen reads a molecule (no cell); we follow ASE's extxyz",
  },
};

const keyOf = (path: string) => (path.startsWith(PYMATGEN_FILES) ? relative(PYMATGEN_FILES, path) : basename(path));

function near(a: readonly number[], b: readonly number[], what: string): void {
  assert.equal(a.length, b.length, what);
  a.forEach((v, k) => assert.ok(Math.abs(v - b[k]!) <= TOLERANCE, `${what}: ${a.join(' ')} vs ${b.join(' ')}`));
}

function compareFrames(ours: StructureFrame[], theirs: OracleFrame[], who: string, cells: boolean): void {
  assert.equal(ours.length, theirs.length, `${who}: frames`);
  ours.forEach((frame, i) => {
    const other = theirs[i]!;
    const at = `${who} frame ${i + 1}`;
    assert.equal(frame.positions.length, other.positions.length, `${at}: atoms`);
    assert.deepEqual(frame.species, other.symbols, `${at}: species`);
    frame.positions.forEach((p, k) => near(p, other.positions[k]!, `${at} atom ${k + 1}`));
    if (!cells) return;
    if (other.cell === null) assert.equal(frame.lattice, null, `${at}: no cell`);
    else near(frame.lattice!.flat(), other.cell.flat(), `${at}: cell`);
    if (other.pbc) assert.deepEqual(frame.pbc, other.pbc, `${at}: pbc`);
    if (other.energy !== undefined) assert.equal(frame.energy, other.energy, `${at}: energy`);
    if (other.forces) frame.forces!.forEach((f, k) => near(f, other.forces![k]!, `${at} force ${k + 1}`));
  });
}

test('XYZ, extended XYZ and XDATCAR files from pymatgen and ASE read as ASE and pymatgen read them', (t) => {
  if (!existsSync(PYMATGEN_FILES)) return t.skip(`pymatgen's test files ${MISSING}`);
  const files = realFiles();
  assert.ok(files.length >= 100, `${files.length} files`);
  const work = mkdtempSync(join(tmpdir(), 'traj-oracle-'));
  try {
    // writeExtxyz on frames read from the real files, with forces, an energy and a stress added, for ASE to read back.
    const written = roundTripFrames(files);
    const roundTripPath = join(work, 'roundtrip.extxyz');
    writeFileSync(roundTripPath, writeExtxyz(written));
    const oracles = runOracles([
      ...files.map((f): [string, string] => [isXdatcar(f) ? 'xdatcar' : 'xyz', f]),
      ['roundtrip', roundTripPath],
    ]);
    if (typeof oracles === 'string') return t.skip(`${oracles}: ${MISSING}`);
    let compared = 0;
    const units = oracles.pop()!;
    // 1 eV/Å³ = 160.21766208 GPa in ase.units (CODATA 2014): the factor frameSpec.ts converts stress= with.
    assert.equal(KBAR_PER_EV_A3, units.kbarPerEvA3);
    for (const oracle of oracles.slice(0, -1)) {
      const key = keyOf(oracle.path);
      const ours = readOurs(oracle.path);
      const known = DIFFERENCES[key];
      const check = (who: 'ase' | 'asePlain' | 'pymatgen', result: OracleResult | undefined, cells: boolean) => {
        if (!result) return;
        const expected = known?.[who];
        if ('error' in result) {
          assert.equal(expected, 'refuses', `${key}: ${who} refuses it (${result.error}) but the table does not say so`);
          return;
        }
        assert.notEqual(expected, 'refuses', `${key}: the table says ${who} refuses it, but it reads it`);
        if (typeof expected === 'number') {
          assert.equal(result.frames.length, expected, `${key}: ${who} reads ${result.frames.length} frames, the table says ${expected}`);
          compareFrames(ours.frames.slice(0, expected), result.frames, `${key} (${who})`, cells);
          return;
        }
        compareFrames(ours.frames, result.frames, `${key} (${who})`, cells);
        compared++;
      };
      check('ase', oracle.ase, true);
      check('asePlain', oracle.asePlain, true);
      check('pymatgen', oracle.pymatgen, isXdatcar(key));
      if (known) assert.equal(ours.frames.length, known.ours, `${key}: our frames`);
      const errors = ours.diagnostics.filter((d) => d.severity === 'error');
      if (known?.ours !== 0) assert.deepEqual(errors, [], `${key}: no errors on a file the libraries read`);
    }
    assert.ok(compared > 150, `${compared} comparisons`);
    // ASE reads back what writeExtxyz wrote: the same cell, pbc, positions, forces, energy and stress, bit for bit.
    const back = oracles[oracles.length - 1]!.ase!;
    assert.ok('frames' in back, JSON.stringify(back));
    assert.equal(back.frames.length, written.length);
    written.forEach((frame, i) => {
      const other = back.frames[i]!;
      // Exact, but for the sign of zero: JavaScript writes -0 as 0.
      const z = (m: readonly (readonly number[])[] | null) => m && m.map((r) => r.map((v) => v + 0));
      assert.deepEqual(other.positions, z(frame.positions), `round trip frame ${i + 1}: positions`);
      assert.deepEqual(other.cell, z(frame.lattice), `round trip frame ${i + 1}: cell`);
      assert.deepEqual(other.pbc, frame.pbc, `round trip frame ${i + 1}: pbc`);
      assert.deepEqual(other.symbols, frame.species);
      assert.equal(other.energy, frame.energy);
      assert.deepEqual(other.forces, z(frame.forces!), `round trip frame ${i + 1}: forces`);
      // ASE's Voigt stress in eV/Å³ = −(our kBar) / 1602.1766208 (1 eV/Å³ = 160.21766208 GPa, ase.units).
      const s = frame.stress!;
      near(
        other.stress!,
        [s[0][0], s[1][1], s[2][2], s[1][2], s[0][2], s[0][1]].map((v) => -v / KBAR_PER_EV_A3),
        `round trip frame ${i + 1}: stress`,
      );
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

/** Frames of real files (cells from XDATCARs, molecules from XYZ files) given forces, energies and stresses. */
function roundTripFrames(files: string[]): StructureFrame[] {
  const frames: StructureFrame[] = [];
  const pick = (name: string) => files.find((f) => f.endsWith(name));
  const sources = ['XDATCAR_6', 'XDATCAR.MD', 'molecules/c60.xyz', 'opls_structure_ext.xyz']
    .map(pick)
    .filter((f): f is string => f !== undefined);
  sources.forEach((path, s) => {
    for (const frame of readOurs(path).frames.slice(0, 3)) {
      const k = frames.length + 1;
      const forces = frame.positions.map((p): Vec3 => [p[1] / 7 - 0.1 * k, -p[0] / 3, p[2] * 1e-3]);
      const stress: Mat3 = [
        [k, 0.5, -0.25],
        [0.5, -2 * k, 1 / 3],
        [-0.25, 1 / 3, 3.5],
      ];
      frames.push({
        ...frame,
        pbc: frame.lattice ? [true, s % 2 === 0, true] : [false, false, false],
        energy: -1.234567891 * k * (s + 1),
        forces,
        stress,
      });
    }
  });
  return frames;
}
