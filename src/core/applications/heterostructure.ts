/**
 * Generate Heterostructure: POST /heterostructure/generate with a film and a substrate, each a jid or an
 * open POSCAR document, Miller indices as "0_0_1"; thicknesses, separation and vacuum keep the service's
 * defaults unless the JSON request sets them.
 */
import { checkJid, checkMiller, normalizeMiller } from './validate';
import { ENGLISH, type Locale, type Translate } from '../util/locale';
import { firstProblem, numberField, stringField, type Application, type Body, type Prompts, type Refusal } from './types';

/** A jid typed, or an open POSCAR picked (refused while it has errors); undefined when cancelled. */
async function structure(
  locale: Locale,
  p: Prompts,
  step: number,
  role: 'Film' | 'Substrate',
  example: string,
): Promise<{ jid: string } | { poscar: string } | Refusal | undefined> {
  const { t } = locale;
  const open = p.poscars();
  const answer = await p.pick({
    title: t('Generate Heterostructure ({0}/3)', step),
    placeHolder: placeHolder(t, role, example, open.length > 0),
    items: open.map((d) => ({ label: d.name, description: d.error ? t('has an error: {0}', d.error) : t('open POSCAR') })),
    typed: (v) => checkJid(v, locale),
  });
  if (answer === undefined) return undefined;
  const document = open.find((d) => d.name === answer);
  if (!document) return { jid: answer.trim().toUpperCase() };
  return document.error
    ? { refuse: t('{0} has an error, so Token Lens did not send it. {1}', document.name, document.error) }
    : { poscar: document.text };
}

/** Whole phrases per role: "Film: type a jid such as JVASP-1174, or pick an open POSCAR". */
function placeHolder(t: Translate, role: 'Film' | 'Substrate', example: string, open: boolean): string {
  if (role === 'Film')
    return open ? t('Film: type a jid such as {0}, or pick an open POSCAR', example) : t('Film: type a jid such as {0}', example);
  return open ? t('Substrate: type a jid such as {0}, or pick an open POSCAR', example) : t('Substrate: type a jid such as {0}', example);
}

/** "GaAs" from a POSCAR's comment line. */
const commentWord = (poscar: unknown): string | undefined => (typeof poscar === 'string' ? poscar.trim().split(/\s+/)[0] : undefined);

const has = (body: Body, ...fields: string[]): boolean => fields.some((f) => typeof body[f] === 'string' && body[f].trim() !== '');

export const generateHeterostructure: Application = {
  kind: 'heterostructure',
  command: 'tokenLens.generateHeterostructure',
  title: (t) => t('Generate Heterostructure'),
  path: '/heterostructure/generate',
  example: {
    jid1: 'JVASP-1174',
    jid2: 'JVASP-1002',
    film_index: '0_0_1',
    subs_index: '0_0_1',
    film_thickness: 10,
    subs_thickness: 10,
    separation: 2.5,
    vacuum: 10,
  },

  async ask(p, locale = ENGLISH) {
    const { t } = locale;
    const film = await structure(locale, p, 1, 'Film', 'JVASP-1174');
    if (film === undefined || 'refuse' in film) return film;
    const subs = await structure(locale, p, 2, 'Substrate', 'JVASP-1002');
    if (subs === undefined || 'refuse' in subs) return subs;
    const index = await p.text({
      title: t('Generate Heterostructure (3/3)'),
      prompt: t('Miller index of the interface plane, for film and substrate (h_k_l)'),
      value: '0_0_1',
      check: (v) => checkMiller(v, locale),
    });
    if (index === undefined) return undefined;
    const miller = normalizeMiller(index)!;
    return {
      body: {
        ...('jid' in film ? { jid1: film.jid } : { poscar_film: film.poscar }),
        ...('jid' in subs ? { jid2: subs.jid } : { poscar_subs: subs.poscar }),
        film_index: miller,
        subs_index: miller,
      },
    };
  },

  check(body, locale = ENGLISH) {
    const { t } = locale;
    return firstProblem(
      has(body, 'jid1', 'film_jid', 'poscar_film')
        ? undefined
        : t('The film is missing: give "{0}" (a jid) or "{1}" (POSCAR text).', 'jid1', 'poscar_film'),
      has(body, 'jid2', 'subs_jid', 'substrate_jid', 'poscar_subs')
        ? undefined
        : t('The substrate is missing: give "{0}" (a jid) or "{1}" (POSCAR text).', 'jid2', 'poscar_subs'),
      ...['jid1', 'jid2', 'film_jid', 'subs_jid', 'substrate_jid'].map((f) =>
        stringField(locale, body, f, false, (v) => checkJid(v, locale)),
      ),
      ...['film_index', 'subs_index'].map((f) => stringField(locale, body, f, false, (v) => checkMiller(v, locale))),
      numberField(locale, body, 'film_thickness', 1, 100),
      numberField(locale, body, 'subs_thickness', 1, 100),
      numberField(locale, body, 'separation', 0.5, 20),
      numberField(locale, body, 'vacuum', 0, 100),
    );
  },

  structure: (answer) => {
    const poscar = typeof answer === 'object' && answer !== null ? (answer as Body).combined_poscar : undefined;
    return typeof poscar === 'string' && poscar.trim() ? poscar : undefined;
  },

  name: (body, t = ENGLISH.t) =>
    t(
      '{0} on {1}',
      String(body.jid1 ?? body.film_jid ?? commentWord(body.poscar_film) ?? t('film')),
      String(body.jid2 ?? body.subs_jid ?? body.substrate_jid ?? commentWord(body.poscar_subs) ?? t('substrate')),
    ),
};
