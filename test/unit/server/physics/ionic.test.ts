/**
 * The ionic potentials (src/server/physics/ionic.ts, shellModel.ts, ewald.ts) against their papers and the measurements
 * they were fitted to, and their Ewald sums, forces and stress against exact and numerical values.
 *
 * Tosi and Fumi, J. Phys. Chem. Solids 25, 45 (1964): fitted to the alkali halides' measured lattice constants and
 * compressibilities; NaCl a = 5.640 Å (room temperature), lattice energy 787 kJ/mol = 4.08 eV per ion (Born–Haber),
 * B = 26.6 GPa at 0 K; every other salt against its measured room-temperature lattice constant (below). Bush, Gale, Catlow and Battle, J. Mater. Chem. 4, 831 (1994), with the numbers of
 * GULP's bush.lib: fitted to the structures of the binary and ternary oxides, measured MgO a = 4.212 Å, CaO 4.811 Å,
 * SrTiO3 3.905 Å, BaTiO3 4.00 Å (cubic), corundum Al2O3 a = 4.7602 Å, c = 12.9933 Å (the measured cell GULP's own
 * example1.gin starts from). The paper's table of calculated values could not be read here, so where the model's minimum
 * is not the measured value the test asserts ours (to 0.002 Å) and states the distance: the titanates come out 1.6-1.8 %
 * short with bush.lib's Ti–O. Its MgO bulk modulus: the value this form gives (247 GPa, above the measured 160 GPa, as
 * formal-charge models without the paper's fitted compressibility weighting are). Tolerances are stated per row.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError, type Cell, type Mat3, type Vec3 } from '../../../../src/server/physics/cell';
import { relaxCell } from '../../../../src/server/physics/cellRelax';
import { COULOMB, erfc, erfcScaled, MAX_EWALD_ATOMS, splitting } from '../../../../src/server/physics/ewald';
import { forceFieldFor } from '../../../../src/server/physics/forceField';
import { evaluateIonic, ionicSetFor } from '../../../../src/server/physics/ionic';
import { asRigidIons, BUSH_1994, type IonicSet } from '../../../../src/server/physics/ionicParameters';
import { runToEnd } from '../../../../src/core/util/steps';
import { stressGPa } from '../../../../src/server/physics/potential';
import { UFF_METHOD } from '../../../../src/server/physics/uff';
import { rattle, skewedNaCl, strained } from '../../../support/physicsFixtures';
import {
  assertForcesAreGradient,
  assertStressIsStrainDerivative,
  corundum,
  equilibrium,
  perovskite,
  rockSalt,
  rutile,
  SHEAR,
} from '../../../support/physicsCrystals';

const ionic = (cell: Cell) => evaluateIonic(cell);
const near = (value: number, expected: number, tolerance: number, what: string): void =>
  assert.ok(Math.abs(value - expected) <= tolerance, `${what}: ${value} vs ${expected} ± ${tolerance}`);

interface Crystal {
  name: string;
  build: (a: number) => Cell;
  /** Å: measured, and how far the model's minimum may be from it. */
  a: number;
  da: number;
  /** Å: the model's own minimum, where it is not within 0.5 % of the measured value. */
  ours?: number;
  energy?: number;
  bulk?: [number, number];
}

const CRYSTALS: Crystal[] = [
  { name: 'NaCl', build: (a) => rockSalt(1, a, 'Na', 'Cl'), a: 5.64, da: 0.03, energy: -4.08, bulk: [26.6, 1.5] },
  { name: 'MgO', build: (a) => rockSalt(1, a, 'Mg', 'O'), a: 4.212, da: 0.01, bulk: [246.7, 0.5] },
  { name: 'CaO', build: (a) => rockSalt(1, a, 'Ca', 'O'), a: 4.811, da: 0.02 },
  { name: 'SrTiO3', build: (a) => perovskite(a, 'Sr', 'Ti'), a: 3.905, da: 0.075, ours: 3.8346 },
  { name: 'BaTiO3', build: (a) => perovskite(a, 'Ba', 'Ti'), a: 4.0, da: 0.07, ours: 3.9362 },
];

for (const c of CRYSTALS) {
  test(`${c.name}: the lattice constant the parameters were fitted to${c.energy ? ', the lattice energy' : ''}${c.bulk ? ', the bulk modulus' : ''}`, () => {
    const found = equilibrium(ionic, c.build, c.a);
    near(found.a, c.a, c.da, `${c.name} a (Å)`);
    if (c.ours) near(found.a, c.ours, 0.002, `${c.name} a (Å), the model's own`);
    if (c.energy) near(found.energy, c.energy, 0.06, `${c.name} E (eV/ion)`);
    if (c.bulk) near(found.bulk, c.bulk[0], c.bulk[1], `${c.name} B (GPa)`);
  });
}

/**
 * Measured room-temperature lattice constants (Å) of the seventeen rock-salt alkali halides: K. S. Song and R. T.
 * Williams, Self-Trapped Excitons, 2nd ed. (Springer, 1996), Table 5.7, as the alkali_halides package transcribes it
 * (github.com/DaanHolleman/alkali-halides, alkali_halides/data/literature.csv). Tosi and Fumi's own computed lattice
 * constants and energies per salt could not be read here, so only NaCl's lattice energy is checked (above).
 */
const HALIDES: readonly [string, string, number][] = [
  ['Li', 'F', 4.03],
  ['Li', 'Cl', 5.14],
  ['Li', 'Br', 5.5],
  ['Li', 'I', 6.0],
  ['Na', 'F', 4.63],
  ['Na', 'Cl', 5.64],
  ['Na', 'Br', 5.98],
  ['Na', 'I', 6.47],
  ['K', 'F', 5.35],
  ['K', 'Cl', 6.29],
  ['K', 'Br', 6.6],
  ['K', 'I', 7.07],
  ['Rb', 'F', 5.63],
  ['Rb', 'Cl', 6.58],
  ['Rb', 'Br', 6.89],
  ['Rb', 'I', 7.34],
  ['Cs', 'F', 6.01],
];
const halideEquilibria = new Map<string, ReturnType<typeof equilibrium>>();
const halideEquilibrium = (cation: string, anion: string, a: number): ReturnType<typeof equilibrium> => {
  const key = cation + anion;
  if (!halideEquilibria.has(key))
    halideEquilibria.set(
      key,
      equilibrium(ionic, (x) => rockSalt(1, x, cation, anion), a),
    );
  return halideEquilibria.get(key)!;
};

/*
 * Every salt relaxes to 0.2–1.7 % below its room-temperature lattice constant: the static lattice Tosi and Fumi fitted has
 * no thermal expansion, which in these salts is of that order between 0 K and room temperature. A wrong radius, ρ or
 * Pauling factor (Li⁺'s n = 2) moves a salt by several per cent.
 */
for (const [cation, anion, measured] of HALIDES) {
  test(`${cation}${anion}: its own Tosi–Fumi set, relaxed to just below the measured lattice constant ${measured} Å`, () => {
    assert.deepEqual(ionicSetFor([cation, anion])?.charges, { [cation]: 1, [anion]: -1 });
    const { a } = halideEquilibrium(cation, anion, measured);
    const shortfall = 1 - a / measured;
    assert.ok(
      shortfall > 0.002 && shortfall < 0.017,
      `${cation}${anion}: a = ${a.toFixed(3)} Å, ${(100 * shortfall).toFixed(2)} % below ${measured}`,
    );
  });
}

test('the lattice energies fall down each group, cation and anion, as the Born–Haber ones do (LiF most bound, RbI least)', () => {
  const energy = (cation: string, anion: string): number =>
    halideEquilibrium(cation, anion, HALIDES.find(([c, x]) => c === cation && x === anion)![2]).energy;
  const cations = ['Li', 'Na', 'K', 'Rb'];
  const anions = ['F', 'Cl', 'Br', 'I'];
  for (const x of anions)
    for (let i = 1; i < cations.length; i++)
      assert.ok(energy(cations[i]!, x) > energy(cations[i - 1]!, x), `${cations[i]}${x} vs ${cations[i - 1]}${x}`);
  for (const c of cations)
    for (let i = 1; i < anions.length; i++)
      assert.ok(energy(c, anions[i]!) > energy(c, anions[i - 1]!), `${c}${anions[i]} vs ${c}${anions[i - 1]}`);
});

/** Bush et al.'s set with every ion rigid (formal charges, short-range terms between the ions): what the shells replace. */
const RIGID_BUSH = asRigidIons(BUSH_1994);

/** The hexagonal a and c of a rhombohedral cell (Å). */
const hexagonal = (l: Mat3): [number, number] => [
  Math.hypot(...[0, 1, 2].map((k) => l[0][k]! - l[1][k]!)),
  Math.hypot(...[0, 1, 2].map((k) => l[0][k]! + l[1][k]! + l[2][k]!)),
];

function relaxed(cell: Cell, set: IonicSet): Mat3 {
  const memory = {};
  const evaluate = (c: Cell) => evaluateIonic(c, set, undefined, memory);
  const result = runToEnd(relaxCell(cell, { fmax: 0.005, maxSteps: 400, evaluate }));
  assert.ok(result.converged, 'the relaxation converges');
  return result.lattice;
}

test('corundum Al2O3: the shell model relaxed from the measured cell, a 1.3 % long and c within 0.2 %; rigid ions within 0.1 % of it', () => {
  const measured = corundum(4.7602, 12.9933, 0.35216, 0.30624, 'Al');
  const [a, c] = hexagonal(relaxed(measured, BUSH_1994));
  near(a, 4.7602, 0.065, 'a (Å)');
  near(c, 12.9933, 0.026, 'c (Å)');
  near(a, 4.8207, 0.002, "a (Å), the model's own");
  near(c, 13.0102, 0.005, "c (Å), the model's own");
  const [ra, rc] = hexagonal(relaxed(measured, RIGID_BUSH));
  near(ra / a, 1, 1e-3, 'rigid a over the shell model');
  near(rc / c, 1, 1e-3, 'rigid c over the shell model');
});

/** Bush et al.'s set on any structure (binary Ti–O takes Matsui and Akaogi's, oxides.test.ts). */
const bush = (cell: Cell) => evaluateIonic(cell, BUSH_1994);

test('rutile TiO2 on Bush et al.: rigid ions shrink a by 5 %; with shells the measured cell is under 10-45 GPa and bush.lib’s Ti gives no stable rutile', () => {
  const measured = rutile(4.5937, 2.9587, 0.30478, 'Ti');
  const stress = stressGPa(bush(measured).virial, measured);
  near(stress[0]!, 11.9, 0.2, 'σxx (GPa)');
  near(stress[2]!, 44.2, 0.3, 'σzz (GPa)');
  const found = equilibrium(
    (cell) => evaluateIonic(cell, RIGID_BUSH),
    (a) => rutile(a, (a * 2.9729) / 4.3493, 0.3155, 'Ti'),
    4.35,
  );
  near(found.a, 4.3493, 0.002, 'rigid-ion a (Å)');
  // Downhill from the measured cell, widening a and shortening c, the O shells are pulled off their cores for good.
  const wider = bush(rutile(4.8, 2.8, 0.315, 'Ti')).energy;
  assert.ok(wider < bush(measured).energy - 0.5, `E(a = 4.8 Å) = ${wider} eV is below the measured cell's`);
  assert.throws(
    () => bush(rutile(5, 2.77, 0.315, 'Ti')),
    (e: unknown) => e instanceof InputError && /no minimum for the shells here \(a polarisation catastrophe/.test(e.message),
  );
});

test("erfc to 1e-13 against the C library's (Python's math.erfc), and the interpolated erfcx to 1e-9 of it", () => {
  for (const [x, value] of [
    [0.5, 0.4795001221869535],
    [1, 0.1572992070502851],
    [2, 0.004677734981047266],
    [3, 2.209049699858544e-5],
    [4, 1.541725790028002e-8],
  ] as const)
    near(erfc(x) / value, 1, 1e-13, `erfc(${x})`);
  for (let x = 0; x < 7; x += 0.0037) near((erfcScaled(x) * Math.exp(-x * x)) / erfc(x), 1, 1e-9, `erfcx(${x})`);
});

const CHARGES_ONLY: IonicSet = { name: 'point charges', citation: 'none', charges: { Na: 1, Cl: -1 }, pairs: {} };

test("Ewald: rock salt's Madelung constant 1.747565, the same per ion in a 64-ion supercell and whatever the splitting", () => {
  const r0 = 2.82;
  const madelung = (cell: Cell, alpha?: number): number =>
    (-evaluateIonic(cell, CHARGES_ONLY, alpha).energy / (cell.positions.length / 2)) * (r0 / COULOMB);
  const unit = rockSalt(1, 2 * r0, 'Na', 'Cl');
  near(madelung(unit), 1.747565, 1e-6, 'Madelung constant');
  near(madelung(rockSalt(2, 2 * r0, 'Na', 'Cl')), madelung(unit), 5e-8, 'supercell');
  const alpha = splitting(unit).alpha;
  for (const f of [0.6, 1.6]) near(madelung(unit, alpha * f), madelung(unit), 1e-8, `α × ${f}`);
});

test('Ewald with the short-range terms: a skewed cell of scattered ions has the same energy for any splitting', () => {
  const cell = skewedNaCl(7);
  const e = evaluateIonic(cell).energy;
  const alpha = splitting(cell).alpha;
  for (const f of [0.7, 1.5]) near(evaluateIonic(cell, undefined, alpha * f).energy, e, 1e-6, `α × ${f}`);
});

const RATTLED_RUTILE = rattle(rutile(4.5937, 2.9587, 0.30478, 'Ti'), 0.1, 8);
const RATTLED_CORUNDUM = rattle(corundum(4.7602, 12.9933, 0.35216, 0.30624, 'Al'), 0.1, 9);

test('forces are minus the numerical gradient of the energy (rattled NaCl, MgO, SrTiO3, rutile on Bush et al., corundum and a skewed cell)', () => {
  for (const cell of [
    rattle(rockSalt(1, 5.6, 'Na', 'Cl'), 0.2, 3),
    rattle(rockSalt(1, 4.2, 'Mg', 'O'), 0.15, 4),
    rattle(perovskite(3.9, 'Sr', 'Ti'), 0.15, 5),
    RATTLED_CORUNDUM,
    skewedNaCl(11),
  ])
    assertForcesAreGradient(ionic, cell, [0, 1, 2, 3, 4], 1e-5);
  assertForcesAreGradient(bush, RATTLED_RUTILE, [0, 1, 2, 3, 4], 1e-5);
});

test('stress is the numerical strain derivative of the energy, shears included', () => {
  for (const cell of [
    strained(rattle(rockSalt(1, 5.6, 'Na', 'Cl'), 0.2, 6), SHEAR),
    rattle(perovskite(3.9, 'Ba', 'Ti'), 0.15, 7),
    skewedNaCl(7),
  ])
    assertStressIsStrainDerivative(ionic, cell, 1e-3);
  assertStressIsStrainDerivative(bush, strained(RATTLED_RUTILE, SHEAR), 1e-3);
});

test('shells: the energy of displaced shells is the same for any Ewald splitting and from any starting shells', () => {
  const e = evaluateIonic(RATTLED_CORUNDUM).energy;
  const alpha = splitting(RATTLED_CORUNDUM).alpha;
  // Each neglected tail is 1e-8 of a term; over this cell's many pairs of charges up to ±3 that sums to some 1e-5 eV,
  // as much with the shells as with rigid ions.
  for (const f of [0.7, 1.5]) near(evaluateIonic(RATTLED_CORUNDUM, BUSH_1994, alpha * f).energy, e, 1e-4, `α × ${f}`);
  const memory = { shells: Float64Array.from(RATTLED_CORUNDUM.positions.flatMap(() => [0.05, -0.03, 0.02])) };
  near(evaluateIonic(RATTLED_CORUNDUM, BUSH_1994, undefined, memory).energy, e, 1e-9, 'from displaced shells');
  assert.ok(
    memory.shells.some((x, k) => k % 3 === 0 && Math.hypot(x, memory.shells[k + 1]!, memory.shells[k + 2]!) > 1e-3),
    'the rattled cell polarises its shells',
  );
});

test('which set applies: from the elements, only for a neutral composition; anything else stays on the labelled fallback', () => {
  assert.match(forceFieldFor(['Na', 'Cl']).method, /M\. P\. Tosi and F\. G\. Fumi, J\. Phys\. Chem\. Solids 25, 45 \(1964\)/);
  assert.match(
    forceFieldFor(['Mg', 'O']).method,
    /Bush, J\. D\. Gale, C\. R\. A\. Catlow and P\. D\. Battle, J\. Mater\. Chem\. 4, 831 \(1994\)/,
  );
  assert.match(forceFieldFor(['Sr', 'Ti', 'O', 'O', 'O']).method, /formal charges O -2, .*Sr \+2, .*Ti \+4/);
  assert.match(
    forceFieldFor(['Al', 'Al', 'O', 'O', 'O']).method,
    /^Buckingham shell model, .*Al \+3.*shells .*O \+0\.513 -2\.513 20\.53.*Al \+0\.043 \+2\.957 403\.98/,
  );
  assert.match(forceFieldFor(['Na', 'Cl']).method, /^Rigid-ion Born–Mayer–Huggins/);
  assert.equal(ionicSetFor(['Mg', 'Mg', 'O']), undefined);
  assert.equal(forceFieldFor(['Mg', 'Mg', 'O']).method, UFF_METHOD);
  for (const mixed of [
    ['Na', 'K', 'Cl', 'Cl'],
    ['Na', 'Na', 'Cl', 'Br'],
  ]) {
    const { method } = forceFieldFor(mixed);
    assert.ok(method.startsWith(UFF_METHOD), method);
    assert.match(method, /each alkali halide on its own .*mixing salts \((Br, Cl, Na|Cl, K, Na)\) gets no rigid-ion set\.$/);
  }
  assert.equal(forceFieldFor(['Na', 'Na', 'Cl']).method, UFF_METHOD);
  assert.equal(forceFieldFor(['Cs', 'Cl']).method.startsWith(UFF_METHOD), true);
});

test('limits: more than MAX_EWALD_ATOMS ions, a cell needing too many reciprocal vectors or ions closer than 1 Å are refused with a message', () => {
  const big = rockSalt(7, 5.64, 'Na', 'Cl');
  assert.ok(big.positions.length > MAX_EWALD_ATOMS);
  assert.throws(
    () => evaluateIonic(big),
    (e: unknown) =>
      e instanceof InputError &&
      /at most 2000 point charges \(ions, and their shells in a shell model\); this cell has 2744/.test(e.message),
  );
  const unit = rockSalt(1, 5.64, 'Na', 'Cl');
  const collapsed = { ...unit, positions: unit.positions.map((p, i) => (i === 4 ? ([0.8, 0, 0] as Vec3) : p)) };
  assert.throws(
    () => evaluateIonic(collapsed),
    (e: unknown) => e instanceof InputError && /Ions 1 and 5 are 0\.80 Å apart .*at least 1 Å between ions/.test(e.message),
  );
  assert.throws(
    () => evaluateIonic(unit, undefined, 40),
    (e: unknown) => e instanceof InputError && /reciprocal vectors \(at most 50000\)/.test(e.message),
  );
});
