/** hea/compute: the descriptors of a high-entropy alloy's composition. */
import { HEA_ELEMENTS, heaDescriptors } from '../materials';
import { own } from '../../core/util/own';
import { HttpError, round, strings, type Handler } from '../body';

/** `elements` (2 to 10, distinct) with `fractions` as a parallel list or an object; equimolar without. */
function heaComposition(elements: string[], fractions: unknown): Record<string, number> {
  if (elements.length < 2 || elements.length > 10)
    throw new HttpError(400, `Field "elements" must hold 2 to 10 element symbols, not ${elements.length}.`);
  if (new Set(elements).size !== elements.length) throw new HttpError(400, 'Field "elements" names an element twice.');
  if (fractions === undefined || fractions === null) return Object.fromEntries(elements.map((e) => [e, 1]));
  const list = Array.isArray(fractions)
    ? fractions
    : typeof fractions === 'object'
      ? elements.map((e) => own(fractions as Record<string, unknown>, e))
      : undefined;
  if (!list || list.length !== elements.length)
    throw new HttpError(
      400,
      'Field "fractions" must give one number per element (a list in the order of "elements", or an object by symbol).',
    );
  return Object.fromEntries(elements.map((e, i) => [e, list[i] as number]));
}

export const hea: Handler = (body) => {
  let composition = body.composition as Record<string, unknown> | undefined;
  const elements = strings(body, 'elements');
  if (composition === undefined && elements) composition = heaComposition(elements, body.fractions);
  if (!composition || typeof composition !== 'object' || Array.isArray(composition) || Object.keys(composition).length === 0) {
    throw new HttpError(
      400,
      'Send "elements" (2 to 10 symbols) with optional "fractions", or "composition" (an object such as {"Fe": 1, "Co": 1, "Ni": 1}).',
    );
  }
  for (const [el, amount] of Object.entries(composition)) {
    if (!own(HEA_ELEMENTS, el))
      throw new HttpError(400, `Element "${el}" is not known to the reference server. Known: ${Object.keys(HEA_ELEMENTS).join(', ')}.`);
    if (typeof amount !== 'number' || !(amount > 0)) throw new HttpError(400, `The amount of ${el} must be a positive number.`);
  }
  const descriptors = heaDescriptors(composition as Record<string, number>);
  const formula = Object.entries(descriptors.fractions)
    .map(([el, c]) => `${el}${round(c, 4)}`)
    .join('');
  return { composition: descriptors.fractions, formula, ...descriptors };
};
