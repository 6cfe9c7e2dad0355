/**
 * Selective dynamics. As in VASP (and ASE's FixScaled), a fixed flag holds a fractional coordinate fixed,
 * so an atom may only move along the lattice vectors of its free coordinates. Forces and velocities are
 * projected onto those directions; for an orthogonal cell that is zeroing the fixed Cartesian components.
 */
import { dot, dualBasis, norm, scale, sub, type Mat3, type Vec3 } from './cell';

/** One atom's flags: true = free to move along a, b, c. */
export type Flags = [boolean, boolean, boolean];

/** Removes from each vector its component across the fixed directions, in place; identity without flags. */
export type Projector = (vectors: Vec3[]) => Vec3[];

export function projector(lattice: Mat3, flags: readonly (Flags | undefined)[] | undefined): Projector {
  if (!flags?.some((f) => f && f.includes(false))) return (vectors) => vectors;
  const dual = dualBasis(lattice);
  // The fixed fractional coordinate k changes along b_k only: an orthonormal basis of the b_k of fixed k.
  const blocked = flags.map((f) => orthonormal(dual.filter((_, k) => f && !f[k])));
  return (vectors) => {
    blocked.forEach((basis, i) => {
      if (basis.length) vectors[i] = basis.length === 3 ? [0, 0, 0] : reject(vectors[i]!, basis);
    });
    return vectors;
  };
}

/** Degrees of freedom left by the flags: 3 per atom, less one per fixed coordinate. */
export function freeCoordinates(natoms: number, flags: readonly (Flags | undefined)[] | undefined): number {
  return 3 * natoms - (flags ?? []).reduce((n, f) => n + (f ? f.filter((free) => !free).length : 0), 0);
}

/** v less its components along the orthonormal vectors of basis. */
function reject(v: Vec3, basis: readonly Vec3[]): Vec3 {
  return basis.reduce((w, u) => sub(w, scale(u, dot(w, u))), v);
}

function orthonormal(vectors: Vec3[]): Vec3[] {
  const basis: Vec3[] = [];
  for (const v of vectors) {
    const w = reject(v, basis);
    basis.push(scale(w, 1 / norm(w)));
  }
  return basis;
}
