/** The search every application has, and gnn_predictor's tabulated predictions. */
import { DEFAULT_MODEL, ELEMENT_MODES, materialView, MODELS, parseFormula, searchMaterials, type SearchQuery } from '../materials';
import { own } from '../../core/util/own';
import { HttpError, material, num, str, strings, type Handler } from '../body';

export const search: Handler = (body) => {
  const query: SearchQuery = {};
  const formula = str(body, 'formula', false);
  if (formula) {
    try {
      parseFormula(formula);
    } catch (error) {
      throw new HttpError(400, `Field "formula" could not be read: ${(error as Error).message}.`);
    }
    query.formula = formula;
  }
  const elements = strings(body, 'elements');
  if (elements) query.elements = elements;
  const mode = str(body, 'element_mode', false);
  if (mode !== undefined) {
    if (!(ELEMENT_MODES as readonly string[]).includes(mode))
      throw new HttpError(400, `Field "element_mode" must be one of ${ELEMENT_MODES.join(', ')}.`);
    query.element_mode = mode;
  }
  const min = num(body, 'bandgap_min');
  const max = num(body, 'bandgap_max');
  if (min !== undefined) query.bandgap_min = min;
  if (max !== undefined) query.bandgap_max = max;
  if (min !== undefined && max !== undefined && min > max) throw new HttpError(400, 'bandgap_min is larger than bandgap_max.');
  const results = searchMaterials(query).map((m) => materialView(m));
  return { count: results.length, results };
};

export const predict: Handler = (body) => {
  const m = material(body, 'jid');
  const model = str(body, 'model', false) ?? DEFAULT_MODEL;
  const spec = own(MODELS, model);
  if (!spec) throw new HttpError(400, `Unknown model "${model}". Models: ${Object.keys(MODELS).join(', ')}.`);
  return {
    jid: m.jid,
    formula: m.formula,
    model,
    property: spec.description,
    prediction: m[spec.field],
    unit: spec.unit,
    source: 'tabulated reference value',
  };
};
