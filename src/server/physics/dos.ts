/**
 * The density of states of a band model: its eigenvalues on a Monkhorst–Pack mesh (H. J. Monkhorst and
 * J. D. Pack, Phys. Rev. B 13, 5188 (1976)), each a Gaussian of 0.1 eV, on a 0.02 eV grid, in states per eV
 * per cell (spin included: two per band). The mesh is as fine as the budget allows, from 8×8×8 down to Γ. Pure.
 */
import type { Vec3 } from './cell';
import type { Steps } from '../../core/util/steps';
import { eigenvaluesAlong } from './tightbinding';

export const DOS_SIGMA = 0.1;
const STEP = 0.02;
const MAX_MESH = 8;

export interface Dos {
  energies: number[];
  states: number[];
  sigma: number;
  kmesh: [number, number, number];
  unit: 'states/eV per cell';
}

/** The mesh per direction whose diagonalisations (k-points × size³) stay within `budget`. */
export function meshFor(size: number, budget: number): number {
  return Math.max(1, Math.min(MAX_MESH, Math.floor(Math.cbrt(budget / size ** 3))));
}

export function* densityOfStates(hamiltonian: (k: Vec3) => number[][], mesh: number): Steps<Dos> {
  const kpoints: Vec3[] = [];
  const at = (i: number) => (i + 0.5) / mesh - 0.5;
  for (let a = 0; a < mesh; a++) for (let b = 0; b < mesh; b++) for (let c = 0; c < mesh; c++) kpoints.push([at(a), at(b), at(c)]);
  const levels = (yield* eigenvaluesAlong(hamiltonian, kpoints)).flat();
  const low = Math.min(...levels) - 5 * DOS_SIGMA;
  const high = Math.max(...levels) + 5 * DOS_SIGMA;
  const energies = Array.from({ length: Math.ceil((high - low) / STEP) + 1 }, (_, i) => Math.round((low + i * STEP) * 1e4) / 1e4);
  const states = new Array<number>(energies.length).fill(0);
  const norm = 2 / (kpoints.length * DOS_SIGMA * Math.sqrt(2 * Math.PI));
  for (const e of levels) {
    const first = Math.max(0, Math.floor((e - 5 * DOS_SIGMA - low) / STEP));
    const last = Math.min(energies.length - 1, Math.ceil((e + 5 * DOS_SIGMA - low) / STEP));
    for (let i = first; i <= last; i++) states[i]! += norm * Math.exp(-(((energies[i]! - e) / DOS_SIGMA) ** 2) / 2);
  }
  return {
    energies,
    states: states.map((x) => Math.round(x * 1e5) / 1e5),
    sigma: DOS_SIGMA,
    kmesh: [mesh, mesh, mesh],
    unit: 'states/eV per cell',
  };
}
