/**
 * Rigid-ion parameter sets for ionic.ts: formal charges and short-range pair terms
 * φ(r) = A e^(−r/ρ) − C/r⁶ − D/r⁸ (eV, Å). A set applies to a structure whose elements it all names. Pure data.
 */

export interface ShortRange {
  /** eV */
  A: number;
  /** Å */
  rho: number;
  /** eV·Å⁶ */
  C: number;
  /** eV·Å⁸ */
  D: number;
}

export interface IonicSet {
  /** What the README table and the answer's method call it. */
  name: string;
  citation: string;
  /** e */
  charges: Readonly<Record<string, number>>;
  /** By the two symbols in alphabetical order joined with '-'; a pair not listed has no short-range term. */
  pairs: Readonly<Record<string, ShortRange>>;
}

/** eV per 10⁻¹² erg (Tosi and Fumi's unit of b). */
const PER_1E12_ERG = 0.62415091;
/** eV·Å⁶ per 10⁻⁶⁰ erg·cm⁶ and eV·Å⁸ per 10⁻⁷⁶ erg·cm⁸ (Mayer's units of C and D): the same factor. */
const MAYER = 0.62415091;

interface BornMayerHuggins {
  /** Å: the salt's hardness parameter. */
  rho: number;
  /** Å: the cation's and the anion's basic radii. */
  sigma: [number, number];
  /** Mayer's van der Waals coefficients, ++ +− −−, in his units. */
  C: [number, number, number];
  D: [number, number, number];
}

/**
 * Tosi and Fumi's form φ_ij = c_ij b e^((σ_i + σ_j − r)/ρ) − C_ij/r⁶ − D_ij/r⁸ as A e^(−r/ρ): b = 0.338·10⁻¹² erg for
 * every salt, Pauling's c_ij = 1 + z_i/n_i + z_j/n_j (1.25, 1, 0.75 for ++, +−, −− with eight outer electrons).
 */
function tosiFumi(cation: string, anion: string, p: BornMayerHuggins): Record<string, ShortRange> {
  const b = 0.338 * PER_1E12_ERG;
  const [sp, sm] = p.sigma;
  const term = (c: number, sigma: number, k: number): ShortRange => ({
    A: c * b * Math.exp(sigma / p.rho),
    rho: p.rho,
    C: p.C[k] * MAYER,
    D: p.D[k] * MAYER,
  });
  const key = (x: string, y: string): string => [x, y].sort().join('-');
  return {
    [key(cation, cation)]: term(1.25, 2 * sp, 0),
    [key(cation, anion)]: term(1, sp + sm, 1),
    [key(anion, anion)]: term(0.75, 2 * sm, 2),
  };
}

const TOSI_FUMI =
  'M. P. Tosi and F. G. Fumi, J. Phys. Chem. Solids 25, 45 (1964), Tables 1 and 2 (ρ, σ), van der Waals C and D of J. E. Mayer, J. Chem. Phys. 1, 270 (1933)';

/** Tosi and Fumi (1964): one set per salt, each with its own ρ and Mayer's C and D for that salt. */
export const ALKALI_HALIDES: readonly IonicSet[] = [
  {
    name: 'Born–Mayer–Huggins, Tosi–Fumi 1964',
    citation: TOSI_FUMI,
    charges: { Na: 1, Cl: -1 },
    pairs: tosiFumi('Na', 'Cl', { rho: 0.317, sigma: [1.17, 1.585], C: [1.68, 11.2, 116], D: [0.8, 13.9, 233] }),
  },
  {
    name: 'Born–Mayer–Huggins, Tosi–Fumi 1964',
    citation: TOSI_FUMI,
    charges: { K: 1, Cl: -1 },
    pairs: tosiFumi('K', 'Cl', { rho: 0.337, sigma: [1.463, 1.585], C: [24.3, 48, 124.5], D: [24, 73, 250] }),
  },
];

/**
 * T. S. Bush, J. D. Gale, C. R. A. Catlow and P. D. Battle, "Self-consistent
 * interatomic potentials for the simulation of binary and ternary oxides", J. Mater. Chem. 4, 831 (1994), Table 1: formal
 * charges, Buckingham cation–O and O–O terms, no cation–cation term. The paper's oxygen is a shell (core +0.513, shell
 * −2.513, k = 20.53 eV/Å²); here it is a rigid ion of −2, which is the shell model itself wherever every ion sits on a
 * centre of inversion (rock salt, cubic perovskite) and an approximation elsewhere. Only the cations whose parameters the
 * unit tests check against the paper's fitted crystals are listed.
 */
export const BUSH_1994: IonicSet = {
  name: 'Buckingham, Bush–Gale–Catlow–Battle 1994',
  citation: 'T. S. Bush, J. D. Gale, C. R. A. Catlow and P. D. Battle, J. Mater. Chem. 4, 831 (1994), Table 1, rigid ions',
  charges: { O: -2, Mg: 2, Ca: 2, Sr: 2, Ba: 2, Ti: 4 },
  pairs: {
    'O-O': { A: 25.41, rho: 0.6937, C: 32.32, D: 0 },
    'Mg-O': { A: 2457.243, rho: 0.261, C: 0, D: 0 },
    'Ca-O': { A: 2272.741, rho: 0.2986, C: 0, D: 0 },
    'O-Sr': { A: 1956.702, rho: 0.3252, C: 0, D: 0 },
    'Ba-O': { A: 4818.416, rho: 0.3067, C: 0, D: 0 },
    'O-Ti': { A: 4590.7279, rho: 0.261, C: 0, D: 0 },
  },
};

export const IONIC_SETS: readonly IonicSet[] = [...ALKALI_HALIDES, BUSH_1994];
