/**
 * The oxide sets Bush et al.'s does not serve (src/server/physics/ionicParameters.ts): Matsui and Akaogi's rigid ions with
 * partial charges for TiO2, Lewis and Catlow's shell model for ZnO, against the measurements and their transcriptions.
 *
 * Measured: rutile a = 4.594 Å, c = 2.959 Å, u = 0.3048; its bulk modulus about 211 GPa (from the single-crystal elastic
 * constants, Isaak et al., Phys. Chem. Minerals 26, 31 (1998)), the constants Matsui and Akaogi fitted to. Wurtzite ZnO
 * a = 3.250 Å, c = 5.207 Å, u = 0.382; B = 143 GPa (from the elastic constants of Kobiakov, Solid State Commun. 35,
 * 305 (1980)). Neither paper's own table of computed values could be read here, so each relaxed value is asserted as the
 * model's own (to 0.002 Å) with its distance from the measurement stated: Matsui–Akaogi's static rutile has a 2.2 %
 * short and c 1.7 % long (the paper fitted molecular dynamics at 300 K), Lewis–Catlow's ZnO a 0.6 % long and c 2.6 %
 * short (c/a 1.552 against 1.602: the set was fitted with a ρ common to the rock-salt oxides).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cell, Mat3 } from '../../../../src/server/physics/cell';
import { relaxCell } from '../../../../src/server/physics/cellRelax';
import { splitting } from '../../../../src/server/physics/ewald';
import { forceFieldFor } from '../../../../src/server/physics/forceField';
import { evaluateIonic, ionicSetFor } from '../../../../src/server/physics/ionic';
import { LEWIS_CATLOW_1985, MATSUI_AKAOGI, type IonicSet } from '../../../../src/server/physics/ionicParameters';
import { runToEnd } from '../../../../src/core/util/steps';
import { UFF_METHOD } from '../../../../src/server/physics/uff';
import { rattle, strained } from '../../../support/physicsFixtures';
import {
  assertForcesAreGradient,
  assertStressIsStrainDerivative,
  relaxedIonModuli,
  rutile,
  SHEAR,
  wurtzite,
} from '../../../support/physicsCrystals';

const near = (value: number, expected: number, tolerance: number, what: string): void =>
  assert.ok(Math.abs(value - expected) <= tolerance, `${what}: ${value} vs ${expected} ± ${tolerance}`);

const ionic = (cell: Cell) => evaluateIonic(cell);

/** The cell relaxed with its ions from the measured structure, on the set the elements choose. */
function relaxed(cell: Cell): { cell: Cell; lengths: number[] } {
  const set = ionicSetFor(cell.symbols);
  const memory = {};
  const evaluate = (c: Cell) => evaluateIonic(c, set, undefined, memory);
  const r = runToEnd(relaxCell(cell, { fmax: 1e-4, maxSteps: 1000, evaluate }));
  assert.ok(r.converged, 'the relaxation converges');
  const lattice: Mat3 = r.lattice;
  return { cell: { ...cell, lattice, positions: r.positions }, lengths: lattice.map((v) => Math.hypot(...v)) };
}

const MEASURED_RUTILE = rutile(4.594, 2.959, 0.3048, 'Ti');
const MEASURED_ZNO = wurtzite('Zn', 'O', 3.25, 5.207, 0.382);

test("Matsui and Akaogi's per-ion form gives the eV Buckingham terms LAMMPS inputs quote, to 2·10⁻⁵", () => {
  const quoted: Record<string, [number, number, number]> = {
    'Ti-Ti': [31120.1, 0.154, 5.25],
    'O-Ti': [16957.53, 0.194, 12.59],
    'O-O': [11782.76, 0.234, 30.22],
  };
  for (const [pair, [A, rho, C]] of Object.entries(quoted)) {
    const ours = MATSUI_AKAOGI.pairs[pair]!;
    near(ours.A / A, 1, 2e-5, `${pair} A`);
    near(ours.rho, rho, 1e-12, `${pair} ρ`);
    near(ours.C, C, 0.005, `${pair} C`);
  }
});

test('rutile TiO2 on Matsui–Akaogi, relaxed from the measured cell: a 4.492 Å (2.2 % short), c 3.009 Å (1.7 % long)', () => {
  const [a, b, c] = relaxed(MEASURED_RUTILE).lengths;
  near(a!, 4.4924, 0.002, "a (Å), the model's own");
  near(b!, a!, 1e-6, 'b = a: the cell stays tetragonal');
  near(c!, 3.0087, 0.002, "c (Å), the model's own");
  near(a! / 4.594, 1, 0.023, 'a against the measured 4.594 Å');
  near(c! / 2.959, 1, 0.018, 'c against the measured 2.959 Å');
});

test('rutile TiO2 on Matsui–Akaogi: relaxed-ion C11 322, C33 444 GPa and a bulk modulus of 237 GPa, 12 % above the measured 211', () => {
  const { cell } = relaxed(MEASURED_RUTILE);
  const { C, bulk } = relaxedIonModuli(ionic, cell);
  near(C[0]![0]!, 321.7, 1, 'C11 (GPa)');
  near(C[2]![2]!, 443.7, 1, 'C33 (GPa)');
  near(bulk, 236.7, 1, "B (GPa), the model's own");
  near(bulk / 211, 1, 0.13, 'B against the measured 211 GPa');
});

test("wurtzite ZnO on Lewis–Catlow's shell model: a 3.268 Å (0.6 % long), c 5.073 Å (2.6 % short), u 0.392", () => {
  const { cell, lengths } = relaxed(MEASURED_ZNO);
  const [a, b, c] = lengths;
  near(a!, 3.2678, 0.002, "a (Å), the model's own");
  near(b!, a!, 1e-6, 'b = a: the cell stays hexagonal');
  // The cell relaxation stops below 0.1 GPa, which along the soft c (C33 188 GPa) leaves ±0.003 Å.
  near(c!, 5.073, 0.004, "c (Å), the model's own");
  near(a! / 3.25, 1, 0.007, 'a against the measured 3.250 Å');
  near(c! / 5.207, 1, 0.027, 'c against the measured 5.207 Å');
  const u = (cell.positions[2]![2] - cell.positions[0]![2]) / c!;
  near(u, 0.392, 0.002, 'u');
});

test("wurtzite ZnO on Lewis–Catlow's shell model: a relaxed-ion bulk modulus of 143 GPa, the measured value", () => {
  const { cell } = relaxed(MEASURED_ZNO);
  const memory = {};
  const { C, bulk } = relaxedIonModuli((c) => evaluateIonic(c, LEWIS_CATLOW_1985, undefined, memory), cell);
  near(C[0]![0]!, 236.5, 1, 'C11 (GPa)');
  near(C[2]![2]!, 188.3, 1, 'C33 (GPa)');
  near(bulk, 142.6, 1, "B (GPa), the model's own");
  near(bulk, 143, 3, 'B against the measured 143 GPa');
});

const RATTLED_RUTILE = rattle(MEASURED_RUTILE, 0.1, 12);
const RATTLED_ZNO = rattle(wurtzite('Zn', 'O', 3.25, 5.207, 0.382), 0.1, 13);

test('forces are minus the numerical gradient of the energy (rattled rutile on Matsui–Akaogi, rattled ZnO with shells)', () => {
  assertForcesAreGradient(ionic, RATTLED_RUTILE, [0, 1, 2, 3, 4, 5], 1e-5);
  assertForcesAreGradient(ionic, RATTLED_ZNO, [0, 1, 2, 3], 1e-5);
});

test('stress is the numerical strain derivative of the energy, shears included (rutile, ZnO)', () => {
  for (const cell of [strained(RATTLED_RUTILE, SHEAR), strained(RATTLED_ZNO, SHEAR), RATTLED_ZNO])
    assertStressIsStrainDerivative(ionic, cell, 1e-3);
});

test('Ewald with partial charges: the same rutile energy for any splitting', () => {
  const e = ionic(RATTLED_RUTILE).energy;
  const alpha = splitting(RATTLED_RUTILE).alpha;
  for (const f of [0.7, 1.5]) near(evaluateIonic(RATTLED_RUTILE, undefined, alpha * f).energy, e, 1e-6, `α × ${f}`);
});

test('which set applies: Ti and O alone Matsui–Akaogi, Zn and O Lewis–Catlow, a titanate still Bush et al., a zinc titanate the fallback', () => {
  const set = (symbols: string[]): IonicSet | undefined => ionicSetFor(symbols);
  assert.equal(set(['Ti', 'Ti', 'O', 'O', 'O', 'O']), MATSUI_AKAOGI);
  assert.match(
    forceFieldFor(['Ti', 'O', 'O']).method,
    /^Rigid-ion Buckingham, Matsui–Akaogi 1991 \(M\. Matsui and M\. Akaogi, Mol\. Simul\. 6, 239 \(1991\)\): partial charges Ti \+2\.196, O -1\.098/,
  );
  assert.equal(set(['Zn', 'O']), LEWIS_CATLOW_1985);
  assert.match(
    forceFieldFor(['Zn', 'Zn', 'O', 'O']).method,
    /^Buckingham shell model, Lewis–Catlow 1985 \(G\. V\. Lewis and C\. R\. A\. Catlow, J\. Phys\. C: Solid State Phys\. 18, 1149 \(1985\).*formal charges O -2, Zn \+2, shells .*O \+0\.86902 -2\.86902 74\.92/,
  );
  assert.match(forceFieldFor(['Sr', 'Ti', 'O', 'O', 'O']).method, /Bush, J\. D\. Gale/);
  assert.equal(set(['Ti', 'O']), undefined, 'TiO is not neutral with these charges');
  assert.equal(forceFieldFor(['Zn', 'Zn', 'Ti', 'O', 'O', 'O', 'O']).method, UFF_METHOD);
});
