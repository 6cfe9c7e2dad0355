/**
 * The reference force field: the neighbour list against brute force, forces and stress against numerical
 * derivatives of the energy, and the invariances of the energy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combine, volume, type Cell, type Mat3, type Vec3 } from '../../src/server/physics/cell';
import { neighborList } from '../../src/server/physics/neighbors';
import { evaluate, EV_PER_A3_IN_GPA, morsePair, pairEnergy, stressGPa } from '../../src/server/physics/potential';
import { bondLength, CUTOFF_FACTOR, SWITCH_ON } from '../../src/server/physics/species';
import { diamond, primitiveSi, rattle, SI_A, skewedNaCl, shifted, strained, VOIGT, voigtStrain } from './physicsFixtures';

const energy = (cell: Cell): number => evaluate(cell).energy;
const SI_BOND = (SI_A * Math.sqrt(3)) / 4;
const positive = (x: number, y: number, z: number): boolean => x > 0 || (x === 0 && (y > 0 || (y === 0 && z > 0)));

/** The sorted pair distances of the half list's rule (i < j, or i = j with a positive image), over all images within reach. */
function bruteForce(cell: Cell, cutoff: number, reach: number): number[] {
  const distances: number[] = [];
  cell.positions.forEach((a, i) =>
    cell.positions.forEach((b, j) => {
      for (let x = -reach; x <= reach; x++) {
        for (let y = -reach; y <= reach; y++) {
          for (let z = -reach; z <= reach; z++) {
            if (i > j || (i === j && !positive(x, y, z))) continue;
            const image = combine([x, y, z], cell.lattice);
            const r = Math.hypot(b[0] + image[0] - a[0], b[1] + image[1] - a[1], b[2] + image[2] - a[2]);
            if (r < cutoff) distances.push(r);
          }
        }
      }
    }),
  );
  return distances.sort((p, q) => p - q);
}

test('neighbour list: the same pairs as brute force, in a skewed cell and with cutoffs longer than the cell', () => {
  const cell = skewedNaCl();
  for (const cutoff of [2.5, 4, 9]) {
    const list = neighborList(cell.lattice, cell.positions, cutoff);
    const fixed = (rs: number[]): string[] => rs.map((r) => r.toFixed(9));
    assert.deepEqual(fixed([...list.r].sort((p, q) => p - q)), fixed(bruteForce(cell, cutoff, 4)), `cutoff ${cutoff}`);
    for (let n = 0; n < list.count; n++) assert.ok(Math.abs(Math.hypot(...list.d.slice(3 * n, 3 * n + 3)) - list.r[n]!) < 1e-12);
  }
});

test('neighbour list: positions outside the cell give the same pairs; diamond has 4 + 12 neighbours within 4 Å', () => {
  const cell = diamond(3);
  const moved = {
    ...cell,
    positions: cell.positions.map((p, i) => (i % 3 ? p : ([p[0] - 2 * cell.lattice[0][0], p[1] + cell.lattice[1][1], p[2]] as Vec3))),
  };
  const a = neighborList(cell.lattice, cell.positions, 4).r.sort((p, q) => p - q);
  const b = neighborList(moved.lattice, moved.positions, 4).r.sort((p, q) => p - q);
  assert.equal(a.length, (216 * 16) / 2); // 4 first and 12 second neighbours per atom, each pair once
  assert.deepEqual(
    a.map((r) => r.toFixed(9)),
    b.map((r) => r.toFixed(9)),
  );
});

test('pair energy: Morse minimum of −D at r0, energy and force continuous across the switching region, zero at the cutoff', () => {
  const p = morsePair('Si', 'O');
  const r0 = bondLength('Si', 'O');
  assert.equal(r0, 1.11 + 0.66);
  assert.ok(Math.abs(pairEnergy(p, r0)[0] + 1) < 1e-12);
  assert.ok(Math.abs(pairEnergy(p, r0)[1]) < 1e-12);
  for (const r of [SWITCH_ON * r0, CUTOFF_FACTOR * r0]) {
    const [below, belowSlope] = pairEnergy(p, r - 1e-9);
    const [above, aboveSlope] = pairEnergy(p, r + 1e-9);
    assert.ok(Math.abs(below - above) < 1e-8 && Math.abs(belowSlope - aboveSlope) < 1e-6, `continuous at ${r}`);
  }
  assert.deepEqual(pairEnergy(p, CUTOFF_FACTOR * r0), [0, 0]);
  // Through the switching region the derivative is the numerical slope of the energy.
  for (const r of [1.3 * r0, 1.4 * r0, 1.48 * r0]) {
    const h = 1e-6;
    assert.ok(Math.abs((pairEnergy(p, r + h)[0] - pairEnergy(p, r - h)[0]) / (2 * h) - pairEnergy(p, r)[1]) < 1e-7);
  }
});

test('forces are minus the numerical gradient of the energy (skewed two-species cell, rattled Si, primitive Si)', () => {
  const h = 1e-5;
  const cells = [skewedNaCl(7), skewedNaCl(11), rattle(diamond(1), 0.2, 3), rattle(primitiveSi(), 0.3, 5)];
  for (const cell of cells) {
    const { forces } = evaluate(cell);
    cell.positions.forEach((_, i) => {
      for (let k = 0; k < 3; k++) {
        const numerical = -(energy(shifted(cell, i, k, h)) - energy(shifted(cell, i, k, -h))) / (2 * h);
        assert.ok(Math.abs(numerical - forces[i]![k]!) < 1e-6, `atom ${i} component ${k}: ${numerical} vs ${forces[i]![k]}`);
      }
    });
    const total = forces.reduce((s, f) => s.map((x, k) => x + f[k]!) as Vec3, [0, 0, 0] as Vec3);
    assert.ok(Math.hypot(...total) < 1e-10, 'forces sum to zero');
  }
});

test('stress is the numerical strain derivative of the energy over the volume, in GPa, in Voigt order', () => {
  const h = 1e-6;
  for (const cell of [skewedNaCl(7), rattle(diamond(1), 0.2, 3)]) {
    const { virial } = evaluate(cell);
    const stress = stressGPa(virial, cell);
    const v0 = volume(cell.lattice);
    VOIGT.forEach((component, v) => {
      const derivative = (energy(strained(cell, voigtStrain(component, h))) - energy(strained(cell, voigtStrain(component, -h)))) / (2 * h);
      assert.ok(
        Math.abs((derivative / v0) * EV_PER_A3_IN_GPA - stress[v]!) < 1e-4,
        `component ${v}: ${(derivative / v0) * EV_PER_A3_IN_GPA} vs ${stress[v]}`,
      );
    });
  }
});

test('stress sign follows ASE: a stretched cell is tensile (positive), a compressed one compressive (negative)', () => {
  const trace = (cell: Cell): number =>
    stressGPa(evaluate(cell).virial, cell)
      .slice(0, 3)
      .reduce((a, b) => a + b);
  const a0 = (bondLength('Si', 'Si') * 4) / Math.sqrt(3); // the lattice constant at which Si-Si bonds are r0 long
  assert.ok(trace(diamond(1, a0 * 1.02)) > 0);
  assert.ok(trace(diamond(1, a0 * 0.98)) < 0);
  assert.ok(Math.abs(trace(diamond(1, a0))) < 1e-9);
});

test('energy is invariant under translation, rigid rotation and the choice of periodic image', () => {
  const cell = skewedNaCl(7);
  const e0 = energy(cell);
  const translated = { ...cell, positions: cell.positions.map((p) => [p[0] + 0.37, p[1] - 1.21, p[2] + 2.9] as Vec3) };
  assert.ok(Math.abs(energy(translated) - e0) < 1e-10);

  const [c, s] = [Math.cos(0.7), Math.sin(0.7)];
  const [c2, s2] = [Math.cos(-1.1), Math.sin(-1.1)];
  // R = Rz(0.7)·Rx(−1.1), applied to rows: r' = r·Rᵀ
  const rotate = (r: Vec3): Vec3 => {
    const x: Vec3 = [r[0], c2 * r[1] - s2 * r[2], s2 * r[1] + c2 * r[2]];
    return [c * x[0] - s * x[1], s * x[0] + c * x[1], x[2]];
  };
  const rotated = { ...cell, lattice: cell.lattice.map(rotate) as Mat3, positions: cell.positions.map(rotate) };
  assert.ok(Math.abs(energy(rotated) - e0) < 1e-10);
  const forces = evaluate(cell).forces.map(rotate);
  evaluate(rotated).forces.forEach((f, i) =>
    assert.ok(Math.hypot(f[0] - forces[i]![0], f[1] - forces[i]![1], f[2] - forces[i]![2]) < 1e-10, 'forces rotate with the structure'),
  );

  const imaged = {
    ...cell,
    positions: cell.positions.map(
      (p, i) =>
        [
          p[0] + (i - 2) * cell.lattice[0][0] + cell.lattice[2][0],
          p[1] + (i - 2) * cell.lattice[0][1] + cell.lattice[2][1],
          p[2] + cell.lattice[2][2],
        ] as Vec3,
    ),
  };
  assert.ok(Math.abs(energy(imaged) - e0) < 1e-10);
});

test('perfect diamond: no forces, each bond at the same energy, and a strained cell a different energy', () => {
  const cell = diamond(2);
  const { energy: e, forces } = evaluate(cell);
  assert.ok(Math.max(...forces.map((f) => Math.hypot(...f))) < 1e-10);
  const bond = pairEnergy(morsePair('Si', 'Si'), SI_BOND)[0];
  assert.ok(Math.abs(e - 64 * 2 * bond) < 1e-9, 'two bonds per atom, nothing from second neighbours beyond the cutoff');
  assert.notEqual(energy(diamond(2, 5.6)), e);
});
