/** The summary of a structure as people read it, one line or several. Pure. */
import type { StructureSummary } from './types';

const fixed = (x: number, digits: number): string => x.toFixed(digits);

/** "Si8 · 8 atoms · 160.19 Å³ · 2.329 g/cm³" */
export function headline(s: StructureSummary): string {
  const parts = [s.formula, `${s.atoms.toLocaleString('en-US')} ${s.atoms === 1 ? 'atom' : 'atoms'}`, `${fixed(s.volume, 2)} Å³`];
  if (s.density !== undefined) parts.push(`${fixed(s.density, 3)} g/cm³`);
  return parts.join(' · ');
}

/** "a b c 5.431 5.431 5.431 Å · α β γ 90.00° 90.00° 90.00°" */
export function cellLine(s: StructureSummary): string {
  return `a b c ${[s.a, s.b, s.c].map((x) => fixed(x, 4)).join(' ')} Å · α β γ ${[s.alpha, s.beta, s.gamma].map((x) => `${fixed(x, 2)}°`).join(' ')}`;
}

/** Both, for a CodeLens or a view's subtitle. */
export function oneLine(s: StructureSummary): string {
  return `${headline(s)} · ${cellLine(s)}`;
}
