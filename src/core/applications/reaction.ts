/** Balance Reaction: POST /reaction_network/balance with reactants and products as text ("Fe2O3 + C"). */
import { checkReaction, readSide } from './validate';
import { ENGLISH } from '../util/locale';
import { firstProblem, stringField, type Application, type Body } from './types';

const side = (body: Body, field: string): string | undefined => {
  const value = body[field];
  return typeof value === 'string'
    ? value
    : Array.isArray(value) && value.every((v) => typeof v === 'string')
      ? value.join(' + ')
      : undefined;
};

export const balanceReaction: Application = {
  kind: 'reaction',
  command: 'tokenLens.balanceReaction',
  title: (t) => t('Balance Reaction'),
  path: '/reaction_network/balance',
  example: { reactants: 'Fe2O3 + C', products: 'Fe + CO2' },

  async ask(p, locale = ENGLISH) {
    const { t } = locale;
    const reactants = await p.text({
      title: t('Balance Reaction (1/2)'),
      prompt: t('Reactants, joined by +'),
      placeHolder: 'Fe2O3 + C',
      check: (v) => {
        const r = readSide(v, locale);
        return typeof r === 'string' ? r : undefined;
      },
    });
    if (reactants === undefined) return undefined;
    const products = await p.text({
      title: t('Balance Reaction (2/2)'),
      prompt: t('Products of {0}, joined by +', reactants.trim()),
      placeHolder: 'Fe + CO2',
      check: (v) => checkReaction(reactants, v, locale),
    });
    if (products === undefined) return undefined;
    return { body: { reactants: reactants.trim(), products: products.trim() } };
  },

  check(body, locale = ENGLISH) {
    const { t } = locale;
    if (body.equation !== undefined && body.reactants === undefined) return stringField(locale, body, 'equation', true);
    const [r, p] = [side(body, 'reactants'), side(body, 'products')];
    return firstProblem(
      r === undefined ? t('"reactants" must be text such as "Fe2O3 + C" (or a list of formulas).') : undefined,
      p === undefined ? t('"products" must be text such as "Fe + CO2" (or a list of formulas).') : undefined,
      r && p ? checkReaction(r, p, locale) : undefined,
    );
  },

  name: (body) =>
    `${side(body, 'reactants') ?? String(body.equation ?? '')}${side(body, 'products') ? ` → ${side(body, 'products')}` : ''}`,
};
