/**
 * The sample workspace `npm start` opens has structure files of our own (not copied from a test suite): they read
 * without a problem, the OUTCAR (synthetic, test/fixtures/makeSampleOutcar.py) reads as pymatgen's Outcar reads it,
 * the extended XYZ (an EMT relaxation, test/fixtures/makeSampleXyz.py) as ASE reads it, and the vasprun.xml (an EMT
 * cell relaxation in vasprun.xml's layout, test/fixtures/makeSampleVasprun.py) as ASE and pymatgen read it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { detectFormat } from '../../../../src/core/structures/languages';
import { readStructure } from '../../../../src/core/structures/formats';
import { importsOrExit, oracleMissing, PYTHON } from '../../../support/python';

const DIR = join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'workspace');

/**
 * What `script` prints as JSON for a sample file (sys.argv[1]); undefined, the test skipped loudly, only when `module`
 * is not installed: the library failing on our file fails the test.
 */
function oracle<T>(t: TestContext, module: string, script: string, name: string): T | undefined {
  const code = `import sys, json\n${importsOrExit(module)}${script}`;
  const run = spawnSync(PYTHON, ['-c', code, join(DIR, name)], { encoding: 'utf8', timeout: 120_000 });
  if (oracleMissing(run)) {
    t.skip(`SKIPPED LOUDLY: ${PYTHON} cannot import ${module} (apt-get install python3-ase python3-pymatgen)`);
    return undefined;
  }
  assert.equal(run.status, 0, `${module} on ${name}: ${run.stderr.slice(-2000)}`);
  return JSON.parse(run.stdout) as T;
}

test('the sample CIF, XDATCAR, OUTCAR, extended XYZ and vasprun.xml read in their formats without a problem', () => {
  const expected: [string, string, number][] = [
    ['TiO2-rutile.cif', 'cif', 1],
    ['XDATCAR', 'xdatcar', 5],
    ['OUTCAR', 'outcar', 4],
    ['Cu32-relax.extxyz', 'xyz', 9],
    ['vasprun.xml', 'vasprun', 6],
  ];
  for (const [name, format, frames] of expected) {
    const text = readFileSync(join(DIR, name), 'utf8');
    assert.equal(detectFormat(name, text).id, format, name);
    const file = readStructure(format, text)!;
    assert.deepEqual(file.diagnostics, [], name);
    assert.equal(file.frames.length, frames, name);
  }
  const rutile = readStructure('cif', readFileSync(join(DIR, 'TiO2-rutile.cif'), 'utf8'))!.frames[0]!;
  assert.deepEqual([...rutile.species].sort(), ['O', 'O', 'O', 'O', 'Ti', 'Ti'], 'the symmetry expanded to the cell');
  const outcar = readStructure('outcar', readFileSync(join(DIR, 'OUTCAR'), 'utf8'))!;
  assert.equal(outcar.outcome?.converged, true);
  assert.equal(outcar.outcome?.ediffg, -0.02);
});

test("the sample OUTCAR: pymatgen's Outcar reads the same final energy", (t) => {
  const theirs = oracle<number>(t, 'pymatgen.io.vasp', 'print(json.dumps(pymatgen.io.vasp.Outcar(sys.argv[1]).final_energy))', 'OUTCAR');
  if (theirs === undefined) return;
  const ours = readStructure('outcar', readFileSync(join(DIR, 'OUTCAR'), 'utf8'))!.frames.at(-1)!.energy;
  assert.equal(ours, theirs);
});

test('the sample extended XYZ: ASE reads the same cell, positions, energies and forces, frame by frame', (t) => {
  const script = `print(json.dumps([{'cell': a.cell.array.tolist(), 'positions': a.positions.tolist(), 'energy': a.get_potential_energy(),
  'forces': a.get_forces().tolist()} for a in ase.io.read(sys.argv[1], index=':')]))`;
  type Image = { cell: number[][]; positions: number[][]; energy: number; forces: number[][] };
  const theirs = oracle<Image[]>(t, 'ase.io', script, 'Cu32-relax.extxyz');
  if (!theirs) return;
  const file = join(DIR, 'Cu32-relax.extxyz');
  const ours = readStructure('xyz', readFileSync(file, 'utf8'))!.frames;
  assert.equal(ours.length, theirs.length);
  ours.forEach((frame, i) => {
    const ase = theirs[i]!;
    assert.deepEqual(frame.lattice, ase.cell, `frame ${i + 1}: cell`);
    assert.deepEqual(frame.positions, ase.positions, `frame ${i + 1}: positions`);
    assert.equal(frame.energy, ase.energy, `frame ${i + 1}: energy`);
    assert.deepEqual(frame.forces, ase.forces, `frame ${i + 1}: forces`);
  });
  assert.ok(ours.at(-1)!.energy! < ours[0]!.energy!, 'the relaxation lowers the energy');
});

test('the sample vasprun.xml: ASE reads the same cells, positions, energies, forces and stress, step by step', (t) => {
  const script = `print(json.dumps([{'cell': a.cell.array.tolist(), 'positions': a.positions.tolist(), 'energy': a.get_potential_energy(),
  'forces': a.get_forces().tolist(), 'stress': (-a.get_stress(voigt=False) / (0.1 * ase.units.GPa)).tolist()}
  for a in ase.io.read(sys.argv[1], index=':', format='vasp-xml')]))`;
  type Image = { cell: number[][]; positions: number[][]; energy: number; forces: number[][]; stress: number[][] };
  const theirs = oracle<Image[]>(t, 'ase.io', `import ase.units\n${script}`, 'vasprun.xml');
  if (!theirs) return;
  const ours = readStructure('vasprun', readFileSync(join(DIR, 'vasprun.xml'), 'utf8'))!.frames;
  assert.equal(ours.length, theirs.length);
  const close = (a: number[][], b: number[][], what: string) =>
    a.forEach((row, i) => row.forEach((x, j) => assert.ok(Math.abs(x - b[i]![j]!) < 1e-9, `${what} [${i}][${j}]: ${x} vs ${b[i]![j]}`)));
  ours.forEach((frame, i) => {
    const ase = theirs[i]!;
    assert.deepEqual(frame.lattice, ase.cell, `step ${i + 1}: cell`);
    close(frame.positions, ase.positions, `step ${i + 1}: positions`);
    assert.equal(frame.energy, ase.energy, `step ${i + 1}: energy`);
    assert.deepEqual(frame.forces, ase.forces, `step ${i + 1}: forces`);
    close(frame.stress!, ase.stress, `step ${i + 1}: stress`);
  });
  assert.ok(ours.at(-1)!.energy! < ours[0]!.energy!, 'the relaxation lowers the energy');
});

test("the sample vasprun.xml: pymatgen's Vasprun reads the same final energy and calls the relaxation converged", (t) => {
  const script = `v = pymatgen.io.vasp.Vasprun(sys.argv[1], parse_potcar_file=False)
print(json.dumps({'energy': float(v.final_energy), 'converged': v.converged_ionic, 'steps': len(v.ionic_steps)}))`;
  const theirs = oracle<{ energy: number; converged: boolean; steps: number }>(t, 'pymatgen.io.vasp', script, 'vasprun.xml');
  if (!theirs) return;
  const ours = readStructure('vasprun', readFileSync(join(DIR, 'vasprun.xml'), 'utf8'))!;
  assert.equal(ours.frames.at(-1)!.energy, theirs.energy);
  assert.equal(ours.outcome?.converged, theirs.converged);
  assert.equal(ours.frames.length, theirs.steps);
});
