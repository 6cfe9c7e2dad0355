/** Structure math on a parsed POSCAR: volume, lattice parameters, coordinates, formula, density, contacts. */
import { AVOGADRO_CM3_PER_A3, element } from './elements';
import type { LatticeParameters, Mat3, Poscar, StructureSummary, Vec3 } from './types';
import { determinant, dot, norm, reciprocal, rowTimes } from './vec';

export { closeContacts, type Contact } from './contacts';
export { determinant };

/** Cell volume in Å³, never negative; `determinant` gives the signed triple product. */
export const volume = (lattice: Mat3): number => Math.abs(determinant(lattice));

/** Degrees; 0 for a zero vector (a degenerate cell, already an error), so a summary never holds NaN. */
function angle(u: Vec3, v: Vec3): number {
  const cos = dot(u, v) / (norm(u) * norm(v));
  return Number.isFinite(cos) ? (Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI : 0;
}

export function latticeParameters([a, b, c]: Mat3): LatticeParameters {
  return { a: norm(a), b: norm(b), c: norm(c), alpha: angle(b, c), beta: angle(a, c), gamma: angle(a, b) };
}

export const fracToCart = (lattice: Mat3, frac: Vec3): Vec3 => rowTimes(frac, lattice);

export function cartToFrac(lattice: Mat3, cart: Vec3): Vec3 {
  const [b1, b2, b3] = reciprocal(lattice);
  return [dot(cart, b1), dot(cart, b2), dot(cart, b3)];
}

type Composition = Pick<Poscar, 'species' | 'counts'>;

/** Atoms per element in species order, repeated groups (`Fe O Fe`) summed. */
export function composition({ species, counts }: Composition): Map<string, number> {
  const totals = new Map<string, number>();
  species.forEach((symbol, i) => totals.set(symbol, (totals.get(symbol) ?? 0) + (counts[i] ?? 0)));
  return totals;
}

// A placeholder such as X1 ends in a digit, so it is parenthesised to keep its count readable: (X1)4.
const term = (symbol: string, n: number): string => `${/\d$/.test(symbol) ? `(${symbol})` : symbol}${n === 1 ? '' : n}`;

const writeFormula = (totals: Map<string, number>, divisor = 1): string =>
  [...totals]
    .filter(([, n]) => n > 0)
    .map(([symbol, n]) => term(symbol, n / divisor))
    .join('');

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Full formula in species order, e.g. 'Na4Cl4'. */
export const formula = (poscar: Composition): string => writeFormula(composition(poscar));

/** Formula divided by the greatest common divisor of the counts, e.g. 'NaCl'. */
export function reducedFormula(poscar: Composition): string {
  const totals = composition(poscar);
  return writeFormula(totals, [...totals.values()].reduce(gcd, 0) || 1);
}

/** g/cm³, or undefined when an element is unknown or the cell has no volume. */
export function density(poscar: Composition & Pick<Poscar, 'lattice'>): number | undefined {
  let mass = 0;
  for (const [symbol, n] of composition(poscar)) {
    const known = element(symbol);
    if (!known) return undefined;
    mass += known.mass * n;
  }
  const v = volume(poscar.lattice);
  return v > 0 ? mass / (v * AVOGADRO_CM3_PER_A3) : undefined;
}

export function summarize(poscar: Poscar): StructureSummary {
  const totals = composition(poscar);
  const rho = density(poscar);
  return {
    formula: formula(poscar),
    reducedFormula: reducedFormula(poscar),
    elements: Object.fromEntries(totals),
    atoms: poscar.counts.reduce((sum, n) => sum + n, 0),
    volume: volume(poscar.lattice),
    ...(rho === undefined ? {} : { density: rho }),
    ...latticeParameters(poscar.lattice),
    selectiveDynamics: poscar.selectiveDynamics,
    coordinateMode: poscar.coordinateMode,
  };
}
