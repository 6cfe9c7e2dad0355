/**
 * docs/physics.md's table of what the built-in service computes for well-known crystals, next to the published values.
 * Every number of ours comes from the service's own calculations, run as the service runs them: a POSCAR read by the
 * editor's parser, relaxed with relax_cell (positions and cell, to fmax 0.001 eV/Å and 0.1 GPa) from a cell 2 % too
 * large, the cohesive energy as −E/atom of the relaxed cell (isolated atoms are the potentials' zero), and the band gap
 * of the primitive cell at our lattice constant. `test/unit/server/physics/table.test.ts` checks docs/physics.md holds these rows verbatim;
 * `node out/test/support/physicsTable.js` prints them.
 */
import { parsePoscar } from '../../src/core/poscar/parse';
import { bandStructure, relaxation, structureOf } from '../../src/server/physics/answers';
import { runToEnd } from '../../src/core/util/steps';
import type { Cell } from '../../src/server/physics/cell';
import { corundum, rutile, wurtzite } from './physicsCrystals';

type Lattice = 'diamond' | 'zincblende' | 'fcc' | 'bcc' | 'rocksalt' | 'perovskite' | 'corundum' | 'rutile' | 'wurtzite';

interface Material {
  name: string;
  lattice: Lattice;
  /** One per sublattice: the first on the fcc (or simple cubic) sites, the second on the shifted ones, O last. */
  species: string[];
  /**
   * Å and eV/atom: experiment (C. Kittel, Introduction to Solid State Physics, 8th ed., ch. 1 and 3; the oxides' and
   * GaAs's lattice constants and GaAs's cohesive energy as the papers fitted them), or the paper's where said.
   */
  a: number;
  ec?: number;
  /** eV: the measured gap and its character, for the semiconductors. */
  gap?: string;
  /** The potential's name in the table (the answer's method cites its paper). */
  model?: string;
  /** How far from the measured a the model's own minimum is allowed, where it is more than 1 % away (see docs/physics.md). */
  aTolerance?: number;
}

export const TOSI_FUMI = 'Born–Mayer–Huggins, Tosi–Fumi 1964';

/**
 * The III-V compounds on Powell, Migliorato and Cullis's Tersoff potentials: a measured at 300 K (Vurgaftman, Meyer and
 * Ram-Mohan, J. Appl. Phys. 89, 5815 (2001)); Ec the cohesive energy the paper fitted, inferred from the round values
 * per pair (7.56, 7.12, 6.96, 5.60 eV) its parameters reproduce (test/unit/server/physics/tersoffIIIV.test.ts); gaps as for GaAs.
 */
const POWELL = 'Tersoff, Powell–Migliorato–Cullis 2007';
const IIIV: readonly Material[] = [
  { name: 'AlAs', lattice: 'zincblende', species: ['Al', 'As'], a: 5.6611, ec: 3.78, gap: '2.23, indirect', model: POWELL },
  { name: 'GaP', lattice: 'zincblende', species: ['Ga', 'P'], a: 5.4505, ec: 3.56, gap: '2.35, indirect', model: POWELL },
  { name: 'InP', lattice: 'zincblende', species: ['In', 'P'], a: 5.8697, ec: 3.48, gap: '1.42, direct', model: POWELL },
  { name: 'InSb', lattice: 'zincblende', species: ['In', 'Sb'], a: 6.4794, ec: 2.8, gap: '0.24, direct', model: POWELL },
];

export const MATERIALS: readonly Material[] = [
  { name: 'Si', lattice: 'diamond', species: ['Si'], a: 5.431, ec: 4.63, gap: '1.17, indirect', model: 'Stillinger–Weber 1985' },
  {
    name: 'Ge',
    lattice: 'diamond',
    species: ['Ge'],
    a: 5.658,
    ec: 3.85,
    gap: '0.74, indirect',
    model: 'Stillinger–Weber (Ding–Andersen 1986)',
  },
  { name: 'C (diamond)', lattice: 'diamond', species: ['C'], a: 3.567, ec: 7.37, gap: '5.48, indirect', model: 'Tersoff 1989' },
  { name: 'SiC (3C)', lattice: 'zincblende', species: ['Si', 'C'], a: 4.36, ec: 6.34, gap: '2.39, indirect', model: 'Tersoff 1989' },
  {
    name: 'GaAs',
    lattice: 'zincblende',
    species: ['Ga', 'As'],
    a: 5.653,
    ec: 3.35,
    gap: '1.52, direct',
    model: 'Bond-order, Albe–Nordlund–Nord–Kuronen 2002',
  },
  ...IIIV,
  { name: 'NaCl', lattice: 'rocksalt', species: ['Na', 'Cl'], a: 5.64, model: TOSI_FUMI },
  // Measured at room temperature to 0.01 Å: K. S. Song and R. T. Williams, Self-Trapped Excitons, 2nd ed., Table 5.7.
  { name: 'LiF', lattice: 'rocksalt', species: ['Li', 'F'], a: 4.03, model: TOSI_FUMI },
  { name: 'NaF', lattice: 'rocksalt', species: ['Na', 'F'], a: 4.63, model: TOSI_FUMI },
  { name: 'KBr', lattice: 'rocksalt', species: ['K', 'Br'], a: 6.6, model: TOSI_FUMI },
  { name: 'RbI', lattice: 'rocksalt', species: ['Rb', 'I'], a: 7.34, model: TOSI_FUMI },
  { name: 'MgO', lattice: 'rocksalt', species: ['Mg', 'O'], a: 4.212, model: 'Shell model, Bush et al. 1994' },
  { name: 'CaO', lattice: 'rocksalt', species: ['Ca', 'O'], a: 4.811, model: 'Shell model, Bush et al. 1994' },
  {
    name: 'SrTiO3',
    lattice: 'perovskite',
    species: ['Sr', 'Ti', 'O'],
    a: 3.905,
    model: 'Shell model, Bush et al. 1994',
    aTolerance: 0.02,
  },
  // The measured cell of GULP's alumina example (example1.gin), a and c; the row shows the hexagonal a.
  {
    name: 'Al2O3 (corundum)',
    lattice: 'corundum',
    species: ['Al', 'O'],
    a: 4.7602,
    model: 'Shell model, Bush et al. 1994',
    aTolerance: 0.015,
  },
  // Measured at room temperature; the rows show a, the unit tests (test/unit/server/physics/oxides.test.ts) c as well.
  { name: 'TiO2 (rutile)', lattice: 'rutile', species: ['Ti', 'O'], a: 4.594, model: 'Rigid ions, Matsui–Akaogi 1991', aTolerance: 0.023 },
  { name: 'ZnO (wurtzite)', lattice: 'wurtzite', species: ['Zn', 'O'], a: 3.25, model: 'Shell model, Lewis–Catlow 1985' },
  { name: 'Cu', lattice: 'fcc', species: ['Cu'], a: 3.615, ec: 3.49, model: 'EAM, Zhou–Johnson–Wadley 2004' },
  { name: 'Ag', lattice: 'fcc', species: ['Ag'], a: 4.086, ec: 2.95, model: 'EAM, Zhou–Johnson–Wadley 2004' },
  { name: 'Au', lattice: 'fcc', species: ['Au'], a: 4.078, ec: 3.81, model: 'EAM, Zhou–Johnson–Wadley 2004' },
  { name: 'Ni', lattice: 'fcc', species: ['Ni'], a: 3.524, ec: 4.44, model: 'EAM, Zhou–Johnson–Wadley 2004' },
  { name: 'Al', lattice: 'fcc', species: ['Al'], a: 4.05, ec: 3.39, model: 'EAM, Zhou–Johnson–Wadley 2004' },
  { name: 'Fe (bcc)', lattice: 'bcc', species: ['Fe'], a: 2.867, ec: 4.28, model: 'EAM, Zhou–Johnson–Wadley 2004' },
  { name: 'W (bcc)', lattice: 'bcc', species: ['W'], a: 3.165, ec: 8.9, model: 'EAM, Zhou–Johnson–Wadley 2004' },
];

/** Sites by sublattice (the index into the material's species) and fractional position. */
const FCC = [
  [0, 0, 0],
  [0, 0.5, 0.5],
  [0.5, 0, 0.5],
  [0.5, 0.5, 0],
];
const shiftedBy = (sites: number[][], d: number[]): number[][] => sites.map((f) => f.map((x, k) => x + d[k]!));
const BASIS: Record<Lattice, number[][][]> = {
  fcc: [FCC],
  bcc: [
    [
      [0, 0, 0],
      [0.5, 0.5, 0.5],
    ],
  ],
  diamond: [FCC, shiftedBy(FCC, [0.25, 0.25, 0.25])],
  zincblende: [FCC, shiftedBy(FCC, [0.25, 0.25, 0.25])],
  rocksalt: [FCC, shiftedBy(FCC, [0.5, 0, 0])],
  corundum: [],
  rutile: [],
  wurtzite: [],
  perovskite: [
    [[0, 0, 0]],
    [[0.5, 0.5, 0.5]],
    [
      [0.5, 0.5, 0],
      [0.5, 0, 0.5],
      [0, 0.5, 0.5],
    ],
  ],
};

/** The conventional cubic cell as a POSCAR, sublattice by sublattice (diamond's two as one species). */
function cubicPoscar(m: Material, a: number): string {
  const sublattices = m.species.length === 1 ? [BASIS[m.lattice].flat()] : BASIS[m.lattice];
  const lattice = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (i === j ? a : 0)).join(' '));
  const counts = sublattices.map((s) => s.length).join(' ');
  const sites = sublattices.flat().map((f) => f.join(' '));
  return [m.name, '1.0', ...lattice, m.species.join(' '), counts, 'Direct', ...sites].join('\n');
}

/** The cells that are not cubic, at the measured axial ratios and internal coordinates, from their a. */
const NON_CUBIC: Partial<Record<Lattice, (m: Material, a: number) => Cell>> = {
  corundum: (m, a) => corundum(a, (a * 12.9933) / 4.7602, 0.35216, 0.30624, m.species[0]!),
  rutile: (m, a) => rutile(a, (a * 2.959) / 4.594, 0.3048, m.species[0]!),
  wurtzite: (m, a) => wurtzite(m.species[0]!, m.species[1]!, a, (a * 5.207) / 3.25, 0.382),
};

/** A non-cubic cell as a POSCAR, Cartesian, its sites grouped by species as the builders list them. */
function cellPoscar(m: Material, cell: Cell): string {
  const rows = (v: readonly (readonly number[])[]) => v.map((r) => r.join(' '));
  const counts = m.species.map((x) => cell.symbols.filter((s) => s === x).length).join(' ');
  return [m.name, '1.0', ...rows(cell.lattice), m.species.join(' '), counts, 'Cartesian', ...rows(cell.positions)].join('\n');
}

/** The two-atom primitive cell (diamond and zincblende), for the band structure. */
function primitivePoscar(m: Material, a: number): string {
  const h = a / 2;
  const lattice = [`0 ${h} ${h}`, `${h} 0 ${h}`, `${h} ${h} 0`];
  const counts = m.species.length === 2 ? '1 1' : '2';
  return [m.name, '1.0', ...lattice, m.species.join(' '), counts, 'Direct', '0 0 0', '0.25 0.25 0.25'].join('\n');
}

function structure(text: string): ReturnType<typeof structureOf> {
  const parsed = parsePoscar(text);
  if (!parsed.poscar) throw new Error(`the table's POSCAR does not read: ${parsed.diagnostics[0]?.message}`);
  return structureOf(parsed.poscar);
}

export interface Computed {
  /** The answer's method: which potential the service chose. */
  method: string;
  a: number;
  ec: number;
  gap?: { value: number; direct: boolean };
}

export function compute(m: Material): Computed {
  const build = NON_CUBIC[m.lattice];
  const start = structure(build ? cellPoscar(m, build(m, m.a * 1.02)) : cubicPoscar(m, m.a * 1.02));
  const relaxed = runToEnd(relaxation(start, { fmax: 0.001, maxSteps: 1000, relaxCell: true }));
  if (!relaxed.converged) throw new Error(`${m.name}: the cell relaxation did not converge`);
  const l = relaxed.lattice as number[][];
  // Corundum's hexagonal a is the difference of two rhombohedral vectors; every other cell's a is its first vector.
  const a = Math.hypot(...(m.lattice === 'corundum' ? [0, 1, 2].map((k) => l[0]![k]! - l[1]![k]!) : l[0]!));
  const ec = -(relaxed.final_energy as number) / start.cell.symbols.length;
  const method = relaxed.method as string;
  if (!m.gap) return { method, a, ec };
  const bands = runToEnd(bandStructure(structure(primitivePoscar(m, m.model ? a : m.a)), 20));
  return { method, a, ec, gap: { value: bands.band_gap as number, direct: bands.direct_gap as boolean } };
}

const fixed = (x: number, digits: number): string => x.toFixed(digits);

/** One row of docs/physics.md's table; a material without a potential of its own shows its gap only. */
export function row(m: Material, c: Computed): string {
  const hasPotential = m.model !== undefined && !c.method.startsWith('Rough');
  const model = hasPotential ? m.model! : 'none (rough fallback; gap at the measured a)';
  const a = hasPotential ? `${fixed(c.a, 3)} / ${fixed(m.a, 3)}` : `— / ${fixed(m.a, 3)}`;
  const ec = hasPotential && m.ec ? `${fixed(c.ec, 2)} / ${fixed(m.ec, 2)}` : '—';
  const gap = c.gap && m.gap ? `${fixed(c.gap.value, 2)}, ${c.gap.direct ? 'direct' : 'indirect'} / ${m.gap}` : '—';
  return `| ${m.name} | ${model} | ${a} | ${ec} | ${gap} |`;
}

export const HEADER = [
  '| Material | Potential | a (Å), ours / measured | Cohesive energy (eV/atom), ours / measured | Band gap (eV), ours (sp3s*) / measured |',
  '|---|---|---|---|---|',
];

if (require.main === module) {
  console.log([...HEADER, ...MATERIALS.map((m) => row(m, compute(m)))].join('\n'));
}
