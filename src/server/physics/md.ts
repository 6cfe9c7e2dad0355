/**
 * Molecular dynamics from Maxwell-Boltzmann velocities drawn with a seeded generator, without net momentum,
 * scaled to exactly the requested temperature: NVE by velocity Verlet, or NVT with a Langevin thermostat in
 * the BAOAB splitting of B. Leimkuhler and C. Matthews, Appl. Math. Res. Express 2013, 34 (2013), which
 * samples the canonical ensemble at the target temperature. Units: Å, fs, amu, eV. Pure; a generator that
 * yields after every step (see core/util/steps.ts).
 */
import { add, dot, scale, type Cell, type Vec3 } from './cell';
import { freeCoordinates, projector, type Flags, type Projector } from './constraints';
import { FrameRecorder, type Frame } from './frames';
import { forceFieldFor } from './forceField';
import { gaussian, seededRandom } from './rng';
import type { Evaluation } from './potential';
import type { Steps } from '../../core/util/steps';
import { atomicMass } from './species';

/** Å/fs² per eV/(Å·amu): acceleration = ACCELERATION · force / mass. */
export const ACCELERATION = 0.009648533212;
/** eV/K */
export const BOLTZMANN = 8.617333262e-5;

export type Ensemble = 'nve' | 'nvt';

/** fs⁻¹: the Langevin thermostat's friction, the value ASE's examples use (a relaxation time of 100 fs). */
export const LANGEVIN_FRICTION = 0.01;

export interface MdOptions {
  /** K: the initial temperature, and in NVT the thermostat's. */
  temperature: number;
  /** nve (default) or nvt. */
  ensemble?: Ensemble;
  /** Keep a frame every this many steps (agapi's interval); more than MAX_FRAMES frames thin out evenly. */
  interval?: number;
  /** fs */
  timestep: number;
  steps: number;
  seed: number;
  flags?: (Flags | undefined)[];
  /** The energy and forces to move on: by default the potential forceFieldFor chooses for the elements. */
  evaluate?: (cell: Cell) => Evaluation;
}

/** Per step, index 0 being the start: energies in eV, temperatures in K. */
export interface MdResult {
  kinetic: number[];
  potential: number[];
  total: number[];
  temperatures: number[];
  /** Cartesian Å, not wrapped back into the cell (trajectories stay continuous). */
  positions: Vec3[];
  frames: Frame[];
}

export function* md(cell: Cell, options: MdOptions): Steps<MdResult> {
  const masses = cell.symbols.map(atomicMass);
  const project = projector(cell.lattice, options.flags);
  // Net momentum is conserved, and removed, only when no atom is held.
  const conserved = freeCoordinates(masses.length, options.flags) === 3 * masses.length;
  const dof = freeCoordinates(masses.length, options.flags) - (conserved ? 3 : 0);
  const kinetic = (v: readonly Vec3[]): number => v.reduce((s, vi, i) => s + (0.5 * masses[i]! * dot(vi, vi)) / ACCELERATION, 0);
  const temperature = (ke: number): number => (dof > 0 ? (2 * ke) / (dof * BOLTZMANN) : 0);
  const evaluate = options.evaluate ?? forceFieldFor(cell.symbols).evaluate;
  const forcesAt = (positions: Vec3[]): { energy: number; forces: Vec3[] } => {
    const { energy, forces } = evaluate({ ...cell, positions });
    return { energy, forces: project(forces) };
  };
  const kick = (v: Vec3[], forces: readonly Vec3[]): Vec3[] =>
    v.map((vi, i) => add(vi, scale(forces[i]!, (0.5 * options.timestep * ACCELERATION) / masses[i]!)));

  let velocities = initialVelocities(masses, options, project, conserved);
  const current = temperature(kinetic(velocities));
  if (current > 0) velocities = velocities.map((v) => scale(v, Math.sqrt(options.temperature / current)));
  let positions = cell.positions;
  let { energy, forces } = forcesAt(positions);
  const series: Omit<MdResult, 'positions' | 'frames'> = { kinetic: [], potential: [], total: [], temperatures: [] };
  const recorder = new FrameRecorder(undefined, options.interval ?? 1);
  const record = (step: number): void => {
    const ke = kinetic(velocities);
    series.kinetic.push(ke);
    series.potential.push(energy);
    series.total.push(ke + energy);
    series.temperatures.push(temperature(ke));
    recorder.add(step, positions);
  };
  record(0);
  const drift = (v: readonly Vec3[], dt: number): Vec3[] => positions.map((p, i) => add(p, scale(v[i]!, dt)));
  const thermostat = options.ensemble === 'nvt' ? langevin(masses, options, project) : undefined;
  for (let step = 1; step <= options.steps; step++) {
    velocities = kick(velocities, forces);
    if (thermostat) {
      positions = drift(velocities, options.timestep / 2);
      velocities = thermostat(velocities);
      positions = drift(velocities, options.timestep / 2);
    } else {
      positions = drift(velocities, options.timestep);
    }
    ({ energy, forces } = forcesAt(positions));
    velocities = kick(velocities, forces);
    record(step);
    yield;
  }
  return { ...series, positions, frames: recorder.finish(options.steps, positions) };
}

/** The O step of BAOAB: v ← c v + √(1 − c²) √(kT/m) ξ, with c = exp(−γ dt); held coordinates stay held. */
function langevin(masses: readonly number[], options: MdOptions, project: Projector): (v: readonly Vec3[]) => Vec3[] {
  const random = seededRandom(options.seed + 1);
  const c = Math.exp(-LANGEVIN_FRICTION * options.timestep);
  const spread = masses.map((m) => Math.sqrt(((1 - c * c) * BOLTZMANN * options.temperature * ACCELERATION) / m));
  return (v) => project(v.map((vi, i): Vec3 => vi.map((x) => c * x + spread[i]! * gaussian(random)) as Vec3));
}

/** Maxwell-Boltzmann: each component normal with variance kT/m. */
function initialVelocities(masses: readonly number[], options: MdOptions, project: Projector, removeMomentum: boolean): Vec3[] {
  const random = seededRandom(options.seed);
  const v = project(
    masses.map((m): Vec3 => {
      const sigma = Math.sqrt((BOLTZMANN * options.temperature * ACCELERATION) / m);
      return [gaussian(random) * sigma, gaussian(random) * sigma, gaussian(random) * sigma];
    }),
  );
  if (!removeMomentum) return v;
  const total = masses.reduce((s, m) => s + m, 0);
  const momentum = v.reduce((p, vi, i) => add(p, scale(vi, masses[i]!)), [0, 0, 0] as Vec3);
  return v.map((vi) => add(vi, scale(momentum, -1 / total)));
}
