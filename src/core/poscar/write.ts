/** toPoscarText: VASP 5 text for a Poscar, read back by parsePoscar as the same structure. */
import type { Poscar } from './types';

// 16 decimals as pymatgen writes them: a round trip keeps positions to far better than 1e-8.
const number = (x: number): string => x.toFixed(16).padStart(21);
const row = (values: readonly number[]): string => values.map(number).join(' ');

function siteLine(site: Poscar['sites'][number], mode: Poscar['coordinateMode']): string {
  const flags = site.flags ? ` ${site.flags.map((free) => (free ? 'T' : 'F')).join(' ')}` : '';
  return `${row(mode === 'Direct' ? site.frac : site.cart)}${flags}${site.label ? ` ${site.label}` : ''}`;
}

/** Counts of the sites actually present, so the text is consistent even for a structure read with errors. */
function groupCounts(poscar: Poscar): number[] {
  const counts = poscar.species.map(() => 0);
  for (const site of poscar.sites) counts[site.speciesIndex]!++;
  return counts;
}

/**
 * VASP 5 text: scale 1.0 (the lattice as read, in Å), the element names line (omitted when a VASP 4
 * file named none, so that placeholders do not pass for elements), selective flags and labels kept,
 * and the lattice velocities, velocities and predictor-corrector blocks as read. `mode` defaults to
 * the file's own.
 */
export function toPoscarText(poscar: Poscar, mode: Poscar['coordinateMode'] = poscar.coordinateMode): string {
  const lines = [poscar.comment, '1.0', ...poscar.lattice.map(row)];
  if (poscar.speciesSource !== 'unknown') lines.push(poscar.species.join(' '));
  lines.push(groupCounts(poscar).join(' '));
  if (poscar.selectiveDynamics) lines.push('Selective dynamics');
  lines.push(mode);
  for (const site of poscar.sites) lines.push(siteLine(site, mode));
  if (poscar.latticeVelocities) lines.push('Lattice velocities and vectors', '  1', ...poscar.latticeVelocities.map(row));
  if (poscar.velocities) {
    // VASP reads a blank line before the velocities as Cartesian; Direct needs saying.
    lines.push(poscar.velocityMode === 'Direct' ? 'Direct' : '', ...poscar.velocities.map(row));
    // Predictor-corrector data only follows velocities: without them it would be read as velocities.
    if (poscar.predictorCorrector) lines.push('', ...poscar.predictorCorrector);
  }
  return `${lines.join('\n')}\n`;
}
