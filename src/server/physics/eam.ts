/**
 * The embedded-atom model of X. W. Zhou, R. A. Johnson and H. N. G. Wadley, "Misfit-energy-increasing dislocations
 * in vapor-deposited CoFe/NiFe multilayers", Phys. Rev. B 69, 144113 (2004), for Cu, Ag, Au, Ni, Pd, Pt, Al, Pb,
 * Fe, Mo, Ta, W, Mg, Co, Ti, Zr and their alloys, with the parameters of eamParameters.ts. Energy in eV, forces
 * in eV/Å, the virial ∂E/∂ε (eV) as potential.ts defines it. Pure.
 *
 *   E = Σ_i F_i(ρ_i) + Σ_{i<j} φ_ij(r_ij),   ρ_i = Σ_{j≠i} f_j(r_ij)
 *   f(r) = fe exp[−β1(r/re − 1)] / [1 + (r/re − λ1)^20]
 *   φ(r) = A exp[−α(r/re − 1)] / [1 + (r/re − κ)^20] − B exp[−β(r/re − 1)] / [1 + (r/re − λ)^20]
 *   φ_ab(r) = ½ [(f_b/f_a) φ_aa + (f_a/f_b) φ_bb]   (the paper's alloy rule)
 *   F(ρ): the three branches below ρn, between ρn and ρ0, above ρ0 (eamParameters.ts),
 * as LAMMPS's tools/eam_database/create.f evaluates them.
 *
 * Cutoff: LAMMPS's tabulation ends at rc = (√10/2)·√2·re = √5·re of the largest re present; the functions are
 * evaluated analytically (no table) and multiplied by a quintic switch from 2.1·re to rc. The window lies between
 * the 2·re and √5·re neighbour shells of fcc, bcc and ideal hcp, where f and φ have fallen below 10⁻³ of their
 * values at re (10⁻⁴ for fcc, 10⁻⁷ for bcc). A hard cut would not do: the √5·re shell of fcc and ideal hcp
 * sits exactly on rc at equilibrium, so E(V) would jump there (finite-difference bulk moduli come out up to 16 times
 * too large) and relaxed hcp cells would stick to the jump. With the switch, a, Ec and B of the cubic metals equal
 * those of the untruncated functions to five digits; hcp a to 0.02 % and B to 0.5 %.
 */
import { InputError, type Cell, type Vec3 } from './cell';
import { neighborList, type NeighborList } from './neighbors';
import { addPairTerm, type Evaluation } from './potential';
import { ZHOU_2004, type ZhouElement } from './eamParameters';

export const EAM_ELEMENTS: readonly string[] = Object.keys(ZHOU_2004);

export const EAM_METHOD =
  'Embedded-atom model of Zhou, Johnson and Wadley, Phys. Rev. B 69, 144113 (2004), with the parameters of LAMMPS tools/eam_database';

/** Multiples of the largest re present: the switch starts at SWITCH_START·re and ends at the cutoff CUTOFF·re. */
export const SWITCH_START = 2.1;
export const CUTOFF = Math.sqrt(5);

export function eamCovers(symbols: readonly string[]): boolean {
  return symbols.length > 0 && symbols.every((s) => Object.hasOwn(ZHOU_2004, s));
}

/** A value and its derivative over r (or ρ). */
type Valued = [number, number];

/** c·exp[−p(r/re − 1)] / [1 + (r/re − q)^20] and its derivative. */
function decay(r: number, re: number, c: number, p: number, q: number): Valued {
  const x = r / re;
  const e = c * Math.exp(-p * (x - 1));
  const s = (x - q) ** 19;
  const den = 1 + s * (x - q);
  const value = e / den;
  return [value, (-p / re) * value - (e * 20 * s) / (re * den * den)];
}

/** The electron density an atom of this element gives at distance r. */
export function density(el: ZhouElement, r: number): Valued {
  return decay(r, el.re, el.fe, el.beta1, el.lambda1);
}

/** The element's own pair potential φ_aa. */
export function pairPotential(el: ZhouElement, r: number): Valued {
  const [a, da] = decay(r, el.re, el.A, el.alpha, el.kappa);
  const [b, db] = decay(r, el.re, el.B, el.beta, el.lambda);
  return [a - b, da - db];
}

/** φ_ab = ½[(f_b/f_a)φ_aa + (f_a/f_b)φ_bb], and its derivative through u = f_b/f_a. */
export function alloyPair(a: ZhouElement, b: ZhouElement, r: number): Valued {
  if (a === b) return pairPotential(a, r);
  const [fa, dfa] = density(a, r);
  const [fb, dfb] = density(b, r);
  const [pa, dpa] = pairPotential(a, r);
  const [pb, dpb] = pairPotential(b, r);
  const u = fb / fa;
  const du = u * (dfb / fb - dfa / fa);
  return [0.5 * (u * pa + pb / u), 0.5 * (du * pa + u * dpa - (du / (u * u)) * pb + dpb / u)];
}

/** Σ c[i] t^i for i = 0..3 and its derivative over t. */
const cubic = (c: readonly number[], t: number): Valued => [
  c[0]! + t * (c[1]! + t * (c[2]! + t * c[3]!)),
  c[1]! + t * (2 * c[2]! + 3 * t * c[3]!),
];

/** The embedding energy F(ρ) and F′(ρ), branch by branch as create.f's embed. */
export function embedding(el: ZhouElement, rho: number): Valued {
  const rhoIn = el.rhoLow * el.rhoe;
  if (rho < rhoIn) {
    const [v, d] = cubic(el.Fn, rho / rhoIn - 1);
    return [v, d / rhoIn];
  }
  if (rho < el.rhoHigh * el.rhoe) {
    const c = [el.F[0], el.F[1], el.F[2], rho < el.rhoe ? el.F[3] : el.F3above];
    const [v, d] = cubic(c, rho / el.rhoe - 1);
    return [v, d / el.rhoe];
  }
  const x = rho / el.rhos;
  const xe = x ** el.eta;
  const ln = Math.log(x);
  return [el.Fe * (1 - el.eta * ln) * xe, (-el.Fe * el.eta * el.eta * ln * xe) / rho];
}

/** The quintic switch S(r) (1 up to `on`, 0 from `off`) and dS/dr. */
function switching(r: number, on: number, off: number): Valued {
  const t = (r - on) / (off - on);
  if (t <= 0) return [1, 0];
  if (t >= 1) return [0, 0];
  return [1 - t * t * t * (10 - 15 * t + 6 * t * t), (-30 * t * t * (1 - t) * (1 - t)) / (off - on)];
}

/** One neighbour pair's switched functions: φ_ij, the density j gives i (f_j) and i gives j (f_i), with derivatives. */
interface PairTerms {
  phi: Valued;
  toI: Valued;
  toJ: Valued;
}

const times = ([v, d]: Valued, [s, ds]: Valued): Valued => [v * s, d * s + v * ds];

function pairTerms(a: ZhouElement, b: ZhouElement, r: number, on: number, off: number): PairTerms {
  const s = switching(r, on, off);
  return { phi: times(alloyPair(a, b, r), s), toI: times(density(b, r), s), toJ: times(density(a, r), s) };
}

/** The neighbour pairs within the cutoff, their switched functions, each atom's host density and the pair energy. */
function accumulate(cell: Cell) {
  const unknown = [...new Set(cell.symbols)].filter((s) => !Object.hasOwn(ZHOU_2004, s));
  if (unknown.length > 0) throw new InputError(`The Zhou-Johnson-Wadley EAM has no parameters for ${unknown.join(', ')}.`);
  const els = cell.symbols.map((s) => ZHOU_2004[s]!);
  const reMax = Math.max(...els.map((e) => e.re));
  const list = neighborList(cell.lattice, cell.positions, CUTOFF * reMax);
  const terms: PairTerms[] = [];
  const rho = new Array<number>(els.length).fill(0);
  let pairEnergy = 0;
  for (let n = 0; n < list.count; n++) {
    const t = pairTerms(els[list.i[n]!]!, els[list.j[n]!]!, list.r[n]!, SWITCH_START * reMax, CUTOFF * reMax);
    terms.push(t);
    rho[list.i[n]!]! += t.toI[0];
    rho[list.j[n]!]! += t.toJ[0];
    pairEnergy += t.phi[0];
  }
  return { els, list, terms, rho, pairEnergy };
}

/** Each atom's host density ρ_i = Σ_j f_j(r_ij), in the model's density units. */
export function hostDensities(cell: Cell): number[] {
  return accumulate(cell).rho;
}

export function evaluateEam(cell: Cell): Evaluation {
  const { els, list, terms, rho, pairEnergy } = accumulate(cell);
  let energy = pairEnergy;
  const slope = els.map((el, i) => {
    const [e, de] = embedding(el, rho[i]!);
    energy += e;
    return de;
  });
  const { forces, virial } = pairForces(list, terms, slope, els.length);
  return { energy, forces, virial };
}

/** Each pair's dE/dr = φ′ + F′_i f′_j + F′_j f′_i, spread onto its two atoms and the virial as in potential.ts. */
function pairForces(list: NeighborList, terms: readonly PairTerms[], slope: readonly number[], atoms: number) {
  const forces: Vec3[] = Array.from({ length: atoms }, () => [0, 0, 0]);
  const virial = [0, 0, 0, 0, 0, 0];
  for (let n = 0; n < list.count; n++) {
    const i = list.i[n]!;
    const j = list.j[n]!;
    const t = terms[n]!;
    const g = (t.phi[1] + slope[i]! * t.toI[1] + slope[j]! * t.toJ[1]) / list.r[n]!;
    addPairTerm(forces, virial, list, n, g);
  }
  return { forces, virial };
}
