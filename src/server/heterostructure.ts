/**
 * The reference server's heterostructure builder: two slabs cut perpendicular to a cell axis, matched
 * in-plane by the smallest whole-number supercells (the film strained onto the substrate), stacked
 * with a separation and topped with vacuum. Pure: no I/O. A reference for the editor's views, not the
 * Zur-McGill search the service runs.
 */
import { cross, dot, norm, scale } from '../core/poscar/vec';
import type { Mat3, Vec3 } from '../core/poscar/types';

export interface Slab {
  name: string;
  lattice: Mat3;
  species: string[];
  /** Fractional coordinates, one per species entry. */
  frac: Vec3[];
}

export interface InterfaceOptions {
  /** Miller index of the layer plane, "h_k_l"; only a cell axis ("0_0_1", "0_1_0", "1_0_0"). */
  filmIndex: string;
  subsIndex: string;
  /** Å */
  filmThickness: number;
  subsThickness: number;
  separation: number;
  vacuum: number;
  maxSupercell: number;
}

export const INTERFACE_DEFAULTS: InterfaceOptions = {
  filmIndex: '0_0_1',
  subsIndex: '0_0_1',
  filmThickness: 10,
  subsThickness: 10,
  separation: 2.5,
  vacuum: 10,
  maxSupercell: 4,
};
export const MAX_INTERFACE_ATOMS = 2000;

/** The axis (0, 1, 2) a Miller index "h_k_l" stands perpendicular to; throws for anything else. */
export function millerAxis(index: string): 0 | 1 | 2 {
  const parts = index.trim().split('_');
  const values = parts.map(Number);
  if (parts.length !== 3 || !values.every((v) => Number.isInteger(v)))
    throw new Error(`"${index}" is not a Miller index written as "h_k_l", e.g. "0_0_1"`);
  const nonzero = values.flatMap((v, i) => (v !== 0 ? [i] : []));
  if (nonzero.length !== 1)
    throw new Error(`the reference server builds slabs along a cell axis only ("0_0_1", "0_1_0" or "1_0_0"), not "${index}"`);
  return nonzero[0] as 0 | 1 | 2;
}

const angle = (u: Vec3, v: Vec3): number => (Math.acos(Math.max(-1, Math.min(1, dot(u, v) / (norm(u) * norm(v))))) * 180) / Math.PI;
const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits;

/** The two in-plane vectors and the layer height (cell volume over the in-plane area) along an axis. */
function plane(slab: Slab, axis: 0 | 1 | 2): { u: Vec3; v: Vec3; height: number; other: [number, number] } {
  const other = [0, 1, 2].filter((i) => i !== axis) as [number, number];
  const u = slab.lattice[other[0]]!;
  const v = slab.lattice[other[1]]!;
  const area = norm(cross(u, v));
  return { u, v, height: Math.abs(dot(cross(u, v), slab.lattice[axis])) / area, other };
}

/** The multiples (n of the substrate, m of the film) whose lengths differ least, and that mismatch (film relative to substrate). */
function bestMultiple(subs: number, film: number, max: number): { n: number; m: number; mismatch: number } {
  let best = { n: 1, m: 1, mismatch: Infinity };
  for (let n = 1; n <= max; n++) {
    for (let m = 1; m <= max; m++) {
      const mismatch = (m * film - n * subs) / (n * subs);
      if (Math.abs(mismatch) < Math.abs(best.mismatch) - 1e-9) best = { n, m, mismatch };
    }
  }
  return best;
}

/** Atoms of a slab: the cell repeated (a, b) in-plane and `layers` along the axis, as in-plane fractions and a height. */
function slabAtoms(slab: Slab, axis: 0 | 1 | 2, other: [number, number], a: number, b: number, layers: number, height: number) {
  const atoms: { species: string; fu: number; fv: number; z: number }[] = [];
  for (let i = 0; i < a; i++) {
    for (let j = 0; j < b; j++) {
      for (let l = 0; l < layers; l++) {
        slab.frac.forEach((f, s) => {
          const w = ((f[axis] % 1) + 1) % 1;
          atoms.push({ species: slab.species[s]!, fu: (f[other[0]]! + i) / a, fv: (f[other[1]]! + j) / b, z: (w + l) * height });
        });
      }
    }
  }
  return atoms;
}

/** The combined cell as POSCAR text and the facts about the match. Throws (with a reason) for what it cannot build. */
export function buildInterface(film: Slab, subs: Slab, options: InterfaceOptions) {
  const filmAxis = millerAxis(options.filmIndex);
  const subsAxis = millerAxis(options.subsIndex);
  const f = plane(film, filmAxis);
  const s = plane(subs, subsAxis);
  const mu = bestMultiple(norm(s.u), norm(f.u), options.maxSupercell);
  const mv = bestMultiple(norm(s.v), norm(f.v), options.maxSupercell);
  const subsLayers = Math.max(1, Math.round(options.subsThickness / s.height));
  const filmLayers = Math.max(1, Math.round(options.filmThickness / f.height));
  // Counted before any atom is made: a slab a millionth of an ångström high would otherwise ask for millions of layers.
  const total = mu.n * mv.n * subsLayers * subs.species.length + mu.m * mv.m * filmLayers * film.species.length;
  if (!(total <= MAX_INTERFACE_ATOMS))
    throw new Error(
      `the interface would hold ${total} atoms; the reference server builds at most ${MAX_INTERFACE_ATOMS}: use thinner slabs or a smaller max_supercell`,
    );
  const subsAtoms = slabAtoms(subs, subsAxis, s.other, mu.n, mv.n, subsLayers, s.height);
  const filmAtoms = slabAtoms(film, filmAxis, f.other, mu.m, mv.m, filmLayers, f.height);
  const A = scale(s.u, mu.n);
  const B = scale(s.v, mv.n);
  const normal = scale(cross(A, B), 1 / norm(cross(A, B)));
  const subsTop = subsLayers * s.height;
  const filmBottom = subsTop + options.separation;
  const c = filmBottom + filmLayers * f.height + options.vacuum;
  const lattice: Mat3 = [A, B, scale(normal, c)];
  const atoms = [...subsAtoms, ...filmAtoms.map((x) => ({ ...x, z: x.z + filmBottom }))];
  const kinds = [...new Set(atoms.map((x) => x.species))];
  const lines = [
    `${film.name} on ${subs.name} (reference interface)`,
    '1.0',
    ...lattice.map((row) => row.map((v) => v.toFixed(6).padStart(12)).join(' ')),
    kinds.join(' '),
  ];
  lines.push(kinds.map((k) => atoms.filter((x) => x.species === k).length).join(' '), 'Direct');
  for (const kind of kinds) {
    for (const x of atoms)
      if (x.species === kind) lines.push(`${[x.fu, x.fv, x.z / c].map((v) => v.toFixed(6).padStart(10)).join(' ')} ${kind}`);
  }
  return {
    combined_poscar: `${lines.join('\n')}\n`,
    mismatch_u: round(mu.mismatch, 5),
    mismatch_v: round(mv.mismatch, 5),
    mismatch_angle: round(angle(f.u, f.v) - angle(s.u, s.v), 4),
    mismatch_percent: round(100 * Math.max(Math.abs(mu.mismatch), Math.abs(mv.mismatch)), 3),
    supercell: { substrate: [mu.n, mv.n, subsLayers], film: [mu.m, mv.m, filmLayers] },
    interface_area: round(norm(cross(A, B)), 3),
    n_atoms: total,
    film_index: options.filmIndex,
    subs_index: options.subsIndex,
    separation: options.separation,
    vacuum: options.vacuum,
  };
}
