/** optimade_explorer/query: an OPTIMADE filter over the database. */
import { MATERIALS, optimadeFilter } from '../materials';
import { HttpError, str, type Handler } from '../body';

export const optimade: Handler = (body) => {
  const filter = str(body, 'filter_string', true);
  let test;
  try {
    test = optimadeFilter(filter);
  } catch (error) {
    throw new HttpError(400, `Filter not understood: ${(error as Error).message}.`);
  }
  const data = MATERIALS.filter(test).map((m) => ({
    id: m.jid,
    type: 'structures',
    attributes: {
      chemical_formula_reduced: m.formula,
      elements: [...m.elements].sort(),
      nelements: m.elements.length,
      nsites: m.structure?.species.length ?? null,
    },
  }));
  return { data, meta: { data_returned: data.length, data_available: MATERIALS.length, more_data_available: false } };
};
