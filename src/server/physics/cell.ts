/**
 * The periodic cell the reference calculations work on, and the 3-vector algebra they share. Pure.
 * Lattice vectors are rows in Å; positions are Cartesian Å.
 */
import type { Mat3, Vec3 } from '../../poscar/types';

export type { Mat3, Vec3 };

export interface Cell {
  lattice: Mat3;
  symbols: string[];
  positions: Vec3[];
}

export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const norm = (a: Vec3): number => Math.sqrt(dot(a, a));
export const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** Σ_i f[i]·rows[i]: fractional (or integer image) coordinates to Cartesian. */
export function combine(f: Vec3, rows: Mat3): Vec3 {
  return [0, 1, 2].map((c) => f[0] * rows[0][c] + f[1] * rows[1][c] + f[2] * rows[2][c]) as Vec3;
}

export function volume(lattice: Mat3): number {
  return Math.abs(dot(lattice[0], cross(lattice[1], lattice[2])));
}

/** Rows b_i with a_i · b_j = δ_ij (no 2π): Cartesian to fractional is [b_0·r, b_1·r, b_2·r]. */
export function dualBasis(lattice: Mat3): Mat3 {
  const [a, b, c] = lattice;
  const det = dot(a, cross(b, c));
  return [scale(cross(b, c), 1 / det), scale(cross(c, a), 1 / det), scale(cross(a, b), 1 / det)];
}

/** Reciprocal lattice vectors as rows, with the 2π (Å⁻¹). */
export function reciprocal(lattice: Mat3): Mat3 {
  return dualBasis(lattice).map((row) => scale(row, 2 * Math.PI)) as Mat3;
}

export function toFractional(r: Vec3, dual: Mat3): Vec3 {
  return [dot(dual[0], r), dot(dual[1], r), dot(dual[2], r)];
}

/** The distance between opposite faces of the cell along each axis: 1/|b_i|. */
export function perpendicularWidths(lattice: Mat3): Vec3 {
  return dualBasis(lattice).map((row) => 1 / norm(row)) as Vec3;
}

/** a, b, c in Å and α, β, γ in degrees. */
export function latticeParameters(lattice: Mat3): { lengths: Vec3; angles: Vec3 } {
  const lengths = lattice.map(norm) as Vec3;
  const cosine = (i: number, j: number): number => Math.min(1, Math.max(-1, dot(lattice[i], lattice[j]) / (lengths[i] * lengths[j])));
  const angle = (i: number, j: number): number => (Math.acos(cosine(i, j)) * 180) / Math.PI;
  return { lengths, angles: [angle(1, 2), angle(0, 2), angle(0, 1)] };
}

/** A structure or request the reference models cannot take; the server answers 400 with the message. */
export class InputError extends Error {}
