import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildScene, fitRepeat, legend, toXyz } from '../../../../src/webviews/structure/scene';
import type { Mat3 } from '../../../../src/core/poscar/types';

const cube = (a: number): Mat3 => [
  [a, 0, 0],
  [0, a, 0],
  [0, 0, a],
];
const FCC = [0, 0, 0, 0, 0.5, 0.5, 0.5, 0, 0.5, 0.5, 0.5, 0];
const ROCKSALT = {
  lattice: cube(5.64),
  elements: ['Na', 'Na', 'Na', 'Na', 'Cl', 'Cl', 'Cl', 'Cl'],
  frac: [...FCC, ...FCC.map((x, i) => (i % 3 === 0 ? (x + 0.5) % 1 : x))],
};

test('a rock-salt cube shows its 27 atoms: sites on faces, edges and corners drawn at each', () => {
  const scene = buildScene(ROCKSALT, [1, 1, 1]);
  assert.equal(scene.elements.length, 27);
  assert.equal(scene.elements.filter((e) => e === 'Na').length, 14);
  assert.equal(scene.elements.filter((e) => e === 'Cl').length, 13);
  // Every drawn atom is inside the closed cube, and every corner is there.
  for (let i = 0; i < 27; i++)
    for (let k = 0; k < 3; k++) assert.ok(scene.positions[3 * i + k]! >= -1e-9 && scene.positions[3 * i + k]! <= 5.64 + 1e-9);
  const corners = new Set<string>();
  for (let i = 0; i < 27; i++) corners.add([0, 1, 2].map((k) => scene.positions[3 * i + k]!.toFixed(2)).join(','));
  for (const c of ['0.00,0.00,0.00', '5.64,5.64,5.64', '5.64,0.00,5.64']) assert.ok(corners.has(c), c);
  assert.deepEqual([...new Set(scene.sites)].sort(), [0, 1, 2, 3, 4, 5, 6, 7]);
});

test('repeats multiply the cell; coordinates outside [0, 1) and a hair below 1 wrap onto the faces', () => {
  const one = { lattice: cube(2), elements: ['Cu'], frac: [0.9999999, -1, 2] };
  const scene = buildScene(one, [2, 3, 1]);
  assert.equal(scene.elements.length, 3 * 4 * 2);
  assert.deepEqual(scene.cell, [
    [4, 0, 0],
    [0, 6, 0],
    [0, 0, 2],
  ]);
  const inside = buildScene({ lattice: cube(2), elements: ['Cu'], frac: [0.5, 0.5, 0.5] }, [3, 3, 3]);
  assert.equal(inside.elements.length, 27);
});

test('skewed cells: positions are fractional coordinates times the lattice rows', () => {
  const hex: Mat3 = [
    [3, 0, 0],
    [-1.5, 2.598, 0],
    [0, 0, 5],
  ];
  const scene = buildScene({ lattice: hex, elements: ['Zn'], frac: [1 / 3, 2 / 3, 0.5] }, [1, 1, 1]);
  assert.equal(scene.elements.length, 1);
  const p = [...scene.positions];
  assert.deepEqual(
    p.map((x) => x.toFixed(3)),
    [(1 - (1.5 * 2) / 3 + 0).toFixed(3), ((2.598 * 2) / 3).toFixed(3), '2.500'],
  );
});

test('the atom budget shrinks the largest repeat first and says what it drew', () => {
  assert.deepEqual(fitRepeat([3, 3, 3], 1000, 30_000), [3, 3, 3]);
  assert.deepEqual(fitRepeat([3, 3, 3], 2000, 30_000), [2, 2, 3]);
  assert.deepEqual(fitRepeat([3, 3, 3], 100_000, 30_000), [1, 1, 1]);
  const big = buildScene(
    { lattice: cube(50), elements: Array(2000).fill('Ar'), frac: Array.from({ length: 6000 }, (_, i) => ((i * 0.618) % 0.9) + 0.05) },
    [3, 3, 3],
    30_000,
  );
  assert.ok(big.elements.length <= 30_000);
  assert.deepEqual(big.repeat, [2, 2, 3]);
});

test('XYZ text carries the supercell as an extended-XYZ lattice line; the legend counts sites', () => {
  const scene = buildScene({ lattice: cube(3), elements: ['Fe', 'Fe'], frac: [0.5, 0.5, 0.5, 0.25, 0.25, 0.25] }, [1, 1, 1]);
  const xyz = toXyz(scene, 'Lattice="3 0 0 0 3 0 0 0 3"\nsneaky');
  assert.equal(xyz.split('\n')[0], '2');
  assert.equal(xyz.split('\n')[1], 'Lattice="3 0 0 0 3 0 0 0 3" sneaky', 'a title never breaks the format');
  assert.equal(xyz.split('\n')[2], 'Fe 1.500000 1.500000 1.500000');
  assert.deepEqual(legend(['Ga', 'As', 'Ga']), [
    { element: 'Ga', count: 2 },
    { element: 'As', count: 1 },
  ]);
});
