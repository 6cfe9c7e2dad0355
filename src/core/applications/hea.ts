/** High-Entropy Alloy: POST /hea/compute with 2-10 elements and optional fractions (equal parts without). */
import { checkElements, checkFractions, splitList } from './validate';
import { ENGLISH, plural } from '../util/locale';
import { firstProblem, type Application } from './types';

export const highEntropyAlloy: Application = {
  kind: 'hea',
  command: 'tokenLens.highEntropyAlloy',
  title: (t) => t('High-Entropy Alloy'),
  path: '/hea/compute',
  example: { elements: ['Fe', 'Co', 'Ni', 'Cr', 'Mn'], fractions: [0.2, 0.2, 0.2, 0.2, 0.2] },

  async ask(p, locale = ENGLISH) {
    const { t } = locale;
    const elements = await p.text({
      title: t('High-Entropy Alloy (1/2)'),
      prompt: t('2 to 10 elements, separated by spaces or commas'),
      placeHolder: 'Fe Co Ni Cr Mn',
      check: (v) => checkElements(v, 2, 10, locale),
    });
    if (elements === undefined) return undefined;
    const symbols = splitList(elements);
    const fractions = await p.text({
      title: t('High-Entropy Alloy (2/2)'),
      prompt: t('Fractions of {0} (optional; empty for equal parts; normalised by the service)', symbols.join(', ')),
      placeHolder: symbols.map(() => (1 / symbols.length).toFixed(2)).join(' '),
      check: (v) => checkFractions(v, symbols.length, locale),
    });
    if (fractions === undefined) return undefined;
    return { body: { elements: symbols, ...(fractions.trim() ? { fractions: splitList(fractions).map(Number) } : {}) } };
  },

  check(body, locale = ENGLISH) {
    if (body.composition !== undefined && body.elements === undefined) return undefined; // the older body, checked by the service
    const elements = body.elements;
    if (!Array.isArray(elements) || !elements.every((e) => typeof e === 'string'))
      return locale.t('"elements" must be a list of {0} to {1} element symbols.', 2, 10);
    const fractions = body.fractions;
    return firstProblem(
      checkElements(elements.join(' '), 2, 10, locale),
      fractions === undefined ||
        (Array.isArray(fractions) && fractions.length === elements.length && fractions.every((f) => typeof f === 'number' && f > 0))
        ? undefined
        : plural(
            locale,
            elements.length,
            '"fractions" must hold {0} positive number, one per element.',
            '"fractions" must hold {0} positive numbers, one per element.',
          ),
    );
  },

  name: (body, t = ENGLISH.t) => (Array.isArray(body.elements) ? body.elements.join('') : t('composition')),
};
