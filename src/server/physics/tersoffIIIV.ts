/**
 * The Tersoff potentials of D. Powell, M. A. Migliorato and A. G. Cullis, "Optimized Tersoff potential parameters for
 * tetrahedrally bonded III-V semiconductors", Phys. Rev. B 75, 115202 (2007), for AlAs, GaP, InP and InSb, computed in
 * the form of bondOrder.ts (LAMMPS's pair_style tersoff with m = 3, γ = 1). Pure.
 *
 * The paper fits one cation–anion bond per compound; it has no cation–cation or anion–anion terms, so here those pairs
 * do not interact and a structure is covered only when it holds exactly one compound's two elements. (The LAMMPS
 * transcription below fills those lines with placeholders it calls "zero contribution": B = 0, and a flat g = 1 that
 * LAMMPS would add to ζ for each like neighbour within R + D. In zincblende like neighbours sit at a/√2 = 3.85–4.58 Å,
 * beyond each R + D, but a rattled AlAs, 4.00 Å against 3.8 Å, reaches it: 9.5 meV/atom in the bench's AlAs64.)
 *
 * The numbers are the compound lines (cation–anion–anion = anion–cation–cation) of the LAMMPS files
 * potentials/tersoff/Powell_2007/{AlAs,GaP,InP,InSb}.tersoff of the repository by-student-2017/lammps_education_metal_win
 * (dated 2024-10-31, citing the paper; read at commits 3605dd0b and 4fe2d84a for AlAs, 4fe2d84a for GaP, 4fe2d84a and
 * f26ec19f for InP, a0266b4d for InSb, whose compound lines agree); the paper's own table could not be read here. They reproduce the measured lattice constants the paper was fitted to within 0.001 Å and
 * cohesive energies of 7.56, 7.12, 6.96 and 5.60 eV per pair (test/unit/server/physics/tersoffIIIV.test.ts).
 */
import { evaluateBondOrder, pairKey, type BondOrderPair, type PairTable } from './bondOrder';
import { InputError, type Cell } from './cell';
import type { Evaluation } from './potential';

/** The LAMMPS line m, γ, λ3, c, d, costheta0 (h), n, β, λ2, B, R, D, λ1, A, as the file orders it. */
type Line = [number, number, number, number, number, number, number, number, number, number, number, number, number, number];

function fromLine([m, gamma, lambda3, c, d, h, n, beta, lambda2, B, R, D, lambda1, A]: Line): BondOrderPair {
  return { A, lambda1, B, lambda2, gamma, c, d, h, lambda3, m, beta, n, R, D };
}

/** Powell, Migliorato and Cullis (2007), by the pair's symbols in alphabetical order. */
export const POWELL_2007: PairTable = {
  // AlAs.tersoff, "Al As As" and "As Al Al".
  'Al-As': fromLine([3, 1, 1.38402, 1.05025, 0.850097, -0.458041, 8.36992, 0.359702, 1.64996, 330.99221, 3.7, 0.1, 2.5431003, 1780.771194]),
  // GaP.tersoff, "Ga P P" and "P Ga Ga".
  'Ga-P': fromLine([
    3, 1, 1.81771, 1.26417, 0.799535, -0.433247, 5.42195, 0.339811, 1.818646, 378.0635108, 3.1, 0.1, 2.8991224, 2806.027777,
  ]),
  // InP.tersoff, "In P P" and "P In In".
  'In-P': fromLine([3, 1, 1.89106, 1.2179, 0.831026, -0.461576, 5.3449, 0.338811, 1.718098, 404.713323, 3.3, 0.1, 2.716484, 2979.859085]),
  // InSb.tersoff, "In Sb Sb" and "Sb In In".
  'In-Sb': fromLine([3, 1, 2.47677, 5.32122, 1.39907, -0.489527, 1.8926, 0.304347, 1.168874, 67.95917, 3.7, 0.1, 3.5372944, 14105.27888]),
};

export const POWELL_METHOD =
  'Tersoff potential for AlAs, GaP, InP and InSb of Powell, Migliorato and Cullis, Phys. Rev. B 75, 115202 (2007) (cation–anion bonds only)';

/** True when the structure holds both elements of one of the compounds and nothing else. */
export function powellCovers(symbols: readonly string[]): boolean {
  const kinds = [...new Set(symbols)];
  return kinds.length === 2 && pairKey(kinds[0]!, kinds[1]!) in POWELL_2007;
}

export function evaluatePowell(cell: Cell): Evaluation {
  if (!powellCovers(cell.symbols))
    throw new InputError('The Powell et al. (2007) Tersoff potentials cover AlAs, GaP, InP and InSb, each compound on its own.');
  return evaluateBondOrder(cell, POWELL_2007);
}
