/** Niggli reduction of a lattice: what operations.ts's Niggli cell and primitive.ts's primitive cell are reduced by. Pure. */
import type { Mat3 } from '../poscar/types';
import { determinant } from '../poscar/vec';
import { matTimes, metric } from './cell';

/** A cell operation that cannot be done (a degenerate lattice, a supercell too large): says why. */
export class CellOperationError extends Error {}

/**
 * The Niggli-reduced cell (I. Křivý and B. Gruber, Acta Cryst. A32, 297 (1976)), in the numerically stable form of
 * R. W. Grosse-Kunstleve, N. K. Sauter and P. D. Adams, Acta Cryst. A60, 1 (2004): every comparison of the metric
 * with a tolerance ε (here 1e-5 × V^(1/3), as in their paper and ASE's niggli_reduce), the metric recomputed from
 * the transformed vectors at each step. Returns the reduced lattice and the integer matrix M (L' = M·L, det +1).
 * Bounded at 10,000 steps (the algorithm takes tens).
 */
export function niggliReduce(lattice: Mat3, epsFactor = 1e-5): { lattice: Mat3; transform: Mat3 } {
  const volume = Math.abs(determinant(lattice));
  if (!(volume > 0) || !Number.isFinite(volume)) throw new CellOperationError('The lattice vectors are degenerate (zero volume).');
  const t = new Tolerance(epsFactor * Math.cbrt(volume));
  let m: Mat3 = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  const form = (): NiggliForm => niggliForm(metric(matTimes(m, lattice)));
  for (let step = 0; step < 10_000; step++) {
    const swap = swapStep(form(), t);
    if (swap) {
      m = matTimes(swap, m);
      continue;
    }
    const flip = signStep(form(), t);
    if (flip) m = matTimes(flip, m);
    const reduce = reductionStep(form(), t);
    if (!reduce) return { lattice: matTimes(m, lattice), transform: m };
    m = matTimes(reduce, m);
  }
  throw new CellOperationError('The Niggli reduction did not finish in 10,000 steps.');
}

/** A, B, C, ξ, η, ζ: a·a, b·b, c·c, 2b·c, 2a·c, 2a·b. */
type NiggliForm = [number, number, number, number, number, number];
const niggliForm = (g: Mat3): NiggliForm => [g[0][0], g[1][1], g[2][2], 2 * g[1][2], 2 * g[0][2], 2 * g[0][1]];

/** Grosse-Kunstleve et al.'s comparisons with ε. */
class Tolerance {
  constructor(private readonly eps: number) {}
  lt = (x: number, y: number): boolean => x < y - this.eps;
  gt = (x: number, y: number): boolean => y < x - this.eps;
  eq = (x: number, y: number): boolean => !this.lt(x, y) && !this.gt(x, y);
  sign = (x: number): number => (this.gt(x, 0) ? 1 : this.lt(x, 0) ? -1 : 0);
}

const diagonal = (a: number, b: number, c: number): Mat3 => [
  [a, 0, 0],
  [0, b, 0],
  [0, 0, c],
];

/** A1 and A2: order A ≤ B ≤ C (ties by |ξ| ≤ |η| ≤ |ζ|); each step's matrix has determinant +1. */
function swapStep([A, B, C, xi, eta, zeta]: NiggliForm, t: Tolerance): Mat3 | undefined {
  if (t.gt(A, B) || (t.eq(A, B) && t.gt(Math.abs(xi), Math.abs(eta)))) {
    return [
      [0, -1, 0],
      [-1, 0, 0],
      [0, 0, -1],
    ];
  }
  if (t.gt(B, C) || (t.eq(B, C) && t.gt(Math.abs(eta), Math.abs(zeta)))) {
    return [
      [-1, 0, 0],
      [0, 0, -1],
      [0, -1, 0],
    ];
  }
  return undefined;
}

/** A3 (all angles acute: ξ, η, ζ > 0) and A4 (all non-acute), by sign flips of determinant +1. */
function signStep([, , , xi, eta, zeta]: NiggliForm, t: Tolerance): Mat3 | undefined {
  const signs = [t.sign(xi), t.sign(eta), t.sign(zeta)];
  if (signs[0]! * signs[1]! * signs[2]! === 1) return diagonal(signs[0]!, signs[1]!, signs[2]!);
  const f = [1, 1, 1];
  let free = -1;
  signs.forEach((s, i) => {
    if (s === 1) f[i] = -1;
    else if (s === 0) free = i;
  });
  if (f[0]! * f[1]! * f[2]! < 0 && free >= 0) f[free] = -1;
  if (f[0]! * f[1]! * f[2]! !== 1 || f.every((x) => x === 1)) return undefined;
  return diagonal(f[0]!, f[1]!, f[2]!);
}

/** A5 to A8: shorten c by b, c by a, b by a, c by a + b; undefined when the cell is reduced. */
function reductionStep([A, B, , xi, eta, zeta]: NiggliForm, t: Tolerance): Mat3 | undefined {
  if (t.gt(Math.abs(xi), B) || (t.eq(xi, B) && t.lt(2 * eta, zeta)) || (t.eq(xi, -B) && t.lt(zeta, 0))) {
    return [
      [1, 0, 0],
      [0, 1, 0],
      [0, -Math.sign(xi), 1],
    ];
  }
  if (t.gt(Math.abs(eta), A) || (t.eq(eta, A) && t.lt(2 * xi, zeta)) || (t.eq(eta, -A) && t.lt(zeta, 0))) {
    return [
      [1, 0, 0],
      [0, 1, 0],
      [-Math.sign(eta), 0, 1],
    ];
  }
  if (t.gt(Math.abs(zeta), A) || (t.eq(zeta, A) && t.lt(2 * xi, eta)) || (t.eq(zeta, -A) && t.lt(eta, 0))) {
    return [
      [1, 0, 0],
      [-Math.sign(zeta), 1, 0],
      [0, 0, 1],
    ];
  }
  const sum = xi + eta + zeta + A + B;
  if (t.lt(sum, 0) || (t.eq(sum, 0) && t.gt(2 * (A + eta) + zeta, 0))) {
    return [
      [1, 0, 0],
      [0, 1, 0],
      [1, 1, 1],
    ];
  }
  return undefined;
}
