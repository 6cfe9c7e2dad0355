/** The relaxation answer: the relaxed structure, energy and largest force per step, the threshold. */
import type { Fields } from './fields';
import type { RelaxModel, Series } from './model';
import { atomCount, POSCAR_NAMES, toTrajectory, TRAJECTORY_NAMES, type KindContext, type Read } from './readCommon';

const first = (s: Series): number | undefined => s.find((x): x is number => x !== null);
const last = (s: Series): number | undefined => first([...s].reverse());

export function readRelax(f: Fields, context: KindContext): Read<RelaxModel> {
  const energies = f.series(['energies', 'energies_eV', 'energy_trajectory']) ?? [];
  // `fmax` is either the per-step list or the threshold.
  const forcesMax = f.series(['forces_max', 'max_forces', 'forces_max_eV_per_A']) ?? f.series(['fmax'], true) ?? [];
  const trajectory = f.read(TRAJECTORY_NAMES, toTrajectory, f.t('a list of frames of [x, y, z] positions'));
  if (trajectory) atomCount(f.warnings, context, [['trajectory', trajectory.atoms, f.t('atoms per frame')]]);
  const recorded = Math.max(energies.length, forcesMax.length);
  return {
    kind: 'relax',
    converged: f.boolean('converged', 'is_converged', 'relaxation_converged'),
    finalPoscar: f.text(...POSCAR_NAMES, 'structure'),
    initialEnergy: f.number('initial_energy', 'initial_energy_eV', 'energy_initial') ?? first(energies),
    finalEnergy: f.number('final_energy', 'final_energy_eV', 'energy_final', 'energy', 'energy_eV') ?? last(energies),
    energies,
    forcesMax,
    trajectory,
    // Without a count, the lists are taken to start at the input structure (step 0).
    steps: f.count('steps_taken', 'steps', 'nsteps', 'n_steps', 'num_steps') ?? (recorded ? recorded - 1 : undefined),
    maxSteps: f.count('max_steps', 'maxsteps', 'steps_max'),
    fmax: f.number('fmax', 'fmax_threshold', 'force_threshold', 'fmax_target'),
  };
}
