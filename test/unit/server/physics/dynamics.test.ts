/** FIRE relaxation, NVE molecular dynamics, selective dynamics, the trajectory recorder and the slicing runner. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dualBasis, toFractional, type Vec3 } from '../../../../src/server/physics/cell';
import { freeCoordinates, type Flags } from '../../../../src/server/physics/constraints';
import { FrameRecorder } from '../../../../src/server/physics/frames';
import { md } from '../../../../src/server/physics/md';
import { forceFieldFor } from '../../../../src/server/physics/forceField';
import type { Cell } from '../../../../src/server/physics/cell';
import { relax } from '../../../../src/server/physics/relax';
import { runToEnd } from '../../../../src/core/util/steps';
import { diamond, fcc, fccCopper, rattle, skewedNaCl } from '../../../support/physicsFixtures';

/** The energy and forces the relax and MD of a cell use (the force field forceFieldFor picks). */
const evaluate = (cell: Cell) => forceFieldFor(cell.symbols).evaluate(cell);

test('relax: a rattled Si supercell goes back down under the force threshold, every step recorded', () => {
  const start = rattle(diamond(2), 0.15);
  const result = runToEnd(relax(start, { fmax: 0.05, maxSteps: 200 }));
  assert.equal(result.converged, true);
  assert.ok(result.forcesMax.at(-1)! < 0.05);
  assert.ok(result.energies.at(-1)! < result.energies[0]! - 1);
  assert.equal(result.energies.length, result.steps + 1);
  assert.equal(result.forcesMax.length, result.steps + 1);
  assert.equal(result.energies[0], evaluate(start).energy);
  assert.ok(Math.abs(result.energies.at(-1)! - evaluate(diamond(2)).energy) < 0.05, 'back to the diamond structure');
  assert.deepEqual(result.frames[0]!.positions, start.positions);
  assert.deepEqual(result.frames.at(-1)!.positions, result.positions);
});

test('relax: stops at max_steps unconverged when the threshold is out of reach', () => {
  const result = runToEnd(relax(rattle(diamond(1), 0.2), { fmax: 1e-9, maxSteps: 7 }));
  assert.equal(result.converged, false);
  assert.equal(result.steps, 7);
  assert.equal(result.energies.length, 8);
});

test('relax: fixed selective-dynamics coordinates never move (Cartesian in a cubic cell, fractional in a skewed one)', () => {
  for (const cell of [rattle(diamond(1), 0.2), skewedNaCl(7)]) {
    const flags: (Flags | undefined)[] = cell.positions.map((_, i): Flags =>
      i === 0 ? [false, false, false] : i === 1 ? [false, true, true] : i === 2 ? [true, false, false] : [true, true, true],
    );
    const result = runToEnd(relax(cell, { fmax: 0.01, maxSteps: 100 }));
    const held = runToEnd(relax(cell, { fmax: 0.01, maxSteps: 100, flags }));
    assert.ok(result.steps > 3 && held.steps > 3);
    const dual = dualBasis(cell.lattice);
    const before = cell.positions.map((p) => toFractional(p, dual));
    const after = held.positions.map((p) => toFractional(p, dual));
    flags.forEach((f, i) =>
      f!.forEach((free, k) => {
        if (!free) assert.ok(Math.abs(after[i]![k]! - before[i]![k]!) < 1e-12, `atom ${i} coordinate ${k} held`);
      }),
    );
    assert.ok(Math.abs(after[1]![1] - before[1]![1]) > 1e-4, 'free coordinates do move');
    assert.deepEqual(held.positions[0], cell.positions[0], 'a wholly fixed atom stays exactly where it was');
    assert.ok(held.energies.at(-1)! < held.energies[0]!);
  }
});

test('MD: NVE conserves the total energy to 1e-4 eV/atom over 200 steps of 1 fs for Si at 300 K (64 atoms)', () => {
  const cell = diamond(2);
  const result = runToEnd(md(cell, { temperature: 300, timestep: 1, steps: 200, seed: 42 }));
  const n = cell.positions.length;
  assert.equal(result.total.length, 201);
  const e0 = result.total[0]!;
  const worst = Math.max(...result.total.map((e) => Math.abs(e - e0))) / n;
  assert.ok(worst < 1e-4, `largest deviation ${worst} eV/atom`);
  assert.ok(Math.abs(result.total.at(-1)! - e0) / n < 1e-4);
  assert.ok(Math.abs(result.temperatures[0]! - 300) < 1e-9, 'starts at the target temperature');
  // Equipartition: a harmonic crystal started at its minimum settles near half the starting temperature.
  const late = result.temperatures.slice(100);
  const mean = late.reduce((a, b) => a + b) / late.length;
  assert.ok(mean > 100 && mean < 200, `mean temperature ${mean}`);
  result.total.forEach((e, i) => assert.ok(Math.abs(e - result.kinetic[i]! - result.potential[i]!) < 1e-9));
});

test('MD on the UFF fallback: NVE fcc argon at 80 K conserves the total energy to 1e-5 eV/atom over 500 steps of 2 fs', () => {
  // 32 atoms at UFF's own lattice constant (5.327 Å); pairs cross the 2x-2.5x switch all the time, and no jump shows.
  const result = runToEnd(md(fcc(2, 5.327, 'Ar'), { temperature: 80, timestep: 2, steps: 500, seed: 3 }));
  const e0 = result.total[0]!;
  const worst = Math.max(...result.total.map((e) => Math.abs(e - e0))) / 32;
  assert.ok(worst < 1e-5, `largest deviation ${worst} eV/atom`);
});

test('MD: same seed, same run; another seed, another run; no net momentum', () => {
  const cell = rattle(diamond(1), 0.05);
  const options = { temperature: 500, timestep: 1, steps: 30, seed: 9 };
  const a = runToEnd(md(cell, options));
  const b = runToEnd(md(cell, options));
  const c = runToEnd(md(cell, { ...options, seed: 10 }));
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.positions, c.positions);
  const drift = a.positions.reduce((s, p, i) => s.map((x, k) => x + p[k]! - cell.positions[i]![k]!) as Vec3, [0, 0, 0] as Vec3);
  assert.ok(Math.hypot(...drift) < 1e-9, 'the centre of mass stays put');
});

test('MD: held coordinates stay put and leave fewer degrees of freedom', () => {
  const cell = diamond(1);
  const flags: Flags[] = cell.positions.map((_, i) => (i < 2 ? [false, false, false] : [true, true, true]));
  const result = runToEnd(md(cell, { temperature: 300, timestep: 1, steps: 20, seed: 1, flags }));
  assert.deepEqual(result.positions.slice(0, 2), cell.positions.slice(0, 2));
  assert.equal(freeCoordinates(8, flags), 18);
  assert.ok(Math.abs(result.temperatures[0]! - 300) < 1e-9, 'the temperature counts 18 degrees of freedom, none taken by momentum');
});

test('frame recorder: at most 50 evenly spaced frames, first and last included', () => {
  for (const steps of [0, 10, 49, 50, 200, 1000, 1234]) {
    const recorder = new FrameRecorder();
    for (let step = 0; step <= steps; step++) recorder.add(step, [[step, 0, 0]]);
    const frames = recorder.finish(steps, [[steps, 0, 0]]);
    assert.ok(frames.length <= 50, `${steps}: ${frames.length}`);
    assert.equal(frames[0]!.step, 0);
    assert.equal(frames.at(-1)!.step, steps);
    if (steps >= 49) assert.ok(frames.length >= 25);
    const gaps = new Set(frames.slice(1, -1).map((f, i) => f.step - frames[i]!.step));
    assert.ok(gaps.size <= 1, 'evenly spaced');
  }
});

test('NVT: the Langevin thermostat holds 32 Cu atoms at the target (second-half mean within 15 %), where NVE drifts to about half', () => {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const secondHalf = (ensemble: 'nve' | 'nvt') => {
    const result = runToEnd(md(fccCopper(2), { temperature: 300, timestep: 2, steps: 1000, seed: 5, ensemble }));
    return mean(result.temperatures.slice(500));
  };
  const held = secondHalf('nvt');
  assert.ok(Math.abs(held - 300) < 45, `NVT second-half mean ${held.toFixed(1)} K`);
  const free = secondHalf('nve');
  assert.ok(free < 240, `NVE shares its kinetic energy with the potential: ${free.toFixed(1)} K`);
});
