/**
 * The reference server's built-in data: a small table of real materials (approximate literature values) and
 * their crystal structures. Data only: the searches and calculations on it sit beside their routes (routes/).
 */
export interface Structure {
  /** Lattice vectors in Å, rows. */
  lattice: [number, number, number][];
  species: string[];
  /** Fractional coordinates, one per species entry. */
  frac: [number, number, number][];
}

export interface Material {
  jid: string;
  formula: string;
  name: string;
  elements: string[];
  spacegroup: string;
  spacegroup_number: number;
  crystal_system: string;
  /** Conventional cell lengths, Å. */
  a: number;
  c: number;
  /** Band gap, eV (0 for metals). */
  bandgap: number;
  formation_energy_per_atom: number;
  bulk_modulus: number;
  shear_modulus: number;
  structure?: Structure;
}

const FCC: [number, number, number][] = [
  [0, 0, 0],
  [0, 0.5, 0.5],
  [0.5, 0, 0.5],
  [0.5, 0.5, 0],
];
const shift = (points: [number, number, number][], d: [number, number, number]): [number, number, number][] =>
  points.map((p) => [(p[0] + d[0]) % 1, (p[1] + d[1]) % 1, (p[2] + d[2]) % 1]);
const cubic = (a: number): [number, number, number][] => [
  [a, 0, 0],
  [0, a, 0],
  [0, 0, a],
];

function twoSites(a: number, x: string, y: string, offset: [number, number, number]): Structure {
  return { lattice: cubic(a), species: [...FCC.map(() => x), ...FCC.map(() => y)], frac: [...FCC, ...shift(FCC, offset)] };
}

/** Rutile MO2 (P4₂/mnm), fractional: cations at (0, 0, 0) and (½, ½, ½), anions at ±(u, u, 0) and (½ ± u, ½ ∓ u, ½). */
export const rutileSites = (u: number): [number, number, number][] => [
  [0, 0, 0],
  [0.5, 0.5, 0.5],
  [u, u, 0],
  [1 - u, 1 - u, 0],
  [0.5 + u, 0.5 - u, 0.5],
  [0.5 - u, 0.5 + u, 0.5],
];

function rutile(a: number, c: number, u: number): Structure {
  return {
    lattice: [
      [a, 0, 0],
      [0, a, 0],
      [0, 0, c],
    ],
    species: ['Ti', 'Ti', 'O', 'O', 'O', 'O'],
    frac: rutileSites(u),
  };
}

export const MATERIALS: readonly Material[] = [
  {
    jid: 'JVASP-1002',
    formula: 'Si',
    name: 'silicon',
    elements: ['Si'],
    spacegroup: 'Fd-3m',
    spacegroup_number: 227,
    crystal_system: 'cubic',
    a: 5.431,
    c: 5.431,
    bandgap: 1.12,
    formation_energy_per_atom: 0,
    bulk_modulus: 98,
    shear_modulus: 51,
    structure: twoSites(5.431, 'Si', 'Si', [0.25, 0.25, 0.25]),
  },
  {
    jid: 'JVASP-91',
    formula: 'C',
    name: 'diamond',
    elements: ['C'],
    spacegroup: 'Fd-3m',
    spacegroup_number: 227,
    crystal_system: 'cubic',
    a: 3.567,
    c: 3.567,
    bandgap: 5.47,
    formation_energy_per_atom: 0.02,
    bulk_modulus: 443,
    shear_modulus: 535,
    structure: twoSites(3.567, 'C', 'C', [0.25, 0.25, 0.25]),
  },
  {
    jid: 'JVASP-1174',
    formula: 'GaAs',
    name: 'gallium arsenide',
    elements: ['As', 'Ga'],
    spacegroup: 'F-43m',
    spacegroup_number: 216,
    crystal_system: 'cubic',
    a: 5.653,
    c: 5.653,
    bandgap: 1.42,
    formation_energy_per_atom: -0.37,
    bulk_modulus: 75,
    shear_modulus: 33,
    structure: twoSites(5.653, 'Ga', 'As', [0.25, 0.25, 0.25]),
  },
  {
    jid: 'JVASP-23862',
    formula: 'NaCl',
    name: 'rock salt',
    elements: ['Cl', 'Na'],
    spacegroup: 'Fm-3m',
    spacegroup_number: 225,
    crystal_system: 'cubic',
    a: 5.64,
    c: 5.64,
    bandgap: 8.5,
    formation_energy_per_atom: -2.13,
    bulk_modulus: 24,
    shear_modulus: 15,
    structure: twoSites(5.64, 'Na', 'Cl', [0.5, 0, 0]),
  },
  {
    jid: 'JVASP-116',
    formula: 'MgO',
    name: 'periclase',
    elements: ['Mg', 'O'],
    spacegroup: 'Fm-3m',
    spacegroup_number: 225,
    crystal_system: 'cubic',
    a: 4.212,
    c: 4.212,
    bandgap: 7.8,
    formation_energy_per_atom: -3.12,
    bulk_modulus: 160,
    shear_modulus: 130,
    structure: twoSites(4.212, 'Mg', 'O', [0.5, 0, 0]),
  },
  {
    jid: 'JVASP-104',
    formula: 'TiO2',
    name: 'rutile',
    elements: ['O', 'Ti'],
    spacegroup: 'P4_2/mnm',
    spacegroup_number: 136,
    crystal_system: 'tetragonal',
    a: 4.594,
    c: 2.959,
    bandgap: 3.0,
    formation_energy_per_atom: -3.26,
    bulk_modulus: 211,
    shear_modulus: 112,
    structure: rutile(4.594, 2.959, 0.305),
  },
  {
    jid: 'JVASP-32',
    formula: 'Al2O3',
    name: 'corundum',
    elements: ['Al', 'O'],
    spacegroup: 'R-3c',
    spacegroup_number: 167,
    crystal_system: 'trigonal',
    a: 4.759,
    c: 12.991,
    bandgap: 8.8,
    formation_energy_per_atom: -3.47,
    bulk_modulus: 252,
    shear_modulus: 163,
  },
  {
    jid: 'JVASP-867',
    formula: 'Cu',
    name: 'copper',
    elements: ['Cu'],
    spacegroup: 'Fm-3m',
    spacegroup_number: 225,
    crystal_system: 'cubic',
    a: 3.615,
    c: 3.615,
    bandgap: 0,
    formation_energy_per_atom: 0,
    bulk_modulus: 140,
    shear_modulus: 48,
    structure: { lattice: cubic(3.615), species: FCC.map(() => 'Cu'), frac: FCC },
  },
  {
    jid: 'JVASP-816',
    formula: 'Al',
    name: 'aluminium',
    elements: ['Al'],
    spacegroup: 'Fm-3m',
    spacegroup_number: 225,
    crystal_system: 'cubic',
    a: 4.046,
    c: 4.046,
    bandgap: 0,
    formation_energy_per_atom: 0,
    bulk_modulus: 76,
    shear_modulus: 26,
    structure: { lattice: cubic(4.046), species: FCC.map(() => 'Al'), frac: FCC },
  },
  {
    jid: 'JVASP-882',
    formula: 'Fe',
    name: 'iron (alpha)',
    elements: ['Fe'],
    spacegroup: 'Im-3m',
    spacegroup_number: 229,
    crystal_system: 'cubic',
    a: 2.866,
    c: 2.866,
    bandgap: 0,
    formation_energy_per_atom: 0,
    bulk_modulus: 170,
    shear_modulus: 82,
    structure: {
      lattice: cubic(2.866),
      species: ['Fe', 'Fe'],
      frac: [
        [0, 0, 0],
        [0.5, 0.5, 0.5],
      ],
    },
  },
];

export function findMaterial(jid: string): Material | undefined {
  return MATERIALS.find((m) => m.jid.toLowerCase() === jid.toLowerCase());
}
