/**
 * Checks of what a user types for the applications, before anything is sent: each returns the
 * message to show, or undefined when the value is fine. Pure; the input boxes, the JSON request
 * editor and programmatic calls use the same checks.
 */
import { parseFormula } from '../chemistry/formula';
import { element } from '../poscar/elements';

export const JID = /^JVASP-\d+$/i;

export function checkJid(value: string): string | undefined {
  const text = value.trim();
  if (!text) return 'Enter a material identifier, e.g. JVASP-1002.';
  return JID.test(text) ? undefined : `"${text}" is not a JARVIS identifier: write JVASP- and a number, e.g. JVASP-1002.`;
}

/** Element counts of a formula whose every symbol is an element, or the reason it is not one. */
export function readFormula(value: string): Map<string, number> | string {
  const text = value.trim();
  if (!text) return 'Enter a formula, e.g. GaAs or Fe2O3.';
  let counts: Map<string, number>;
  try {
    counts = parseFormula(text);
  } catch (error) {
    return `"${text}" is not a formula: ${(error as Error).message}.`;
  }
  const unknown = [...counts.keys()].filter((el) => !element(el));
  return unknown.length
    ? `"${text}": ${unknown.map((u) => `"${u}"`).join(', ')} ${unknown.length === 1 ? 'is not an element symbol' : 'are not element symbols'}.`
    : counts;
}

export function checkFormula(value: string): string | undefined {
  const read = readFormula(value);
  return typeof read === 'string' ? read : undefined;
}

/** "Fe, Co Ni" → ["Fe", "Co", "Ni"] */
export function splitList(value: string): string[] {
  return value.split(/[\s,;]+/).filter(Boolean);
}

export function checkElements(value: string, min = 1, max = 118): string | undefined {
  const symbols = splitList(value);
  if (symbols.length < min || symbols.length > max)
    return min === max
      ? `Enter ${min} element symbols.`
      : `Enter ${min} to ${max} element symbols, separated by spaces or commas (found ${symbols.length}).`;
  const unknown = symbols.filter((s) => !element(s));
  if (unknown.length)
    return `${unknown.map((u) => `"${u}"`).join(', ')} ${unknown.length === 1 ? 'is not an element symbol' : 'are not element symbols'} (symbols are case-sensitive: Fe, not FE).`;
  const twice = symbols.find((s, i) => symbols.indexOf(s) !== i);
  return twice ? `${twice} is listed twice.` : undefined;
}

/** An optional non-negative number (empty: none). */
export function checkOptionalNumber(value: string, what: string, min = 0, max = Infinity): string | undefined {
  const text = value.trim();
  if (!text) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) return `${what} must be a number (or empty for none).`;
  return n < min || n > max ? `${what} must be ${max === Infinity ? `at least ${min}` : `between ${min} and ${max}`}.` : undefined;
}

export function optionalNumber(value: string): number | undefined {
  return value.trim() ? Number(value.trim()) : undefined;
}

/** Fractions for `count` elements: positive numbers, one each (empty: equal parts). */
export function checkFractions(value: string, count: number): string | undefined {
  const parts = splitList(value);
  if (parts.length === 0) return undefined;
  if (parts.length !== count)
    return `Enter one fraction per element: ${count} numbers (found ${parts.length}), or leave empty for equal parts.`;
  return parts.every((p) => Number(p) > 0 && Number.isFinite(Number(p))) ? undefined : 'Every fraction must be a positive number.';
}

/** Three numbers, the k-point in fractions of the reciprocal lattice. */
export function checkKpoint(value: string): string | undefined {
  const parts = splitList(value);
  return parts.length === 3 && parts.every((p) => p.trim() !== '' && Number.isFinite(Number(p)))
    ? undefined
    : 'Enter three numbers, the k-point in fractions of the reciprocal lattice vectors, e.g. 0 0 0 or 0.5 0 0.5.';
}

/** "0_0_1", also typed as "001" or "0 0 1". */
export function normalizeMiller(value: string): string | undefined {
  const text = value.trim();
  const parts = /^\d{3}$/.test(text) ? [...text] : text.split(/[\s_,]+/);
  return parts.length === 3 && parts.every((p) => /^-?\d+$/.test(p)) && parts.some((p) => Number(p) !== 0)
    ? parts.map(Number).join('_')
    : undefined;
}

export function checkMiller(value: string): string | undefined {
  return normalizeMiller(value) ? undefined : 'Enter a Miller index h_k_l, e.g. 0_0_1 (also written 001 or 0 0 1), not all zero.';
}

/** Reactants or products as text: "Fe2O3 + C" (leading coefficients allowed and dropped). */
export function readSide(value: string): { formulas: string[]; counts: Map<string, number>[] } | string {
  const formulas = value
    .split('+')
    .map((s) => s.trim().replace(/^\d+\s*(?=[A-Z(])/, ''))
    .filter(Boolean);
  if (!formulas.length) return 'Enter formulas joined by +, e.g. Fe2O3 + C.';
  const counts: Map<string, number>[] = [];
  for (const formula of formulas) {
    const read = readFormula(formula);
    if (typeof read === 'string') return read;
    counts.push(read);
  }
  return { formulas, counts };
}

/** Both sides must hold the same elements, or no balance exists. */
export function checkReaction(reactants: string, products: string): string | undefined {
  const left = readSide(reactants);
  if (typeof left === 'string') return left;
  const right = readSide(products);
  if (typeof right === 'string') return right;
  const elements = (side: Map<string, number>[]): Set<string> => new Set(side.flatMap((c) => [...c.keys()]));
  const [l, r] = [elements(left.counts), elements(right.counts)];
  const missing = [...l].filter((e) => !r.has(e)).concat([...r].filter((e) => !l.has(e)));
  return missing.length ? `${missing.join(', ')} appear${missing.length === 1 ? 's' : ''} on one side only: no balance exists.` : undefined;
}

/** A filter expression: not empty, quotes closed, brackets balanced. */
export function checkOptimadeFilter(value: string): string | undefined {
  const text = value.trim();
  if (!text) return 'Enter an OPTIMADE filter, e.g. elements HAS ALL "Ga","As".';
  if (text.length > 2000) return 'The filter is longer than 2,000 characters.';
  if ((text.match(/"/g)?.length ?? 0) % 2) return 'A quotation mark is not closed.';
  let depth = 0;
  for (const ch of text.replace(/"[^"]*"/g, '')) {
    depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
    if (depth < 0) return 'A ")" has no "(" before it.';
  }
  return depth ? 'A "(" is not closed.' : undefined;
}
