/**
 * The frames of a relax or MD answer, read for the structure view's player. The service sends N×3
 * Cartesian positions per frame, bare or as objects with `positions` (and sometimes `step`, `energy`
 * or the frame's own `lattice`); a frame that cannot be read, or has another number of atoms than the
 * structure that was sent, is refused with a message rather than drawn wrong. Pure.
 */
import { cartToFrac } from '../../core/poscar/index';
import type { Mat3, Poscar, Vec3 } from '../../core/poscar/types';
import { isRecord } from '../../core/util/guards';
import { toNumber, toVec3Rows } from '../results/fields';
import { TRAJECTORY_NAMES } from '../results/readCommon';
import { MAX_TRAJECTORY_VALUES, type FrameData } from './protocol';

const POSITION_NAMES = ['positions', 'coords', 'cart_coords', 'cartesian'];
const LATTICE_NAMES = ['lattice', 'cell', 'lattice_mat', 'lattice_vectors'];
const ENERGY_NAMES = ['energy', 'energy_eV', 'total_energy', 'potential_energy'];

function field(record: Record<string, unknown>, names: readonly string[]): unknown {
  const name = names.find((n) => record[n] !== undefined);
  return name === undefined ? undefined : record[name];
}

/** The frames list of an answer, under any of the names the readers know. */
export function trajectoryOf(body: unknown): unknown {
  return isRecord(body) ? field(body, TRAJECTORY_NAMES) : undefined;
}

function toLattice(value: unknown): Mat3 | undefined {
  const rows = toVec3Rows(value);
  return rows?.length === 3 ? (rows as Mat3) : undefined;
}

interface FrameContext {
  input: Poscar;
  /** Energy per step, when the answer gives a series the frames' steps index (relax `energies`). */
  energies?: readonly (number | null)[];
}

function readFrame(frame: unknown, index: number, { input, energies }: FrameContext): FrameData | string {
  const record = isRecord(frame) ? frame : undefined;
  const positions = toVec3Rows(record ? field(record, POSITION_NAMES) : frame);
  if (!positions) return `frame ${index + 1} holds no list of [x, y, z] positions`;
  if (positions.length !== input.sites.length)
    return `frame ${index + 1} has ${positions.length} atoms, but the structure sent has ${input.sites.length}`;
  const own = record && toLattice(field(record, LATTICE_NAMES));
  const lattice = own ?? input.lattice;
  const step = record ? toNumber(record.step) : undefined;
  const energy =
    (record ? toNumber(field(record, ENERGY_NAMES)) : undefined) ?? (step !== undefined ? (energies?.[step] ?? undefined) : undefined);
  const caption = [step !== undefined ? `Step ${step}` : `Frame ${index + 1}`, energy !== undefined ? `${energy.toFixed(4)} eV` : '']
    .filter(Boolean)
    .join(' · ');
  const frac = positions.flatMap((p: Vec3) => cartToFrac(lattice, p));
  return { frac, ...(own ? { lattice: own } : {}), caption };
}

/** The frames to play, or why they cannot be played. */
export function readFrames(value: unknown, context: FrameContext): FrameData[] | string {
  if (!Array.isArray(value) || value.length === 0) return 'The answer has no trajectory frames.';
  if (value.length * context.input.sites.length * 3 > MAX_TRAJECTORY_VALUES) {
    return `The trajectory is too large to play (${value.length} frames of ${context.input.sites.length} atoms).`;
  }
  const frames: FrameData[] = [];
  for (const [i, frame] of value.entries()) {
    const read = readFrame(frame, i, context);
    if (typeof read === 'string') return `The trajectory cannot be played: ${read}.`;
    frames.push(read);
  }
  return frames;
}
