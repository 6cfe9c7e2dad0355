/**
 * The relaxation summary of a VASP output file (OUTCAR, vasprun.xml): its ionic steps as a relax
 * result, so that the result view draws the energy and the largest force per step with the force target
 * |EDIFFG| as it draws a run's. Not a run of the service: a record made from the file, kept by nobody.
 * Pure.
 */
import { frameToPoscarText } from '../../core/structures/poscar';
import { maxForce } from '../../core/structures/summary';
import type { StructureFile } from '../../core/structures/types';
import type { RunRecord } from '../../core/runs/run';

/** The record id of a file's summary: never a run id (those are random hex). */
export const FILE_SUMMARY_PREFIX = 'file:';

export const isFileSummary = (run: Pick<RunRecord, 'id'>): boolean => run.id.startsWith(FILE_SUMMARY_PREFIX);

/** The name of the file a summary was read from: the last segment of its URI. */
export function summaryFileName(run: Pick<RunRecord, 'inputUri'>): string {
  const path = run.inputUri.replace(/[?#].*$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || run.inputUri;
  } catch {
    return last || run.inputUri;
  }
}

const round = (x: number | undefined): number | null => (x === undefined || !Number.isFinite(x) ? null : x);

/** Whether a file has what a relaxation summary draws: an energy or forces on at least one frame. */
export function hasIonicSteps(file: StructureFile): boolean {
  return file.frames.some((f) => f.energy !== undefined || f.forces !== undefined);
}

/** The summary as a finished relax record, or why the file has none. */
export function relaxationRecord(uri: string, name: string, file: StructureFile, label: string, now = Date.now()): RunRecord | string {
  if (!hasIonicSteps(file)) return `${name} has no ionic step with an energy or forces yet, so there is nothing to summarise.`;
  const first = file.frames[0]!;
  const last = file.frames[file.frames.length - 1]!;
  const ediffg = file.outcome?.ediffg;
  const answer: Record<string, unknown> = {
    method: `${label} read by Token Lens: the energy and the largest force of each ionic step as VASP wrote them`,
    energies: file.frames.map((f) => round(f.energy)),
    forces_max: file.frames.map((f) => round(maxForce(f))),
    steps: file.frames.length - 1,
    final_poscar: frameToPoscarText(last),
    ...(ediffg !== undefined && ediffg < 0 ? { fmax: -ediffg } : {}),
    ...(ediffg !== undefined && ediffg >= 0 ? { ediffg_energy_target_eV: ediffg } : {}),
    ...(file.outcome?.converged !== undefined ? { converged: file.outcome.converged } : {}),
    ...(file.outcome?.fermi !== undefined ? { fermi_energy_eV: file.outcome.fermi } : {}),
    ...(file.outcome?.bandGap ? { band_gap_eV: file.outcome.bandGap.gap, band_gap_direct: file.outcome.bandGap.direct } : {}),
  };
  return {
    id: `${FILE_SUMMARY_PREFIX}${uri}`,
    kind: 'relax',
    inputUri: uri,
    inputName: `${name} (ionic steps)`,
    inputText: frameToPoscarText(first),
    startedAt: now,
    state: 'done',
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: { type: 'json', value: answer } },
  };
}
