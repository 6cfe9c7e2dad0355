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
  /** What docs/physics.md's table and the answer's method call it. */
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

/**
 * Tosi and Fumi's basic radii σ (Å), one per ion whatever the salt, and the ion's outer-shell electron count n for
 * Pauling's factor (Li⁺ has helium's two, every other ion here eight).
 */
const BASIC_RADII: Readonly<Record<string, number>> = {
  Li: 0.816,
  Na: 1.17,
  K: 1.463,
  Rb: 1.587,
  Cs: 1.72,
  F: 1.179,
  Cl: 1.585,
  Br: 1.716,
  I: 1.907,
};
const outerElectrons = (ion: string): number => (ion === 'Li' ? 2 : 8);

/** ++, +−, −− */
type Triple = readonly [number, number, number];
/** Cation, anion, the salt's ρ (Å), Mayer's C (10⁻⁶⁰ erg·cm⁶) and D (10⁻⁷⁶ erg·cm⁸) for that salt. */
type Salt = readonly [string, string, number, Triple, Triple];

/**
 * Every rock-salt alkali halide Tosi and Fumi parametrised: the sixteen of Li, Na, K and Rb with F, Cl, Br and I, and
 * CsF (rock salt too). CsCl, CsBr and CsI have the CsCl structure and no ρ in the paper, so they are not here. ρ and the
 * basic radii are the paper's Tables; C and D are Mayer's (1933) per salt: his ++ and −− terms depend on the partner ion
 * through the polarisabilities he used. The numbers were read from a public transcription of both papers (the
 * TosiFumiParams class of N. Jackson and G. Sivaraman, a molten-salt code on GitHub), checked against the NaCl set of an
 * independent OpenMM implementation (Lewis, Singer and Woodcock's Table, J. Chem. Soc. Faraday Trans. 2 71, 301 (1975))
 * and against Pauling's n (Li⁺ 2); the unit tests relax every salt against its measured lattice constant.
 */
const SALTS: readonly Salt[] = [
  ['Li', 'F', 0.299, [0.073, 0.8, 14.5], [0.03, 0.6, 17]],
  ['Li', 'Cl', 0.342, [0.073, 2, 111], [0.03, 2.4, 223]],
  ['Li', 'Br', 0.353, [0.073, 2.5, 185], [0.03, 3.3, 423]],
  ['Li', 'I', 0.43, [0.073, 3.3, 378], [0.03, 5.3, 1060]],
  ['Na', 'F', 0.33, [1.68, 4.5, 16.5], [0.8, 3.8, 20]],
  ['Na', 'Cl', 0.317, [1.68, 11.2, 116], [0.8, 13.9, 233]],
  ['Na', 'Br', 0.34, [1.68, 14, 196], [0.8, 19, 450]],
  ['Na', 'I', 0.386, [1.68, 19.1, 392], [0.8, 31, 1100]],
  ['K', 'F', 0.338, [24.3, 19.5, 18.6], [24, 21, 22]],
  ['K', 'Cl', 0.337, [24.3, 48, 124.5], [24, 73, 250]],
  ['K', 'Br', 0.335, [24.3, 60, 206], [24, 99, 470]],
  ['K', 'I', 0.355, [24.3, 82, 403], [24, 156, 1130]],
  ['Rb', 'F', 0.328, [59.4, 31, 18.9], [82, 40, 23]],
  ['Rb', 'Cl', 0.318, [59.4, 79, 130], [82, 134, 260]],
  ['Rb', 'Br', 0.335, [59.4, 99, 215], [82, 180, 490]],
  ['Rb', 'I', 0.337, [59.4, 135, 428], [82, 280, 1200]],
  ['Cs', 'F', 0.282, [152, 52, 19.1], [278, 78, 23]],
];

/**
 * Tosi and Fumi's form φ_ij = c_ij b e^((σ_i + σ_j − r)/ρ) − C_ij/r⁶ − D_ij/r⁸ as A e^(−r/ρ): b = 0.338·10⁻¹² erg for
 * every salt, Pauling's c_ij = 1 + z_i/n_i + z_j/n_j (for eight-electron ions 1.25, 1, 0.75 for ++, +−, −−; Li⁺ 2 and
 * 1.375 for ++ and +−).
 */
function tosiFumi([cation, anion, rho, C, D]: Salt): IonicSet {
  const b = 0.338 * PER_1E12_ERG;
  const charges = { [cation]: 1, [anion]: -1 };
  const term = (x: string, y: string, k: number): [string, ShortRange] => [
    [x, y].sort().join('-'),
    {
      A: (1 + charges[x]! / outerElectrons(x) + charges[y]! / outerElectrons(y)) * b * Math.exp((BASIC_RADII[x]! + BASIC_RADII[y]!) / rho),
      rho,
      C: C[k]! * MAYER,
      D: D[k]! * MAYER,
    },
  ];
  return {
    name: 'Born–Mayer–Huggins, Tosi–Fumi 1964',
    citation: TOSI_FUMI,
    charges,
    pairs: Object.fromEntries([term(cation, cation, 0), term(cation, anion, 1), term(anion, anion, 2)]),
  };
}

const TOSI_FUMI =
  'M. P. Tosi and F. G. Fumi, J. Phys. Chem. Solids 25, 45 (1964), Tables 1 and 2 (ρ, σ), van der Waals C and D of J. E. Mayer, J. Chem. Phys. 1, 270 (1933)';

/** Tosi and Fumi (1964): one set per salt, each with its own ρ and Mayer's C and D for that salt. */
export const ALKALI_HALIDES: readonly IonicSet[] = SALTS.map(tosiFumi);

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

/** eV per kJ/mol (CODATA: 1 eV = 96.485332 kJ/mol). */
const PER_KJ_MOL = 1 / 96.485332;

/**
 * Matsui and Akaogi's ions: a radius-like a (Å), a softness b (Å) and a dispersion c ((kJ/mol)^½ Å³), combined per pair
 * as φ_ij = f₀ (b_i + b_j) e^((a_i + a_j − r)/(b_i + b_j)) − c_i c_j/r⁶ with f₀ = 4.184 kJ mol⁻¹ Å⁻¹.
 */
const MATSUI_IONS: Readonly<Record<string, readonly [number, number, number]>> = {
  Ti: [1.1823, 0.077, 22.5],
  O: [1.6339, 0.117, 54.0],
};

function matsuiPair(x: string, y: string): [string, ShortRange] {
  const [ax, bx, cx] = MATSUI_IONS[x]!;
  const [ay, by, cy] = MATSUI_IONS[y]!;
  const rho = bx + by;
  const A = 4.184 * rho * Math.exp((ax + ay) / rho) * PER_KJ_MOL;
  return [[x, y].sort().join('-'), { A, rho, C: cx * cy * PER_KJ_MOL, D: 0 }];
}

/**
 * M. Matsui and M. Akaogi, "Molecular dynamics simulation of the structural and physical properties of the four
 * polymorphs of TiO2", Mol. Simul. 6, 239 (1991): rigid ions with partial charges Ti +2.196, O −1.098 and the
 * Buckingham terms above, fitted to the structures of rutile, anatase and brookite and the measured elastic constants of
 * rutile. The per-ion a, b, c and the charges were read from github.com/trollchu/TiO2model (main_tio2.cpp at commit
 * 22f70065b7c7e4f33b04e1c8ba67667e0eed87c5, inputs/TiO2_Rutile.dat at ee20babd00d3b1e6c550250ca5002688c493c94d); the
 * same file's eV form (Ti–Ti 31120.1 eV, 0.154 Å, 5.25 eV·Å⁶; Ti–O 16957.53, 0.194, 12.59; O–O 11782.76, 0.234, 30.22),
 * the one LAMMPS inputs quote, agrees with these to 2·10⁻⁵ (the unit tests check it). Chosen for Ti and O alone, where
 * Bush et al.'s Ti–O gives rutile no stable shells.
 */
export const MATSUI_AKAOGI: IonicSet = {
  name: 'Buckingham, Matsui–Akaogi 1991',
  citation: 'M. Matsui and M. Akaogi, Mol. Simul. 6, 239 (1991)',
  charges: { Ti: 2.196, O: -1.098 },
  pairs: Object.fromEntries([matsuiPair('Ti', 'Ti'), matsuiPair('O', 'Ti'), matsuiPair('O', 'O')]),
};

/**
 * G. V. Lewis and C. R. A. Catlow, "Potential models for ionic oxides", J. Phys. C 18, 1149 (1985), Table 1 with the
 * O–O term and O shell of Catlow's oxygen: rigid Zn²⁺, O²⁻ a core +0.86902 and shell −2.86902 on a 74.92 eV/Å² spring,
 * Zn–O A = 700.3 eV, ρ = 0.3372 Å, and O–O 22764 eV, 0.149 Å, 27.879 eV·Å⁶. The numbers are those of GULP's library
 * lewis.lib ("Taken from Tables 1 and 2 of Lewis and Catlow"), read from the copy in github.com/materialsproject/pymatgen
 * (cmd_line/gulp/Libraries/lewis.lib at commit 2689918b1c7e4b4ef7e68847be6c7c24546d4592). Only Zn is listed (Bush et
 * al.'s set has no Zn); the table's other cations share ρ fitted to the rock-salt oxides.
 */
export const LEWIS_CATLOW_1985: ShellSet = {
  name: 'Buckingham shell model, Lewis–Catlow 1985',
  citation: "G. V. Lewis and C. R. A. Catlow, J. Phys. C: Solid State Phys. 18, 1149 (1985), as in GULP's library lewis.lib",
  charges: { O: -2, Zn: 2 },
  shells: { O: { core: 0.86902, shell: -2.86902, k: 74.92 } },
  pairs: {
    'O-O': buck(22764.0, 0.149, 27.879),
    'O-Zn': buck(700.3, 0.3372),
  },
};

/** In order of preference: a structure takes the first set naming all its elements (ionic.ts). */
export const IONIC_SETS: readonly IonicSet[] = [...ALKALI_HALIDES, MATSUI_AKAOGI, BUSH_1994, LEWIS_CATLOW_1985];
