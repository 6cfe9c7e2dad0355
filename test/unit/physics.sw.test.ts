/**
 * The Stillinger–Weber potential (src/server/physics/stillingerWeber.ts) against its paper, F. H. Stillinger and
 * T. A. Weber, Phys. Rev. B 31, 5262 (1985): diamond silicon's lattice constant 5.431 Å and cohesive energy
 * 2ε = 4.3366 eV/atom (the paper's choice of units), and the bulk modulus the potential is known to give
 * (101.4 GPa, e.g. Balamane, Halicioglu and Tiller, Phys. Rev. B 46, 2250 (1992), Table II); forces and stress
 * against numerical derivatives of the energy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { volume, type Cell, type Vec3 } from '../../src/server/physics/cell';
import { forceFieldFor } from '../../src/server/physics/forceField';
import { EV_PER_A3_IN_GPA, stressGPa } from '../../src/server/physics/potential';
import { evaluateSw, SW_METHOD } from '../../src/server/physics/stillingerWeber';
import { diamond, primitiveSi, rattle, shifted, strained, VOIGT, voigtStrain } from './physicsFixtures';

const energy = (cell: Cell): number => evaluateSw(cell).energy;
const perAtom = (a: number): number => energy(primitiveSi(a)) / 2;

/** The minimum of a smooth function on [lo, hi] by golden-section search. */
function minimum(f: (x: number) => number, lo: number, hi: number): number {
  const g = (Math.sqrt(5) - 1) / 2;
  while (hi - lo > 1e-7) {
    const a = hi - g * (hi - lo);
    const b = lo + g * (hi - lo);
    if (f(a) < f(b)) hi = b;
    else lo = a;
  }
  return (lo + hi) / 2;
}

test('diamond Si: lattice constant 5.431 Å, cohesive energy 4.3366 eV/atom, bulk modulus about 101 GPa', () => {
  const a0 = minimum(perAtom, 5.2, 5.7);
  assert.ok(Math.abs(a0 - 5.431) < 0.002, `a = ${a0}`);
  assert.ok(Math.abs(perAtom(a0) + 4.3366) < 5e-4, `E = ${perAtom(a0)} eV/atom`);
  // B = V d²E/dV², with V = a³/8 per atom (eight atoms in the cube).
  const h = 1e-3;
  const volumeOf = (a: number) => a ** 3 / 8;
  const ePlus = perAtom(a0 + h);
  const eMinus = perAtom(a0 - h);
  const dV = (volumeOf(a0 + h) - volumeOf(a0 - h)) / 2;
  const bulk = volumeOf(a0) * ((ePlus - 2 * perAtom(a0) + eMinus) / dV ** 2) * EV_PER_A3_IN_GPA;
  assert.ok(Math.abs(bulk - 101.4) < 3, `B = ${bulk} GPa`);
});

test('forces are minus the numerical gradient, and sum to zero (rattled 64-atom and 8-atom cells)', () => {
  const h = 1e-5;
  for (const cell of [rattle(diamond(2), 0.15, 3), rattle(diamond(1), 0.25, 9)]) {
    const { forces } = evaluateSw(cell);
    const atoms = cell.positions.length > 8 ? [0, 17, 63] : [0, 1, 2, 3, 4, 5, 6, 7];
    for (const i of atoms) {
      for (let k = 0; k < 3; k++) {
        const numerical = -(energy(shifted(cell, i, k, h)) - energy(shifted(cell, i, k, -h))) / (2 * h);
        assert.ok(Math.abs(numerical - forces[i]![k]!) < 1e-6, `atom ${i} component ${k}: ${numerical} vs ${forces[i]![k]}`);
      }
    }
    const total = forces.reduce((s, f) => s.map((x, k) => x + f[k]!) as Vec3, [0, 0, 0] as Vec3);
    assert.ok(Math.hypot(...total) < 1e-9, 'forces sum to zero');
  }
});

test('stress is the numerical strain derivative of the energy, shears included', () => {
  const h = 1e-6;
  const cell = rattle(diamond(1), 0.2, 5);
  const stress = stressGPa(evaluateSw(cell).virial, cell);
  const v0 = volume(cell.lattice);
  VOIGT.forEach((component, v) => {
    const derivative = (energy(strained(cell, voigtStrain(component, h))) - energy(strained(cell, voigtStrain(component, -h)))) / (2 * h);
    assert.ok(
      Math.abs((derivative / v0) * EV_PER_A3_IN_GPA - stress[v]!) < 1e-3,
      `component ${v}: ${(derivative / v0) * EV_PER_A3_IN_GPA} vs ${stress[v]}`,
    );
  });
});

test('silicon alone is computed with Stillinger–Weber, the EAM metals with EAM, anything else with the labelled Morse fallback', () => {
  assert.equal(forceFieldFor(['Si', 'Si']).method, SW_METHOD);
  assert.match(forceFieldFor(['Si', 'O']).method, /^Rough reference model/);
  assert.match(forceFieldFor(['Cu', 'Ni']).method, /Zhou, Johnson and Wadley|Zhou/);
  assert.match(forceFieldFor(['Na', 'Cl']).method, /Morse/);
});
