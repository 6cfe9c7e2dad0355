/**
 * Powder Diffraction: compute the pattern of a material (POST /pxrd/compute with a jid), or match the
 * open diffraction-data file (POST /pxrd/match with its points as xrd_data and an optional formula).
 */
import { errorsOf, parseDiffraction, toXrdData } from '../diffraction/parse';
import { checkFormula, checkJid } from './validate';
import { ENGLISH } from '../util/locale';
import { firstProblem, numberField, stringField, type Application } from './types';

export const computePattern: Application = {
  kind: 'pxrd',
  command: 'tokenLens.pxrdCompute',
  title: (t) => t('Powder Diffraction: Compute Pattern'),
  path: '/pxrd/compute',
  example: { jid: 'JVASP-1002', wavelength: 1.5406 },

  async ask(p, locale = ENGLISH) {
    const { t } = locale;
    const jid = await p.text({
      title: t('Powder Diffraction: Compute Pattern'),
      prompt: t('Material identifier (jid); the pattern is for Cu Kα unless the request says otherwise'),
      value: p.history('jid')[0] ?? '',
      placeHolder: 'JVASP-1002',
      check: (v) => checkJid(v, locale),
    });
    if (jid === undefined) return undefined;
    return { body: { jid: jid.trim().toUpperCase() }, remember: { key: 'jid', value: jid.trim().toUpperCase() } };
  },

  check: (body, locale = ENGLISH) =>
    firstProblem(
      stringField(locale, body, 'jid', true, (v) => checkJid(v, locale)),
      numberField(locale, body, 'wavelength', 0.01, 5),
    ),
  name: (body) => String(body.jid),
};

export const matchPattern: Application = {
  kind: 'pxrdMatch',
  command: 'tokenLens.pxrdMatch',
  title: (t) => t('Powder Diffraction: Match Pattern'),
  path: '/pxrd/match',
  example: { formula: 'Si', xrd_data: '28.44 100\n47.30 55\n56.12 30' },

  async ask(p, locale = ENGLISH) {
    const { t } = locale;
    const file = p.diffraction();
    if (!file)
      return {
        refuse: t(
          'Open a diffraction-data file (*.xy, *.xrd, or any file in the Diffraction Data language) to match it: Token Lens sends its points.',
        ),
      };
    const error = errorsOf(file.data)[0];
    if (error)
      return {
        refuse:
          errorsOf(file.data).length === 1
            ? t('{0} has an error, so Token Lens did not send it. {1}.', file.name, error.message)
            : t('{0} has {1} errors, so Token Lens did not send it. {2}.', file.name, errorsOf(file.data).length, error.message),
        at: { uri: file.uri, line: error.line, start: error.start, end: error.end },
      };
    const formula = await p.text({
      title: t('Powder Diffraction: Match Pattern'),
      prompt: t(
        'Formula of the candidates (optional): {0} points of {1} are matched against every material, or only those of this formula.',
        file.data.points.length,
        file.name,
      ),
      placeHolder: 'Si',
      check: (v) => (v.trim() ? checkFormula(v, locale) : undefined),
    });
    if (formula === undefined) return undefined;
    return { body: { ...(formula.trim() ? { formula: formula.trim() } : {}), xrd_data: toXrdData(file.data.points) }, inputUri: file.uri };
  },

  check: (body, locale = ENGLISH) =>
    firstProblem(
      stringField(locale, body, 'formula', false, (v) => (v.trim() ? checkFormula(v, locale) : undefined)),
      stringField(locale, body, 'xrd_data', true, (v) => {
        const error = errorsOf(parseDiffraction(v, locale))[0];
        return error && locale.t('"xrd_data": {0}.', error.message);
      }),
    ),
  name: (body, t = ENGLISH.t) => {
    const points = typeof body.xrd_data === 'string' ? parseDiffraction(body.xrd_data).points.length : 0;
    return typeof body.formula === 'string' && body.formula ? t('{0} points · {1}', points, body.formula) : t('{0} points', points);
  },
};
