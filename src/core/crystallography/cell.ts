/**
 * A periodic cell as the symmetry finder and the cell operations take it: lattice vectors in Å as rows,
 * fractional positions, one species symbol per site. Pure: no I/O.
 */
import { element } from '../poscar/elements';
import type { Mat3, Poscar, Vec3 } from '../poscar/types';
import { determinant, rowTimes } from '../poscar/vec';

export interface Cell {
  /** Lattice vectors in Å, rows. */
  lattice: Mat3;
  /** Fractional coordinates, one per site. */
  frac: Vec3[];
  /** Element symbol (or a placeholder) per site. */
  species: string[];
}

/** The cell of a parsed POSCAR: the lattice with the scale applied and the sites' fractional coordinates. */
export function cellOfPoscar(poscar: Poscar): Cell {
  return {
    lattice: poscar.lattice.map((r) => [...r]) as Mat3,
    frac: poscar.sites.map((s) => [...s.frac] as Vec3),
    species: poscar.sites.map((s) => s.species),
  };
}

/**
 * The type number of each site for the symmetry search: the atomic number of an element symbol, else a
 * number past the periodic table per distinct placeholder, so that only equal species are interchangeable.
 */
export function typeNumbers(species: readonly string[]): number[] {
  const placeholders = new Map<string, number>();
  return species.map((s) => {
    const z = element(s)?.z;
    if (z !== undefined) return z;
    let n = placeholders.get(s);
    if (n === undefined) placeholders.set(s, (n = 1000 + placeholders.size));
    return n;
  });
}

/** x mod 1 in [0, 1), with −0 and values that round to 1 written as 0. */
export function wrapUnit(x: number): number {
  const w = x - Math.floor(x);
  return w >= 1 || Object.is(w, -0) || Math.abs(w - 1) < 1e-12 ? 0 : w;
}

/** Every position moved into the cell, [0, 1) along each axis; the lattice and the order of sites kept. */
export function wrapCell(cell: Cell): Cell {
  return { ...cell, frac: cell.frac.map((f) => f.map(wrapUnit) as Vec3) };
}

/** M·L for an integer (or any) 3×3 matrix M and a lattice L, rows. */
export function matTimes(m: Mat3, l: Mat3): Mat3 {
  return [rowTimes(m[0], l), rowTimes(m[1], l), rowTimes(m[2], l)];
}

/** The inverse of a 3×3 matrix (rows); NaN entries for a singular one. */
export function inverse(m: Mat3): Mat3 {
  const det = determinant(m);
  const [[a, b, c], [d, e, f], [g, h, i]] = m;
  return [
    [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
    [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
    [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
  ];
}

export function transpose(m: Mat3): Mat3 {
  return [
    [m[0][0], m[1][0], m[2][0]],
    [m[0][1], m[1][1], m[2][1]],
    [m[0][2], m[1][2], m[2][2]],
  ];
}

/** The metric tensor G = L·Lᵀ. */
export const metric = (l: Mat3): Mat3 => matTimes(l, transpose(l));

/** Counts of each species in order of first appearance. */
export function speciesCounts(species: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of species) counts.set(s, (counts.get(s) ?? 0) + 1);
  return counts;
}

/** The reduced formula as a canonical key: symbols sorted, counts divided by their greatest common divisor. */
export function reducedFormulaKey(species: readonly string[]): string {
  const counts = [...speciesCounts(species)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const g = counts.reduce((acc, [, n]) => gcd(acc, n), 0) || 1;
  return counts.map(([s, n]) => `${s}${n / g}`).join(' ');
}

// 16 decimals as core/poscar/write.ts writes them.
const number = (x: number): string => (Object.is(x, -0) ? 0 : x).toFixed(16).padStart(21);

/**
 * VASP 5 text of a cell: scale 1.0, the lattice in Å, the species grouped in order of first appearance (sites
 * of one species keep their relative order), Direct coordinates. `comment` is the first line (one line).
 */
export function cellToPoscarText(cell: Cell, comment: string): string {
  const order = [...speciesCounts(cell.species).keys()];
  const lines = [comment.replace(/[\r\n]+/g, ' '), '1.0', ...cell.lattice.map((r) => r.map(number).join(' '))];
  lines.push(order.join(' '), order.map((s) => cell.species.filter((x) => x === s).length).join(' '), 'Direct');
  for (const s of order) cell.frac.forEach((f, i) => cell.species[i] === s && lines.push(f.map(number).join(' ')));
  return `${lines.join('\n')}\n`;
}
