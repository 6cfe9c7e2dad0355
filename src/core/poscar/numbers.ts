/** Numbers as VASP's Fortran reads them: '.5', '5.', '+1e-3' and the Fortran exponent '1.0D-3' too. */

// Each alternative consumes digits one way only, so a long bad token fails in linear time.
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eEdD][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

/** The value, or undefined for anything else (including 'NaN', 'Infinity' and values that overflow). */
export function parseNumber(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined;
  let value = Number(text);
  if (Number.isNaN(value)) value = Number(text.replace(/[dD]/, 'e')); // only a Fortran exponent fails above
  return Number.isFinite(value) ? value : undefined;
}

/** A whole number, possibly negative; '2.0' is not one (pymatgen's int() refuses it), nor one past 2^53. */
export function parseInteger(text: string): number | undefined {
  const value = INTEGER.test(text) ? Number(text) : undefined;
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Fixed-width Fortran output runs negative numbers together ('0.25-0.125'): the pieces split before
 * each '-' that does not belong to an exponent, or undefined when the token has no such '-'.
 */
export function splitRunTogether(text: string): string[] | undefined {
  const pieces: string[] = [];
  let from = 0;
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '-' && !/[eEdD]/.test(text[i - 1]!)) {
      pieces.push(text.slice(from, i));
      from = i;
    }
  }
  if (from === 0) return undefined;
  pieces.push(text.slice(from));
  return pieces;
}
