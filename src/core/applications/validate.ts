/**
 * Checks of what a user types for the applications, before anything is sent: each returns the
 * message to show, or undefined when the value is fine. Pure; the input boxes, the JSON request
 * editor and programmatic calls use the same checks. Worded in the Locale given (the editor's: hostLocale();
 * English when none is, as in the unit tests).
 */
import { parseFormula } from '../chemistry/formula';
import { element } from '../poscar/elements';
import { ENGLISH, plural, type Locale } from '../util/locale';

export const JID = /^JVASP-\d+$/i;

export function checkJid(value: string, { t }: Locale = ENGLISH): string | undefined {
  const text = value.trim();
  if (!text) return t('Enter a material identifier, e.g. JVASP-1002.');
  return JID.test(text) ? undefined : t('"{0}" is not a JARVIS identifier: write JVASP- and a number, e.g. JVASP-1002.', text);
}

/** Element counts of a formula whose every symbol is an element, or the reason it is not one. */
export function readFormula(value: string, locale: Locale = ENGLISH): Map<string, number> | string {
  const { t } = locale;
  const text = value.trim();
  if (!text) return t('Enter a formula, e.g. GaAs or Fe2O3.');
  let counts: Map<string, number>;
  try {
    counts = parseFormula(text);
  } catch (error) {
    // The reason is parseFormula's, in English: the reference server shares it.
    return t('"{0}" is not a formula: {1}.', text, (error as Error).message);
  }
  const unknown = [...counts.keys()].filter((el) => !element(el));
  return unknown.length
    ? plural(locale, unknown.length, '"{1}": {2} is not an element symbol.', '"{1}": {2} are not element symbols.', text, quoted(unknown))
    : counts;
}

const quoted = (symbols: string[]): string => symbols.map((s) => `"${s}"`).join(', ');

export function checkFormula(value: string, locale: Locale = ENGLISH): string | undefined {
  const read = readFormula(value, locale);
  return typeof read === 'string' ? read : undefined;
}

/** "Fe, Co Ni" → ["Fe", "Co", "Ni"] */
export function splitList(value: string): string[] {
  return value.split(/[\s,;]+/).filter(Boolean);
}

export function checkElements(value: string, min = 1, max = 118, locale: Locale = ENGLISH): string | undefined {
  const { t } = locale;
  const symbols = splitList(value);
  if (symbols.length < min || symbols.length > max)
    return min === max
      ? plural(locale, min, 'Enter {0} element symbol.', 'Enter {0} element symbols.')
      : t('Enter {0} to {1} element symbols, separated by spaces or commas (found {2}).', min, max, symbols.length);
  const unknown = symbols.filter((s) => !element(s));
  if (unknown.length)
    return plural(
      locale,
      unknown.length,
      '{1} is not an element symbol (symbols are case-sensitive: Fe, not FE).',
      '{1} are not element symbols (symbols are case-sensitive: Fe, not FE).',
      quoted(unknown),
    );
  const twice = symbols.find((s, i) => symbols.indexOf(s) !== i);
  return twice ? t('{0} is listed twice.', twice) : undefined;
}

/** An optional non-negative number (empty: none). */
export function checkOptionalNumber(value: string, what: string, min = 0, max = Infinity, { t }: Locale = ENGLISH): string | undefined {
  const text = value.trim();
  if (!text) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) return t('{0} must be a number (or empty for none).', what);
  if (n >= min && n <= max) return undefined;
  return max === Infinity ? t('{0} must be at least {1}.', what, min) : t('{0} must be between {1} and {2}.', what, min, max);
}

export function optionalNumber(value: string): number | undefined {
  return value.trim() ? Number(value.trim()) : undefined;
}

/** Fractions for `count` elements: positive numbers, one each (empty: equal parts). */
export function checkFractions(value: string, count: number, { t }: Locale = ENGLISH): string | undefined {
  const parts = splitList(value);
  if (parts.length === 0) return undefined;
  if (parts.length !== count)
    return t('Enter one fraction per element: {0} numbers (found {1}), or leave empty for equal parts.', count, parts.length);
  return parts.every((p) => Number(p) > 0 && Number.isFinite(Number(p))) ? undefined : t('Every fraction must be a positive number.');
}

/** Three numbers, the k-point in fractions of the reciprocal lattice. */
export function checkKpoint(value: string, { t }: Locale = ENGLISH): string | undefined {
  const parts = splitList(value);
  return parts.length === 3 && parts.every((p) => p.trim() !== '' && Number.isFinite(Number(p)))
    ? undefined
    : t('Enter three numbers, the k-point in fractions of the reciprocal lattice vectors, e.g. 0 0 0 or 0.5 0 0.5.');
}

/** "0_0_1", also typed as "001" or "0 0 1". */
export function normalizeMiller(value: string): string | undefined {
  const text = value.trim();
  const parts = /^\d{3}$/.test(text) ? [...text] : text.split(/[\s_,]+/);
  return parts.length === 3 && parts.every((p) => /^-?\d+$/.test(p)) && parts.some((p) => Number(p) !== 0)
    ? parts.map(Number).join('_')
    : undefined;
}

export function checkMiller(value: string, { t }: Locale = ENGLISH): string | undefined {
  return normalizeMiller(value) ? undefined : t('Enter a Miller index h_k_l, e.g. 0_0_1 (also written 001 or 0 0 1), not all zero.');
}

/** Reactants or products as text: "Fe2O3 + C" (leading coefficients allowed and dropped). */
export function readSide(value: string, locale: Locale = ENGLISH): { formulas: string[]; counts: Map<string, number>[] } | string {
  const formulas = value
    .split('+')
    .map((s) => s.trim().replace(/^\d+\s*(?=[A-Z(])/, ''))
    .filter(Boolean);
  if (!formulas.length) return locale.t('Enter formulas joined by +, e.g. Fe2O3 + C.');
  const counts: Map<string, number>[] = [];
  for (const formula of formulas) {
    const read = readFormula(formula, locale);
    if (typeof read === 'string') return read;
    counts.push(read);
  }
  return { formulas, counts };
}

/** Both sides must hold the same elements, or no balance exists. */
export function checkReaction(reactants: string, products: string, locale: Locale = ENGLISH): string | undefined {
  const left = readSide(reactants, locale);
  if (typeof left === 'string') return left;
  const right = readSide(products, locale);
  if (typeof right === 'string') return right;
  const elements = (side: Map<string, number>[]): Set<string> => new Set(side.flatMap((c) => [...c.keys()]));
  const [l, r] = [elements(left.counts), elements(right.counts)];
  const missing = [...l].filter((e) => !r.has(e)).concat([...r].filter((e) => !l.has(e)));
  if (!missing.length) return undefined;
  return plural(
    locale,
    missing.length,
    '{1} appears on one side only: no balance exists.',
    '{1} appear on one side only: no balance exists.',
    missing.join(', '),
  );
}

const MAX_FILTER = 2000;

/** A filter expression: not empty, quotes closed, brackets balanced. */
export function checkOptimadeFilter(value: string, { t, number }: Locale = ENGLISH): string | undefined {
  const text = value.trim();
  if (!text) return t('Enter an OPTIMADE filter, e.g. elements HAS ALL "Ga","As".');
  if (text.length > MAX_FILTER) return t('The filter is longer than {0} characters.', number(MAX_FILTER));
  if ((text.match(/"/g)?.length ?? 0) % 2) return t('A quotation mark is not closed.');
  let depth = 0;
  for (const ch of text.replace(/"[^"]*"/g, '')) {
    depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
    if (depth < 0) return t('A ")" has no "(" before it.');
  }
  return depth ? t('A "(" is not closed.') : undefined;
}
