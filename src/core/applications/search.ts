/** Search Materials: POST /materials_explorer/search with formula, elements and element_mode, band-gap range. */
import { checkElements, checkFormula, checkOptionalNumber, optionalNumber, splitList } from './validate';
import { ENGLISH, type Translate } from '../util/locale';
import { firstProblem, numberField, stringField, type Application, type Body } from './types';

export const elementModes = (t: Translate) => [
  { label: 'all', description: t('materials containing every listed element (others too)') },
  { label: 'any', description: t('materials containing at least one listed element') },
  { label: 'exact', description: t('materials made of exactly these elements') },
];
const MODE_NAMES = elementModes(ENGLISH.t).map((m) => m.label);

export const searchMaterials: Application = {
  kind: 'search',
  command: 'tokenLens.searchMaterials',
  title: (t) => t('Search Materials'),
  path: '/materials_explorer/search',
  example: { formula: '', elements: ['Ga', 'As'], element_mode: 'all', bandgap_min: 0, bandgap_max: 3 },

  async ask(p, locale = ENGLISH) {
    const { t } = locale;
    const title = (step: number) => t('Search Materials ({0}/5)', step);
    const formula = await p.text({
      title: title(1),
      prompt: t('Formula (optional), e.g. GaAs; matches the reduced composition. Leave empty to search by elements.'),
      placeHolder: 'GaAs',
      check: (v) => (v.trim() ? checkFormula(v, locale) : undefined),
    });
    if (formula === undefined) return undefined;
    const elements = await p.text({
      title: title(2),
      prompt: t('Elements (optional), separated by spaces or commas, e.g. Ga As.'),
      placeHolder: 'Ga As',
      check: (v) => (v.trim() ? checkElements(v, 1, 118, locale) : undefined),
    });
    if (elements === undefined) return undefined;
    let mode: string | undefined = 'all';
    if (elements.trim()) {
      mode = await p.pick({ title: title(3), placeHolder: t('How the elements must match (element_mode)'), items: elementModes(t) });
      if (mode === undefined) return undefined;
    }
    const min = await p.text({
      title: title(4),
      prompt: t('Smallest band gap in eV (optional).'),
      placeHolder: '0',
      check: (v) => checkOptionalNumber(v, t('The smallest band gap'), 0, 100, locale),
    });
    if (min === undefined) return undefined;
    const max = await p.text({
      title: title(5),
      prompt: t('Largest band gap in eV (optional).'),
      placeHolder: '3',
      check: (v) =>
        checkOptionalNumber(v, t('The largest band gap'), 0, 100, locale) ??
        (v.trim() && min.trim() && Number(v) < Number(min)
          ? t('The largest band gap must not be below the smallest ({0} eV).', min.trim())
          : undefined),
    });
    if (max === undefined) return undefined;
    const body: Body = {};
    if (formula.trim()) body.formula = formula.trim();
    if (elements.trim()) Object.assign(body, { elements: splitList(elements), element_mode: mode });
    if (optionalNumber(min) !== undefined) body.bandgap_min = optionalNumber(min);
    if (optionalNumber(max) !== undefined) body.bandgap_max = optionalNumber(max);
    return { body };
  },

  check(body, locale = ENGLISH) {
    const { t } = locale;
    const elements = body.elements;
    return firstProblem(
      stringField(locale, body, 'formula', false, (v) => (v.trim() ? checkFormula(v, locale) : undefined)),
      elements === undefined
        ? undefined
        : Array.isArray(elements) && elements.every((e) => typeof e === 'string')
          ? checkElements(elements.join(' '), 1, 118, locale)
          : t('"elements" must be a list of element symbols.'),
      stringField(locale, body, 'element_mode', false, (v) =>
        MODE_NAMES.includes(v) ? undefined : t('"element_mode" must be one of {0}.', MODE_NAMES.join(', ')),
      ),
      numberField(locale, body, 'bandgap_min', 0),
      numberField(locale, body, 'bandgap_max', 0),
      typeof body.bandgap_min === 'number' && typeof body.bandgap_max === 'number' && body.bandgap_min > body.bandgap_max
        ? t('"bandgap_min" is larger than "bandgap_max".')
        : undefined,
    );
  },

  name(body, t = ENGLISH.t) {
    const parts = [
      typeof body.formula === 'string' ? body.formula : '',
      Array.isArray(body.elements) ? body.elements.join('-') : '',
    ].filter(Boolean);
    return parts.join(' · ') || t('all materials');
  },
};
