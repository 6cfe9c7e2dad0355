/**
 * The structure analysis of an MD answer's trajectory: g(r) (total and per element pair) and the MSD with D
 * (core/crystallography/trajectory.ts), from the frames' positions, the cell and elements of the final POSCAR, and
 * the frames' steps times the timestep. Pure; what cannot be analysed is said in a note.
 */
import { isRecord } from '../../core/util/guards';
import { parsePoscar } from '../../core/poscar/index';
import {
  meanSquaredDisplacement,
  minimumImageRMax,
  radialDistribution,
  TrajectoryError,
  unwrap,
  type PeriodicFrame,
} from '../../core/crystallography/trajectory';
import type { Mat3, Vec3 } from '../../core/poscar/types';
import { toVec3Rows } from './fields';
import type { MdAnalysis } from './model';

/** g(r) shells of this width, Å. */
const DR = 0.05;
/** Frames g(r) averages at most (evenly picked): the reader runs on the extension host. */
const RDF_FRAMES = 20;
/** Atom displacements the MSD sums at most (frames²·atoms/2): longer runs use every k-th frame. */
const MSD_WORK = 3e7;

/** Every k-th item, k the smallest that keeps `fits` true. */
function thin<T>(items: readonly T[], fits: (count: number) => boolean): { items: T[]; stride: number } {
  let stride = 1;
  while (!fits(Math.ceil(items.length / stride))) stride++;
  return { items: items.filter((_, i) => i % stride === 0), stride };
}

interface FramePositions {
  positions: Vec3[];
  step?: number;
  /** The frame's own cell (a variable-cell run, an XDATCAR of NpT), when it gives one. */
  lattice?: Mat3;
}

function framePositions(frame: unknown): FramePositions | undefined {
  const positions = toVec3Rows(isRecord(frame) ? (frame.positions ?? frame.coords ?? frame.cart_coords) : frame);
  if (!positions) return undefined;
  const step = isRecord(frame) && typeof frame.step === 'number' && Number.isFinite(frame.step) ? frame.step : undefined;
  const cell = isRecord(frame) ? toVec3Rows(frame.lattice ?? frame.cell) : undefined;
  return { positions, ...(step !== undefined ? { step } : {}), ...(cell?.length === 3 ? { lattice: cell as Mat3 } : {}) };
}

/** The analysis, or a note saying why there is none; undefined when the answer has no trajectory at all. */
export function analyseTrajectory(raw: unknown, poscarText: string | undefined, timestepFs: number | undefined): MdAnalysis | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const frames = raw.map(framePositions);
  if (frames.some((f) => !f)) return { note: 'The trajectory has frames without positions: no g(r) or MSD.' };
  const poscar = poscarText ? parsePoscar(poscarText).poscar : undefined;
  if (!poscar) return { note: 'The answer has no final POSCAR to take the cell from: no g(r) or MSD.' };
  const species = poscar.sites.map((s) => s.species);
  const usable = frames.filter((f) => f!.positions.length === species.length);
  if (usable.length !== frames.length)
    return { note: `The frames do not all have the ${species.length} atoms of the final POSCAR: no g(r) or MSD.` };
  const periodic: PeriodicFrame[] = usable.map((f) => ({ lattice: f!.lattice ?? poscar.lattice, species, positions: f!.positions }));
  const unit = usable.every((f) => f!.step !== undefined) && timestepFs ? 'fs' : 'frame';
  const times = unit === 'fs' ? usable.map((f) => f!.step! * timestepFs!) : usable.map((_, i) => i);
  return analysePeriodic(periodic, times, unit);
}

/** g(r) and the MSD of periodic frames at the given times (fs, or frame numbers). */
function analysePeriodic(periodic: PeriodicFrame[], times: number[], unit: 'fs' | 'frame'): MdAnalysis {
  const atoms = periodic[0]!.species.length;
  const analysis: MdAnalysis = {};
  try {
    const rMax = minimumImageRMax(periodic);
    const nbins = Math.max(10, Math.round(rMax / DR));
    const rdf = radialDistribution(thin(periodic, (n) => n <= RDF_FRAMES).items, rMax, nbins);
    analysis.rdf = { r: rdf.r, total: rdf.total, pairs: rdf.pairs.map((p) => ({ label: `${p.a}–${p.b}`, g: p.g })), frames: rdf.frames };
  } catch (error) {
    if (!(error instanceof TrajectoryError)) throw error;
    analysis.note = `No g(r): ${error.message}`;
  }
  // The MSD's origins need equal spacing: a last frame off the stride (the run's final step) is left out of it.
  let even = times.length;
  while (even > 2 && Math.abs(times[even - 1]! - times[0]! - (even - 1) * (times[1]! - times[0]!)) > 1e-6 * Math.abs(times[1]! - times[0]!))
    even--;
  try {
    const fits = (n: number) => (n * n * atoms) / 2 <= MSD_WORK;
    const positions = thin(unwrap(periodic).slice(0, even), fits).items;
    const msd = meanSquaredDisplacement(positions, thin(times.slice(0, even), fits).items);
    analysis.msd = {
      lag: msd.lag,
      msd: msd.msd,
      unit,
      ...(msd.diffusion !== undefined ? { diffusion: msd.diffusion, window: msd.window! } : {}),
    };
  } catch (error) {
    if (!(error instanceof TrajectoryError)) throw error;
    analysis.note = `${analysis.note ? `${analysis.note} ` : ''}No MSD: ${error.message}`;
  }
  return analysis;
}
