/** 3-vector and 3×3 helpers for the POSCAR core. Lattices are rows of vectors, positions are row vectors. */
import type { Mat3, Vec3 } from './types';

export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];

export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

export const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

export const norm = (a: Vec3): number => Math.sqrt(dot(a, a));

/** Signed volume a·(b×c): negative for a left-handed set of lattice vectors. */
export const determinant = (m: Mat3): number => dot(m[0], cross(m[1], m[2]));

/** The rows of the inverse transpose: f_k = cart·b_k. Infinite or NaN for a singular lattice. */
export function reciprocal(m: Mat3): Mat3 {
  const det = determinant(m);
  const scaled = (v: Vec3): Vec3 => [v[0] / det, v[1] / det, v[2] / det];
  return [scaled(cross(m[1], m[2])), scaled(cross(m[2], m[0])), scaled(cross(m[0], m[1]))];
}

/** f·M: fractional coordinates (or any row vector) times the lattice. */
export const rowTimes = (f: Vec3, m: Mat3): Vec3 => [
  f[0] * m[0][0] + f[1] * m[1][0] + f[2] * m[2][0],
  f[0] * m[0][1] + f[1] * m[1][1] + f[2] * m[2][1],
  f[0] * m[0][2] + f[1] * m[1][2] + f[2] * m[2][2],
];

/** The distance between neighbouring lattice planes along each axis, 1/|b_k|: how thick the cell is. */
export const planeSpacings = (m: Mat3): Vec3 => reciprocal(m).map((b) => 1 / norm(b)) as Vec3;
