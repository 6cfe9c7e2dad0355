/** reaction_network/balance: balancing a reaction given as lists or as an equation. */
import { balanceReaction } from '../materials';
import { formulas, HttpError, splitSide, str, type Handler } from '../body';

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
  const species = reactants.length + products!.length;
  if (species > MAX_SPECIES)
    throw new HttpError(400, `The reaction has ${species} species; the reference server balances at most ${MAX_SPECIES}: split it.`);
  try {
    const coefficients = balanceReaction(reactants, products!);
    const side = (names: string[], c: number[]): string => names.map((s, i) => `${c[i] === 1 ? '' : `${c[i]} `}${s}`).join(' + ');
    return {
      reactants,
      products,
      coefficients,
      balanced: `${side(reactants, coefficients.reactants)} -> ${side(products!, coefficients.products)}`,
    };
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, `${(error as Error).message}.`);
  }
};
