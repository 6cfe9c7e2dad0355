/**
 * Generate Heterostructure: POST /heterostructure/generate with a film and a substrate (jids here;
 * POSCAR text through the JSON request), Miller indices as "0_0_1"; thicknesses, separation and vacuum
 * keep the service's defaults unless the request sets them.
 */
import { checkJid, checkMiller, normalizeMiller } from './validate';
import { firstProblem, numberField, stringField, type Application, type Body } from './types';

const has = (body: Body, ...fields: string[]): boolean => fields.some((f) => typeof body[f] === 'string' && (body[f] as string).trim() !== '');

export const generateHeterostructure: Application = {
  kind: 'heterostructure', command: 'tokenLens.generateHeterostructure', title: 'Generate Heterostructure', path: '/heterostructure/generate',
  example: { jid1: 'JVASP-1174', jid2: 'JVASP-1002', film_index: '0_0_1', subs_index: '0_0_1', film_thickness: 10, subs_thickness: 10, separation: 2.5, vacuum: 10 },

  async ask(p) {
    const film = await p.text({ title: 'Generate Heterostructure (1/3)', prompt: 'Film material (jid), grown on the substrate', placeHolder: 'JVASP-1174', check: checkJid });
    if (film === undefined) return undefined;
    const subs = await p.text({ title: 'Generate Heterostructure (2/3)', prompt: 'Substrate material (jid)', placeHolder: 'JVASP-1002', check: checkJid });
    if (subs === undefined) return undefined;
    const index = await p.text({ title: 'Generate Heterostructure (3/3)', prompt: 'Miller index of the interface plane, for film and substrate (h_k_l)', value: '0_0_1', check: checkMiller });
    if (index === undefined) return undefined;
    const miller = normalizeMiller(index)!;
    return { body: { jid1: film.trim().toUpperCase(), jid2: subs.trim().toUpperCase(), film_index: miller, subs_index: miller } };
  },

  check(body) {
    const jidOrPoscar = (role: string, jids: string[], poscars: string[]): string | undefined =>
      has(body, ...jids, ...poscars) ? undefined : `The ${role} is missing: give "${jids[0]}" (a jid) or "${poscars[0]}" (POSCAR text).`;
    return firstProblem(
      jidOrPoscar('film', ['jid1', 'film_jid'], ['poscar_film']), jidOrPoscar('substrate', ['jid2', 'subs_jid', 'substrate_jid'], ['poscar_subs']),
      ...['jid1', 'jid2', 'film_jid', 'subs_jid', 'substrate_jid'].map((f) => stringField(body, f, false, checkJid)),
      ...['film_index', 'subs_index'].map((f) => stringField(body, f, false, checkMiller)),
      numberField(body, 'film_thickness', 1, 100), numberField(body, 'subs_thickness', 1, 100), numberField(body, 'separation', 0.5, 20), numberField(body, 'vacuum', 0, 100),
    );
  },

  name: (body) => `${String(body.jid1 ?? body.film_jid ?? 'film')} on ${String(body.jid2 ?? body.subs_jid ?? body.substrate_jid ?? 'substrate')}`,
};
