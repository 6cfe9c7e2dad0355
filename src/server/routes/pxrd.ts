/**
 * pxrd/*: a material's computed powder pattern (the core's, rounded for the answer), and matching a measured one
 * against the database; the measured data is read by the core's parser, as the editor reads a diffraction file.
 */
import { errorsOf, parseDiffraction } from '../../core/diffraction/parse';
import { findPeaks, matchPeaks } from '../../core/diffraction/peaks';
import { parseFormula } from '../../core/chemistry/formula';
import { CU_K_ALPHA1, MAX_WAVELENGTH, MIN_WAVELENGTH, powderPattern as corePowderPattern } from '../../core/crystallography/xrd';
import { fracToCart } from '../../core/poscar/structure';
import type { Mat3 } from '../../core/poscar/types';
import { MATERIALS, type Material, type Structure } from '../materials';
import { HttpError, material, num, round, str, type Handler } from '../http/body';
import { searchMaterials } from './materials';

export interface Peak {
  two_theta: number;
  d_spacing: number;
  intensity: number;
  hkl: [number, number, number];
}

/** Cu Kα₁, the editor's default too. */
export const CU_K_ALPHA = CU_K_ALPHA1;

/**
 * The core's kinematic powder pattern (core/crystallography/xrd.ts: pymatgen XRDCalculator's formula, Doyle &
 * Turner scattering factors, Lorentz–polarisation, every reflection in the sphere), so the server and the
 * editor compute the same pattern; rounded for the answer, each peak labelled with its first hkl family
 * (the first three Miller–Bravais indices h, k, l of a hexagonal cell), peaks that round to 0 left out.
 */
export function powderPattern(structure: Structure, wavelength = CU_K_ALPHA, twoThetaMax = 90): Peak[] {
  const lattice = structure.lattice as Mat3;
  const pattern = corePowderPattern(
    { lattice, species: structure.species, positions: structure.frac.map((f) => fracToCart(lattice, f)) },
    { wavelength, twoThetaMax },
  );
  return pattern.peaks
    .map((p) => {
      const hkl = p.families[0]!.hkl;
      return {
        two_theta: round(p.twoTheta, 3),
        d_spacing: round(p.d, 4),
        intensity: round(p.intensity, 1),
        hkl: (hkl.length === 4 ? [hkl[0]!, hkl[1]!, hkl[3]!] : hkl) as [number, number, number],
      };
    })
    .filter((p) => p.intensity > 0);
}

export const MATCH_METHOD =
  'background by SNIP (Ryan et al., Nucl. Instrum. Methods B 34, 396 (1988); Morháč et al., NIM A 401, 113 (1997)), ' +
  'peaks above 3σ of the noise, paired with each computed reflection within 0.2° 2θ after the best zero shift (±0.3°); ' +
  'score = cosine of the two intensity vectors, unpaired peaks included';

/** Points of a measured scan at most: 85° at a 0.005° step is 17,000 (its peaks are found in under a second). */
export const MAX_MATCH_POINTS = 20_000;

export const pxrd: Handler = (body) => {
  const m = material(body, 'jid');
  const wavelength = num(body, 'wavelength') ?? CU_K_ALPHA;
  if (!(wavelength >= MIN_WAVELENGTH && wavelength <= MAX_WAVELENGTH))
    throw new HttpError(400, `Field "wavelength" must be between ${MIN_WAVELENGTH} and ${MAX_WAVELENGTH} Å.`);
  if (!m.structure)
    throw new HttpError(501, `The reference server has no structure for ${m.formula} (${m.jid}) to compute a pattern from.`);
  return { jid: m.jid, formula: m.formula, wavelength, two_theta_range: [0, 90], peaks: powderPattern(m.structure, wavelength) };
};

/** The measured points, read as the editor reads a diffraction file: its first error, with its line, is the 400. */
function measuredPoints(text: string): Array<{ two_theta: number; intensity: number }> {
  const data = parseDiffraction(text);
  const errors = errorsOf(data);
  if (errors.length)
    throw new HttpError(
      400,
      `Field "xrd_data" has ${errors.length === 1 ? 'an error' : `${errors.length} errors`}: ${errors[0]!.message}.`,
    );
  if (data.points.length > MAX_MATCH_POINTS)
    throw new HttpError(
      400,
      `Field "xrd_data" has ${data.points.length} points; the reference server matches at most ${MAX_MATCH_POINTS}: send a coarser scan or its peaks.`,
    );
  return data.points.map((p) => ({ two_theta: p.angle, intensity: p.intensity }));
}

/** Every material's pattern at Cu Kα, computed once per worker. */
const patterns = new Map<Material, Peak[]>();
const patternOf = (m: Material): Peak[] => patterns.get(m) ?? patterns.set(m, powderPattern(m.structure!)).get(m)!;

export const pxrdMatch: Handler = (body) => {
  const formula = str(body, 'formula', false);
  const measured = measuredPoints(str(body, 'xrd_data', true));
  let candidates = MATERIALS.filter((m) => m.structure);
  if (formula) {
    try {
      parseFormula(formula);
    } catch (error) {
      throw new HttpError(400, `Field "formula" could not be read: ${(error as Error).message}.`);
    }
    candidates = searchMaterials({ formula }).filter((m) => m.structure);
  }
  const found = findPeaks(measured);
  const scored = candidates
    .map((m) => ({ material: m, peaks: patternOf(m) }))
    .map((c) => ({ ...c, score: matchPeaks(c.peaks, found).score }))
    .sort((a, b) => b.score - a.score);
  const matches = scored.map((c) => ({ jid: c.material.jid, formula: c.material.formula, score: c.score }));
  // Decision: the best candidate's computed pattern comes along, so a client can overlay it on the measured one.
  const best = scored[0] && { jid: scored[0].material.jid, formula: scored[0].material.formula, peaks: scored[0].peaks };
  return { formula: formula ?? null, n_points: measured.length, matches, best: best ?? null, method: MATCH_METHOD };
};
