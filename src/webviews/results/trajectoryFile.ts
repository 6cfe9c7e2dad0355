/**
 * The trajectory analysis of a multi-frame file (XDATCAR, multi-frame extended XYZ, any periodic trajectory): its
 * frames as an MD answer without energies, so that the result view draws the same g(r) and MSD with D that it draws
 * for an MD run (readTrajectory.ts over core/crystallography/trajectory.ts). Each frame keeps its own cell, so a
 * variable-cell XDATCAR is analysed in its own cells. Not a run of the service: a record made from the file. Pure.
 */
import { frameToPoscarText } from '../../core/structures/poscar';
import type { StructureFile, StructureFrame } from '../../core/structures/types';
import type { RunRecord } from '../../core/runs/run';
import { FILE_SUMMARY_PREFIX } from './relaxationFile';

/** The record id of a file's trajectory analysis: a file summary's, so Show 3D opens the file's own view. */
export const TRAJECTORY_ANALYSIS_PREFIX = `${FILE_SUMMARY_PREFIX}trajectory:`;

const periodic = (f: StructureFrame): boolean => f.lattice !== null && f.pbc.every(Boolean);

/** Whether a file has what the analysis needs: two or more periodic frames. */
export function hasTrajectory(file: StructureFile): boolean {
  return file.frames.length > 1 && file.frames.every(periodic);
}

/** Why a file's frames cannot be analysed, or undefined when they can. */
function refusal(name: string, frames: readonly StructureFrame[]): string | undefined {
  if (frames.length < 2)
    return `${name} has ${frames.length === 1 ? 'one frame' : 'no frame'}: g(r) and the MSD need a trajectory of two or more.`;
  const open = frames.findIndex((f) => !periodic(f));
  if (open >= 0) return `Frame ${open + 1} of ${name} has no periodic cell (a Lattice= with pbc on all three axes): no g(r) or MSD.`;
  const first = frames[0]!.species;
  const other = frames.findIndex((f) => f.species.length !== first.length || f.species.some((s, i) => s !== first[i]));
  if (other >= 0) return `Frame ${other + 1} of ${name} does not have the atoms of frame 1 in the same order: no MSD can follow them.`;
  return undefined;
}

/** The analysis as a finished MD record, or why the file has none. */
export function trajectoryRecord(uri: string, name: string, file: StructureFile, label: string, now = Date.now()): RunRecord | string {
  const refused = refusal(name, file.frames);
  if (refused) return refused;
  const answer: Record<string, unknown> = {
    method:
      `${label} read by Token Lens: g(r) and the mean squared displacement of its ${file.frames.length} frames, computed on this machine ` +
      '(Allen & Tildesley §8.2; D from MSD = 6Dt, Maginn et al. 2019); the file gives no timestep, so lags are in frames',
    trajectory: file.frames.map((f) => ({ positions: f.positions, lattice: f.lattice })),
    final_poscar: frameToPoscarText(file.frames[file.frames.length - 1]!),
  };
  return {
    id: `${TRAJECTORY_ANALYSIS_PREFIX}${uri}`,
    kind: 'md',
    inputUri: uri,
    inputName: `${name} (trajectory analysis)`,
    inputText: frameToPoscarText(file.frames[0]!),
    startedAt: now,
    state: 'done',
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: { type: 'json', value: answer } },
  };
}
