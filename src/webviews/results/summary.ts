/**
 * What a result view says in words: a headline and a few facts per kind, the band gap statement and
 * the energy zero of a band plot. Pure: used by the page, tested in Node.
 */
import { fixed, lastNumber, short, signed } from './format';
import type { BandsModel, MdModel, RelaxModel, SinglePointModel } from './model';
import type { ResultView } from './protocol';
import { quantity } from '../../core/util/quantity';

export interface Summary {
  headline: string;
  facts: string[];
}

const magnitude = (f: readonly number[]): number => Math.hypot(f[0]!, f[1]!, f[2]!);

/** Mean stress trace with the sign flipped: positive when the cell is compressed (tensile stress positive). */
export const pressure = (stress: readonly (readonly number[])[]): number => -(stress[0]![0]! + stress[1]![1]! + stress[2]![2]!) / 3;

function relax(m: RelaxModel): Summary {
  const steps = m.steps === undefined ? '' : ` ${m.steps === 1 ? 'in 1 step' : `in ${m.steps} steps`}`;
  const limit = m.maxSteps !== undefined && m.steps !== undefined && m.steps >= m.maxSteps ? ' (the step limit)' : '';
  const headline =
    m.converged === true
      ? `Converged${steps}`
      : m.converged === false
        ? `Not converged${steps.replace(' in ', ' after ')}${limit}`
        : m.finalPoscar
          ? 'Relaxed structure returned'
          : 'Relaxation';
  const facts: string[] = [];
  if (m.initialEnergy !== undefined && m.finalEnergy !== undefined) {
    const dE = m.finalEnergy - m.initialEnergy;
    const perAtom = m.natoms ? `, ${signed(dE / m.natoms, 4)} eV/atom` : '';
    facts.push(`Energy ${fixed(m.initialEnergy, 4)} → ${fixed(m.finalEnergy, 4)} eV (ΔE ${signed(dE, 4)} eV${perAtom})`);
  } else if (m.finalEnergy !== undefined) facts.push(`Final energy ${fixed(m.finalEnergy, 4)} eV`);
  const force = lastNumber(m.forcesMax);
  if (force !== undefined) {
    const threshold = m.fmax === undefined ? '' : `, ${force < m.fmax ? 'below' : 'above'} the threshold ${short(m.fmax)} eV/Å`;
    facts.push(`Final maximum force ${short(force)} eV/Å${threshold}`);
  }
  if (m.trajectory) facts.push(`Trajectory: ${quantity(m.trajectory.frames, 'frame')} of ${quantity(m.trajectory.atoms, 'atom')}`);
  return { headline, facts };
}

function singlePoint(m: SinglePointModel, elements: readonly string[]): Summary {
  const perAtom =
    m.energyPerAtom === undefined ? '' : ` · ${fixed(m.energyPerAtom, 4)} eV/atom${m.energyPerAtomComputed ? ' (E / atoms)' : ''}`;
  const headline = m.energy === undefined ? 'Single point' : `E = ${fixed(m.energy, 4)} eV${perAtom}`;
  const facts: string[] = [];
  if (m.forces?.length) {
    const largest = m.forces.reduce((best, f, i) => (magnitude(f) > magnitude(m.forces![best]!) ? i : best), 0);
    const element = elements[largest] ?? m.species?.[largest];
    facts.push(`Largest force ${fixed(magnitude(m.forces[largest]!), 4)} eV/Å on atom ${largest + 1}${element ? ` (${element})` : ''}`);
  } else if (m.maxForce !== undefined) facts.push(`Largest force ${short(m.maxForce)} eV/Å`);
  if (m.stress) {
    const p = pressure(m.stress);
    facts.push(
      `Pressure ${fixed(p, 3)} GPa${p > 0 ? ': compressed, the cell would expand if relaxed' : p < 0 ? ': under tension, the cell would shrink if relaxed' : ''}`,
    );
  }
  return { headline, facts };
}

function md(m: MdModel): Summary {
  const n = m.time.length;
  const span = n > 1 ? (m.timeUnit === 'fs' ? ` · ${short(m.time[n - 1]! - m.time[0]!)} fs` : '') : '';
  const steps = m.steps ?? (n > 0 ? n - 1 : undefined);
  const mean = m.averageTemperature === undefined ? '' : ` · mean T ${fixed(m.averageTemperature, 1)} K`;
  const facts: string[] = [];
  if (m.finalTemperature !== undefined)
    facts.push(
      `Final temperature ${fixed(m.finalTemperature, 1)} K${m.targetTemperature === undefined ? '' : ` (${m.thermostat ? 'target' : 'initial'} ${short(m.targetTemperature)} K)`}`,
    );
  if (m.energyDrift !== undefined)
    facts.push(`Energy drift ${signed(m.energyDrift, 6)} eV/atom${m.energyDriftComputed ? ' (last − first total energy, per atom)' : ''}`);
  if (m.trajectory) facts.push(`Trajectory: ${quantity(m.trajectory.frames, 'frame')} of ${quantity(m.trajectory.atoms, 'atom')}`);
  return { headline: `${steps === undefined ? 'Molecular dynamics' : quantity(steps, 'step')}${span}${mean}`, facts };
}

/** Where on the path a k-point is: its label, or its distance between the labels around it. */
function where(m: BandsModel, k: number | undefined): string | undefined {
  if (k === undefined || m.distances[k] === undefined) return undefined;
  const d = m.distances[k];
  const at = m.ticks.find((t) => Math.abs(t.distance - d) < 1e-6);
  if (at) return at.label;
  const before = [...m.ticks].reverse().find((t) => t.distance < d);
  const after = m.ticks.find((t) => t.distance > d);
  if (!before || !after) return `k = ${short(d, 3)}`;
  return `${fixed((d - before.distance) / (after.distance - before.distance), 2)} along ${before.label}–${after.label}`;
}

export function gapStatement(m: BandsModel): string {
  const { gap, direct, metal } = m.edges;
  if (metal) return 'Metal';
  if (gap === undefined) return 'Band structure';
  const [v, c] = [where(m, m.edges.vbmK), where(m, m.edges.cbmK)];
  if (direct === true) return `Direct gap ${fixed(gap, 3)} eV${v ? ` at ${v}` : ''}`;
  if (direct === false) return `Indirect gap ${fixed(gap, 3)} eV${v && c ? ` (${v} → ${c})` : ''}`;
  return `Gap ${fixed(gap, 3)} eV`;
}

/** The energy put at zero in the band plot: the VBM of a gapped material, else the Fermi level. */
export function bandReference(m: BandsModel): { value: number; name: 'VBM' | 'E_F' } | undefined {
  if (!m.edges.metal && m.edges.vbm !== undefined) return { value: m.edges.vbm, name: 'VBM' };
  return m.fermi === undefined ? undefined : { value: m.fermi, name: 'E_F' };
}

const SOURCES: Record<BandsModel['edges']['source'], (m: BandsModel) => string | undefined> = {
  service: () => undefined,
  electrons: (m) => `Band edges computed from ${short(m.nelectrons!)} electrons: the lowest ${short(m.nelectrons! / 2)} bands filled`,
  fermi: () => 'Band edges computed from the Fermi level: bands below it filled',
  headers: () => "Gap from the answer's headers",
  none: () => undefined,
};

function bands(m: BandsModel): Summary {
  const facts: string[] = [];
  if (m.edges.vbm !== undefined && m.edges.cbm !== undefined)
    facts.push(`VBM ${fixed(m.edges.vbm, 3)} eV, CBM ${fixed(m.edges.cbm, 3)} eV`);
  if (m.edges.directGap !== undefined) facts.push(`Smallest direct gap ${fixed(m.edges.directGap, 3)} eV`);
  if (m.fermi !== undefined) facts.push(`Fermi level ${fixed(m.fermi, 3)} eV`);
  if (m.path)
    facts.push(`Path ${m.path}${m.latticeType ? ` (${m.latticeType}${m.latticeTypeSource ? `, from ${m.latticeTypeSource}` : ''})` : ''}`);
  const source = SOURCES[m.edges.source](m);
  if (source) facts.push(source);
  if (m.distanceSource === 'kpoints') facts.push('k-distances computed from the fractional k-points, without the lattice: approximate');
  if (m.distanceSource === 'index' && m.bands.length) facts.push('No k-distances in the answer: x is the k-point index');
  return { headline: gapStatement(m), facts };
}

export function describe(view: ResultView): Summary {
  const m = view.model;
  if ('headline' in m) return { headline: m.headline, facts: [...m.facts, ...(m.method ? [`Method: ${m.method}`] : [])] };
  const summary =
    m.kind === 'relax' ? relax(m) : m.kind === 'singlePoint' ? singlePoint(m, view.elements) : m.kind === 'md' ? md(m) : bands(m);
  if (m.method) summary.facts.push(`Method: ${m.method}`);
  return summary;
}
