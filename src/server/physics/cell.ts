/**
 * The periodic cell the reference calculations work on, and the 3-vector algebra they share. Pure.
 * Lattice vectors are rows in Å; positions are Cartesian Å.
 */
import type { Mat3, Vec3 } from '../../core/poscar/types';
import { reciprocal as dualBasis, dot, scale } from '../../core/poscar/vec';

export type { Mat3, Vec3 };

export interface Cell {
  lattice: Mat3;
  symbols: string[];
  positions: Vec3[];
}

export { add, cross, dot, norm, scale, sub, planeSpacings as perpendicularWidths } from '../../core/poscar/vec';
/** Σ_i f[i]·rows[i]: fractional (or integer image) coordinates to Cartesian. */
export { rowTimes as combine } from '../../core/poscar/vec';
/** Rows b_i with a_i · b_j = δ_ij (no 2π): Cartesian to fractional is [b_0·r, b_1·r, b_2·r]. */
export { reciprocal as dualBasis } from '../../core/poscar/vec';
export { volume } from '../../core/poscar/structure';

/** Reciprocal lattice vectors as rows, with the 2π (Å⁻¹). */
export function reciprocal(lattice: Mat3): Mat3 {
  return dualBasis(lattice).map((row) => scale(row, 2 * Math.PI)) as Mat3;
}

export function toFractional(r: Vec3, dual: Mat3): Vec3 {
  return [dot(dual[0], r), dot(dual[1], r), dot(dual[2], r)];
}

/** A structure or request the reference models cannot take; the server answers 400 with the message. */
export class InputError extends Error {}
