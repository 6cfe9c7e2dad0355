/** Element names: POTCAR-style species names, VASP 4 names from the comment line, placeholders. */
import { element } from './elements';

/**
 * The element a species name stands for: its leading letters, case normalised. This drops POTCAR
 * suffixes ('Fe_pv', 'Fe_sv_GW', 'Ga_d'), VASP 6 hashes ('Si/1a2b3c') and pseudo-hydrogen charges
 * ('H.75', 'H1.25'), and reads 'FE' or 'fe' as Fe. A name without leading letters is kept as written.
 */
export function speciesSymbol(raw: string): string {
  const letters = /^[A-Za-z]+/.exec(raw)?.[0];
  return letters ? letters[0]!.toUpperCase() + letters.slice(1).toLowerCase() : raw;
}

export const isElement = (symbol: string): boolean => element(symbol) !== undefined;

/**
 * VASP 4 names from the comment line: used when its leading run of exact element symbols ('Fe O
 * relaxed') has one name per count, else undefined.
 */
export function namesFromComment(tokens: readonly string[], groups: number): string[] | undefined {
  let run = 0;
  while (run < tokens.length && isElement(tokens[run]!)) run++;
  return run === groups ? tokens.slice(0, run) : undefined;
}

/**
 * Names for the groups of a VASP 4 file that names none: 'X1', 'X2', … 'X' is no element symbol
 * and the number keeps the groups apart (pymatgen's H, He, Li, … would pass for real elements).
 */
export const placeholder = (group: number): string => `X${group + 1}`;
