/** OPTIMADE Query: POST /optimade_explorer/query with a filter, from history, examples, or typed. */
import { checkOptimadeFilter } from './validate';
import { ENGLISH, type Translate } from '../util/locale';
import { stringField, type Application } from './types';

export const optimadeExamples = (t: Translate) => [
  { label: 'elements HAS ALL "Ga","As"', description: t('example: contains gallium and arsenic') },
  { label: 'elements HAS ANY "Na","Mg" AND nelements = 2', description: t('example: binary compounds of sodium or magnesium') },
  { label: 'nelements = 1', description: t('example: elements') },
  { label: 'chemical_formula_reduced = "TiO2"', description: t('example: a formula') },
];

export const HISTORY_KEY = 'optimade';

export const optimadeQuery: Application = {
  kind: 'optimade',
  command: 'tokenLens.optimadeQuery',
  title: (t) => t('OPTIMADE Query'),
  path: '/optimade_explorer/query',
  example: { filter_string: 'elements HAS ALL "Ga","As"' },

  async ask(p, locale = ENGLISH) {
    const { t } = locale;
    const history = p.history(HISTORY_KEY).map((label) => ({ label, description: t('used before') }));
    const examples = optimadeExamples(t).filter((e) => !history.some((h) => h.label === e.label));
    const filter = await p.pick({
      title: t('OPTIMADE Query'),
      placeHolder: t('Type a filter, or pick one used before or an example'),
      items: [...history, ...examples],
      typed: (v) => checkOptimadeFilter(v, locale),
    });
    if (filter === undefined) return undefined;
    return { body: { filter_string: filter.trim() }, remember: { key: HISTORY_KEY, value: filter.trim() } };
  },

  check: (body, locale = ENGLISH) => stringField(locale, body, 'filter_string', true, (v) => checkOptimadeFilter(v, locale)),
  name: (body) => String(body.filter_string),
};
