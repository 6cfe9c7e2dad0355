/** hea/compute: the descriptors of a high-entropy alloy's composition, and the element data they are computed from. */
import { own } from '../../core/util/own';
import { HttpError, round, strings, type Handler } from '../http/body';

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

/** Metallic radius (Å) and valence electron concentration of the elements the HEA endpoint knows. */
export const HEA_ELEMENTS: Record<string, { radius: number; vec: number }> = {
  Al: { radius: 1.432, vec: 3 },
  Co: { radius: 1.251, vec: 9 },
  Cr: { radius: 1.249, vec: 6 },
  Cu: { radius: 1.278, vec: 11 },
  Fe: { radius: 1.241, vec: 8 },
  Mn: { radius: 1.35, vec: 7 },
  Ni: { radius: 1.246, vec: 10 },
  Ti: { radius: 1.462, vec: 4 },
  V: { radius: 1.316, vec: 5 },
  Zr: { radius: 1.603, vec: 4 },
  Nb: { radius: 1.429, vec: 5 },
  Mo: { radius: 1.363, vec: 6 },
  Hf: { radius: 1.578, vec: 4 },
  Ta: { radius: 1.43, vec: 5 },
  W: { radius: 1.367, vec: 6 },
};
const R = 8.314462618;

export function heaDescriptors(composition: Record<string, number>) {
  const total = Object.values(composition).reduce((a, b) => a + b, 0);
  const fractions = Object.fromEntries(Object.entries(composition).map(([el, v]) => [el, v / total]));
  const entries = Object.entries(fractions);
  const entropy = -R * entries.reduce((s, [, c]) => s + (c > 0 ? c * Math.log(c) : 0), 0);
  const rBar = entries.reduce((s, [el, c]) => s + c * own(HEA_ELEMENTS, el)!.radius, 0);
  const delta = 100 * Math.sqrt(entries.reduce((s, [el, c]) => s + c * (1 - own(HEA_ELEMENTS, el)!.radius / rBar) ** 2, 0));
  const vec = entries.reduce((s, [el, c]) => s + c * own(HEA_ELEMENTS, el)!.vec, 0);
  const phase = vec >= 8 ? 'FCC' : vec < 6.87 ? 'BCC' : 'FCC + BCC';
  return {
    fractions: Object.fromEntries(entries.map(([el, c]) => [el, round(c, 4)])),
    n_elements: entries.length,
    mixing_entropy: round(entropy, 3),
    mixing_entropy_over_R: round(entropy / R, 4),
    atomic_size_mismatch_percent: round(delta, 3),
    valence_electron_concentration: round(vec, 3),
    predicted_phase: phase,
    is_high_entropy: entries.length >= 5 && entropy >= 1.5 * R,
    units: { mixing_entropy: 'J/(mol K)', atomic_size_mismatch_percent: '%' },
  };
}
