/**
 * Slater–Koster sp3s* tight binding of P. Vogl, H. P. Hjalmarson and J. D. Dow, "A semi-empirical tight-binding
 * theory of the electronic structure of semiconductors", J. Phys. Chem. Solids 44, 365 (1983), for the diamond
 * and zincblende elements and compounds of its Table 1. Five orbitals per atom (s, px, py, pz, s*), nearest
 * neighbours only, two-centre integrals from the table's Bloch-sum parameters, scaled as d⁻² (W. A. Harrison,
 * Electronic Structure and the Properties of Solids, 1980) from the table's bond length, so a strained or
 * distorted cell (or any supercell) is computed from its own bonds. Energies in eV; pure.
 *
 * Table 1's parameters as reproduced in R. P. Muller's public tight-binding notebooks (pytb), checked against
 * the paper: V(s,s) = 4 Vssσ, V(x,x) = 4(Vppσ + 2Vppπ)/3, V(x,y) = 4(Vppσ − Vppπ)/3, V(sa,pc) = 4Vspσ/√3.
 */
import { InputError, type Cell, type Vec3 } from './cell';
import { neighborList } from './neighbors';
import type { Steps } from '../../core/util/steps';
import { slaterKosterBlock, slaterKosterHamiltonian, type Bond, type TwoCentre } from './slaterKoster';
import { eigenvaluesAlong } from './tightbinding';

export const SP3S_METHOD =
  'sp3s* tight binding of Vogl, Hjalmarson and Dow, J. Phys. Chem. Solids 44, 365 (1983), Table 1: s, p and s* orbitals, nearest neighbours, bond-length scaling d⁻² (Harrison 1980); electrons counted from valence';

/** One row of Table 1: anion (a) and cation (c) terms, the Bloch-sum couplings, and the lattice constant (Å). */
interface Row {
  cation: string;
  anion: string;
  /** Å: the lattice constant the parameters belong to (room-temperature experimental). */
  a: number;
  // Esa Epa Esc Epc Es*a Es*c V(s,s) V(x,x) V(x,y) V(sa,pc) V(pa,sc) V(s*a,pc) V(pa,s*c)
  v: readonly [number, number, number, number, number, number, number, number, number, number, number, number, number];
}

const ROWS: readonly Row[] = [
  {
    cation: 'C',
    anion: 'C',
    a: 3.567,
    v: [-4.545, 3.84, -4.545, 3.84, 11.37, 11.37, -22.725, 3.84, 11.67, 15.2206, 15.2206, 8.2109, 8.2109],
  },
  { cation: 'Si', anion: 'Si', a: 5.431, v: [-4.2, 1.715, -4.2, 1.715, 6.685, 6.685, -8.3, 1.715, 4.575, 5.7292, 5.7292, 5.3749, 5.3749] },
  { cation: 'Ge', anion: 'Ge', a: 5.658, v: [-5.88, 1.61, -5.88, 1.61, 6.39, 6.39, -6.78, 1.61, 4.9, 5.4649, 5.4649, 5.2191, 5.2191] },
  { cation: 'Sn', anion: 'Sn', a: 6.489, v: [-5.67, 1.33, -5.67, 1.33, 5.9, 5.9, -5.67, 1.33, 4.08, 4.5116, 4.5116, 5.8939, 5.8939] },
  {
    cation: 'Si',
    anion: 'C',
    a: 4.36,
    v: [-8.4537, 2.1234, -4.8463, 4.3466, 9.6534, 9.3166, -12.4197, 3.038, 5.9216, 9.49, 9.2007, 8.7138, 4.4051],
  },
  {
    cation: 'Al',
    anion: 'P',
    a: 5.463,
    v: [-7.8466, 1.3169, -1.2534, 4.2831, 8.7069, 7.4231, -7.4535, 2.3749, 4.8378, 5.2451, 5.2775, 5.2508, 4.6388],
  },
  {
    cation: 'Al',
    anion: 'As',
    a: 5.661,
    v: [-7.5273, 0.9833, -1.1627, 3.5867, 7.4833, 6.7267, -6.6642, 1.878, 4.2919, 5.1106, 5.4965, 4.5216, 4.995],
  },
  {
    cation: 'Al',
    anion: 'Sb',
    a: 6.136,
    v: [-6.1714, 0.9807, -2.0716, 3.0163, 6.7607, 6.1543, -5.6448, 1.7199, 3.6648, 4.9121, 4.2137, 4.3662, 3.0739],
  },
  {
    cation: 'Ga',
    anion: 'P',
    a: 5.451,
    v: [-8.1124, 1.125, -2.1976, 4.115, 8.515, 7.185, -7.4709, 2.1516, 5.1369, 4.2771, 6.319, 4.6541, 5.095],
  },
  {
    cation: 'Ga',
    anion: 'As',
    a: 5.653,
    v: [-8.3431, 1.0414, -2.6569, 3.6686, 8.5914, 6.7386, -6.4513, 1.9546, 5.0779, 4.48, 5.7839, 4.8422, 4.8077],
  },
  {
    cation: 'Ga',
    anion: 'Sb',
    a: 6.096,
    v: [-7.3207, 0.8554, -3.8993, 2.9146, 6.6354, 5.9846, -6.1567, 1.5789, 4.1285, 4.9601, 4.6675, 4.9895, 4.218],
  },
  {
    cation: 'In',
    anion: 'P',
    a: 5.869,
    v: [-8.5274, 0.8735, -1.4826, 4.0465, 8.2635, 7.0665, -5.3614, 1.8801, 4.2324, 2.2265, 5.5825, 3.4623, 4.4814],
  },
  {
    cation: 'In',
    anion: 'As',
    a: 6.058,
    v: [-9.5381, 0.9099, -2.7219, 3.7201, 7.4099, 6.7401, -5.6052, 1.8398, 4.4693, 3.0354, 5.4389, 3.3744, 3.9097],
  },
  {
    cation: 'In',
    anion: 'Sb',
    a: 6.479,
    v: [-8.0157, 0.6738, -3.4643, 2.9162, 6.453, 5.9362, -5.5193, 1.4018, 3.8761, 3.788, 4.59, 3.5666, 3.4048],
  },
  {
    cation: 'Zn',
    anion: 'Se',
    a: 5.668,
    v: [-11.8383, 1.5072, 0.0183, 5.9928, 7.5872, 8.9928, -6.2163, 3.0054, 5.9942, 3.498, 6.3191, 2.5891, 3.9533],
  },
  {
    cation: 'Zn',
    anion: 'Te',
    a: 6.103,
    v: [-9.815, 1.4834, 0.935, 5.2666, 7.0834, 8.2666, -6.5765, 2.7951, 5.467, 5.9827, 5.8199, 1.3196, 0],
  },
];

/** The compounds and elements the table covers, by their formula (cation first). */
export const SP3S_MATERIALS = ROWS.map((r) => (r.cation === r.anion ? r.cation : `${r.cation}${r.anion}`));

const ORBITALS = 5; // s, px, py, pz, s*
const VALENCE: Record<string, number> = { C: 4, Si: 4, Ge: 4, Sn: 4, Al: 3, Ga: 3, In: 3, P: 5, As: 5, Sb: 5, Zn: 2, Se: 6, Te: 6 };

/** The table row for these species, or undefined when the table does not cover them. */
export function sp3sRow(symbols: readonly string[]): Row | undefined {
  const kinds = [...new Set(symbols)];
  if (kinds.length === 1) return ROWS.find((r) => r.cation === kinds[0] && r.anion === kinds[0]);
  if (kinds.length !== 2) return undefined;
  return ROWS.find((r) => r.cation !== r.anion && kinds.includes(r.cation) && kinds.includes(r.anion));
}

export function sp3sElectrons(symbols: readonly string[]): number {
  return symbols.reduce((sum, s) => sum + (VALENCE[s] ?? 0), 0);
}

/** Two-centre integrals (eV) at the table's bond length, from its Bloch-sum parameters. */
function twoCentre(row: Row) {
  const [, , , , , , vss, vxx, vxy, vsapc, vpasc, vssapc, vpassc] = row.v;
  const sp = Math.sqrt(3) / 4;
  return {
    ss: vss / 4,
    ppSigma: (vxx + 2 * vxy) / 4,
    ppPi: (vxx - vxy) / 4,
    /** s on the anion, p on the cation, and the other way round; the same for s*. */
    sApC: sp * vsapc,
    sCpA: sp * vpasc,
    xApC: sp * vssapc,
    xCpA: sp * vpassc,
  };
}

type Couplings = ReturnType<typeof twoCentre>;

/** The two-centre integrals of a bond from i to j, i the anion when `fromAnion`, scaled by `scale`. */
function bondIntegrals(c: Couplings, fromAnion: boolean, scale: number): TwoCentre {
  return {
    ss: c.ss * scale,
    spOut: (fromAnion ? c.sApC : c.sCpA) * scale, // s on i, p on j
    spIn: (fromAnion ? c.sCpA : c.sApC) * scale, // p on i, s on j
    ppSigma: c.ppSigma * scale,
    ppPi: c.ppPi * scale,
    xpOut: (fromAnion ? c.xApC : c.xCpA) * scale,
    xpIn: (fromAnion ? c.xCpA : c.xApC) * scale,
  };
}

/**
 * H(k) of the model for k in fractional coordinates of the reciprocal lattice, as the real symmetric embedding
 * of the complex Hermitian matrix (see tightbinding.ts). Bonds are the anion–cation (or, in an element, any)
 * pairs closer than 1.25 times the table's bond length: the first shell, never the second (at 1.63).
 */
export function sp3sHamiltonian(cell: Cell): (kFrac: Vec3) => number[][] {
  const row = sp3sRow(cell.symbols);
  if (!row) throw new InputError(`The sp3s* table covers ${SP3S_MATERIALS.join(', ')}; not ${[...new Set(cell.symbols)].join('-')}.`);
  const couplings = twoCentre(row);
  const bond = (row.a * Math.sqrt(3)) / 4;
  const list = neighborList(cell.lattice, cell.positions, 1.25 * bond);
  const isAnion = cell.symbols.map((s) => s === row.anion);
  const onsite = cell.symbols.map((_, i) =>
    isAnion[i] ? [row.v[0], row.v[1], row.v[1], row.v[1], row.v[4]] : [row.v[2], row.v[3], row.v[3], row.v[3], row.v[5]],
  );
  const bonds: Bond[] = [];
  list.i.forEach((i, p) => {
    const j = list.j[p]!;
    if (row.cation !== row.anion && isAnion[i] === isAnion[j]) return;
    if (i === j) throw new InputError('The cell is too small: an atom is bonded to its own periodic image. Use a larger cell.');
    const d: Vec3 = [list.d[3 * p]!, list.d[3 * p + 1]!, list.d[3 * p + 2]!];
    const r = list.r[p]!;
    const integrals = bondIntegrals(couplings, isAnion[i]!, (bond / r) ** 2);
    bonds.push({ i, j, d, block: slaterKosterBlock(integrals, d.map((x) => x / r) as Vec3, ORBITALS) });
  });
  return slaterKosterHamiltonian(cell, ORBITALS, onsite, bonds);
}

/** Eigenvalues (eV, ascending, 5 per atom) at each k-point, yielding after each. */
export function sp3sBands(cell: Cell, kpoints: readonly Vec3[]): Steps<number[][]> {
  return eigenvaluesAlong(sp3sHamiltonian(cell), kpoints);
}
