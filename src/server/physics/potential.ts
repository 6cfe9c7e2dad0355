/**
 * What every force field answers (energy, forces, virial) and the stress convention the answers use. Pure.
 */
import { volume, type Cell, type Vec3 } from './cell';
import type { NeighborList } from './neighbors';

/** 1 eV/Å³ in GPa. */
export const EV_PER_A3_IN_GPA = 160.21766208;

export interface Evaluation {
  /** eV */
  energy: number;
  /** eV/Å, one per atom */
  forces: Vec3[];
  /** dE/dε (eV), the strain derivative, Voigt order xx yy zz yz xz xy; stress = virial / volume. */
  virial: number[];
}

/** Stress in GPa, ASE's sign convention σ = (1/V)·∂E/∂ε: positive is tensile, negative compressive. */
export function stressGPa(virial: readonly number[], cell: Cell): number[] {
  const v = volume(cell.lattice);
  return virial.map((w) => (w / v) * EV_PER_A3_IN_GPA);
}

/**
 * Adds pair n of the list to the forces and the virial, for a pair energy whose derivative along the bond over its
 * length is g (eV/Å²): the force on i is g·d, the opposite on j, and the virial takes g·d⊗d (Voigt order).
 */
export function addPairTerm(forces: Vec3[], virial: number[], list: NeighborList, n: number, g: number): void {
  const i = list.i[n]!;
  const j = list.j[n]!;
  const dx = list.d[3 * n]!;
  const dy = list.d[3 * n + 1]!;
  const dz = list.d[3 * n + 2]!;
  forces[i]![0] += g * dx;
  forces[i]![1] += g * dy;
  forces[i]![2] += g * dz;
  forces[j]![0] -= g * dx;
  forces[j]![1] -= g * dy;
  forces[j]![2] -= g * dz;
  addToVirial(virial, g, dx, dy, dz);
}

/** Adds a pair's part of the virial, g d⊗d (Voigt order), for dE/dr / r = g at separation d. */
export function addToVirial(virial: number[], g: number, dx: number, dy: number, dz: number): void {
  virial[0]! += g * dx * dx;
  virial[1]! += g * dy * dy;
  virial[2]! += g * dz * dz;
  virial[3]! += g * dy * dz;
  virial[4]! += g * dx * dz;
  virial[5]! += g * dx * dy;
}
