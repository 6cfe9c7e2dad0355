/**
 * What the three-body potentials (Stillinger–Weber, Tersoff) share: each atom's full list of bonds, built from
 * the half list of neighbors.ts in one pass, and the chain rule from a bond vector's energy gradient to forces
 * (eV/Å) and the virial ∂E/∂ε (eV, Voigt order, as potential.ts defines it). Pure.
 */
import type { Cell, Vec3 } from './cell';
import { neighborList } from './neighbors';

/** One direction of a bond: from its atom to neighbour j, vector d (Å) and length r. */
export interface Bond {
  j: number;
  d: Vec3;
  r: number;
}

/** Each atom's bonds within the cutoff, both directions (d from the atom to its neighbour), from one half list. */
export function fullNeighbors(cell: Cell, cutoff: number): Bond[][] {
  const list = neighborList(cell.lattice, cell.positions, cutoff);
  const bonds: Bond[][] = cell.positions.map(() => []);
  for (let p = 0; p < list.count; p++) {
    const d: Vec3 = [list.d[3 * p]!, list.d[3 * p + 1]!, list.d[3 * p + 2]!];
    const i = list.i[p]!;
    const j = list.j[p]!;
    const r = list.r[p]!;
    bonds[i]!.push({ j, d, r });
    bonds[j]!.push({ j: i, d: [-d[0], -d[1], -d[2]], r });
  }
  return bonds;
}

/**
 * ∂E/∂d = g for a bond vector d from atom `from` to atom `to`: adds −g to the force on `to`, +g to the force on
 * `from`, and g⊗d (symmetrised, Voigt order) to the virial.
 */
export function accumulate(forces: Vec3[], virial: number[], from: number, to: number, g: Vec3, d: Vec3): void {
  for (let a = 0; a < 3; a++) {
    forces[to]![a]! -= g[a]!;
    forces[from]![a]! += g[a]!;
  }
  virial[0]! += g[0] * d[0];
  virial[1]! += g[1] * d[1];
  virial[2]! += g[2] * d[2];
  virial[3]! += (g[1] * d[2] + g[2] * d[1]) / 2;
  virial[4]! += (g[0] * d[2] + g[2] * d[0]) / 2;
  virial[5]! += (g[0] * d[1] + g[1] * d[0]) / 2;
}

/** ∂cos θ/∂d for bond `own`, θ its angle with `other` (both from the same atom): d_other/(r r_other) − cos·d/r². */
export function cosineGradient(own: Bond, other: Bond, cos: number): Vec3 {
  const k = 1 / (own.r * other.r);
  const c = cos / (own.r * own.r);
  return [other.d[0] * k - c * own.d[0], other.d[1] * k - c * own.d[1], other.d[2] * k - c * own.d[2]];
}

export const cosine = (a: Bond, b: Bond): number => (a.d[0] * b.d[0] + a.d[1] * b.d[1] + a.d[2] * b.d[2]) / (a.r * b.r);
