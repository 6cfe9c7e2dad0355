/** Predict Property: POST /gnn_predictor/predict with a jid and a model. */
import { checkJid } from './validate';
import { ENGLISH, type Translate } from '../util/locale';
import { firstProblem, stringField, type Application } from './types';

export const models = (t: Translate) => [
  { label: 'formation_energy_peratom', description: t('formation energy per atom (eV/atom)') },
  { label: 'optb88vdw_bandgap', description: t('band gap, OptB88vdW (eV)') },
  { label: 'bulk_modulus_kv', description: t('Voigt bulk modulus (GPa)') },
  { label: 'shear_modulus_gv', description: t('Voigt shear modulus (GPa)') },
];

export const predictProperty: Application = {
  kind: 'predict',
  command: 'tokenLens.predictProperty',
  title: (t) => t('Predict Property'),
  path: '/gnn_predictor/predict',
  example: { jid: 'JVASP-1002', model: 'formation_energy_peratom' },

  async ask(p, locale = ENGLISH) {
    const { t } = locale;
    const jid = await p.text({
      title: t('Predict Property (1/2)'),
      prompt: t('Material identifier (jid)'),
      value: p.history('jid')[0] ?? '',
      placeHolder: 'JVASP-1002',
      check: (v) => checkJid(v, locale),
    });
    if (jid === undefined) return undefined;
    const model = await p.pick({
      title: t('Predict Property (2/2)'),
      placeHolder: t('Model'),
      items: models(t),
      typed: (v) => (/^[\w.-]+$/.test(v) ? undefined : t('A model name is letters, digits, _ . -')),
    });
    if (model === undefined) return undefined;
    return { body: { jid: jid.trim().toUpperCase(), model }, remember: { key: 'jid', value: jid.trim().toUpperCase() } };
  },

  check: (body, locale = ENGLISH) =>
    firstProblem(
      stringField(locale, body, 'jid', true, (v) => checkJid(v, locale)),
      stringField(locale, body, 'model', false),
    ),
  name: (body) => `${String(body.jid)}${typeof body.model === 'string' ? ` · ${body.model}` : ''}`,
};
