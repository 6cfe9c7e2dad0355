/**
 * The Tersoff potentials of Powell, Migliorato and Cullis, Phys. Rev. B 75, 115202 (2007) for AlAs, GaP, InP and InSb
 * (src/server/physics/tersoffIIIV.ts). The paper fitted each compound to its measured lattice constant, cohesive energy
 * and elastic constants; its own tables could not be read here, so the test holds the transcribed parameters to:
 *  - the measured lattice constants (300 K; Vurgaftman, Meyer and Ram-Mohan, J. Appl. Phys. 89, 5815 (2001)), within
 *    0.002 Å;
 *  - the cohesive energies they give, 7.56, 7.12, 6.96 and 5.60 eV per pair to 2·10⁻³ eV: round numbers, the fit's
 *    targets;
 *  - the bulk moduli they give, which lie within 5 % of (C11 + 2 C12)/3 from Vurgaftman et al.'s elastic constants
 *    (their tables list C11 = 1250 for AlAs: the unit is 0.1 GPa).
 * Forces and stress against numerical derivatives of the energy, in each compound and with an antisite, where like
 * atoms are neighbours and (the paper having no such bond) do not interact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cell } from '../../../../src/server/physics/cell';
import { forceFieldFor } from '../../../../src/server/physics/forceField';
import { evaluatePowell, powellCovers, POWELL_METHOD } from '../../../../src/server/physics/tersoffIIIV';
import { rattle, strained, zincblende } from '../../../support/physicsFixtures';
import {
  assertForcesAreGradient,
  assertStressIsStrainDerivative,
  equilibrium,
  SHEAR,
  zincblendeCubic,
} from '../../../support/physicsCrystals';

const near = (value: number, expected: number, tolerance: number, what: string): void =>
  assert.ok(Math.abs(value - expected) <= tolerance, `${what}: ${value} vs ${expected} ± ${tolerance}`);

interface Compound {
  cation: string;
  anion: string;
  /** Å, measured (Vurgaftman et al. 2001). */
  a: number;
  /** eV per cation–anion pair, as the parameters give it. */
  pair: number;
  /** GPa: as the parameters give it, and (C11 + 2 C12)/3 from Vurgaftman et al.'s C11, C12. */
  bulk: number;
  measuredBulk: number;
}

const COMPOUNDS: readonly Compound[] = [
  { cation: 'Al', anion: 'As', a: 5.6611, pair: 7.56, bulk: 74.8, measuredBulk: (125 + 2 * 53.4) / 3 },
  { cation: 'Ga', anion: 'P', a: 5.4505, pair: 7.12, bulk: 92.0, measuredBulk: (140.5 + 2 * 62.03) / 3 },
  { cation: 'In', anion: 'P', a: 5.8697, pair: 6.96, bulk: 73.9, measuredBulk: (101.1 + 2 * 56.1) / 3 },
  { cation: 'In', anion: 'Sb', a: 6.4794, pair: 5.6, bulk: 47.7, measuredBulk: (68.47 + 2 * 37.35) / 3 },
];

for (const c of COMPOUNDS) {
  const name = `${c.cation}${c.anion}`;

  test(`${name}: the measured a, the fitted cohesive energy and a bulk modulus near the measured one`, () => {
    const found = equilibrium(evaluatePowell, (a) => zincblende(c.cation, c.anion, a), c.a);
    near(found.a, c.a, 0.002, `${name} a (Å)`);
    near(-2 * found.energy, c.pair, 2e-3, `${name} Ec (eV/pair)`);
    near(found.bulk, c.bulk, 0.1, `${name} B (GPa)`);
    near(found.bulk / c.measuredBulk, 1, 0.05, `${name} B against the measured`);
  });

  test(`${name}: forces are minus the numerical gradient of the energy, stress the strain derivative`, () => {
    const cell = rattle(zincblendeCubic(1, c.a, c.cation, c.anion), 0.25, 3);
    assertForcesAreGradient(evaluatePowell, cell, [0, 1, 2, 4, 5, 7], 1e-6);
    assertStressIsStrainDerivative(evaluatePowell, strained(cell, SHEAR), 1e-3);
  });
}

test('an antisite puts like atoms side by side: they do not interact, and forces and stress stay exact', () => {
  const perfect = zincblendeCubic(1, 5.8697, 'In', 'P');
  const cell = rattle({ ...perfect, symbols: perfect.symbols.map((s, i) => (i === 0 ? 'P' : s)) }, 0.2, 5);
  assertForcesAreGradient(evaluatePowell, cell, [0, 1, 4, 6], 1e-6);
  assertStressIsStrainDerivative(evaluatePowell, strained(cell, SHEAR), 1e-3);
  // Two atoms 2.4 Å apart in a 20 Å box, and an In–P pair 10 Å from them.
  const box = (first: string, second: string): Cell => ({
    lattice: [
      [20, 0, 0],
      [0, 20, 0],
      [0, 0, 20],
    ],
    symbols: [first, second, 'In', 'P'],
    positions: [
      [0, 0, 0],
      [2.4, 0, 0],
      [10, 10, 10],
      [12.4, 10, 10],
    ],
  });
  const lone = evaluatePowell(box('In', 'P')).energy / 2;
  assert.ok(lone < -1, `an In–P dimer binds (${lone} eV)`);
  near(evaluatePowell(box('P', 'P')).energy, lone, 1e-12, 'P–P and a far In–P');
  near(evaluatePowell(box('In', 'In')).energy, lone, 1e-12, 'In–In and a far In–P');
});

test('it covers each compound on its own, after GaAs, and the answer names the paper', () => {
  assert.ok(powellCovers(['Al', 'As']) && powellCovers(['P', 'Ga', 'P']) && powellCovers(['In', 'P']) && powellCovers(['Sb', 'In']));
  for (const symbols of [['In'], ['P'], ['In', 'As'], ['Ga', 'In', 'P'], ['Al', 'P'], []]) assert.equal(powellCovers(symbols), false);
  assert.equal(forceFieldFor(['In', 'Sb']).method, POWELL_METHOD);
  assert.match(forceFieldFor(['Ga', 'As']).method, /Albe/);
  assert.match(POWELL_METHOD, /Powell, Migliorato and Cullis, Phys\. Rev\. B 75, 115202 \(2007\)/);
  assert.throws(() => evaluatePowell(zincblende('Ga', 'As', 5.65)), /AlAs, GaP, InP and InSb/);
});
