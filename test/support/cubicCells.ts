/** The cubic cell and the fcc basis that the crystals of the tests are built from (rock salt, diamond, fcc, L1₂). */
import type { Mat3, Vec3 } from '../../src/core/poscar/types';

/** The cubic cell of side a. */
export const cubicCell = (a: number): Mat3 => [
  [a, 0, 0],
  [0, a, 0],
  [0, 0, a],
];

/** The four sites of the conventional face-centred cubic cell, in fractions: the corner, then the three face centres. */
export const FCC: readonly Vec3[] = [
  [0, 0, 0],
  [0, 0.5, 0.5],
  [0.5, 0, 0.5],
  [0.5, 0.5, 0],
];

/** The eight sites of the conventional diamond cell: the fcc sites, then the same shifted by (¼, ¼, ¼). */
export const DIAMOND: readonly Vec3[] = [...FCC, ...FCC.map(([x, y, z]): Vec3 => [x + 0.25, y + 0.25, z + 0.25])];
