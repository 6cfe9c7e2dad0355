/**
 * The band structure's k-path: Setyawan & Curtarolo's (Comput. Mater. Sci. 49, 299, 2010; the core's
 * crystallography/kpath.ts, the same code as the editor's KPOINTS command) for the Bravais lattice of the space group
 * when one is given (spaceGroup.ts finds it with moyo, as the editor's Generate KPOINTS does), else for the lattice
 * the cell's metric shows; written in the cell's own reciprocal basis and sampled at a density per Å⁻¹. Pure.
 *
 * From the metric alone: a cubic cell, SC's primitive FCC (α = β = γ = 60°) and BCC (109.47°) cells, a rhombohedral
 * cell, a hexagonal cell, tetragonal and orthorhombic cells and a monoclinic one; anything else takes SC's
 * triclinic path. A conventional cubic FCC or BCC cell takes the simple-cubic path (its own Brillouin zone).
 */
import {
  ANGLE_TOLERANCE,
  bravaisFromMetric,
  kPathOfSpaceGroup,
  LENGTH_TOLERANCE,
  pointsIn,
  samplePath,
  setyawanCurtarolo,
  type SampledPath,
  type Variant,
} from '../../core/crystallography/kpath';
import type { Standardized } from '../../core/crystallography/kpoints';
import type { Mat3 } from './cell';

export { ANGLE_TOLERANCE, LENGTH_TOLERANCE };
export type { KLabel } from '../../core/crystallography/kpath';

export interface KPath extends SampledPath {
  /** SC's lattice variant: 'FCC', 'BCT2', 'MCLC3', 'TRI1a', … */
  variant: Variant;
}

/** SC's variant of the lattice the cell's a b c α β γ show. */
export const bravaisLattice = (lattice: Mat3): Variant => {
  const { bravais, conventional } = bravaisFromMetric(lattice);
  return setyawanCurtarolo(bravais, conventional).variant;
};

/**
 * Samples the path in the cell's reciprocal basis: a segment of length L (Å⁻¹, with the 2π) gets
 * ceil(density × L) intervals, at least one, so `density` is k-points per Å⁻¹ (pymatgen's line_density).
 */
export function kPath(lattice: Mat3, density: number, spaceGroup?: Standardized): KPath {
  const definition = spaceGroup
    ? kPathOfSpaceGroup(spaceGroup.number, spaceGroup.conventionalLattice)
    : (({ bravais, conventional }) => setyawanCurtarolo(bravais, conventional))(bravaisFromMetric(lattice));
  return { variant: definition.variant, ...samplePath(pointsIn(definition, lattice), definition.branches, lattice, density) };
}
