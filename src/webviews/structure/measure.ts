/**
 * Distances and angles between atoms picked in the 3D view, through periodic images: each vector is the
 * shortest among the images of its end (the fractional difference wrapped, then every neighbouring
 * image tried, which is exact for skewed cells where rounding alone is not). Pure.
 */
import type { Mat3, Vec3 } from '../../core/poscar/types';

const cart = (lattice: Mat3, f: Vec3): Vec3 =>
  [0, 1, 2].map((k) => f[0] * lattice[0][k]! + f[1] * lattice[1][k]! + f[2] * lattice[2][k]!) as Vec3;
const length = (v: Vec3): number => Math.hypot(v[0], v[1], v[2]);

/** The shortest Cartesian vector from `from` to any periodic image of `to` (fractional coordinates). */
export function shortestVector(lattice: Mat3, from: Vec3, to: Vec3): Vec3 {
  const d = [0, 1, 2].map((k) => to[k]! - from[k]! - Math.round(to[k]! - from[k]!)) as Vec3;
  let best = cart(lattice, d);
  for (let i = -1; i <= 1; i++) {
    for (let j = -1; j <= 1; j++) {
      for (let k = -1; k <= 1; k++) {
        const v = cart(lattice, [d[0] + i, d[1] + j, d[2] + k]);
        if (length(v) < length(best) - 1e-12) best = v;
      }
    }
  }
  return best;
}

export function distance(lattice: Mat3, a: Vec3, b: Vec3): number {
  return length(shortestVector(lattice, a, b));
}

/** Degrees at `vertex` between the shortest vectors to `a` and to `c`. */
export function angle(lattice: Mat3, a: Vec3, vertex: Vec3, c: Vec3): number {
  const u = shortestVector(lattice, vertex, a);
  const v = shortestVector(lattice, vertex, c);
  const cos = (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / (length(u) * length(v));
  return Number.isFinite(cos) ? (Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI : 0;
}

export interface Picked {
  label: string;
  frac: Vec3;
}

/** What the view shows for the atoms picked so far: nothing for one, a distance for two, an angle (at the middle one) for three. */
export function measurement(lattice: Mat3, picked: readonly Picked[]): string {
  const names = picked.map((p) => p.label).join(' – ');
  if (picked.length === 2) return `${names}: ${distance(lattice, picked[0]!.frac, picked[1]!.frac).toFixed(4)} Å`;
  if (picked.length === 3) {
    const [a, b, c] = picked as [Picked, Picked, Picked];
    return `${names}: ${angle(lattice, a.frac, b.frac, c.frac).toFixed(2)}° (at ${b.label}; ${distance(lattice, a.frac, b.frac).toFixed(4)} Å and ${distance(lattice, b.frac, c.frac).toFixed(4)} Å)`;
  }
  return '';
}
