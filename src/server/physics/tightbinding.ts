/**
 * The reference electronic structure: orthogonal tight binding with one s orbital per atom. Pure; the band
 * structure is a generator that yields after every k-point (see core/util/steps.ts).
 *
 * H(k)_ij = ε_i δ_ij − Σ_R t(|d|)·exp(i k·d), d = r_j + R − r_i over the periodic images R within the cutoff.
 * H is complex Hermitian, H = A + iB; ml-matrix diagonalises real symmetric matrices only, so it is given the
 * real symmetric [[A, −B], [B, A]], whose eigenvalues are those of H, each twice: every other one is kept.
 */
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { combine, dot, reciprocal, type Cell, type Vec3 } from './cell';
import { neighborList } from './neighbors';
import type { Steps } from '../../core/util/steps';
import { bondLength, covalentRadius, maxCutoff, pairTable, switching } from './species';

/** t0 (eV) and q of t(r) = t0·exp(−q(r/r0 − 1))·S(r), S the switching function of species.ts. */
export const HOPPING = 2;
export const HOPPING_DECAY = 3;
/** eV·Å: ε = −ONSITE_SCALE / r_cov, half the Coulomb energy e²/4πε₀ at the covalent radius. */
export const ONSITE_SCALE = 7.2;
/** One electron per s orbital: the bands are half filled. */
export const ELECTRONS_PER_ATOM = 1;

export function onsiteEnergy(symbol: string): number {
  return -ONSITE_SCALE / covalentRadius(symbol);
}

/** The hopping t(r) between these two elements (eV, positive: H_ij = −t). */
export function hopping(x: string, y: string): (r: number) => number {
  const r0 = bondLength(x, y);
  return (r) => HOPPING * Math.exp(-HOPPING_DECAY * (r / r0 - 1)) * switching(r, r0)[0];
}

/**
 * H(k) of the model for k in fractional coordinates of the reciprocal lattice, as the real symmetric
 * embedding [[A, −B], [B, A]] of the complex Hermitian A + iB: twice the size, each eigenvalue twice.
 * The neighbour list and hoppings are computed once, for every k asked.
 */
export function blochHamiltonian(cell: Cell): (kFrac: Vec3) => number[][] {
  const n = cell.positions.length;
  const list = neighborList(cell.lattice, cell.positions, maxCutoff(cell.symbols));
  const t = pairTable(cell.symbols, hopping);
  const amplitude = list.r.map((r, p) => t(list.i[p]!, list.j[p]!)(r));
  const onsite = cell.symbols.map(onsiteEnergy);
  const recip = reciprocal(cell.lattice);
  return (f) => {
    const k = combine(f, recip);
    const m = Array.from({ length: 2 * n }, () => new Array<number>(2 * n).fill(0));
    onsite.forEach((e, i) => {
      m[i]![i] = e;
      m[n + i]![n + i] = e;
    });
    for (let p = 0; p < list.count; p++) {
      const i = list.i[p]!;
      const j = list.j[p]!;
      const phase = dot(k, [list.d[3 * p]!, list.d[3 * p + 1]!, list.d[3 * p + 2]!]);
      const re = -amplitude[p]! * Math.cos(phase);
      const im = -amplitude[p]! * Math.sin(phase);
      if (i === j) {
        // The image at +R and its partner at −R (listed once): 2·re on the diagonal, the imaginary parts cancel.
        m[i]![i]! += 2 * re;
        m[n + i]![n + i]! += 2 * re;
        continue;
      }
      addHermitian(m, n, i, j, re, im);
    }
    return m;
  };
}

/** Eigenvalues (eV, ascending) at each k-point (fractional coordinates of the reciprocal lattice). */
export function bands(cell: Cell, kpoints: readonly Vec3[]): Steps<number[][]> {
  return eigenvaluesAlong(blochHamiltonian(cell), kpoints);
}

/** The eigenvalues of an embedded Hermitian H(k) at each k-point, yielding after each (any band model's loop). */
export function* eigenvaluesAlong(hamiltonian: (kFrac: Vec3) => number[][], kpoints: readonly Vec3[]): Steps<number[][]> {
  const eigenvalues: number[][] = [];
  for (const f of kpoints) {
    eigenvalues.push(embeddedEigenvalues(hamiltonian(f)));
    yield;
  }
  return eigenvalues;
}

/** The eigenvalues (ascending) of the Hermitian matrix whose real embedding [[A, −B], [B, A]] this is: each once. */
export function embeddedEigenvalues(m: number[][]): number[] {
  const values = new EigenvalueDecomposition(new Matrix(m), { assumeSymmetric: true }).realEigenvalues.sort((x, y) => x - y);
  return values.filter((_, index) => index % 2 === 0);
}

/** H_ij += re + i·im and H_ji += re − i·im, written into the real embedding [[A, −B], [B, A]]. */
export function addHermitian(m: number[][], n: number, i: number, j: number, re: number, im: number): void {
  m[i]![j]! += re;
  m[j]![i]! += re;
  m[n + i]![n + j]! += re;
  m[n + j]![n + i]! += re;
  m[n + i]![j]! += im; // B_ij
  m[n + j]![i]! -= im; // B_ji = −B_ij
  m[i]![n + j]! -= im; // −B_ij
  m[j]![n + i]! += im; // −B_ji
}

export interface BandEdges {
  nelectrons: number;
  /** eV: mid-gap for an insulator; for a metal, the level that the path's k-points, filled as a sample of the zone, place it at. */
  fermiLevel: number;
  vbm: number | null;
  cbm: number | null;
  bandGap: number;
  directGap: boolean;
  isMetal: boolean;
}

/**
 * Band edges with two electrons (spin) per band: with nelectrons/2 bands full there is a gap if the lowest
 * empty band lies wholly above the highest full one along the path; half a band full (odd count) is a metal.
 */
export function bandEdges(eigenvalues: number[][], nelectrons: number): BandEdges {
  const full = nelectrons / 2;
  if (Number.isInteger(full) && full > 0 && full < (eigenvalues[0]?.length ?? 0)) {
    const vbm = Math.max(...eigenvalues.map((e) => e[full - 1]!));
    const cbm = Math.min(...eigenvalues.map((e) => e[full]!));
    if (cbm > vbm) {
      const directGap = Math.min(...eigenvalues.map((e) => e[full]! - e[full - 1]!)) - (cbm - vbm) < 1e-6;
      return { nelectrons, fermiLevel: (vbm + cbm) / 2, vbm, cbm, bandGap: cbm - vbm, directGap, isMetal: false };
    }
  }
  const states = eigenvalues.flat().sort((x, y) => x - y);
  const fermiLevel = states[Math.max(0, Math.ceil(eigenvalues.length * full) - 1)]!;
  return { nelectrons, fermiLevel, vbm: null, cbm: null, bandGap: 0, directGap: false, isMetal: true };
}
