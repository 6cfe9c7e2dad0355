/**
 * What the reference models take from the periodic table: covalent radii (Cordero et al. 2008, via the
 * POSCAR core's element table) for bond lengths and cutoffs, and atomic masses for dynamics. Pure.
 */
import { element } from '../../core/poscar/elements';

/** Å: for the heavy elements that have no tabulated covalent radius (Bk onwards). */
export const FALLBACK_RADIUS = 1.5;
/**
 * The s-orbital fallback's hopping (tightbinding.ts) is switched off smoothly between these multiples of the
 * pair's bond length r0. 1.5 lies between the first and second neighbours of the tetrahedral semiconductors
 * (second neighbours at 1.63-1.73 r0), so a tetrahedral crystal's bands come from its bonds only.
 */
export const SWITCH_ON = 1.25;
export const CUTOFF_FACTOR = 1.5;

/** The symbols that are not element symbols (e.g. the placeholders of a POSCAR without names), once each. */
export function unknownSymbols(symbols: readonly string[]): string[] {
  return [...new Set(symbols)].filter((s) => !element(s));
}

export function covalentRadius(symbol: string): number {
  return element(symbol)?.covalentRadius ?? FALLBACK_RADIUS;
}

/** amu */
export function atomicMass(symbol: string): number {
  const found = element(symbol);
  if (!found) throw new Error(`Unknown element "${symbol}"`);
  return found.mass;
}

/** The pair's reference bond length r0 = r_cov(A) + r_cov(B), Å. */
export function bondLength(a: string, b: string): number {
  return covalentRadius(a) + covalentRadius(b);
}

/**
 * The switching function S and dS/dr: 1 up to SWITCH_ON·r0, 0 from CUTOFF_FACTOR·r0, the quintic
 * smoothstep 1 − 10x³ + 15x⁴ − 6x⁵ between, so a switched energy and its first two derivatives are continuous.
 */
export function switching(r: number, r0: number): [number, number] {
  return smoothSwitch(r, SWITCH_ON * r0, CUTOFF_FACTOR * r0);
}

/** The quintic smoothstep S(r) and dS/dr: 1 up to `on`, 0 from `off`, 1 − 10x³ + 15x⁴ − 6x⁵ with x = (r − on)/(off − on) between. */
export function smoothSwitch(r: number, on: number, off: number): [number, number] {
  const width = off - on;
  const x = (r - on) / width;
  if (x <= 0) return [1, 0];
  if (x >= 1) return [0, 0];
  return [1 - x * x * x * (10 - 15 * x + 6 * x * x), (-30 * x * x * (1 - x) * (1 - x)) / width];
}

/** The largest pair cutoff among these symbols: what the neighbour list must reach. */
export function maxCutoff(symbols: readonly string[]): number {
  return CUTOFF_FACTOR * 2 * Math.max(...[...new Set(symbols)].map(covalentRadius));
}

/**
 * A lookup of a per-pair quantity by atom indices, computed once per species pair:
 * the inner loops index by small integers instead of hashing symbol pairs.
 */
export function pairTable<T>(symbols: readonly string[], compute: (a: string, b: string) => T): (i: number, j: number) => T {
  const kinds = [...new Set(symbols)];
  const kindOf = symbols.map((s) => kinds.indexOf(s));
  const table = kinds.map((a) => kinds.map((b) => compute(a, b)));
  return (i, j) => table[kindOf[i]!]![kindOf[j]!]!;
}
