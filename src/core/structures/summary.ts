/**
 * What a frame is, in a line: its formula (reduced, Hill order), atoms, cell and energy; and a file's
 * summary over its frames, for the CodeLens, the hover, the 3D view's subtitle and the CLI. Pure.
 */
import { latticeParameters, volume } from '../poscar/structure';
import type { LatticeParameters } from '../poscar/types';
import type { StructureFile, StructureFrame } from './types';

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Atoms per element, in order of first appearance. */
export function elementCounts(species: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of species) counts.set(s, (counts.get(s) ?? 0) + 1);
  return counts;
}

/**
 * The Hill formula: C first, then H, then the other elements alphabetically (without carbon, every
 * element alphabetically, H included); reduced by the counts' greatest common divisor unless `full`.
 */
export function hillFormula(species: readonly string[], full = false): string {
  const counts = elementCounts(species);
  if (counts.size === 0) return '';
  const divisor = full ? 1 : [...counts.values()].reduce(gcd, 0) || 1;
  const symbols = [...counts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const order = counts.has('C') ? ['C', ...(counts.has('H') ? ['H'] : []), ...symbols.filter((s) => s !== 'C' && s !== 'H')] : symbols;
  // A symbol ending in a digit (a placeholder such as X1) is parenthesised so its count stays readable.
  return order
    .map((s) => {
      const n = counts.get(s)! / divisor;
      return `${/\d$/.test(s) ? `(${s})` : s}${n === 1 ? '' : n}`;
    })
    .join('');
}

export interface FrameLattice extends LatticeParameters {
  /** Å³ */
  volume: number;
}

/** a, b, c (Å), α, β, γ (degrees) and the volume (Å³); null for a molecule. */
export function frameLattice(frame: Pick<StructureFrame, 'lattice'>): FrameLattice | null {
  return frame.lattice ? { ...latticeParameters(frame.lattice), volume: volume(frame.lattice) } : null;
}

const fixed = (x: number, digits: number): string => x.toFixed(digits);
const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${n === 1 ? word : `${word}s`}`;

/** "a b c 5.4310 5.4310 5.4310 Å · α β γ 90.00° 90.00° 90.00° · 160.19 Å³", or "no cell (a molecule)". */
export function cellText(lattice: FrameLattice | null): string {
  if (!lattice) return 'no cell (a molecule)';
  const { a, b, c, alpha, beta, gamma } = lattice;
  return `a b c ${[a, b, c].map((x) => fixed(x, 4)).join(' ')} Å · α β γ ${[alpha, beta, gamma].map((x) => `${fixed(x, 2)}°`).join(' ')} · ${fixed(lattice.volume, 2)} Å³`;
}

/** "SiO2 · 9 atoms · a b c … · −43.2130 eV" for one frame. */
export function frameLine(frame: StructureFrame): string {
  const parts = [hillFormula(frame.species) || 'no atoms', plural(frame.species.length, 'atom'), cellText(frameLattice(frame))];
  if (frame.energy !== undefined) parts.push(`${fixed(frame.energy, 4)} eV`);
  return parts.join(' · ');
}

/**
 * The file in one line, for the CodeLens and the 3D view's subtitle: the last frame's formula, atoms and
 * cell, and how many frames (with the first and last energies of a trajectory that has them).
 */
export function fileLine(file: StructureFile, label: string): string {
  const last = file.frames[file.frames.length - 1];
  if (!last) return `${label}: no structure read yet (see Problems)`;
  const n = file.frames.length;
  const parts = [hillFormula(last.species) || 'no atoms', plural(last.species.length, 'atom'), cellText(frameLattice(last))];
  if (n > 1) parts.push(plural(n, 'frame'));
  const first = file.frames[0]!;
  if (n > 1 && first.energy !== undefined && last.energy !== undefined)
    parts.push(`E ${fixed(first.energy, 4)} → ${fixed(last.energy, 4)} eV`);
  else if (last.energy !== undefined) parts.push(`${fixed(last.energy, 4)} eV`);
  return parts.join(' · ');
}

/** The largest force on any atom of a frame (eV/Å), when the frame has forces. */
export function maxForce(frame: Pick<StructureFrame, 'forces' | 'free'>): number | undefined {
  if (!frame.forces?.length) return undefined;
  let max = 0;
  frame.forces.forEach((f, i) => {
    // VASP's EDIFFG test counts only the free components of a constrained atom.
    const free = frame.free?.[i] ?? [true, true, true];
    const sq = (free[0] ? f[0] * f[0] : 0) + (free[1] ? f[1] * f[1] : 0) + (free[2] ? f[2] * f[2] : 0);
    if (sq > max) max = sq;
  });
  return Math.sqrt(max);
}
