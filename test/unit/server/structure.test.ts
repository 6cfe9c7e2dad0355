/**
 * The structure endpoints over HTTP: single point, relax, MD and tight binding compute from the POSCAR
 * they are sent, refuse what they cannot take with a 400, and leave the server answering meanwhile.
 */
import { test } from 'node:test';
import { performance } from 'node:perf_hooks';
import assert from 'node:assert/strict';
import { referenceServer } from '../../support/serverHarness';
import { bandPathKpoints, standardizeCrystal } from '../../../src/core/crystallography/kpoints';
import { loadMoyoNode } from '../../../src/platform/moyoNode';
import { parsePoscar } from '../../../src/core/poscar/index';
import type { Cell, Vec3 } from '../../../src/server/physics/cell';
import { forceFieldFor } from '../../../src/server/physics/forceField';
import { diamond, poscarText, primitiveSi, rattle, skewedNaCl } from '../../support/physicsFixtures';
import { rockSalt, zincblendeCubic } from '../../support/physicsCrystals';

const { post } = referenceServer('structure-test-key');

const SP = '/gnn_ff_dynamics/single_point';
const RELAX = '/gnn_ff_dynamics/relax';
const MD = '/gnn_ff_dynamics/md';
const TB = '/tightbinding/compute';

const sites = (text: string): Vec3[] => parsePoscar(text).poscar!.sites.map((s) => s.cart);
const close = (a: number, b: number, tolerance = 1e-9): boolean => Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b));

/** The energy and forces the server computes for a cell (the force field forceFieldFor picks). */
const evaluate = (cell: Cell) => forceFieldFor(cell.symbols).evaluate(cell);

test('single point: energy, forces and stress of the structure sent, in the units named', async () => {
  const cell = skewedNaCl(7);
  const answer = await post(SP, { poscar: poscarText(cell) });
  assert.equal(answer.status, 200);
  const b = answer.body;
  assert.deepEqual(
    Object.keys(b).sort(),
    ['energy_eV', 'energy_per_atom_eV', 'forces_eV_per_A', 'max_force', 'method', 'natoms', 'species', 'stress', 'stress_unit'].sort(),
  );
  const expected = evaluate(cell);
  assert.ok(close(b.energy_eV, expected.energy));
  assert.ok(close(b.energy_per_atom_eV, expected.energy / 6));
  assert.equal(b.natoms, 6);
  assert.deepEqual(b.species, ['Na', 'Na', 'Na', 'Cl', 'Cl', 'Cl']);
  assert.equal(b.forces_eV_per_A.length, 6);
  b.forces_eV_per_A.forEach((f: number[], i: number) => f.forEach((x, k) => assert.ok(close(x, expected.forces[i]![k]!, 1e-9))));
  assert.ok(close(b.max_force, Math.max(...expected.forces.map((f) => Math.hypot(...f)))));
  assert.equal(b.stress.length, 6);
  assert.equal(b.stress_unit, 'GPa');
  assert.match(b.method, /^Rigid-ion Born–Mayer–Huggins.*Tosi and F\. G\. Fumi, J\. Phys\. Chem\. Solids 25, 45 \(1964\).*Ewald/);
  const compute = await post('/gnn_ff_dynamics/compute', { poscar: poscarText(cell) });
  assert.deepEqual(compute.body, b, 'compute is single point');
});

test('single point: a strained cell has another energy, and a perfect crystal no forces', async () => {
  const equilibrium = (await post(SP, { poscar: poscarText(diamond(1)) })).body;
  const strained = (await post(SP, { poscar: poscarText(diamond(1, 5.6)) })).body;
  assert.notEqual(strained.energy_eV, equilibrium.energy_eV);
  assert.ok(equilibrium.max_force < 1e-9);
  assert.ok(strained.stress[0] > equilibrium.stress[0], 'stretched further, more tensile');
});

test('relax: a rattled cell converges, lower in energy, with every step and a POSCAR of the result', async () => {
  const start = rattle(diamond(1), 0.15, 4);
  const answer = await post(RELAX, { poscar: poscarText(start) });
  assert.equal(answer.status, 200);
  const b = answer.body;
  for (const field of [
    'converged',
    'final_poscar',
    'initial_energy',
    'final_energy',
    'energies',
    'forces_max',
    'steps_taken',
    'trajectory',
    'energy_unit',
    'fmax',
    'natoms',
    'species',
    'lattice',
    'method',
  ]) {
    assert.ok(field in b, field);
  }
  assert.equal(b.converged, true);
  assert.equal(b.fmax, 0.05);
  assert.equal(b.energy_unit, 'eV');
  assert.ok(b.final_energy < b.initial_energy);
  assert.ok(close(b.initial_energy, evaluate(start).energy));
  assert.equal(b.energies.length, b.steps_taken + 1);
  assert.equal(b.forces_max.length, b.steps_taken + 1);
  assert.ok(b.forces_max.at(-1) < 0.05);
  assert.ok(b.trajectory.length >= 2 && b.trajectory.length <= 50);
  assert.equal(b.trajectory[0].positions.length, 8);
  assert.deepEqual(b.lattice, start.lattice);
  // The POSCAR written back holds the relaxed structure: its energy is the final energy.
  const parsed = parsePoscar(b.final_poscar);
  assert.equal(parsed.diagnostics.filter((d) => d.severity === 'error').length, 0);
  const again = await post(SP, { poscar: b.final_poscar });
  assert.ok(close(again.body.energy_eV, b.final_energy, 1e-8));
  assert.match(parsed.poscar!.comment, /relaxed/);
});

test('relax: selective dynamics holds the fixed coordinates; fmax and max_steps are honoured (max_steps clamped)', async () => {
  const start = rattle(diamond(1), 0.2, 6);
  const flags: [boolean, boolean, boolean][] = start.positions.map((_, i) =>
    i === 0 ? [false, false, false] : i === 1 ? [true, false, true] : [true, true, true],
  );
  const held = (await post(RELAX, { poscar: poscarText(start, flags), fmax: 0.01 })).body;
  const final = sites(held.final_poscar); // written with 16 decimals
  final[0]!.forEach((x, k) => assert.ok(Math.abs(x - start.positions[0]![k]!) < 1e-12, 'atom 0 held'));
  assert.ok(Math.abs(final[1]![1] - start.positions[1]![1]) < 1e-12, 'y of atom 1 held');
  assert.ok(Math.abs(final[1]![0] - start.positions[1]![0]) > 1e-4, 'x of atom 1 free');
  assert.match(held.final_poscar, /Selective dynamics/);
  for (const frame of held.trajectory)
    assert.deepEqual(
      frame.positions[0],
      start.positions[0]!.map((x) => Math.round(x * 1e6) / 1e6),
    );
  assert.equal(held.fmax, 0.01);

  const short = (await post(RELAX, { poscar: poscarText(start), fmax: 0.001, max_steps: 3 })).body;
  assert.equal(short.converged, false);
  assert.equal(short.steps_taken, 3);
  const clamped = (await post(RELAX, { poscar: poscarText(start), max_steps: 1_000_000 })).body;
  assert.equal(clamped.max_steps, 1000);
});

test('md: NVE series, temperatures, times and a final POSCAR; energy conserved; same seed same run', async () => {
  const poscar = poscarText(diamond(1));
  const body = { poscar, temperature: 600, timestep: 1, steps: 100, seed: 3 };
  const answer = await post(MD, body);
  assert.equal(answer.status, 200);
  const b = answer.body;
  for (const field of [
    'energies',
    'temperatures',
    'times_fs',
    'average_temperature',
    'final_temperature',
    'trajectory',
    'final_poscar',
    'timestep_fs',
    'steps',
    'method',
    'energy_drift_eV_per_atom',
  ]) {
    assert.ok(field in b, field);
  }
  assert.equal(b.energies.total.length, 101);
  assert.equal(b.energies.kinetic.length, 101);
  assert.equal(b.energies.potential.length, 101);
  assert.deepEqual(b.times_fs.slice(0, 3), [0, 1, 2]);
  assert.equal(b.times_fs.at(-1), 100);
  assert.ok(close(b.temperatures[0], 600));
  assert.equal(b.final_temperature, b.temperatures.at(-1));
  assert.ok(Math.abs(b.energy_drift_eV_per_atom) < 1e-4);
  assert.ok(close(b.energies.potential[0], evaluate(diamond(1)).energy));
  assert.ok(b.trajectory.length <= 50);
  assert.equal(sites(b.final_poscar).length, 8);
  assert.deepEqual((await post(MD, body)).body, b);
  assert.notDeepEqual((await post(MD, { ...body, seed: 4 })).body.energies, b.energies);
  const defaults = (await post(MD, { poscar })).body;
  assert.equal(defaults.steps, 200);
  assert.equal(defaults.timestep_fs, 1);
  assert.ok(close(defaults.temperatures[0], 300));
  assert.equal((await post(MD, { poscar, steps: 50_000 })).body.steps, 2000);
});

test('tight binding: the k-path follows the space group (moyo), so conventional cubic Si takes the FCC path, as Generate KPOINTS does', async () => {
  const answer = await post(TB, { poscar: poscarText(diamond(1)), kpath_density: 3 });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const b = answer.body;
  // The metric alone sees a simple cubic cell (CUB, Γ-X-M-Γ-R-X|M-R); Fd-3m (227) is face-centred.
  assert.equal(b.space_group, 227);
  assert.equal(b.lattice_type_source, 'space group 227');
  assert.equal(b.lattice_type, 'FCC');
  assert.equal(b.path, 'Γ-X-W-K-Γ-L-U-W-L-K|U-X');
  const si = diamond(1);
  const crystal = { lattice: si.lattice, species: si.symbols, positions: si.positions };
  const editor = bandPathKpoints(crystal, 3, standardizeCrystal(await loadMoyoNode(), crystal, 1e-3));
  assert.equal(editor.variant, b.lattice_type);
  assert.equal(editor.spaceGroup, 227);
});

test('tight binding: bands along the FCC path for primitive Si, gap fields consistent with the eigenvalues', async () => {
  const answer = await post(TB, { poscar: poscarText(primitiveSi()), kpath_density: 10 });
  assert.equal(answer.status, 200);
  const b = answer.body;
  assert.equal(b.path, 'Γ-X-W-K-Γ-L-U-W-L-K|U-X');
  assert.equal(b.lattice_type, 'FCC');
  // Silicon is in Vogl's sp3s* table: five orbitals and four valence electrons per atom.
  assert.equal(b.nbands, 10);
  assert.equal(b.nelectrons, 8);
  assert.match(b.method, /Vogl, Hjalmarson and Dow, J\. Phys\. Chem\. Solids 44, 365 \(1983\)/);
  assert.equal(b.kpath_density, 10);
  assert.equal(b.kpoints.length, b.eigenvalues.length);
  assert.equal(b.kdistances.length, b.kpoints.length);
  for (const e of b.eigenvalues) assert.equal(e.length, 10);
  assert.deepEqual(b.labels[0], { index: 0, distance: 0, label: 'Γ' });
  assert.equal(b.labels.at(-1).index, b.kpoints.length - 1);
  assert.equal(b.is_metal, false);
  assert.equal(b.direct_gap, false);
  assert.ok(b.band_gap > 1.1 && b.band_gap < 1.2, `Si gap ${b.band_gap}`);
  assert.equal(b.vbm, Math.max(...b.eigenvalues.map((e: number[]) => e[3])));

  const nacl: Cell = {
    lattice: [
      [0, 2.82, 2.82],
      [2.82, 0, 2.82],
      [2.82, 2.82, 0],
    ],
    symbols: ['Na', 'Cl'],
    positions: [
      [0, 0, 0],
      [2.82, 0, 0],
    ],
  };
  const ionic = (await post(TB, { poscar: poscarText(nacl) })).body;
  assert.equal(ionic.kpath_density, 20);
  assert.equal(ionic.is_metal, false);
  assert.equal(ionic.vbm, Math.max(...ionic.eigenvalues.map((e: number[]) => e[0])));
  assert.equal(ionic.cbm, Math.min(...ionic.eigenvalues.map((e: number[]) => e[1])));
  assert.ok(close(ionic.band_gap, ionic.cbm - ionic.vbm) && ionic.band_gap > 0);
  assert.ok(ionic.fermi_level > ionic.vbm && ionic.fermi_level < ionic.cbm);
  assert.equal(typeof ionic.direct_gap, 'boolean');
  assert.match(ionic.method, /^Rough fallback model/, "Na has no p term value in Harrison's table: the s-orbital fallback");

  // Zincblende BN is outside Vogl's table: Harrison's sp3 parameters, four orbitals and the s + p electrons per atom.
  const bn: Cell = { ...primitiveSi(3.615), symbols: ['B', 'N'] };
  const harrison = (await post(TB, { poscar: poscarText(bn), kpath_density: 5 })).body;
  assert.match(harrison.method, /^Rough estimate: Harrison's universal tight-binding parameters/);
  assert.equal(harrison.nbands, 8);
  assert.equal(harrison.nelectrons, 8);
  assert.equal(harrison.is_metal, false);
  assert.ok(harrison.band_gap > 5, `BN gap ${harrison.band_gap}`);
});

/** n atoms of an element on a simple cubic grid 2.5 Å apart. */
function grid(n: number, symbol = 'Si'): string {
  const side = Math.ceil(Math.cbrt(n));
  const positions: Vec3[] = [];
  for (let i = 0; i < n; i++) positions.push([2.5 * (i % side), 2.5 * (Math.floor(i / side) % side), 2.5 * Math.floor(i / side / side)]);
  return poscarText({
    lattice: [
      [2.5 * side, 0, 0],
      [0, 2.5 * side, 0],
      [0, 0, 2.5 * side],
    ],
    symbols: positions.map(() => symbol),
    positions,
  });
}

test('400s: too many atoms for each calculation, unknown elements, and the k-point budget', async () => {
  const cases: Array<[string, unknown, RegExp]> = [
    [SP, { poscar: grid(2001) }, /2001 atoms; this calculation takes at most 2000/],
    [RELAX, { poscar: grid(501) }, /501 atoms; this calculation takes at most 500/],
    [MD, { poscar: grid(501) }, /at most 500/],
    [TB, { poscar: grid(201) }, /at most 200/],
    [SP, { poscar: grid(4, 'Xx') }, /Unknown element "Xx"/],
    [
      TB,
      { poscar: grid(200, 'Cu'), kpath_density: 1000 },
      /k-points; for 200 atoms the reference server computes at most 62: lower kpath_density/,
    ],
    [TB, { poscar: grid(200) }, /200-atom cell is too large for the sp3s\* band model here: at most 158 atoms/],
    [
      SP,
      {
        poscar: poscarText({
          lattice: [
            [5, 0, 0],
            [0, 5, 0],
            [0, 0, 5],
          ],
          symbols: ['Si', 'Si'],
          positions: [
            [1, 1, 1],
            [6, 1, 1],
          ],
        }),
      },
      /Atoms 1 and 2 sit on the same spot/,
    ],
  ];
  for (const [path, body, detail] of cases) {
    const answer = await post(path, body);
    assert.equal(answer.status, 400, `${path}: ${JSON.stringify(answer.body).slice(0, 200)}`);
    assert.match(answer.body.detail, detail);
  }
  assert.equal((await post(SP, { poscar: grid(2000) })).status, 200);
  const vasp4 = poscarText(diamond(1)).replace('test structure', 'Si').replace('\nSi\n', '\n');
  assert.equal((await post(SP, { poscar: vasp4 })).status, 200, 'a warning (names from the comment line) does not block');
});

test('md: ensemble nvt runs a named Langevin thermostat and says so; nve (the default) says NVE', async () => {
  const poscar = poscarText(diamond(1));
  const nvt = (await post(MD, { poscar, ensemble: 'NVT', steps: 20 })).body;
  assert.equal(nvt.ensemble, 'nvt');
  assert.match(nvt.method, /NVT: Langevin thermostat at 300 K, friction 0\.01 fs⁻¹, BAOAB splitting \(Leimkuhler and Matthews/);
  const nve = (await post(MD, { poscar, steps: 20 })).body;
  assert.equal(nve.ensemble, 'nve');
  assert.match(nve.method, /NVE: velocity Verlet/);
  assert.notDeepEqual(nvt.temperatures, nve.temperatures);
  // interval: a frame every 5 steps (agapi's name), the last step always among them.
  const every5 = (await post(MD, { poscar, steps: 20, interval: 5 })).body;
  assert.deepEqual(
    every5.trajectory.map((f: { step: number }) => f.step),
    [0, 5, 10, 15, 20],
  );
  assert.equal(every5.interval, 5);
});

test('relax with relax_cell: silicon started 3 % too large comes back to 5.431 Å, cell and positions together', async () => {
  const start = rattle(diamond(1, 5.431 * 1.03), 0.05, 2);
  const b = (await post(RELAX, { poscar: poscarText(start), relax_cell: true, fmax: 0.01, steps: 500, optimizer: 'fire' })).body;
  assert.equal(b.converged, true);
  assert.equal(b.relax_cell, true);
  assert.equal(b.max_steps, 500, "steps is agapi's name for max_steps");
  for (let i = 0; i < 3; i++) assert.ok(Math.abs(b.lattice[i][i] - 5.431) < 0.003, `a${i} = ${b.lattice[i][i]}`);
  assert.ok(b.stress_max_GPa.at(-1) < b.stress_threshold_GPa);
  assert.ok(Math.abs(b.final_energy / 8 + 4.3366) < 1e-3, `${b.final_energy / 8} eV/atom`);
  assert.match(b.method, /Stillinger–Weber .*UnitCellFilter/);
  const written = parsePoscar(b.final_poscar).poscar!;
  assert.ok(Math.abs(written.lattice[0][0] - b.lattice[0][0]) < 1e-9, 'the POSCAR holds the relaxed cell');
  const fixed = (await post(RELAX, { poscar: poscarText(start) })).body;
  assert.deepEqual(fixed.lattice, start.lattice, 'without relax_cell the cell stays');
  assert.equal(fixed.relax_cell, false);
});

test('relax with relax_cell from the measured structure: NaCl, MgO, GaAs and InSb stay within 2 % of a, and the answer names the paper', async () => {
  const cases: [Cell, number, RegExp][] = [
    [rockSalt(1, 5.64, 'Na', 'Cl'), 5.64, /Tosi and F\. G\. Fumi, J\. Phys\. Chem\. Solids 25, 45 \(1964\)/],
    [rockSalt(1, 4.212, 'Mg', 'O'), 4.212, /Bush, J\. D\. Gale, C\. R\. A\. Catlow and P\. D\. Battle, J\. Mater\. Chem\. 4, 831 \(1994\)/],
    [zincblendeCubic(1, 5.653, 'Ga', 'As'), 5.653, /Albe, Nordlund, Nord and Kuronen, Phys\. Rev\. B 66, 035205 \(2002\)/],
    [zincblendeCubic(1, 6.4794, 'In', 'Sb'), 6.4794, /Powell, Migliorato and Cullis, Phys\. Rev\. B 75, 115202 \(2007\)/],
  ];
  for (const [cell, measured, paper] of cases) {
    const b = (await post(RELAX, { poscar: poscarText(rattle(cell, 0.05, 3)), relax_cell: true, fmax: 0.01, steps: 500 })).body;
    assert.equal(b.converged, true, cell.symbols.join(''));
    for (let i = 0; i < 3; i++)
      assert.ok(Math.abs(b.lattice[i][i] / measured - 1) < 0.02, `${cell.symbols.join('')}: a${i} = ${b.lattice[i][i]}`);
    assert.match(b.method, paper);
  }
});

test('400s: field types and ranges', async () => {
  const poscar = poscarText(diamond(1));
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    [RELAX, { fmax: 'small' }, /"fmax" must be a number/],
    [RELAX, { fmax: 0 }, /"fmax" must be between 0.001 and 10/],
    [RELAX, { fmax: 11 }, /between 0.001 and 10/],
    [RELAX, { max_steps: 2.5 }, /"max_steps" must be an integer/],
    [RELAX, { max_steps: 0 }, /"max_steps" must be at least 1/],
    [MD, { temperature: '300' }, /"temperature" must be a number/],
    [MD, { temperature: -1 }, /"temperature" must be between 0 and 5000/],
    [MD, { temperature: 6000 }, /between 0 and 5000/],
    [MD, { timestep: 0 }, /"timestep" must be between 0.01 and 5/],
    [MD, { timestep: 10 }, /between 0.01 and 5/],
    [MD, { steps: 1.5 }, /"steps" must be an integer/],
    [MD, { steps: 0 }, /"steps" must be at least 1/],
    [MD, { seed: -1 }, /"seed" must be between 0 and 4294967295/],
    [MD, { seed: 0.5 }, /"seed" must be an integer/],
    [TB, { kpath_density: 1001 }, /"kpath_density" must be between 1 and 1000/],
    [TB, { kpath_density: '20' }, /"kpath_density" must be an integer/],
    [MD, { ensemble: 'npt' }, /"ensemble" must be "nve" or "nvt", not "npt"/],
    [RELAX, { relax_cell: 'yes' }, /"relax_cell" must be true or false/],
    [MD, { interval: 0 }, /"interval" must be between 1 and 2000/],
    [RELAX, { optimizer: 'BFGS' }, /runs FIRE, not "BFGS"/],
    [RELAX, { steps: 0 }, /"steps" must be at least 1/],
    [MD, { ensemble: 3 }, /"ensemble" must be a string/],
  ];
  for (const [path, fields, detail] of cases) {
    const answer = await post(path, { poscar, ...fields });
    assert.equal(answer.status, 400, `${path} ${JSON.stringify(fields)}`);
    assert.match(answer.body.detail, detail, `${path} ${JSON.stringify(fields)}`);
  }
});

test('a long MD run does not stop the server answering a tokenize meanwhile', async () => {
  // The tokenizer loaded first: what is timed is the server's answer during the run, not the ranks' first load
  // (which took half the run on a loaded machine and failed this test once).
  assert.equal((await post('/tokenizer/tokenize', { text: 'before the atoms move' })).status, 200);
  const started = performance.now();
  const long = post(MD, { poscar: poscarText(diamond(3)), steps: 1000 }); // 216 atoms: long enough to outlast a first tokenize under load
  await new Promise((resolve) => setTimeout(resolve, 50));
  const tokenized = await post('/tokenizer/tokenize', { text: 'while the atoms move' });
  const md = await long;
  assert.equal(tokenized.status, 200);
  assert.equal(md.status, 200);
  assert.ok(tokenized.arrived < md.arrived, 'the tokenize answer came first');
  assert.ok(
    tokenized.arrived - started < (md.arrived - started) / 2,
    `tokenize after ${(tokenized.arrived - started).toFixed(0)} ms, MD after ${(md.arrived - started).toFixed(0)} ms`,
  );
});

test('a client that goes away stops its calculation', async () => {
  const controller = new AbortController();
  const pending = post(MD, { poscar: poscarText(diamond(2)), steps: 2000 }, controller.signal).catch((error: Error) => error);
  await new Promise((resolve) => setTimeout(resolve, 100));
  controller.abort();
  assert.equal(((await pending) as Error).name, 'AbortError');
  await new Promise((resolve) => setTimeout(resolve, 100));
  const before = performance.eventLoopUtilization();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const busy = performance.eventLoopUtilization(before).utilization;
  assert.ok(busy < 0.3, `the event loop was ${(busy * 100).toFixed(0)}% busy after the client left`);
});
