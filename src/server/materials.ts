/**
 * The reference server's built-in data: a small table of real materials (approximate literature values)
 * and their crystal structures, with the searches and calculations the reference endpoints answer from it.
 * Pure: no I/O.
 */
import { parseFormula } from '../core/chemistry/formula';
import { own } from '../core/util/own';
import { CU_K_ALPHA1, powderPattern as corePowderPattern } from '../core/crystallography/xrd';
import { fracToCart } from '../core/poscar/structure';
import type { Mat3 } from '../core/poscar/types';

export { parseFormula };

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

function rutile(a: number, c: number, u: number): Structure {
  return {
    lattice: [
      [a, 0, 0],
      [0, a, 0],
      [0, 0, c],
    ],
    species: ['Ti', 'Ti', 'O', 'O', 'O', 'O'],
    frac: [
      [0, 0, 0],
      [0.5, 0.5, 0.5],
      [u, u, 0],
      [1 - u, 1 - u, 0],
      [0.5 + u, 0.5 - u, 0.5],
      [0.5 - u, 0.5 + u, 0.5],
    ],
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

/** The public view of a material (what search and detail answer). */
export function materialView(m: Material, full = false): Record<string, unknown> {
  const { structure, ...rest } = m;
  const view: Record<string, unknown> = { ...rest, nelements: m.elements.length };
  if (full && structure) view.poscar = toPoscar(m);
  return view;
}

export function toPoscar(m: Material): string {
  const s = m.structure!;
  const kinds = [...new Set(s.species)];
  const lines = [`${m.formula} ${m.jid}`, '1.0'];
  for (const row of s.lattice) lines.push(row.map((v) => v.toFixed(6).padStart(12)).join(' '));
  lines.push(kinds.join(' '));
  lines.push(kinds.map((k) => s.species.filter((x) => x === k).length).join(' '));
  lines.push('Direct');
  for (const kind of kinds) {
    s.species.forEach((x, i) => {
      if (x === kind) lines.push(`${s.frac[i]!.map((v) => v.toFixed(6).padStart(10)).join(' ')} ${kind}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

// ---- formulas -------------------------------------------------------------------------------------------

/** Reduced formula in the order the elements are written, e.g. Ga2As2 → GaAs. */
export function reducedFormula(formula: string): string {
  const counts = parseFormula(formula);
  const values = [...counts.values()];
  const g = values.reduce((a, b) => gcd(a, b));
  return [...counts].map(([el, c]) => `${el}${c / g === 1 ? '' : c / g}`).join('');
}

function sameComposition(a: string, b: string): boolean {
  try {
    const x = parseFormula(reducedFormula(a));
    const y = parseFormula(reducedFormula(b));
    return x.size === y.size && [...x].every(([el, c]) => y.get(el) === c);
  } catch {
    return false;
  }
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return Math.abs(a);
}

// ---- materials search -----------------------------------------------------------------------------------

export interface SearchQuery {
  formula?: string;
  elements?: string[];
  element_mode?: string;
  bandgap_min?: number;
  bandgap_max?: number;
}

export const ELEMENT_MODES = ['all', 'any', 'exact'] as const;

export function searchMaterials(q: SearchQuery): Material[] {
  return MATERIALS.filter((m) => {
    if (q.formula && !sameComposition(q.formula, m.formula)) return false;
    if (q.elements && q.elements.length) {
      const mode = q.element_mode ?? 'all';
      const has = (el: string): boolean => m.elements.some((x) => x.toLowerCase() === el.toLowerCase());
      if (mode === 'all' && !q.elements.every(has)) return false;
      if (mode === 'any' && !q.elements.some(has)) return false;
      if (mode === 'exact' && !(q.elements.every(has) && new Set(q.elements.map((e) => e.toLowerCase())).size === m.elements.length))
        return false;
    }
    if (q.bandgap_min !== undefined && m.bandgap < q.bandgap_min) return false;
    if (q.bandgap_max !== undefined && m.bandgap > q.bandgap_max) return false;
    return true;
  });
}

// ---- property prediction --------------------------------------------------------------------------------

export const MODELS: Record<string, { field: keyof Material; unit: string; description: string }> = {
  formation_energy_peratom: { field: 'formation_energy_per_atom', unit: 'eV/atom', description: 'formation energy per atom' },
  optb88vdw_bandgap: { field: 'bandgap', unit: 'eV', description: 'band gap' },
  bulk_modulus_kv: { field: 'bulk_modulus', unit: 'GPa', description: 'Voigt bulk modulus' },
  shear_modulus_gv: { field: 'shear_modulus', unit: 'GPa', description: 'Voigt shear modulus' },
};
export const DEFAULT_MODEL = 'formation_energy_peratom';

// ---- powder diffraction ---------------------------------------------------------------------------------

export interface Peak {
  two_theta: number;
  d_spacing: number;
  intensity: number;
  hkl: [number, number, number];
}

/** Cu Kα₁, the editor's default too. */
export const CU_K_ALPHA = CU_K_ALPHA1;

/**
 * The core's kinematic powder pattern (core/crystallography/xrd.ts: pymatgen XRDCalculator's formula, Doyle &
 * Turner scattering factors, Lorentz–polarisation, every reflection in the sphere), so the server and the
 * editor compute the same pattern; rounded for the answer, each peak labelled with its first hkl family
 * (the first three Miller–Bravais indices h, k, l of a hexagonal cell), peaks that round to 0 left out.
 */
export function powderPattern(structure: Structure, wavelength = CU_K_ALPHA, twoThetaMax = 90): Peak[] {
  const lattice = structure.lattice as Mat3;
  const pattern = corePowderPattern(
    { lattice, species: structure.species, positions: structure.frac.map((f) => fracToCart(lattice, f)) },
    { wavelength, twoThetaMax },
  );
  return pattern.peaks
    .map((p) => {
      const hkl = p.families[0]!.hkl;
      return {
        two_theta: round(p.twoTheta, 3),
        d_spacing: round(p.d, 4),
        intensity: round(p.intensity, 1),
        hkl: (hkl.length === 4 ? [hkl[0]!, hkl[1]!, hkl[3]!] : hkl) as [number, number, number],
      };
    })
    .filter((p) => p.intensity > 0);
}

export const MATCH_METHOD =
  'background by SNIP (Ryan et al., Nucl. Instrum. Methods B 34, 396 (1988); Morháč et al., NIM A 401, 113 (1997)), ' +
  'peaks above 3σ of the noise, paired with each computed reflection within 0.2° 2θ after the best zero shift (±0.3°); ' +
  'score = cosine of the two intensity vectors, unpaired peaks included';

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

// ---- OPTIMADE (a subset of the filter grammar) ----------------------------------------------------------

export const OPTIMADE_SUBSET =
  'clauses joined by AND: elements HAS "X"; elements HAS ALL "X","Y"; elements HAS ANY "X","Y"; nelements <op> N; ' +
  'chemical_formula_reduced = "X"; id = "X" (op is one of = != < <= > >=)';

/** Characters of a filter at most: the reference data has a dozen materials, no filter needs more. */
export const MAX_FILTER = 2000;

export function optimadeFilter(filter: string): (m: Material) => boolean {
  if (filter.length > 100 * MAX_FILTER) throw new Error(`the filter is longer than ${MAX_FILTER} characters`);
  // Runs of white space become one space first (a linear pass), so no pattern below can backtrack over a long run.
  const text = filter.replace(/\s+/g, ' ').trim();
  if (text.length > MAX_FILTER) throw new Error(`the filter is longer than ${MAX_FILTER} characters`);
  if (!text) return () => true;
  const clauses = text.split(/ AND /i);
  const tests = clauses.map((clause): ((m: Material) => boolean) => {
    const c = clause
      .trim()
      .replace(/^\((.*)\)$/, '$1')
      .trim();
    let m = /^elements\s+HAS\s+(ALL\s+|ANY\s+)?(.+)$/i.exec(c);
    if (m) {
      const mode = (m[1] ?? '').trim().toUpperCase() || 'ALL';
      const values = m[2]!.split(',').map((v) => v.trim());
      if (!values.every((v) => /^"[A-Z][a-z]?"$/.test(v))) throw new Error(`could not read the element list in "${clause}"`);
      const els = values.map((v) => v.slice(1, -1));
      return mode === 'ANY' ? (x) => els.some((e) => x.elements.includes(e)) : (x) => els.every((e) => x.elements.includes(e));
    }
    m = /^nelements\s*(=|!=|<=|>=|<|>)\s*(\d+)$/i.exec(c);
    if (m) {
      const op = m[1]!;
      const n = Number(m[2]);
      return (x) => compare(x.elements.length, op, n);
    }
    m = /^(chemical_formula_reduced|chemical_formula_descriptive|id)\s*(=|!=)\s*"([^"]*)"$/i.exec(c);
    if (m) {
      const field = m[1]!.toLowerCase();
      const negate = m[2] === '!=';
      const value = m[3]!;
      return (x) => (field === 'id' ? x.jid === value : sameComposition(x.formula, value)) !== negate;
    }
    throw new Error(`the reference server does not understand the clause "${clause.trim()}"; it understands ${OPTIMADE_SUBSET}`);
  });
  return (x) => tests.every((t) => t(x));
}

function compare(a: number, op: string, b: number): boolean {
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    default:
      return a >= b;
  }
}

// ---- reaction balancing ---------------------------------------------------------------------------------

/** Smallest positive integer coefficients, or an Error saying why there are none (or many). */
export function balanceReaction(reactants: string[], products: string[]): { reactants: number[]; products: number[] } {
  const species = [...reactants, ...products];
  const counts = species.map((s) => parseFormula(s));
  const elements = [...new Set(counts.flatMap((c) => [...c.keys()]))];
  const cols = species.length;
  // Rational Gaussian elimination over bigint fractions.
  type Q = [bigint, bigint];
  const norm = ([p, q]: Q): Q => {
    if (q < 0n) [p, q] = [-p, -q];
    const g = bgcd(p < 0n ? -p : p, q);
    return g ? [p / g, q / g] : [0n, 1n];
  };
  const sub = (a: Q, b: Q): Q => norm([a[0] * b[1] - b[0] * a[1], a[1] * b[1]]);
  const mul = (a: Q, b: Q): Q => norm([a[0] * b[0], a[1] * b[1]]);
  const div = (a: Q, b: Q): Q => norm([a[0] * b[1], a[1] * b[0]]);
  const rows: Q[][] = elements.map((el) => counts.map((c, j) => [BigInt((c.get(el) ?? 0) * (j < reactants.length ? 1 : -1)), 1n] as Q));
  const pivots: number[] = [];
  let r = 0;
  for (let col = 0; col < cols && r < rows.length; col++) {
    const pr = rows.findIndex((row, i) => i >= r && row[col]![0] !== 0n);
    if (pr < 0) continue;
    [rows[r], rows[pr]] = [rows[pr]!, rows[r]!];
    const pivot = rows[r]![col]!;
    rows[r] = rows[r]!.map((v) => div(v, pivot));
    rows.forEach((row, i) => {
      if (i !== r && row[col]![0] !== 0n) {
        const f = row[col]!;
        rows[i] = row.map((v, j) => sub(v, mul(f, rows[r]![j]!)));
      }
    });
    pivots.push(col);
    r++;
  }
  const free = [...Array(cols).keys()].filter((c) => !pivots.includes(c));
  if (free.length === 0) throw new Error('the reaction cannot be balanced: no combination of these species conserves every element');
  if (free.length > 1) throw new Error('the reaction has more than one independent balance; split it into separate reactions');
  const f = free[0]!;
  const x: Q[] = Array.from({ length: cols }, () => [0n, 1n] as Q);
  x[f] = [1n, 1n];
  pivots.forEach((col, i) => {
    x[col] = norm([-rows[i]![f]![0], rows[i]![f]![1]]);
  });
  const lcm = x.reduce((acc, [, q]) => (acc * q) / bgcd(acc, q), 1n);
  let ints = x.map(([p, q]) => (p * lcm) / q);
  if (ints.every((v) => v <= 0n)) ints = ints.map((v) => -v);
  if (ints.some((v) => v <= 0n))
    throw new Error('the reaction cannot be balanced with every species taking part (some coefficient would be zero or negative)');
  const g = ints.reduce((a, b) => bgcd(a, b));
  const out = ints.map((v) => Number(v / g));
  return { reactants: out.slice(0, reactants.length), products: out.slice(reactants.length) };
}

function bgcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b) [a, b] = [b, a % b];
  return a;
}

// ---- high-entropy alloys --------------------------------------------------------------------------------

/** Metallic radius (Å) and valence electron concentration of the elements the HEA endpoint knows. */
export const HEA_ELEMENTS: Record<string, { radius: number; vec: number }> = {
  Al: { radius: 1.432, vec: 3 },
  Co: { radius: 1.251, vec: 9 },
  Cr: { radius: 1.249, vec: 6 },
  Cu: { radius: 1.278, vec: 11 },
  Fe: { radius: 1.241, vec: 8 },
  Mn: { radius: 1.35, vec: 7 },
  Ni: { radius: 1.246, vec: 10 },
  Ti: { radius: 1.462, vec: 4 },
  V: { radius: 1.316, vec: 5 },
  Zr: { radius: 1.603, vec: 4 },
  Nb: { radius: 1.429, vec: 5 },
  Mo: { radius: 1.363, vec: 6 },
  Hf: { radius: 1.578, vec: 4 },
  Ta: { radius: 1.43, vec: 5 },
  W: { radius: 1.367, vec: 6 },
};
const R = 8.314462618;

export function heaDescriptors(composition: Record<string, number>) {
  const total = Object.values(composition).reduce((a, b) => a + b, 0);
  const fractions = Object.fromEntries(Object.entries(composition).map(([el, v]) => [el, v / total]));
  const entries = Object.entries(fractions);
  const entropy = -R * entries.reduce((s, [, c]) => s + (c > 0 ? c * Math.log(c) : 0), 0);
  const rBar = entries.reduce((s, [el, c]) => s + c * own(HEA_ELEMENTS, el)!.radius, 0);
  const delta = 100 * Math.sqrt(entries.reduce((s, [el, c]) => s + c * (1 - own(HEA_ELEMENTS, el)!.radius / rBar) ** 2, 0));
  const vec = entries.reduce((s, [el, c]) => s + c * own(HEA_ELEMENTS, el)!.vec, 0);
  const phase = vec >= 8 ? 'FCC' : vec < 6.87 ? 'BCC' : 'FCC + BCC';
  return {
    fractions: Object.fromEntries(entries.map(([el, c]) => [el, round(c, 4)])),
    n_elements: entries.length,
    mixing_entropy: round(entropy, 3),
    mixing_entropy_over_R: round(entropy / R, 4),
    atomic_size_mismatch_percent: round(delta, 3),
    valence_electron_concentration: round(vec, 3),
    predicted_phase: phase,
    is_high_entropy: entries.length >= 5 && entropy >= 1.5 * R,
    units: { mixing_entropy: 'J/(mol K)', atomic_size_mismatch_percent: '%' },
  };
}

// ---- "VQE": the ground state of a small Pauli Hamiltonian ----------------------------------------------

/** Lowest eigenvalue of Σ c_i P_i over n ≤ 4 qubits, by Jacobi diagonalization of the real form of H. */
export function groundStateEnergy(terms: Array<{ pauli: string; coefficient: number }>): { energy: number; n_qubits: number } {
  const n = terms[0]!.pauli.length;
  const dim = 2 ** n;
  const re = Array.from({ length: dim }, () => new Array<number>(dim).fill(0));
  const im = Array.from({ length: dim }, () => new Array<number>(dim).fill(0));
  for (const { pauli, coefficient } of terms) {
    for (let col = 0; col < dim; col++) {
      let row = col;
      let pr = 1;
      let pi = 0; // phase, as a complex number
      for (let q = 0; q < n; q++) {
        const bit = (col >> (n - 1 - q)) & 1;
        const op = pauli[q]!;
        if (op === 'X' || op === 'Y') row ^= 1 << (n - 1 - q);
        let fr = 1;
        let fi = 0;
        if (op === 'Z' && bit) fr = -1;
        if (op === 'Y') [fr, fi] = bit ? [0, -1] : [0, 1];
        [pr, pi] = [pr * fr - pi * fi, pr * fi + pi * fr];
      }
      re[row]![col]! += coefficient * pr;
      im[row]![col]! += coefficient * pi;
    }
  }
  // [[Re, -Im], [Im, Re]] is real symmetric with each eigenvalue of H twice.
  const size = 2 * dim;
  const a = Array.from({ length: size }, (_, i) =>
    Array.from({ length: size }, (_, j) => {
      const r = i % dim;
      const c = j % dim;
      if (i < dim === j < dim) return re[r]![c]!;
      return i < dim ? -im[r]![c]! : im[r]![c]!;
    }),
  );
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < size; p++) for (let q = p + 1; q < size; q++) off += a[p]![q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < size; p++) {
      for (let q = p + 1; q < size; q++) {
        const apq = a[p]![q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < size; k++) {
          const akp = a[k]![p]!;
          const akq = a[k]![q]!;
          a[k]![p] = c * akp - s * akq;
          a[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < size; k++) {
          const apk = a[p]![k]!;
          const aqk = a[q]![k]!;
          a[p]![k] = c * apk - s * aqk;
          a[q]![k] = s * apk + c * aqk;
        }
      }
    }
  }
  const energy = Math.min(...a.map((row, i) => row[i]!));
  return { energy: round(energy, 10), n_qubits: n };
}
