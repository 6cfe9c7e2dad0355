/**
 * The band-structure fallback for sp-bonded materials outside Vogl's table: W. A. Harrison's universal tight-binding
 * parameters, as his Solid State Table gives them (Electronic Structure and the Properties of Solids, Freeman 1980;
 * Dover 1989). Four orbitals per atom (s, px, py, pz), nearest neighbours only, two-centre integrals in the
 * Slater–Koster form (slaterKoster.ts) from one formula for every element pair,
 *
 *   V_llm = η_llm ħ²/(m d²),   ħ²/m = 7.62 eV·Å²,   η_ssσ = −1.40, η_spσ = 1.84, η_ppσ = 3.24, η_ppπ = −0.81
 *
 * (the η of S. Froyen and W. A. Harrison, Phys. Rev. B 20, 2420 (1979), which the 1980 table uses; Harrison's later
 * revision, −1.32, 1.42, 2.22, −0.63 (Phys. Rev. B 24, 5835 (1981)), is not mixed in), and on-site energies the
 * atomic term values ε_s, ε_p of the same table (Herman–Skillman Hartree–Fock–Slater eigenvalues). d is each bond's
 * own length, so strained and distorted cells are computed from their bonds. Energies in eV; pure.
 *
 * A rough estimate by design: without an s* orbital or second neighbours the conduction bands are poor. Silicon
 * comes out a semiconductor with a direct gap of 3.66 eV at Γ (Γ25′ → Γ2′; measured: 1.17 eV, indirect), and the
 * first-row compounds' gaps too wide (wurtzite AlN 9.3 eV, measured 6.2; zincblende BN 14.3, measured 6.4); the
 * valence bands, which compound is the more ionic, and the trends are what the model is for.
 */
import { InputError, type Cell, type Vec3 } from './cell';
import { neighborList } from './neighbors';
import type { Steps } from '../../core/util/steps';
import { slaterKosterBlock, slaterKosterHamiltonian, type Bond, type TwoCentre } from './slaterKoster';
import { maxCutoff } from './species';
import { eigenvaluesAlong } from './tightbinding';

/** eV·Å² */
export const HBAR2_OVER_M = 7.62;
export const ETA = { ssSigma: -1.4, spSigma: 1.84, ppSigma: 3.24, ppPi: -0.81 } as const;
/** A pair is bonded when closer than this many times the shorter of its two atoms' nearest-neighbour distances. */
export const FIRST_SHELL = 1.2;

/**
 * [ε_s, ε_p] (eV) and the valence s + p electrons, for the main-group elements that have both term values in the
 * Solid State Table (groups 2, 12 to 17; the alkali and alkaline-earth metals from Ca on list ε_s only, and d
 * electrons of Zn, Cd, Hg are not counted). Transcribed from two public copies of the table: jarvist/TightBinding.jl
 * (src/model/SolidStateTable.jl) for Be, B, C, N, O, Mg, Si, P, S, Zn, Ga, Ge, As, Se, Sn, I, Pb, and WMD-group/SMACT
 * (smact/data/Eigenvalues_s.csv, Eigenvalues.csv), which agrees with it on all of those but Ge's ε_p (SMACT −6.63,
 * TightBinding.jl −6.36, below Si's −6.52 as the Herman–Skillman trend has it; −6.36 is used), and is the only
 * copy here for F, Al, Cl, Br, Cd, In, Sb, Te, Hg, Tl, Bi.
 */
export const TERM_VALUES: Readonly<Record<string, readonly [number, number, number]>> = {
  Be: [-8.17, -4.14, 2],
  Mg: [-6.86, -2.99, 2],
  Zn: [-8.4, -3.38, 2],
  Cd: [-7.7, -3.38, 2],
  Hg: [-7.68, -3.48, 2],
  B: [-12.54, -6.64, 3],
  Al: [-10.11, -4.86, 3],
  Ga: [-11.37, -4.9, 3],
  In: [-10.12, -4.69, 3],
  Tl: [-9.92, -4.61, 3],
  C: [-17.52, -8.97, 4],
  Si: [-13.55, -6.52, 4],
  Ge: [-14.38, -6.36, 4],
  Sn: [-12.5, -5.94, 4],
  Pb: [-12.07, -5.77, 4],
  N: [-23.04, -11.47, 5],
  P: [-17.1, -8.33, 5],
  As: [-17.33, -7.91, 5],
  Sb: [-14.8, -7.24, 5],
  Bi: [-14.15, -6.97, 5],
  O: [-29.14, -14.13, 6],
  S: [-20.8, -10.27, 6],
  Se: [-20.32, -9.53, 6],
  Te: [-17.11, -8.59, 6],
  F: [-35.8, -16.99, 7],
  Cl: [-24.63, -12.31, 7],
  Br: [-23.35, -11.2, 7],
  I: [-19.42, -9.97, 7],
};

export const HARRISON_METHOD =
  "Rough estimate: Harrison's universal tight-binding parameters (Harrison, Electronic Structure and the Properties of Solids, 1980, Solid State Table): " +
  `s and p orbitals, V_llm = η ħ²/(m d²) with ħ²/m = ${HBAR2_OVER_M} eV·Å², η_ssσ = ${ETA.ssSigma}, η_spσ = ${ETA.spSigma}, η_ppσ = ${ETA.ppSigma}, η_ppπ = ${ETA.ppPi} (Froyen and Harrison, Phys. Rev. B 20, 2420 (1979)), ` +
  `on-site energies the table's Herman–Skillman term values, nearest neighbours only (pairs within ${FIRST_SHELL} times the shorter nearest-neighbour distance of the two atoms), electrons counted from the valence s and p shells; no s* orbital, so conduction bands and gaps are rough`;

const ORBITALS = 4;

export function harrisonCovers(symbols: readonly string[]): boolean {
  return symbols.length > 0 && symbols.every((s) => Object.hasOwn(TERM_VALUES, s));
}

export function harrisonElectrons(symbols: readonly string[]): number {
  return symbols.reduce((sum, s) => sum + (TERM_VALUES[s]?.[2] ?? 0), 0);
}

/** Harrison's two-centre integrals (eV) at bond length d (Å): the same for every element pair. */
export function harrisonIntegrals(d: number): TwoCentre {
  const unit = HBAR2_OVER_M / (d * d);
  const sp = ETA.spSigma * unit;
  return { ss: ETA.ssSigma * unit, spOut: sp, spIn: sp, ppSigma: ETA.ppSigma * unit, ppPi: ETA.ppPi * unit };
}

/** The nearest-neighbour bonds: pairs within FIRST_SHELL times the shorter of the two atoms' nearest distances. */
function firstShell(cell: Cell): Bond[] {
  const list = neighborList(cell.lattice, cell.positions, maxCutoff(cell.symbols));
  const nearest = cell.symbols.map(() => Infinity);
  list.r.forEach((r, p) => {
    nearest[list.i[p]!] = Math.min(nearest[list.i[p]!]!, r);
    nearest[list.j[p]!] = Math.min(nearest[list.j[p]!]!, r);
  });
  const bonds: Bond[] = [];
  list.r.forEach((r, p) => {
    const [i, j] = [list.i[p]!, list.j[p]!];
    if (r > FIRST_SHELL * Math.min(nearest[i]!, nearest[j]!)) return;
    const d: Vec3 = [list.d[3 * p]!, list.d[3 * p + 1]!, list.d[3 * p + 2]!];
    // An atom bonded to its own image (a one-atom cell) is fine: the Bloch sum adds the bond at +d and at −d.
    bonds.push({ i, j, d, block: slaterKosterBlock(harrisonIntegrals(r), d.map((x) => x / r) as Vec3, ORBITALS) });
  });
  return bonds;
}

/** H(k) of the model for k in fractional coordinates of the reciprocal lattice (real embedding, tightbinding.ts). */
export function harrisonHamiltonian(cell: Cell): (kFrac: Vec3) => number[][] {
  const missing = [...new Set(cell.symbols)].filter((s) => !Object.hasOwn(TERM_VALUES, s));
  if (missing.length) throw new InputError(`Harrison's table here has no s and p term values for ${missing.join(', ')}.`);
  const onsite = cell.symbols.map((s) => {
    const [es, ep] = TERM_VALUES[s]!;
    return [es, ep, ep, ep];
  });
  return slaterKosterHamiltonian(cell, ORBITALS, onsite, firstShell(cell));
}

/** Eigenvalues (eV, ascending, 4 per atom) at each k-point, yielding after each. */
export function harrisonBands(cell: Cell, kpoints: readonly Vec3[]): Steps<number[][]> {
  return eigenvaluesAlong(harrisonHamiltonian(cell), kpoints);
}
