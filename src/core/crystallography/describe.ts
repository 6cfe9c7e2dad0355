/** What the editor shows of a symmetry search: the CodeLens title, the hover's lines, the 3D view's legend line. */
import type { SymmetryOutcome, SymmetryResult } from './symmetry';

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** "0.001 Å" */
export const symprecText = (symprec: number): string => `${symprec} Å`;

/** "Fd-3m (227) · cubic · cF · symprec 0.001 Å", or why there is none, or that the search runs. */
export function symmetryTitle(outcome: SymmetryOutcome | 'pending'): string {
  if (outcome === 'pending') return 'Space group: searching…';
  if (!outcome.ok) return `Space group: none (${clip(outcome.reason, 140)})`;
  const r = outcome.result;
  return `${r.symbol} (${r.number}) · ${r.crystalSystem} · ${r.bravais} · symprec ${symprecText(r.symprec)}`;
}

/** "Si a ×8, O b ×4": each species' Wyckoff letters with how many sites of this cell have them, in order of first appearance. */
export function wyckoffSummary(result: Pick<SymmetryResult, 'wyckoffs'>, species: readonly string[]): string {
  const counts = new Map<string, number>();
  result.wyckoffs.forEach((letter, i) => {
    const key = `${species[i] ?? '?'} ${letter}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  return [...counts].map(([key, n]) => `${key} ×${n}`).join(', ');
}

/** The hover's paragraph: the group, the lattice, the tolerance used and the Wyckoff letters. */
export function symmetryParagraphs(outcome: SymmetryOutcome, species: readonly string[]): string[] {
  if (!outcome.ok) return [`Space group: none found. ${outcome.reason}`, `Tolerance (symprec): ${symprecText(outcome.symprec)}`];
  const r = outcome.result;
  return [
    `Space group ${r.symbol} (No. ${r.number}; full symbol ${r.fullSymbol}), ${r.crystalSystem}, ${r.bravaisName} lattice (${r.pearson}), ${r.operations.length} operations in this cell`,
    `Wyckoff positions: ${clip(wyckoffSummary(r, species), 600)}`,
    `Found by moyo (spglib's successor) at symprec ${symprecText(r.symprec)} (setting tokenLens.symmetry.tolerance)`,
  ];
}
