/**
 * The element of a CIF atom site from its _atom_site_type_symbol or, when the file has none, its
 * _atom_site_label, by pymatgen's rules (pymatgen.io.cif.CifParser._parse_symbol, pymatgen 2022.11):
 * the water and nitrate shorthands first (Hw -> H, Ow / Wat -> O, NO3 -> N), then the first two
 * characters as an element symbol in title case ('FE1' -> Fe, 'Fe3+' -> Fe), then the first character
 * ('O2-' -> O, 'OW1' -> O, 'C12a' -> C). Two departures, both said in the reader's diagnostics: 'OH'
 * (a hydroxyl pseudo-atom, which pymatgen drops) is read as O, and D / T (deuterium, tritium; pymatgen has
 * no such element, ASE reads D as H) are read as H.
 */
import { element } from '../../poscar/elements';

const SPECIAL: readonly (readonly [string, string])[] = [
  ['Hw', 'H'],
  ['Ow', 'O'],
  ['Wat', 'O'],
  ['wat', 'O'],
  ['OH', 'O'],
  ['NO3', 'N'],
];

/** The element symbol, or undefined when the text names none the element table knows. */
export function siteElement(text: string): string | undefined {
  for (const [prefix, symbol] of SPECIAL) if (text.startsWith(prefix)) return symbol;
  if (text.length === 0) return undefined;
  const first = text[0]!.toUpperCase();
  if (text.length >= 2) {
    const two = first + text[1]!.toLowerCase();
    if (element(two)) return two;
  }
  if (element(first)) return first;
  if (first === 'D' || first === 'T') return 'H';
  return undefined;
}
