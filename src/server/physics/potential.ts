/**
 * What every force field answers (energy, forces, virial) and the stress convention the answers use. Pure.
 */
import { volume, type Cell, type Vec3 } from './cell';

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
