import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Mat3, Vec3 } from '../../../../src/core/poscar/types';
import { angle, distance, measurement } from '../../../../src/webviews/structure/measure';

const near = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);
const A = 5.431;
const cubic: Mat3 = [
  [A, 0, 0],
  [0, A, 0],
  [0, 0, A],
];

test('silicon: the bond is a√3/4 = 2.3517 Å and the bond angle 109.47° (tetrahedral), through periodic images', () => {
  near(distance(cubic, [0, 0, 0], [0.25, 0.25, 0.25]), (A * Math.sqrt(3)) / 4, 1e-9, 'bond');
  // Across the cell's face: the image at (-0.25, -0.25, -0.25) is as near as the one inside.
  near(distance(cubic, [0, 0, 0], [0.75, 0.75, 0.25]), (A * Math.sqrt(3)) / 4, 1e-9, 'bond through an image');
  near(angle(cubic, [0.25, 0.25, 0.25], [0, 0, 0], [0.75, 0.75, 0.25]), (Math.acos(-1 / 3) * 180) / Math.PI, 1e-9, 'tetrahedral angle');
});

test('a skewed cell: the nearest image is found where rounding the fractional difference is wrong', () => {
  // A very oblique 2D-like cell (gamma = 20°): rounding gives the image at Δf = (0.45, 0), the true nearest is another.
  const g = (20 * Math.PI) / 180;
  const skew: Mat3 = [
    [4, 0, 0],
    [4 * Math.cos(g), 4 * Math.sin(g), 0],
    [0, 0, 10],
  ];
  const a: Vec3 = [0, 0, 0];
  const b: Vec3 = [0.45, -0.45, 0];
  let brute = Infinity;
  for (let i = -3; i <= 3; i++)
    for (let j = -3; j <= 3; j++) {
      const f = [b[0] + i, b[1] + j, 0];
      brute = Math.min(brute, Math.hypot(f[0]! * skew[0][0] + f[1]! * skew[1][0], f[0]! * skew[0][1] + f[1]! * skew[1][1]));
    }
  near(distance(skew, a, b), brute, 1e-9, 'nearest image');
});

test('the readout: nothing for one atom, a distance for two, an angle at the middle one for three', () => {
  const picks = [
    { label: 'Si1', frac: [0.25, 0.25, 0.25] as Vec3 },
    { label: 'Si2', frac: [0, 0, 0] as Vec3 },
    { label: 'Si3', frac: [0.75, 0.75, 0.25] as Vec3 },
  ];
  assert.equal(measurement(cubic, picks.slice(0, 1)), '');
  assert.equal(measurement(cubic, picks.slice(0, 2)), 'Si1 – Si2: 2.3517 Å');
  assert.equal(measurement(cubic, picks), 'Si1 – Si2 – Si3: 109.47° (at Si2; 2.3517 Å and 2.3517 Å)');
});
