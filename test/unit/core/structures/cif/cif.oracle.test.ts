/**
 * readCif next to the two readers a user would otherwise use, on real files no one here wrote:
 *
 * - Files: every `.cif` under /usr/share/doc/pymatgen-test-files/examples/test_files (Debian's
 *   pymatgen-test-files: pymatgen's test files, MIT; the COD files among them CC0; see
 *   /usr/share/doc/pymatgen-test-files/copyright). Read from where the package puts them, never copied.
 * - Oracles: ASE 3.22 (`ase.io.read(f, format='cif', index=':')`) and pymatgen 2022.11
 *   (`CifParser(f)`, each block through `_get_structure(block, primitive=False)`, which is what
 *   `get_structures(primitive=False)` does block by block), from Debian's python3-ase and python3-pymatgen
 *   in /usr/bin/python3, in ONE subprocess for the whole run (JSON out).
 *
 * Read with the space-group table (moyo, spaceGroupTable.ts), as the editor reads them.
 *
 * Compared per block: the number of positions (pymatgen merges sites on one position into one disordered
 * site, ASE keeps the first: we count distinct positions), the composition (pymatgen, occupancy-weighted),
 * the six cell parameters (1e-6 relative), the cell matrix (ASE builds it in the same orientation: 1e-9 Å),
 * and every position (fractional, periodic, 1e-3 as the merge tolerance; with the element for ASE on
 * ordered blocks). Where ASE or pymatgen fails or disagrees, EXCEPTIONS says why and which we follow; the
 * test checks each exception still happens, so the table cannot go stale.
 *
 * Round trip: every frame writeCif writes (P1) is read back by ASE and pymatgen: same atoms, formula, cell
 * and positions.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { cartToFrac, latticeParameters } from '../../../../../src/core/poscar/structure';
import { readCif, writeCif } from '../../../../../src/core/structures/cif/index';
import type { StructureFile, StructureFrame } from '../../../../../src/core/structures/types';
import { moyoSpaceGroups } from '../../../../support/spaceGroupTable';
import { importsOrExit, oracleMissing, PYTHON } from '../../../../support/python';

const ROOT = '/usr/share/doc/pymatgen-test-files/examples/test_files';
const INSTALL = 'apt-get install pymatgen-test-files python3-ase python3-pymatgen';

/** Where an oracle fails or disagrees, why, and what we do. Keyed by file (relative to ROOT). */
const EXCEPTIONS: Record<string, { ase?: string; pymatgen?: string; reason: string }> = {
  'Cod_2100513.cif': {
    ase: 'error',
    reason:
      "type symbols in capitals ('AL', 'NB'): ASE takes [A-Z][a-z]? and finds no element 'A'; pymatgen title-cases the first two letters (Al, Nb), and so do we",
  },
  'Cod_4115344.cif': {
    ase: 'error',
    reason: "type symbols in capitals ('MN'): ASE finds no element 'M'; we follow pymatgen (Mn)",
  },
  'ICSD59959.cif': {
    ase: 'error',
    reason:
      "ICSD writes '.' for a coordinate fixed at 0: ASE keeps it as text and fails; pymatgen reads 0 and so do we (with a dot-coordinate warning)",
  },
  'OneLineSymmP1.cif': {
    ase: 'error',
    reason:
      'one symmetry operation as a single item (no loop) and no space-group name: ASE fails to build a space group; pymatgen and we read the one operation',
  },
  'Senegalite_implicit_hydrogen.cif': {
    ase: 'error',
    reason:
      "a water site labelled 'Wat': ASE finds no element 'Wa'; pymatgen reads O (its water shorthand) and so do we, and we warn about the attached hydrogens",
  },
  'bad_occu.cif': {
    pymatgen: 'error',
    reason:
      'occupancies on shared positions add up to 1.556: pymatgen refuses the structure; ASE reads it and so do we, with an overfull-position warning',
  },
  'nosymm.cif': {
    ase: 'error',
    reason:
      "names space group 'P 1 21/n 1' without symmetry operations: ASE does not know the setting and fails; pymatgen generates the 4 operations from the symbol (164 atoms), and so do we from moyo's table (without it we read the 41 sites as written and warn that they may be only the asymmetric unit)",
  },
  'srycoo.cif': {
    ase: 'error',
    reason:
      'a quoted value spans lines (not CIF 1.1): ASE fails; pymatgen and we read the structure, and we report the unterminated quotes',
  },
};

interface OracleBlock {
  n: number;
  symbols?: string[];
  comp?: Record<string, number>;
  cell: number[];
  matrix?: number[][];
  frac: number[][];
  error?: string;
}
interface OracleFile {
  file: string;
  ase: OracleBlock[] | { error: string };
  pmg: Record<string, OracleBlock | null> | { error: string };
}
interface RoundTrip {
  file: string;
  ase: OracleBlock | { error: string };
  pmg: OracleBlock | { error: string };
}

const SCRIPT = String.raw`
import json, os, sys, warnings
warnings.simplefilter('ignore')
${importsOrExit('numpy as np', 'ase.io', 'pymatgen.io.cif')}
from ase.io import read as ase_read
from pymatgen.io.cif import CifParser

def cellpar(m):
    n = [float(np.linalg.norm(v)) for v in m]
    ang = lambda u, v: float(np.degrees(np.arccos(np.clip(np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v), -1, 1))))
    return n + [ang(m[1], m[2]), ang(m[0], m[2]), ang(m[0], m[1])]

def ase_blocks(f):
    try:
        return [{'n': len(a), 'symbols': a.get_chemical_symbols(), 'cell': cellpar(a.cell[:]), 'matrix': a.cell[:].tolist(),
                 'frac': a.get_scaled_positions(wrap=True).tolist()} for a in ase_read(f, format='cif', index=':')]
    except Exception as e:
        return {'error': (type(e).__name__ + ': ' + str(e))[:300]}

def pmg_structure(s):
    return {'n': len(s), 'comp': s.composition.fractional_composition.get_el_amt_dict(),
            'cell': list(s.lattice.abc) + list(s.lattice.angles), 'frac': [list(map(float, x.frac_coords)) for x in s]}

def pmg_blocks(f):
    try:
        p = CifParser(f)
    except Exception as e:
        return {'error': (type(e).__name__ + ': ' + str(e))[:300]}
    out = {}
    for name, d in p._cif.data.items():
        try:
            s = p._get_structure(d, primitive=False, symmetrized=False)
            out[name] = None if s is None else pmg_structure(s)
        except Exception as e:
            out[name] = {'error': (type(e).__name__ + ': ' + str(e))[:300]}
    return out

root, written = sys.argv[1], sys.argv[2]
files = sorted(os.path.join(d, n) for d, _, ns in os.walk(root) for n in ns if n.endswith('.cif'))
result = {'files': [{'file': os.path.relpath(f, root), 'ase': ase_blocks(f), 'pmg': pmg_blocks(f)} for f in files], 'roundtrip': []}
for n in sorted(os.listdir(written)):
    f = os.path.join(written, n)
    a = ase_blocks(f)
    try:
        pm = pmg_structure(CifParser(f).get_structures(primitive=False)[0])
    except Exception as e:
        pm = {'error': (type(e).__name__ + ': ' + str(e))[:300]}
    result['roundtrip'].append({'file': n, 'ase': a[0] if isinstance(a, list) else a, 'pmg': pm})
print(json.dumps(result))
`;

function cifFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? cifFiles(path) : name.endsWith('.cif') ? [path] : [];
    })
    .sort();
}

const isError = (v: unknown): v is { error: string } => typeof v === 'object' && v !== null && 'error' in v;
const periodicClose = (a: number[], b: number[], tol: number) =>
  a.every((v, i) => {
    const d = Math.abs(v - b[i]!);
    return d < tol || Math.abs(d - 1) < tol;
  });
const wrap = (v: number) => {
  const w = v - Math.floor(v);
  return w >= 1 ? 0 : w;
};
const fracOf = (frame: StructureFrame) => frame.positions.map((p) => cartToFrac(frame.lattice!, p).map(wrap));

/** One index per distinct position (the first site there), as ASE keeps them. */
function distinct(frame: StructureFrame): number[] {
  const fr = fracOf(frame);
  const kept: number[] = [];
  const buckets = new Map<string, number[]>();
  const key = (f: number[]) => f.map((v) => Math.floor(v * 500) % 500);
  fr.forEach((f, i) => {
    const [x, y, z] = key(f);
    for (const dx of [-1, 0, 1])
      for (const dy of [-1, 0, 1])
        for (const dz of [-1, 0, 1])
          for (const j of buckets.get([(x! + dx + 500) % 500, (y! + dy + 500) % 500, (z! + dz + 500) % 500].join()) ?? [])
            if (periodicClose(fr[j]!, f, 1e-3)) return;
    kept.push(i);
    const k = [x, y, z].join();
    buckets.set(k, [...(buckets.get(k) ?? []), i]);
  });
  return kept;
}

/** Every oracle position has one of ours within tol (and, given symbols, the same element). */
function matchPositions(
  ours: number[][],
  oursSymbols: string[] | undefined,
  theirs: number[][],
  theirSymbols: string[] | undefined,
  tol: number,
): string | undefined {
  for (let i = 0; i < theirs.length; i++) {
    const j = ours.findIndex(
      (f, k) => periodicClose(f, theirs[i]!, tol) && (!theirSymbols || !oursSymbols || oursSymbols[k] === theirSymbols[i]),
    );
    if (j < 0) return `no site of ours at ${theirs[i]!.map((v) => v.toFixed(4)).join(' ')}${theirSymbols ? ` (${theirSymbols[i]})` : ''}`;
  }
  return undefined;
}

function composition(frame: StructureFrame): Record<string, number> {
  const amounts: Record<string, number> = {};
  let total = 0;
  frame.species.forEach((s, i) => {
    const o = frame.occupancy?.[i] ?? 1;
    amounts[s] = (amounts[s] ?? 0) + o;
    total += o;
  });
  for (const k of Object.keys(amounts)) amounts[k] = amounts[k]! / total;
  return amounts;
}

const cellOf = (frame: StructureFrame) => {
  const p = latticeParameters(frame.lattice!);
  return [p.a, p.b, p.c, p.alpha, p.beta, p.gamma];
};
const cellDiff = (a: number[], b: number[]) => a.findIndex((v, i) => Math.abs(v - b[i]!) > 1e-6 * Math.max(1, Math.abs(v)));

/** Problems comparing one of our frames with an oracle's block; empty when they agree. */
function compare(frame: StructureFrame, other: OracleBlock, oracle: 'ase' | 'pymatgen'): string[] {
  const problems: string[] = [];
  const keep = distinct(frame);
  if (other.n !== keep.length) problems.push(`${oracle}: ${other.n} positions, ours ${keep.length}`);
  const ours = cellOf(frame);
  if (cellDiff(ours, other.cell) >= 0) problems.push(`${oracle}: cell ${other.cell.join(' ')}, ours ${ours.join(' ')}`);
  if (other.matrix)
    other.matrix.forEach((row, i) =>
      row.forEach(
        (v, k) =>
          Math.abs(v - frame.lattice![i]![k]!) > 1e-9 &&
          problems.push(`${oracle}: cell matrix [${i}][${k}] ${v}, ours ${frame.lattice![i]![k]}`),
      ),
    );
  if (other.comp) {
    const mine = composition(frame);
    for (const el of new Set([...Object.keys(mine), ...Object.keys(other.comp)]))
      if (Math.abs((mine[el] ?? 0) - (other.comp[el] ?? 0)) > 1e-3)
        problems.push(`${oracle}: composition ${JSON.stringify(other.comp)}, ours ${JSON.stringify(mine)}`);
  }
  const fr = fracOf(frame);
  const ordered = !frame.occupancy;
  const missing = matchPositions(
    keep.map((i) => fr[i]!),
    ordered ? keep.map((i) => frame.species[i]!) : undefined,
    other.frac,
    ordered ? other.symbols : undefined,
    1e-3,
  );
  if (missing) problems.push(`${oracle}: ${missing}`);
  return problems;
}

type Run = {
  ours: Map<string, StructureFile>;
  oracle: { files: OracleFile[]; roundtrip: RoundTrip[] };
  written: Map<string, StructureFrame>;
};
let cache: Run | string | undefined;

/** Our reading and the oracles' of every file, or why they cannot run (the test then skips, saying so). */
async function run(): Promise<Run | string> {
  cache ??= existsSync(ROOT) ? await compute() : `pymatgen's test files are not installed (${ROOT}): ${INSTALL}`;
  return cache;
}

async function compute(): Promise<Run | string> {
  const spaceGroups = await moyoSpaceGroups();
  const ours = new Map<string, StructureFile>();
  const written = new Map<string, StructureFrame>();
  const dir = mkdtempSync(join(tmpdir(), 'cif-roundtrip-'));
  try {
    for (const path of cifFiles(ROOT)) {
      const file = relative(ROOT, path);
      const result = readCif(readFileSync(path, 'latin1'), { spaceGroups });
      ours.set(file, result);
      result.frames.forEach((frame, i) => {
        const name = `${file.replace(/[^A-Za-z0-9]+/g, '_')}_${i}.cif`;
        writeFileSync(join(dir, name), writeCif(frame));
        written.set(name, frame);
      });
    }
    const py = spawnSync(PYTHON, ['-c', SCRIPT, ROOT, dir], { encoding: 'utf8', maxBuffer: 256 << 20, timeout: 300_000 });
    if (oracleMissing(py)) return `ASE and pymatgen are not installed for ${PYTHON}: ${INSTALL}`;
    assert.equal(py.status, 0, py.stderr);
    return { ours, oracle: JSON.parse(py.stdout) as { files: OracleFile[]; roundtrip: RoundTrip[] }, written };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('every CIF in pymatgen-test-files: readCif agrees with ASE and pymatgen, or the disagreement is a listed exception', async (t) => {
  const got = await run();
  if (typeof got === 'string') return t.skip(got);
  const { ours, oracle } = got;
  assert.ok(oracle.files.length >= 80, `${oracle.files.length} files`);
  const failures: string[] = [];
  let compared = 0;
  for (const record of oracle.files) {
    const result = ours.get(record.file);
    assert.ok(result, record.file);
    const exception = EXCEPTIONS[record.file];
    const problems: string[] = [];
    // ASE: one image per block with a structure, in order.
    if (isError(record.ase)) {
      if (exception?.ase !== 'error') problems.push(`ASE failed: ${record.ase.error}`);
    } else {
      if (exception?.ase === 'error') problems.push('ASE no longer fails: update EXCEPTIONS');
      if (record.ase.length !== result.frames.length) problems.push(`ASE: ${record.ase.length} structures, ours ${result.frames.length}`);
      record.ase.forEach((block, i) => result.frames[i] && problems.push(...compare(result.frames[i], block, 'ase')));
      compared += record.ase.length;
    }
    // pymatgen: by block name.
    if (isError(record.pmg)) problems.push(`pymatgen failed: ${record.pmg.error}`);
    else {
      let disagreed = false;
      for (const [name, block] of Object.entries(record.pmg)) {
        const frame = result.frames.find((f) => f.title === name);
        if (block === null) {
          if (frame) problems.push(`pymatgen: no structure in block ${name}, ours has ${frame.positions.length} atoms`);
          continue;
        }
        if (isError(block)) {
          if (exception?.pymatgen !== 'error') problems.push(`pymatgen failed on block ${name}: ${block.error}`);
          continue;
        }
        if (exception?.pymatgen === 'error') problems.push('pymatgen no longer fails: update EXCEPTIONS');
        if (!frame) {
          problems.push(`pymatgen: block ${name} has ${block.n} atoms, ours no structure`);
          continue;
        }
        const found = compare(frame, block, 'pymatgen');
        if (exception?.pymatgen === 'disagrees') disagreed ||= found.length > 0;
        else problems.push(...found);
        compared++;
      }
      if (exception?.pymatgen === 'disagrees' && !disagreed) problems.push('pymatgen now agrees: update EXCEPTIONS');
    }
    if (problems.length) failures.push(`${record.file}:\n    ${problems.join('\n    ')}`);
  }
  assert.deepEqual(failures, []);
  assert.ok(compared >= 150, `${compared} block comparisons`);
  for (const file of Object.keys(EXCEPTIONS)) assert.ok(ours.has(file), `EXCEPTIONS names ${file}, which is not among the files`);
});

test('the exceptions are what they say: our diagnostics on those files', async (t) => {
  const got = await run();
  if (typeof got === 'string') return t.skip(got);
  const { ours } = got;
  const codes = (file: string) => new Set(ours.get(file)!.diagnostics.map((d) => d.code));
  assert.ok(codes('ICSD59959.cif').has('dot-coordinate'));
  assert.ok(codes('bad_occu.cif').has('overfull-position'));
  assert.ok(codes('nosymm.cif').has('operations-from-symbol'));
  assert.ok(codes('srycoo.cif').has('unterminated-quote'));
  assert.ok(codes('Senegalite_implicit_hydrogen.cif').has('implicit-hydrogens'));
  assert.equal(ours.get('nosymm.cif')!.frames[0]!.positions.length, 164);
  // Without the space-group table: the sites as written, with a warning.
  const alone = readCif(readFileSync(join(ROOT, 'nosymm.cif'), 'latin1'));
  assert.equal(alone.frames[0]!.positions.length, 41);
  assert.ok(alone.diagnostics.some((d) => d.code === 'asymmetric-unit-only'));
});

test('round trip: every frame writeCif writes is read back by ASE and pymatgen with the same atoms, formula, cell and positions', async (t) => {
  const got = await run();
  if (typeof got === 'string') return t.skip(got);
  const { oracle, written } = got;
  assert.equal(oracle.roundtrip.length, written.size);
  assert.ok(written.size >= 80, `${written.size} frames written`);
  const failures: string[] = [];
  for (const record of oracle.roundtrip) {
    const frame = written.get(record.file)!;
    const problems: string[] = [];
    for (const [name, block] of [
      ['ase', record.ase],
      ['pymatgen', record.pmg],
    ] as const) {
      if (isError(block)) {
        // pymatgen refuses occupancies adding up to more than 1 (bad_occu.cif), as on the original file.
        if (!(name === 'pymatgen' && record.file.startsWith('bad_occu'))) problems.push(`${name} failed: ${block.error}`);
        continue;
      }
      problems.push(...compare(frame, block, name).filter((p) => !p.includes('cell matrix')));
      // Positions to 1e-6 (ten decimals are written), the other way round too: each of our sites is theirs.
      const ours = fracOf(frame);
      const keep = distinct(frame).map((i) => ours[i]!);
      // pymatgen rounds coordinates within 1e-4 (relative) of 1/3 and 2/3 to those values (CifParser._sanitize_data),
      // so it moves 0.3333 by up to 3.4e-5; ASE keeps them as written.
      const miss = matchPositions(block.frac, undefined, keep, undefined, name === 'pymatgen' ? 1e-4 : 1e-6);
      if (miss) problems.push(`${name}: ${miss.replace('of ours', 'of theirs')}`);
    }
    if (problems.length) failures.push(`${record.file}:\n    ${problems.join('\n    ')}`);
  }
  assert.deepEqual(failures, []);
});
