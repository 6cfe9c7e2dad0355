/**
 * Relaxation of the positions and the cell together, as ASE's UnitCellFilter does it: the degrees of freedom are
 * the positions in the starting cell and the deformation D of that cell (lattice = lattice0 · D), scaled by the
 * number of atoms; FIRE (relax.ts) moves them all, driven by the forces carried back to the starting cell and by
 * −(D⁻ᵀ W)/N for the cell, W being the virial ∂E/∂ε. It ends when no atom feels more than fmax and no stress
 * component is larger than smax. Pure; a generator that yields after every step.
 */
import type { Cell, Mat3, Vec3 } from './cell';
import { norm, volume } from './cell';
import { projector } from './constraints';
import { forceFieldFor } from './forceField';
import { FrameRecorder } from './frames';
import { EV_PER_A3_IN_GPA } from './potential';
import { Fire, type RelaxOptions, type RelaxResult } from './relax';
import type { Steps } from '../../core/util/steps';

/** GPa: the largest stress component a relaxed cell may keep. */
export const STRESS_THRESHOLD_GPA = 0.1;

export interface CellRelaxResult extends RelaxResult {
  lattice: Mat3;
  /** GPa, the largest stress component at each step. */
  stressMax: number[];
}

const times = (r: Vec3, m: Mat3): Vec3 => [0, 1, 2].map((c) => r[0] * m[0][c]! + r[1] * m[1][c]! + r[2] * m[2][c]!) as Vec3;
const transposed = (m: Mat3): Mat3 => [0, 1, 2].map((r) => [m[0][r], m[1][r], m[2][r]]) as Mat3;
const product = (a: Mat3, b: Mat3): Mat3 => a.map((row) => times(row, b)) as Mat3;

function inverse(m: Mat3): Mat3 {
  const [a, b, c] = m;
  const det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
  const cof = (r: number, k: number): number => {
    const rows = [0, 1, 2].filter((x) => x !== r);
    const cols = [0, 1, 2].filter((x) => x !== k);
    const minor = m[rows[0]!]![cols[0]!]! * m[rows[1]!]![cols[1]!]! - m[rows[0]!]![cols[1]!]! * m[rows[1]!]![cols[0]!]!;
    return ((r + k) % 2 === 0 ? 1 : -1) * minor;
  };
  return [0, 1, 2].map((r) => [0, 1, 2].map((k) => cof(k, r) / det)) as Mat3;
}

/** Voigt xx yy zz yz xz xy to the symmetric matrix. */
const fullVirial = (w: readonly number[]): Mat3 => [
  [w[0]!, w[5]!, w[4]!],
  [w[5]!, w[1]!, w[3]!],
  [w[4]!, w[3]!, w[2]!],
];

export function* relaxCell(cell: Cell, options: RelaxOptions): Steps<CellRelaxResult> {
  const n = cell.positions.length;
  const project = projector(cell.lattice, options.flags);
  const evaluate = options.evaluate ?? forceFieldFor(cell.symbols).evaluate;
  const fire = new Fire();
  const recorder = new FrameRecorder();
  const result = { energies: [] as number[], forcesMax: [] as number[], stressMax: [] as number[] };
  let reference = cell.positions;
  let deformation: Mat3 = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (let step = 0; ; step++) {
    const lattice = product(cell.lattice, deformation);
    const positions = reference.map((r) => times(r, deformation));
    const { energy, forces, virial } = evaluate({ ...cell, lattice, positions });
    project(forces);
    const stress = Math.max(...virial.map((w) => Math.abs((w / volume(lattice)) * EV_PER_A3_IN_GPA)));
    result.energies.push(energy);
    result.forcesMax.push(Math.max(0, ...forces.map(norm)));
    result.stressMax.push(stress);
    recorder.add(step, positions);
    const done = result.forcesMax[step]! < options.fmax && stress < STRESS_THRESHOLD_GPA;
    if (done || step >= options.maxSteps) {
      return { converged: done, steps: step, ...result, positions, lattice, frames: recorder.finish(step, positions) };
    }
    // Forces on the positions in the starting cell, and on the deformation (per atom, as ASE scales it).
    const back = forces.map((f) => times(f, transposed(deformation)));
    const cellForce = product(transposed(inverse(deformation)), fullVirial(virial)).map((row) => row.map((x) => -x / n) as Vec3);
    const moves = fire.step([...back, ...cellForce]);
    reference = reference.map((r, i) => [r[0] + moves[i]![0], r[1] + moves[i]![1], r[2] + moves[i]![2]] as Vec3);
    deformation = deformation.map((row, r) => row.map((x, c) => x + moves[n + r]![c]! / n)) as Mat3;
    yield;
  }
}
