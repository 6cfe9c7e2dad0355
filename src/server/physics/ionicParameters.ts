/**
 * Ionic parameter sets for ionic.ts and shellModel.ts: formal charges (and shells) and short-range pair terms
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
 * A polarisable ion of the shell model (B. G. Dick and A. W. Overhauser, Phys. Rev. 112, 90 (1958)): a core and a
 * massless shell of the given charges (summing to the ion's formal charge) tied by a harmonic spring ½k|d|².
 */
export interface Shell {
  /** e */
  core: number;
  /** e */
  shell: number;
  /** eV/Å² */
  k: number;
}

/** An ionic set whose ions may carry shells: the short-range terms act between shells where an ion has one. */
export interface ShellSet extends IonicSet {
  shells: Readonly<Record<string, Shell>>;
}

/** A set's ions without their shells: formal charges and the same short-range terms (the approximation shells refine). */
export const asRigidIons = (set: IonicSet): IonicSet => ({
  name: `${set.name}, as rigid ions`,
  citation: set.citation,
  charges: set.charges,
  pairs: set.pairs,
});

const buck = (A: number, rho: number, C = 0): ShortRange => ({ A, rho, C, D: 0 });

/**
 * T. S. Bush, J. D. Gale, C. R. A. Catlow and P. D. Battle, "Self-consistent interatomic potentials for the simulation
 * of binary and ternary oxides", J. Mater. Chem. 4, 831 (1994): shell-model ions, Buckingham cation–O and O–O terms, no
 * cation–cation term. The numbers are those of GULP's library file bush.lib (J. D. Gale's distribution, "from T.S.Bush,
 * J.D.Gale, C.R.A.Catlow and P.D. Battle, J. Mater Chem., 4, 831-837 (1994)"; read from the copy in
 * github.com/danse-inelastic/gulp, resources/potentials/bush.lib), the file GULP's own alumina example (example1.gin)
 * uses. Listed are the ions the unit tests check; the file also has Li, Na, K, Fe³⁺, Ga, Y, La and five lanthanides.
 * Zn is not in the paper's set.
 */
export const BUSH_1994: ShellSet = {
  name: 'Buckingham shell model, Bush–Gale–Catlow–Battle 1994',
  citation: "T. S. Bush, J. D. Gale, C. R. A. Catlow and P. D. Battle, J. Mater. Chem. 4, 831 (1994), as in GULP's library bush.lib",
  charges: { O: -2, Mg: 2, Ca: 2, Sr: 2, Ba: 2, Ti: 4, Al: 3 },
  shells: {
    O: { core: 0.513, shell: -2.513, k: 20.53 },
    Mg: { core: 1.58, shell: 0.42, k: 349.95 },
    Ca: { core: 0.719, shell: 1.281, k: 34.05 },
    Sr: { core: 0.169, shell: 1.831, k: 21.53 },
    Ba: { core: 0.169, shell: 1.831, k: 34.05 },
    Ti: { core: 2.332, shell: 1.668, k: 253.6 },
    Al: { core: 0.043, shell: 2.957, k: 403.98 },
  },
  pairs: {
    'O-O': buck(25.41, 0.6937, 32.32),
    'Mg-O': buck(2457.243, 0.261),
    'Ca-O': buck(2272.741, 0.2986),
    'O-Sr': buck(1956.702, 0.3252),
    'Ba-O': buck(4818.416, 0.3067),
    'O-Ti': buck(2088.107, 0.2888),
    'Al-O': buck(2409.505, 0.2649),
  },
};

export const IONIC_SETS: readonly IonicSet[] = [...ALKALI_HALIDES, BUSH_1994];
