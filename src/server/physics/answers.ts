/**
 * The structure endpoints' answers, computed with the reference models: the limits they accept, the
 * request fields they read, and the JSON they return. Pure; the server checks the field types and ranges
 * (FIELDS) and runs the generators in slices.
 */
import { toPoscarText } from '../../core/poscar/index';
import type { Poscar } from '../../core/poscar/types';
import { dualBasis, InputError, norm, toFractional, type Cell, type Mat3, type Vec3 } from './cell';
import type { Flags } from './constraints';
import type { Frame } from './frames';
import { kPath } from './kpath';
import { spaceGroupOf } from './spaceGroup';
import { LANGEVIN_FRICTION, md, type Ensemble } from './md';
import { forceFieldFor } from './forceField';
import { stressGPa } from './potential';
import { relaxCell, STRESS_THRESHOLD_GPA } from './cellRelax';
import { relax } from './relax';
import type { Steps } from '../../core/util/steps';
import { CUTOFF_FACTOR, SWITCH_ON, unknownSymbols } from './species';
import { bandEdges, bands, blochHamiltonian, ELECTRONS_PER_ATOM, HOPPING, HOPPING_DECAY, ONSITE_SCALE } from './tightbinding';
import { densityOfStates, meshFor } from './dos';
import { SP3S_METHOD, sp3sBands, sp3sElectrons, sp3sHamiltonian, sp3sRow } from './sp3s';
import { HARRISON_METHOD, harrisonBands, harrisonCovers, harrisonElectrons, harrisonHamiltonian } from './harrison';

export interface Structure {
  /** As read, so that results are written back in the file's own form. */
  poscar: Poscar;
  cell: Cell;
  /** Selective-dynamics flags per atom, when the POSCAR has them. */
  flags?: (Flags | undefined)[];
}

export function structureOf(poscar: Poscar): Structure {
  return {
    poscar,
    cell: { lattice: poscar.lattice, symbols: poscar.sites.map((s) => s.species), positions: poscar.sites.map((s) => s.cart) },
    ...(poscar.selectiveDynamics ? { flags: poscar.sites.map((s) => s.flags) } : {}),
  };
}

/** The most atoms each calculation takes. */
export const MAX_ATOMS = { singlePoint: 2000, relax: 500, md: 500, tightbinding: 200 };

/**
 * k-points × (2·atoms)³, the cost of the band structure's diagonalisations: at most this (about 30 s).
 * For 200 atoms that allows 62 k-points; for the 64-atom Si cell, 1,900.
 */
export const MAX_BAND_WORK = 4e9;

export interface Field {
  default: number;
  min: number;
  max: number;
  integer?: boolean;
  /** Values above max are cut down to it rather than refused. */
  clamp?: boolean;
}

export const FIELDS = {
  fmax: { default: 0.05, min: 0.001, max: 10 },
  max_steps: { default: 200, min: 1, max: 1000, integer: true, clamp: true },
  temperature: { default: 300, min: 0, max: 5000 },
  timestep: { default: 1, min: 0.01, max: 5 },
  steps: { default: 200, min: 1, max: 2000, integer: true, clamp: true },
  seed: { default: 42, min: 0, max: 0xffffffff, integer: true },
  interval: { default: 1, min: 1, max: 2000, integer: true },
  kpath_density: { default: 20, min: 1, max: 1000, integer: true },
} satisfies Record<string, Field>;

const TIGHT_BINDING = `Rough fallback model (no sp3s* parameters or Harrison s and p term values for these elements; not for research): orthogonal tight binding with one s orbital per atom, on-site energy −${ONSITE_SCALE} eV·Å / r_cov, hopping t(r) = ${HOPPING} eV·exp(−${HOPPING_DECAY}(r/r0 − 1)) switched to zero between ${SWITCH_ON}·r0 and ${CUTOFF_FACTOR}·r0 (r0 = r_cov(A) + r_cov(B)), ${ELECTRONS_PER_ATOM} electron per atom, along the Setyawan-Curtarolo k-path.`;

export function singlePoint(s: Structure): Record<string, unknown> {
  check(s, MAX_ATOMS.singlePoint);
  const field = forceFieldFor(s.cell.symbols);
  const { energy, forces, virial } = field.evaluate(s.cell);
  const n = s.cell.symbols.length;
  return {
    natoms: n,
    species: s.cell.symbols,
    energy_eV: energy,
    energy_per_atom_eV: energy / n,
    forces_eV_per_A: forces,
    max_force: Math.max(0, ...forces.map(norm)),
    stress: stressGPa(virial, s.cell),
    stress_unit: 'GPa',
    method: `${field.method}. Stress in Voigt order xx yy zz yz xz xy, positive when tensile (ASE's sign).`,
  };
}

export function* relaxation(
  s: Structure,
  options: { fmax: number; maxSteps: number; relaxCell?: boolean },
): Steps<Record<string, unknown>> {
  check(s, MAX_ATOMS.relax);
  const result = options.relaxCell
    ? yield* relaxCell(s.cell, { ...options, flags: s.flags })
    : { ...(yield* relax(s.cell, { ...options, flags: s.flags })), lattice: s.cell.lattice, stressMax: undefined };
  return {
    converged: result.converged,
    final_poscar: movedPoscar(s, result.positions, 'relaxed by the reference server', result.lattice),
    initial_energy: result.energies[0],
    final_energy: result.energies.at(-1),
    energies: result.energies,
    forces_max: result.forcesMax,
    steps_taken: result.steps,
    max_steps: options.maxSteps,
    trajectory: frames(result.frames),
    energy_unit: 'eV',
    fmax: options.fmax,
    natoms: s.cell.symbols.length,
    species: s.cell.symbols,
    lattice: result.lattice,
    initial_lattice: s.cell.lattice,
    relax_cell: options.relaxCell ?? false,
    ...(result.stressMax ? { stress_max_GPa: result.stressMax, stress_threshold_GPa: STRESS_THRESHOLD_GPA } : {}),
    optimizer: 'FIRE',
    method: `${forceFieldFor(s.cell.symbols).method}; FIRE (Bitzek et al., PRL 97, 170201, 2006) ${
      options.relaxCell
        ? `on the positions and the cell together (ASE's UnitCellFilter), to fmax and every stress component below ${STRESS_THRESHOLD_GPA} GPa`
        : 'on the positions in the fixed cell'
    }.`,
  };
}

export function* dynamics(
  s: Structure,
  options: { temperature: number; timestep: number; steps: number; seed: number; ensemble?: Ensemble; interval?: number },
): Steps<Record<string, unknown>> {
  check(s, MAX_ATOMS.md);
  const result = yield* md(s.cell, { ...options, flags: s.flags });
  const n = s.cell.symbols.length;
  return {
    energies: { total: result.total, kinetic: result.kinetic, potential: result.potential },
    temperatures: result.temperatures,
    times_fs: result.total.map((_, step) => step * options.timestep),
    average_temperature: result.temperatures.reduce((a, b) => a + b, 0) / result.temperatures.length,
    final_temperature: result.temperatures.at(-1),
    energy_drift_eV_per_atom: (result.total[result.total.length - 1]! - result.total[0]!) / n,
    trajectory: frames(result.frames),
    final_poscar: movedPoscar(s, result.positions, `after ${options.steps * options.timestep} fs of MD on the reference server`),
    temperature: options.temperature,
    ensemble: options.ensemble ?? 'nve',
    interval: options.interval ?? 1,
    timestep_fs: options.timestep,
    steps: options.steps,
    seed: options.seed,
    energy_unit: 'eV',
    natoms: n,
    species: s.cell.symbols,
    method: `${forceFieldFor(s.cell.symbols).method}; ${
      options.ensemble === 'nvt'
        ? `NVT: Langevin thermostat at ${options.temperature} K, friction ${LANGEVIN_FRICTION} fs⁻¹, BAOAB splitting (Leimkuhler and Matthews, Appl. Math. Res. Express 2013, 34)`
        : 'NVE: velocity Verlet'
    } from seeded Maxwell-Boltzmann velocities without net momentum.`,
  };
}

/**
 * The band model for these elements: Vogl's sp3s* where its table covers them, else Harrison's universal sp3
 * parameters where every element has s and p term values, else the rough s-orbital fallback.
 */
export function bandModel(cell: Cell) {
  if (sp3sRow(cell.symbols)) {
    return {
      name: 'sp3s*',
      orbitals: 5,
      bands: sp3sBands,
      hamiltonian: sp3sHamiltonian,
      electrons: sp3sElectrons(cell.symbols),
      method: `${SP3S_METHOD}, along the Setyawan-Curtarolo k-path.`,
    };
  }
  if (harrisonCovers(cell.symbols)) {
    return {
      name: "Harrison's sp3",
      orbitals: 4,
      bands: harrisonBands,
      hamiltonian: harrisonHamiltonian,
      electrons: harrisonElectrons(cell.symbols),
      method: `${HARRISON_METHOD}, along the Setyawan-Curtarolo k-path.`,
    };
  }
  return {
    name: 'reference',
    orbitals: 1,
    bands,
    hamiltonian: blochHamiltonian,
    electrons: ELECTRONS_PER_ATOM * cell.symbols.length,
    method: TIGHT_BINDING,
  };
}

export function* bandStructure(s: Structure, density: number): Steps<Record<string, unknown>> {
  check(s, MAX_ATOMS.tightbinding);
  const group = spaceGroupOf({ lattice: s.cell.lattice, species: s.cell.symbols, positions: s.cell.positions });
  const path = kPath(s.cell.lattice, density, typeof group === 'string' ? undefined : group);
  const n = s.cell.symbols.length;
  const model = bandModel(s.cell);
  const size = 2 * model.orbitals * n;
  if (path.kpoints.length * size ** 3 > MAX_BAND_WORK) {
    const most = Math.floor(MAX_BAND_WORK / size ** 3);
    if (most < 1)
      throw new InputError(
        `The ${n}-atom cell is too large for the ${model.name} band model here: at most ${Math.floor(Math.cbrt(MAX_BAND_WORK) / (2 * model.orbitals))} atoms.`,
      );
    throw new InputError(
      `kpath_density ${density} gives ${path.kpoints.length} k-points; for ${n} atoms the reference server computes at most ${most}: lower kpath_density.`,
    );
  }
  const eigenvalues = yield* model.bands(s.cell, path.kpoints);
  const edges = bandEdges(eigenvalues, model.electrons);
  // The density of states on what is left of the budget, on the Fermi level's scale (the same as the bands').
  const dos = yield* densityOfStates(model.hamiltonian(s.cell), meshFor(size, MAX_BAND_WORK - path.kpoints.length * size ** 3));
  return {
    kpoints: path.kpoints,
    kdistances: path.distances,
    eigenvalues,
    labels: path.labels,
    path: path.path,
    lattice_type: path.variant,
    // Where the lattice type came from: the space group (moyo), or the cell's metric and why.
    lattice_type_source: typeof group === 'string' ? `the cell's metric (no space group: ${group})` : `space group ${group.number}`,
    ...(typeof group === 'string' ? {} : { space_group: group.number }),
    fermi_level: edges.fermiLevel,
    vbm: edges.vbm,
    cbm: edges.cbm,
    band_gap: edges.bandGap,
    direct_gap: edges.directGap,
    is_metal: edges.isMetal,
    nbands: model.orbitals * n,
    nelectrons: edges.nelectrons,
    kpath_density: density,
    energy_unit: 'eV',
    natoms: n,
    species: s.cell.symbols,
    dos,
    method: model.method,
  };
}

function check(s: Structure, maxAtoms: number): void {
  const n = s.cell.symbols.length;
  if (n > maxAtoms) throw new InputError(`The structure has ${n} atoms; this calculation takes at most ${maxAtoms}.`);
  const unknown = unknownSymbols(s.cell.symbols);
  if (unknown.length)
    throw new InputError(
      `Unknown element ${unknown.map((u) => `"${u}"`).join(', ')}: name the species with element symbols (line 6 of a VASP 5 POSCAR).`,
    );
}

/** Frames with positions rounded to 1e-6 Å, which is all a viewer needs. */
function frames(list: Frame[]): Frame[] {
  return list.map((f) => ({ step: f.step, positions: f.positions.map((p) => p.map((x) => Math.round(x * 1e6) / 1e6) as Vec3) }));
}

/**
 * The input POSCAR with the atoms at new positions and a note on the comment line, in the file's own
 * coordinate mode; velocities and predictor-corrector data of the input no longer apply and are dropped.
 */
function movedPoscar(s: Structure, positions: readonly Vec3[], note: string, lattice: Mat3 = s.poscar.lattice): string {
  const dual = dualBasis(lattice);
  const sites = s.poscar.sites.map((site, i) => ({ ...site, cart: positions[i]!, frac: toFractional(positions[i]!, dual) }));
  const { velocities, velocityMode, predictorCorrector, ...rest } = s.poscar;
  return toPoscarText({ ...rest, lattice, comment: `${s.poscar.comment.trim()} (${note})`.trim(), sites });
}
