/**
 * The rigid-ion model of ionic crystals: point charges whose Coulomb energy Ewald sums (ewald.ts), plus a short-range
 * pair term φ(r) = A e^(−r/ρ) − C/r⁶ − D/r⁸ from a published set (ionicParameters.ts): Tosi and Fumi's
 * Born–Mayer–Huggins for the alkali halides, Matsui and Akaogi's Buckingham with partial charges for TiO₂, Bush, Gale,
 * Catlow and Battle's and Lewis and Catlow's Buckingham for other oxides. Energy in eV, forces
 * in eV/Å, the virial ∂E/∂ε (eV) as potential.ts defines it. Pure.
 *
 * The short-range term is switched smoothly to zero between SHORT_ON and SHORT_OFF (quintic, species.ts); the dispersion
 * it drops beyond is below 0.01 eV per ion in MgO and every alkali halide here (πn(C₊₊ + C₋₋ + 2C₊₋)/3r³ from about 9 Å;
 * RbI's, the largest, is 0.007 eV). A set with shells (Bush et al.'s, Lewis and Catlow's) is evaluated as the shell
 * model it was fitted as (shellModel.ts).
 */
import { InputError, type Cell, type Vec3 } from './cell';
import { addReciprocal, realTerm, splitting, ACCURACY, type Splitting } from './ewald';
import { MIN_SEPARATION, SHORT_OFF, SHORT_ON, shortRange } from './buckingham';
import { ALKALI_HALIDES, IONIC_SETS, type IonicSet, type ShellSet, type ShortRange } from './ionicParameters';
import { neighborList, type NeighborList } from './neighbors';
import { addPairTerm, type Evaluation } from './potential';
import { evaluateShellModel, type ShellMemory } from './shellModel';
import { pairTable } from './species';

export { MIN_SEPARATION, SHORT_OFF, SHORT_ON };

/** e: a sum of charges closer to zero than this is neutral (Matsui and Akaogi's partial charges do not add exactly). */
const NEUTRAL = 1e-9;

/** The first set (IONIC_SETS' order) that names every element of the structure, if its charges add up to zero. */
export function ionicSetFor(symbols: readonly string[]): IonicSet | undefined {
  const set = IONIC_SETS.find((s) => symbols.length > 0 && symbols.every((x) => Object.hasOwn(s.charges, x)));
  if (!set) return undefined;
  return Math.abs(symbols.reduce((q, x) => q + set.charges[x]!, 0)) < NEUTRAL ? set : undefined;
}

/** The ion's formal charge in the alkali halides, undefined for an element none of them holds. */
const halideCharge = (x: string): number | undefined => ALKALI_HALIDES.find((s) => Object.hasOwn(s.charges, x))?.charges[x];

/**
 * Why a structure of alkali-halide ions that no one salt covers (a NaCl–KCl solid solution, NaCl with Br) gets no
 * rigid-ion set, for the fallback's method; undefined for anything else.
 */
export function mixedHalideNote(symbols: readonly string[]): string | undefined {
  const elements = [...new Set(symbols)].sort();
  const ofOneSalt = ALKALI_HALIDES.some((s) => elements.every((x) => Object.hasOwn(s.charges, x)));
  const charges = elements.map(halideCharge);
  if (ofOneSalt || charges.includes(undefined) || !charges.includes(1) || !charges.includes(-1)) return undefined;
  return `Tosi and Fumi parametrised each alkali halide on its own (ρ and Mayer's C and D belong to one salt), so a structure mixing salts (${elements.join(', ')}) gets no rigid-ion set`;
}

const hasShells = (set: IonicSet): set is ShellSet => 'shells' in set;

const signed = (q: number): string => `${q > 0 ? '+' : ''}${q}`;

export function ionicMethod(set: IonicSet): string {
  const charges = Object.entries(set.charges).map(([x, q]) => `${x} ${signed(q)}`);
  const shells = hasShells(set)
    ? `, shells (core, shell, spring eV/Å²) ${Object.entries(set.shells)
        .map(([x, s]) => `${x} ${signed(s.core)} ${signed(s.shell)} ${s.k}`)
        .join(', ')} relaxed at every step`
    : '';
  const kind = Object.values(set.charges).every(Number.isInteger) ? 'formal' : 'partial';
  return `${hasShells(set) ? '' : 'Rigid-ion '}${set.name} (${set.citation}): ${kind} charges ${charges.join(', ')}${shells}, Coulomb by Ewald summation to ${ACCURACY} of each tail, short-range terms switched off between ${SHORT_ON} and ${SHORT_OFF} Å`;
}

/** The real-space Ewald and short-range terms of every pair in the list, in one pass; returns their energy. */
function addPairs(
  list: NeighborList,
  charges: readonly number[],
  s: Splitting,
  pair: (i: number, j: number) => ShortRange | undefined,
  forces: Vec3[],
  virial: number[],
): number {
  let energy = 0;
  for (let n = 0; n < list.count; n++) {
    const r = list.r[n]!;
    if (r < MIN_SEPARATION)
      throw new InputError(
        `Ions ${list.i[n]! + 1} and ${list.j[n]! + 1} are ${r.toFixed(2)} Å apart (periodic images counted): the rigid-ion model needs at least ${MIN_SEPARATION} Å between ions; check the structure.`,
      );
    const [e, de] = r < s.realCutoff ? realTerm(charges[list.i[n]!]! * charges[list.j[n]!]!, r, s.alpha) : [0, 0];
    const p = pair(list.i[n]!, list.j[n]!);
    const [f, df] = p && r < SHORT_OFF ? shortRange(p, r) : [0, 0];
    energy += e + f;
    addPairTerm(forces, virial, list, n, (de + df) / r);
  }
  return energy;
}

/**
 * The energy with the given set, or the set ionicSetFor chooses; alpha overrides Ewald's splitting. A shell-model set's
 * shells start from `memory` (one per run, so a relaxation's steps start where the last one left them).
 */
export function evaluateIonic(cell: Cell, set = ionicSetFor(cell.symbols), alpha?: number, memory?: ShellMemory): Evaluation {
  if (!set) throw new InputError('No ionic parameter set covers these elements with a neutral composition.');
  if (hasShells(set)) return evaluateShellModel(cell, set, alpha, memory);
  const charges = cell.symbols.map((x) => set.charges[x]!);
  const s = splitting(cell, alpha, SHORT_OFF);
  const pair = pairTable(cell.symbols, (x, y) => set.pairs[[x, y].sort().join('-')]);
  const list = neighborList(cell.lattice, cell.positions, Math.max(s.realCutoff, SHORT_OFF));
  const forces: Vec3[] = cell.positions.map(() => [0, 0, 0]);
  const virial = [0, 0, 0, 0, 0, 0];
  const energy = addPairs(list, charges, s, pair, forces, virial) + addReciprocal(cell, charges, s, forces, virial);
  return { energy, forces, virial };
}
