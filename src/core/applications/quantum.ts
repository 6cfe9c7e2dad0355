/** Quantum VQE: POST /quantum/vqe with a jid, a k-point and a Hamiltonian type. */
import { checkJid, checkKpoint, splitList } from './validate';
import { ENGLISH, type Translate } from '../util/locale';
import { firstProblem, stringField, type Application } from './types';

export const hamiltonians = (t: Translate) => [
  { label: 'tight_binding', description: t("the material's tight-binding Hamiltonian at the k-point") },
];

export const quantumVqe: Application = {
  kind: 'vqe',
  command: 'tokenLens.quantumVqe',
  title: (t) => t('Quantum VQE'),
  path: '/quantum/vqe',
  example: { jid: 'JVASP-1002', kpoint: [0, 0, 0], hamiltonian_type: 'tight_binding' },

  async ask(p, locale = ENGLISH) {
    const { t } = locale;
    const jid = await p.text({
      title: t('Quantum VQE (1/3)'),
      prompt: t('Material identifier (jid)'),
      value: p.history('jid')[0] ?? '',
      placeHolder: 'JVASP-1002',
      check: (v) => checkJid(v, locale),
    });
    if (jid === undefined) return undefined;
    const k = await p.text({
      title: t('Quantum VQE (2/3)'),
      prompt: t('k-point, in fractions of the reciprocal lattice vectors'),
      value: '0 0 0',
      check: (v) => checkKpoint(v, locale),
    });
    if (k === undefined) return undefined;
    const type = await p.pick({ title: t('Quantum VQE (3/3)'), placeHolder: t('Hamiltonian'), items: hamiltonians(t) });
    if (type === undefined) return undefined;
    return {
      body: { jid: jid.trim().toUpperCase(), kpoint: splitList(k).map(Number), hamiltonian_type: type },
      remember: { key: 'jid', value: jid.trim().toUpperCase() },
    };
  },

  check(body, locale = ENGLISH) {
    const k = body.kpoint;
    return firstProblem(
      body.hamiltonian === undefined ? stringField(locale, body, 'jid', true, (v) => checkJid(v, locale)) : undefined,
      k === undefined || (Array.isArray(k) && k.length === 3 && k.every((x) => typeof x === 'number' && Number.isFinite(x)))
        ? undefined
        : locale.t('"kpoint" must be three numbers.'),
      stringField(locale, body, 'hamiltonian_type', false),
    );
  },

  name: (body, t = ENGLISH.t) => {
    const input = String(body.jid ?? t('Hamiltonian'));
    return Array.isArray(body.kpoint) ? t('{0} · k = ({1})', input, body.kpoint.join(', ')) : input;
  },
};
