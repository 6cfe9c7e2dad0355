/** reaction_network/balance: balancing a reaction given as lists or as an equation, by exact elimination over fractions. */
import { parseFormula } from '../../core/chemistry/formula';
import { formulas, HttpError, splitSide, str, type Handler } from '../http/body';

/** Species of one reaction at most: balancing is elimination over fractions, cubic in their number. */
export const MAX_SPECIES = 100;

export const balance: Handler = (body) => {
  let reactants = formulas(body, 'reactants');
  let products = formulas(body, 'products');
  const equation = str(body, 'equation', false);
  if (equation && !reactants && !products) {
    const sides = equation.split(/->|=>|→|=/);
    if (sides.length !== 2) throw new HttpError(400, 'Field "equation" must look like "H2 + O2 -> H2O".');
    [reactants, products] = sides.map(splitSide);
  }
  if (!reactants?.length || !products?.length)
    throw new HttpError(400, 'Send "reactants" and "products" (arrays of formulas), or "equation" such as "H2 + O2 -> H2O".');
  const species = reactants.length + products.length;
  if (species > MAX_SPECIES)
    throw new HttpError(400, `The reaction has ${species} species; the reference server balances at most ${MAX_SPECIES}: split it.`);
  try {
    const coefficients = balanceReaction(reactants, products);
    const side = (names: string[], c: number[]): string => names.map((s, i) => `${c[i] === 1 ? '' : `${c[i]} `}${s}`).join(' + ');
    return {
      reactants,
      products,
      coefficients,
      balanced: `${side(reactants, coefficients.reactants)} -> ${side(products, coefficients.products)}`,
    };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, `${(error as Error).message}.`);
  }
};

/** Smallest positive integer coefficients, or an Error saying why there are none (or many). */
export function balanceReaction(reactants: string[], products: string[]): { reactants: number[]; products: number[] } {
  const species = [...reactants, ...products];
  const counts = species.map((s) => parseFormula(s));
  const elements = [...new Set(counts.flatMap((c) => [...c.keys()]))];
  const cols = species.length;
  // Rational Gaussian elimination over bigint fractions.
  type Q = [bigint, bigint];
  const norm = ([p, q]: Q): Q => {
    if (q < 0n) [p, q] = [-p, -q];
    const g = bgcd(p < 0n ? -p : p, q);
    return g ? [p / g, q / g] : [0n, 1n];
  };
  const sub = (a: Q, b: Q): Q => norm([a[0] * b[1] - b[0] * a[1], a[1] * b[1]]);
  const mul = (a: Q, b: Q): Q => norm([a[0] * b[0], a[1] * b[1]]);
  const div = (a: Q, b: Q): Q => norm([a[0] * b[1], a[1] * b[0]]);
  const rows: Q[][] = elements.map((el) => counts.map((c, j) => [BigInt((c.get(el) ?? 0) * (j < reactants.length ? 1 : -1)), 1n] as Q));
  const pivots: number[] = [];
  let r = 0;
  for (let col = 0; col < cols && r < rows.length; col++) {
    const pr = rows.findIndex((row, i) => i >= r && row[col]![0] !== 0n);
    if (pr < 0) continue;
    [rows[r], rows[pr]] = [rows[pr]!, rows[r]!];
    const pivot = rows[r]![col]!;
    rows[r] = rows[r]!.map((v) => div(v, pivot));
    rows.forEach((row, i) => {
      if (i !== r && row[col]![0] !== 0n) {
        const f = row[col]!;
        rows[i] = row.map((v, j) => sub(v, mul(f, rows[r]![j]!)));
      }
    });
    pivots.push(col);
    r++;
  }
  const free = [...Array(cols).keys()].filter((c) => !pivots.includes(c));
  if (free.length === 0) throw new Error('the reaction cannot be balanced: no combination of these species conserves every element');
  if (free.length > 1) throw new Error('the reaction has more than one independent balance; split it into separate reactions');
  const f = free[0]!;
  const x: Q[] = Array.from({ length: cols }, () => [0n, 1n] as Q);
  x[f] = [1n, 1n];
  pivots.forEach((col, i) => {
    x[col] = norm([-rows[i]![f]![0], rows[i]![f]![1]]);
  });
  const lcm = x.reduce((acc, [, q]) => (acc * q) / bgcd(acc, q), 1n);
  let ints = x.map(([p, q]) => (p * lcm) / q);
  if (ints.every((v) => v <= 0n)) ints = ints.map((v) => -v);
  if (ints.some((v) => v <= 0n))
    throw new Error('the reaction cannot be balanced with every species taking part (some coefficient would be zero or negative)');
  const g = ints.reduce((a, b) => bgcd(a, b));
  const out = ints.map((v) => Number(v / g));
  return { reactants: out.slice(0, reactants.length), products: out.slice(reactants.length) };
}

function bgcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b) [a, b] = [b, a % b];
  return a;
}
