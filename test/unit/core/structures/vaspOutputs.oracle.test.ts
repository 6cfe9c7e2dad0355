/**
 * readOutcar and readVasprun against the field's reference readers on real VASP outputs.
 *
 * Files: every OUTCAR* and vasprun*.xml* under /usr/share/doc/pymatgen-test-files/examples/test_files
 * (recursively; the .gz ones through zlib here), from Debian's pymatgen-test-files package: pymatgen's test
 * files (MIT, see /usr/share/doc/pymatgen-test-files/copyright). Read where the package puts them, never
 * copied into this repository.
 *
 * Oracles (Debian's /usr/bin/python3, one subprocess per run writing JSON):
 * - pymatgen 2022.11 `Vasprun(f, parse_potcar_file=False)`: ionic_steps (e_fr_energy, forces, stress,
 *   structure: lattice, Cartesian coordinates, species, selective dynamics), final_energy,
 *   eigenvalue_band_properties (and with separate_spins for ISPIN=2), efermi, converged_ionic, EDIFFG;
 *   `Outcar(f)`: final_energy (energy(sigma->0)), final_fr_energy (TOTEN), efermi.
 * - ASE 3.22 `ase.io.read(f, index=':', format='vasp-xml' | 'vasp-out')`: per image the energy
 *   (sigma->0), free energy, forces, stress (converted back to kBar), cell, positions, symbols, natoms.
 *
 * Where we and they disagree, on purpose (the test checks that the disagreement is the one listed):
 *
 * | file(s)                          | they                                               | we                                         |
 * |----------------------------------|----------------------------------------------------|--------------------------------------------|
 * | OUTCAR.Al                        | ASE: ParseError (the energy block comes before the | read the step: the positions after the     |
 * |                                  | POSITION block in this VASP 5 single point)        | energy close it                            |
 * | OUTCAR.electrostaticerror.gz     | ASE: ValueError in its magnetisation parser (the   | the 19 complete steps and a warning        |
 * |                                  | run stopped inside step 20)                        | 'outcar-truncated'                         |
 * | any truncated OUTCAR             | pymatgen final_energy: the last 'energy(sigma->0)' | the last complete ionic step's             |
 * |                                  | anywhere, an electronic step's in a cut file       |                                            |
 * | vasprun.xml: finalpos            | pymatgen/ASE: not an ionic step                    | an extra frame 'final structure' when it   |
 * |                                  |                                                    | differs from the last step's structure     |
 * | vasprun.xml with a <calculation> | pymatgen: a step with structure None; ASE raises   | no frame for it (nothing to show); steps   |
 * | without a structure (GW, BSE)    |                                                    | keep their numbers ('step N' = N-th)       |
 * | vasprun.xml selective dynamics   | pymatgen: only on the structures that list it      | every step keeps the initial flags         |
 * |                                  | (initialpos, finalpos)                             | (VASP fixes atoms for the whole run)       |
 * | any file pymatgen or ASE rejects | an exception                                       | whatever is readable, with diagnostics     |
 * | OUTCAR Fermi energy (OUTCAR.CL,  | pymatgen's Outcar.efermi: its reverse scan stops   | the last 'E-fermi' line, as ASE's last     |
 * | OUTCAR.etest*, ...)              | only once it has also seen 'number of electron …   | image's get_fermi_level() (checked)        |
 * |                                  | magnetization'; without one it ends at the FIRST   |                                            |
 * |                                  | E-fermi of the file                                |                                            |
 * | vasprun.xml.xe ('X' in atominfo) | ASE: 'X' (its dummy atom); pymatgen: Xe            | Xe, as pymatgen (VASP cuts 'Xe' to 'X')    |
 * | nmr/…/vasprun.xml.chemical_shift | pymatgen (LCHIMAG): the <scstep>s of the one       | one step, its own energy                   |
 * |   .scstep                        | calculation split into pseudo ionic steps; its     |                                            |
 * |                                  | final_energy is the last pseudo step's             |                                            |
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { readOutcar } from '../../../../src/core/structures/outcar/index';
import type { StructureFile, StructureFrame } from '../../../../src/core/structures/types';
import { readVasprun } from '../../../../src/core/structures/vasprun/index';
import { PYTHON } from '../../../support/python';

const ROOT = '/usr/share/doc/pymatgen-test-files/examples/test_files';
const MISSING = 'not installed: apt-get install pymatgen-test-files python3-pymatgen python3-ase';
/** Larger files (uncompressed) are left to the benchmark: pymatgen and ASE take minutes on the dozen of them. */
const MAX_BYTES = 4 << 20;

/** Files where a reference reader is known to fail and we read on (see the table above). */
const KNOWN_FAILURES: Record<string, { reader: 'ase' | 'pymatgen'; frames: number; code?: string }> = {
  'OUTCAR.Al': { reader: 'ase', frames: 1 },
  'OUTCAR.electrostaticerror.gz': { reader: 'ase', frames: 19, code: 'outcar-truncated' },
};

/** Checks left out for a file, each for a reason in the table above. */
const SKIP: Record<string, string[]> = {
  'vasprun.xml.xe': ['ase species'],
  'nmr/cs/basic/vasprun.xml.chemical_shift.scstep': ['pymatgen final_energy'],
};

const SCRIPT = String.raw`
import json, os, sys, warnings
warnings.filterwarnings('ignore')
import numpy as np
from ase.units import GPa
def ase_part(f, fmt):
    import ase.io
    out = []
    for a in ase.io.read(f, index=':', format=fmt):
        r = {'natoms': len(a), 'cell': a.cell.array.tolist(), 'positions': a.positions.tolist(), 'symbols': a.get_chemical_symbols()}
        res = a.calc.results if a.calc is not None else {}
        if 'energy' in res: r['energy'] = float(res['energy'])
        if 'free_energy' in res: r['free_energy'] = float(res['free_energy'])
        if res.get('forces') is not None: r['forces'] = np.asarray(res['forces']).tolist()
        if res.get('stress') is not None: r['stress_kB'] = (-np.asarray(res['stress']) / (0.1 * GPa)).tolist()
        try: r['efermi'] = float(a.calc.get_fermi_level())
        except Exception: pass
        out.append(r)
    return out
def pmg_vasprun(f):
    from pymatgen.io.vasp import Vasprun
    v = Vasprun(f, parse_potcar_file=False)
    steps = []
    for s in v.ionic_steps:
        st = s.get('structure')
        sd = st.site_properties.get('selective_dynamics') if st is not None else None
        steps.append({'e_fr_energy': s.get('e_fr_energy'), 'forces': s.get('forces'), 'stress': s.get('stress'),
            'lattice': st.lattice.matrix.tolist() if st is not None else None,
            'cart': st.cart_coords.tolist() if st is not None else None,
            'species': [str(x.specie) for x in st] if st is not None else None,
            'selective': [[bool(b) for b in x] for x in sd] if sd is not None else None})
    r = {'steps': steps, 'efermi': v.efermi, 'converged_ionic': bool(v.converged_ionic), 'ediffg': v.parameters.get('EDIFFG')}
    try: r['final_energy'] = float(v.final_energy)
    except Exception: pass
    if v.eigenvalues is not None:
        g, c, vb, d = v.eigenvalue_band_properties
        r['band'] = {'gap': float(g), 'cbm': float(c), 'vbm': float(vb), 'direct': bool(d)}
        if len(v.eigenvalues) == 2:
            v.separate_spins = True
            g, c, vb, d = v.eigenvalue_band_properties
            r['band']['spins'] = [{'gap': float(g[i]), 'cbm': float(c[i]), 'vbm': float(vb[i]), 'direct': bool(d[i])} for i in range(2)]
    return r
def pmg_outcar(f):
    from pymatgen.io.vasp import Outcar
    o = Outcar(f)
    return {'final_energy': o.final_energy, 'final_fr_energy': o.final_fr_energy, 'efermi': o.efermi}
out = {}
for f in sys.argv[1:]:
    kind = 'vasprun' if 'vasprun' in os.path.basename(f) else 'outcar'
    rec = {}
    for key, fn in (('pymatgen', pmg_vasprun if kind == 'vasprun' else pmg_outcar), ('ase', lambda f: ase_part(f, 'vasp-xml' if kind == 'vasprun' else 'vasp-out'))):
        try: rec[key] = fn(f)
        except Exception as e: rec[key] = {'error': type(e).__name__ + ': ' + str(e)[:200]}
    out[f] = rec
def clean(x):
    # JSON has no NaN or Infinity (pymatgen writes NaN for VASP's '****', inf for a gap without an empty band).
    if hasattr(x, 'tolist'): x = x.tolist()
    if isinstance(x, float): return x if np.isfinite(x) else None
    if isinstance(x, dict): return {k: clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)): return [clean(v) for v in x]
    return x
json.dump(clean(out), sys.stdout)
`;

interface AseImage {
  natoms: number;
  cell: number[][];
  positions: number[][];
  symbols: string[];
  energy?: number;
  free_energy?: number;
  forces?: number[][];
  stress_kB?: number[];
  efermi?: number | null;
}
type Failed = { error: string };
interface PmgVasprun {
  steps: {
    e_fr_energy?: number | null;
    forces?: (number | null)[][];
    stress?: (number | null)[][];
    lattice: number[][] | null;
    cart: number[][] | null;
    species: string[] | null;
    selective: boolean[][] | null;
  }[];
  efermi: number | null;
  converged_ionic: boolean;
  ediffg?: number;
  final_energy?: number;
  band?: { gap: number; cbm: number; vbm: number; direct: boolean; spins?: { gap: number; cbm: number; vbm: number; direct: boolean }[] };
}
interface PmgOutcar {
  final_energy: number | null;
  final_fr_energy: number | null;
  efermi: number | null;
}
type Record_ = { pymatgen: PmgVasprun | PmgOutcar | Failed; ase: AseImage[] | Failed };

const textOf = (path: string) => {
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('latin1');
};

function files(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...files(path));
    else if (
      /OUTCAR|vasprun/.test(entry.name) &&
      !entry.name.endsWith('.py') &&
      statSync(path).size <= MAX_BYTES &&
      textOf(path).length <= MAX_BYTES
    )
      found.push(path);
  }
  return found.sort();
}

let oracle: Record<string, Record_> | undefined | null;
function runOracle(paths: string[]): Record<string, Record_> | undefined {
  if (oracle === undefined) {
    // VASP_ORACLE_CACHE=file keeps the answers between runs while working on the readers (minutes of Python each).
    const cache = process.env.VASP_ORACLE_CACHE;
    if (cache && existsSync(cache)) oracle = JSON.parse(readFileSync(cache, 'utf8')) as Record<string, Record_>;
    else {
      const run = spawnSync(PYTHON, ['-c', SCRIPT, ...paths], { encoding: 'utf8', maxBuffer: 512 << 20, timeout: 1_800_000 });
      oracle = run.status === 0 ? (JSON.parse(run.stdout) as Record<string, Record_>) : null;
      if (run.status !== 0) console.error(run.stderr);
      else if (cache) writeFileSync(cache, run.stdout);
    }
  }
  return oracle ?? undefined;
}

const failed = (x: unknown): x is Failed => typeof x === 'object' && x !== null && 'error' in x;

function close(ours: number | undefined, theirs: number | undefined | null, tolerance: number, what: string): void {
  assert.ok(ours !== undefined && theirs !== undefined && theirs !== null, `${what}: ours ${ours}, theirs ${theirs}`);
  assert.ok(Math.abs(ours - theirs) <= tolerance * Math.max(1, Math.abs(theirs)), `${what}: ours ${ours}, theirs ${theirs}`);
}

function closeAll(
  ours: readonly (readonly number[])[] | undefined,
  theirs: readonly (readonly number[])[] | undefined | null,
  tolerance: number,
  what: string,
): void {
  assert.ok(ours && theirs, `${what}: ours ${ours ? 'read' : 'missing'}, theirs ${theirs ? 'read' : 'missing'}`);
  assert.equal(ours.length, theirs.length, `${what}: rows`);
  ours.forEach((row, i) => row.forEach((x, j) => close(x, theirs[i]![j], tolerance, `${what}[${i}][${j}]`)));
}

/** Our stress (kBar, 3×3) in ASE's Voigt order xx yy zz yz xz xy. */
const voigt = (m: StructureFrame['stress']) => (m ? [m[0][0], m[1][1], m[2][2], m[1][2], m[0][2], m[0][1]] : undefined);

function compareAse(name: string, ours: StructureFrame[], images: AseImage[], skip: readonly string[]): void {
  assert.equal(ours.length, images.length, `${name}: ${ours.length} steps, ASE ${images.length}`);
  images.forEach((image, i) => {
    const frame = ours[i]!;
    const what = `${name} step ${i + 1}`;
    assert.equal(frame.positions.length, image.natoms, `${what}: atoms`);
    if (!skip.includes('ase species')) assert.deepEqual(frame.species, image.symbols, `${what}: species`);
    closeAll(frame.lattice ?? undefined, image.cell, 1e-9, `${what}: cell`);
    closeAll(frame.positions, image.positions, 1e-8, `${what}: positions`);
    if (image.forces) closeAll(frame.forces, image.forces, 1e-9, `${what}: forces`);
    if (image.energy !== undefined) close(frame.energy, image.energy, 1e-10, `${what}: energy`);
    if (image.free_energy !== undefined) close(frame.freeEnergy, image.free_energy, 1e-10, `${what}: free energy`);
    if (image.stress_kB) closeAll([voigt(frame.stress)!], [image.stress_kB], 1e-6, `${what}: stress`);
  });
}

function comparePymatgenVasprun(name: string, file: StructureFile, pmg: PmgVasprun): void {
  const steps = file.frames.filter((f) => f.title.startsWith('step '));
  const withStructure = pmg.steps.map((s, i) => ({ s, i })).filter(({ s }) => s.lattice);
  assert.equal(steps.length, withStructure.length, `${name}: ${steps.length} steps, pymatgen ${withStructure.length} with a structure`);
  withStructure.forEach(({ s, i }, k) => {
    const frame = steps[k]!;
    const what = `${name} step ${i + 1}`;
    assert.equal(frame.title, `step ${i + 1}`);
    closeAll(frame.lattice ?? undefined, s.lattice, 1e-12, `${what}: lattice`);
    closeAll(frame.positions, s.cart, 1e-9, `${what}: positions`);
    assert.deepEqual(frame.species, s.species, `${what}: species`);
    // VASP's '****' (pymatgen's NaN, null here): we leave that array out, with a diagnostic.
    const unreadable = (m: (number | null)[][]) => m.some((row) => row.some((x) => x === null));
    if (s.forces && unreadable(s.forces)) assert.equal(frame.forces, undefined, `${what}: forces with ****`);
    else if (s.forces) closeAll(frame.forces, s.forces as number[][], 1e-12, `${what}: forces`);
    if (s.stress && unreadable(s.stress)) assert.equal(frame.stress, undefined, `${what}: stress with ****`);
    else if (s.stress) closeAll(frame.stress, s.stress as number[][], 1e-12, `${what}: stress`);
    if (s.e_fr_energy !== undefined && Number.isFinite(s.e_fr_energy))
      close(frame.freeEnergy, s.e_fr_energy, 1e-12, `${what}: e_fr_energy`);
    if (s.selective) assert.deepEqual(frame.free, s.selective, `${what}: selective dynamics`);
  });
  if (
    !(SKIP[name] ?? []).includes('pymatgen final_energy') &&
    pmg.final_energy !== undefined &&
    Number.isFinite(pmg.final_energy) &&
    steps.length
  )
    close(steps[steps.length - 1]!.energy, pmg.final_energy, 1e-7, `${name}: final_energy`);
  if (pmg.efermi !== null) close(file.outcome?.fermi, pmg.efermi, 1e-12, `${name}: efermi`);
  assert.equal(file.outcome?.converged, pmg.converged_ionic, `${name}: converged_ionic`);
  if (pmg.ediffg !== undefined) close(file.outcome?.ediffg, pmg.ediffg, 1e-12, `${name}: EDIFFG`);
  const band = file.outcome?.bandGap;
  if (pmg.band && Number.isFinite(pmg.band.gap) && Number.isFinite(pmg.band.cbm) && Number.isFinite(pmg.band.vbm)) {
    assert.ok(band, `${name}: no band gap, pymatgen ${JSON.stringify(pmg.band)}`);
    close(band.gap, pmg.band.gap, 1e-12, `${name}: gap`);
    close(band.cbm, pmg.band.cbm, 1e-12, `${name}: cbm`);
    close(band.vbm, pmg.band.vbm, 1e-12, `${name}: vbm`);
    assert.equal(band.direct, pmg.band.direct, `${name}: is_direct`);
    const spins = pmg.band.spins?.filter((s) => Number.isFinite(s.cbm) && Number.isFinite(s.vbm));
    if (spins?.length === 2) {
      assert.ok(band.spins, `${name}: no gap per spin`);
      spins.forEach((s, i) => {
        close(band.spins![i]!.gap, s.gap, 1e-12, `${name}: gap of spin ${i + 1}`);
        assert.equal(band.spins![i]!.direct, s.direct, `${name}: is_direct of spin ${i + 1}`);
      });
    }
  } else assert.equal(band, undefined, `${name}: a gap where pymatgen has none`);
}

test('OUTCAR and vasprun.xml agree with pymatgen and ASE on the real files', (t) => {
  if (!existsSync(ROOT)) return t.skip(`pymatgen's test files ${MISSING}`);
  const paths = files(ROOT);
  const results = runOracle(paths);
  if (!results) return t.skip(`pymatgen / ASE ${MISSING}`);
  let compared = 0;
  const problems: string[] = [];
  for (const path of paths) {
    const name = relative(ROOT, path);
    const theirs = results[path]!;
    const isVasprun = /vasprun/.test(name);
    const file = isVasprun ? readVasprun(textOf(path)) : readOutcar(textOf(path));
    try {
      const known = KNOWN_FAILURES[name];
      if (known) {
        assert.ok(failed(theirs[known.reader]), `${name}: ${known.reader} now reads it: update the table`);
        assert.equal(file.frames.length, known.frames);
        if (known.code) assert.ok(file.diagnostics.some((d) => d.code === known.code));
      }
      if (!failed(theirs.ase)) {
        const steps = file.frames.filter((f) => f.title.startsWith('step '));
        compareAse(name, steps, theirs.ase, SKIP[name] ?? []);
        const last = theirs.ase[theirs.ase.length - 1];
        if (!isVasprun && last?.efermi != null) close(file.outcome?.fermi, last.efermi, 1e-12, `${name}: efermi (ASE)`);
      }
      if (!failed(theirs.pymatgen)) {
        if (isVasprun) comparePymatgenVasprun(name, file, theirs.pymatgen as PmgVasprun);
        else {
          const pmg = theirs.pymatgen as PmgOutcar;
          const last = file.frames[file.frames.length - 1];
          const truncated = file.diagnostics.some((d) => d.code === 'outcar-truncated');
          if (pmg.final_energy !== null && last && !truncated) close(last.energy, pmg.final_energy, 1e-12, `${name}: final_energy`);
          if (pmg.final_fr_energy !== null && last && !truncated)
            close(last.freeEnergy, pmg.final_fr_energy, 1e-12, `${name}: final_fr_energy`);
          // pymatgen's Outcar.efermi is not always the last E-fermi (see the table): ASE's last image's is checked below.
        }
      }
      if (!failed(theirs.ase) || !failed(theirs.pymatgen)) compared++;
    } catch (error) {
      problems.push(error instanceof Error ? error.message.split('\n')[0]! : String(error));
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(compared >= 80, `only ${compared} files compared`);
});
