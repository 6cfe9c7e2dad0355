/** pxrd/*: a material's computed powder pattern, and matching a measured one against the database. */
import { CU_K_ALPHA, matchScore, MATCH_METHOD, MATERIALS, parseFormula, parseXrdData, powderPattern, searchMaterials } from '../materials';
import { HttpError, material, num, str, type Handler } from '../body';

export const pxrd: Handler = (body) => {
  const m = material(body, 'jid');
  const wavelength = num(body, 'wavelength') ?? CU_K_ALPHA;
  if (wavelength <= 0 || wavelength > 5) throw new HttpError(400, 'Field "wavelength" must be between 0 and 5 Å.');
  if (!m.structure)
    throw new HttpError(501, `The reference server has no structure for ${m.formula} (${m.jid}) to compute a pattern from.`);
  return { jid: m.jid, formula: m.formula, wavelength, two_theta_range: [0, 90], peaks: powderPattern(m.structure, wavelength) };
};

export const pxrdMatch: Handler = (body) => {
  const formula = str(body, 'formula', false);
  const data = str(body, 'xrd_data', true);
  let measured;
  try {
    measured = parseXrdData(data);
  } catch (error) {
    throw new HttpError(400, `${(error as Error).message}.`);
  }
  let candidates = MATERIALS.filter((m) => m.structure);
  if (formula) {
    try {
      parseFormula(formula);
    } catch (error) {
      throw new HttpError(400, `Field "formula" could not be read: ${(error as Error).message}.`);
    }
    candidates = searchMaterials({ formula }).filter((m) => m.structure);
  }
  const scored = candidates
    .map((m) => ({ material: m, peaks: powderPattern(m.structure!) }))
    .map((c) => ({ ...c, score: matchScore(measured, c.peaks) }))
    .sort((a, b) => b.score - a.score);
  const matches = scored.map((c) => ({ jid: c.material.jid, formula: c.material.formula, score: c.score }));
  // Decision: the best candidate's computed pattern comes along, so a client can overlay it on the measured one.
  const best = scored[0] && { jid: scored[0].material.jid, formula: scored[0].material.formula, peaks: scored[0].peaks };
  return { formula: formula ?? null, n_points: measured.length, matches, best: best ?? null, method: MATCH_METHOD };
};
