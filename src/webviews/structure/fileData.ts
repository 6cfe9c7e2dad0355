/**
 * What the 3D view is sent for a structure file of any registered format: its first frame, and for a
 * file of several frames (a trajectory, ionic steps, CIF blocks of one structure) every frame to play,
 * each with its title and energy. A molecule is drawn in a box around every frame, without a cell. A
 * trajectory larger than the view takes is thinned evenly (the captions keep the file's frame numbers).
 * Pure.
 */
import { cartToFrac } from '../../core/poscar/structure';
import type { Mat3, Vec3 } from '../../core/poscar/types';
import { boxMolecule } from '../../core/structures/poscar';
import { fileLine } from '../../core/structures/summary';
import type { StructureFile, StructureFrame } from '../../core/structures/types';
import { MAX_TRAJECTORY_VALUES, type FrameData, type StructureData } from './protocol';

const sameLattice = (a: Mat3, b: Mat3): boolean => a.every((row, i) => row.every((x, k) => Math.abs(x - b[i]![k]!) < 1e-9));

/** "Step 3 · −43.2130 eV" from a frame's title and energy. */
export function frameCaption(frame: StructureFrame, index: number): string {
  const name = frame.title.replace(/\s+/g, ' ').trim().slice(0, 120) || `Frame ${index + 1}`;
  return [name, frame.energy !== undefined ? `${frame.energy.toFixed(4)} eV` : ''].filter(Boolean).join(' · ');
}

/** The file's frame indices to play: every one, or an even selection within the view's budget. */
export function playedFrames(count: number, atoms: number, budget = MAX_TRAJECTORY_VALUES): number[] {
  const most = Math.max(1, Math.floor(budget / Math.max(1, 3 * atoms)));
  if (count <= most) return Array.from({ length: count }, (_, i) => i);
  const picked = Array.from({ length: most }, (_, i) => Math.round((i * (count - 1)) / Math.max(1, most - 1)));
  return [...new Set(picked)];
}

/** The 3D view's data for a structure file, or why there is nothing to show. */
export function fileStructureData(file: StructureFile, label: string): StructureData | string {
  const first = file.frames[0];
  if (!first) return 'no structure could be read';
  if (first.species.length === 0) return 'the first frame has no atoms';
  // Frames of another atom count or order (a grand-canonical XYZ) cannot be played as one trajectory.
  const same: number[] = [];
  file.frames.forEach((f, i) => {
    if (f.species.length === first.species.length && f.species.every((s, k) => s === first.species[k])) same.push(i);
  });
  const played = playedFrames(same.length, first.species.length).map((i) => same[i]!);
  const molecule = first.lattice === null;
  let box = first.lattice;
  let shift: Vec3 = [0, 0, 0];
  if (!box) {
    // One box around every played frame, so that no frame's atoms wrap.
    const all = played.flatMap((i) => file.frames[i]!.positions);
    const boxed = boxMolecule(all);
    box = boxed.lattice;
    shift = [0, 1, 2].map((k) => boxed.positions[0]![k]! - all[0]![k]!) as Vec3;
  }
  const lattice = box;
  const frac = (positions: readonly Vec3[]): number[] =>
    positions.flatMap((p) => cartToFrac(lattice, [p[0] + shift[0], p[1] + shift[1], p[2] + shift[2]]));
  const frames: FrameData[] | undefined =
    played.length > 1
      ? played.map((i) => {
          const f = file.frames[i]!;
          return {
            frac: frac(f.positions),
            ...(f.lattice && !molecule && !sameLattice(f.lattice, lattice) ? { lattice: f.lattice } : {}),
            caption: frameCaption(f, i),
            source: i,
          };
        })
      : undefined;
  const skipped = file.frames.length - same.length;
  return {
    lattice,
    elements: [...first.species],
    frac: frac(first.positions),
    labels: first.species.map((s, i) => `${s} ${i + 1}${first.labels?.[i] ? ` ${first.labels[i]}` : ''}`),
    summary:
      fileLine(file, label) +
      (skipped ? ` · ${skipped} ${skipped === 1 ? 'frame' : 'frames'} with other atoms not played` : '') +
      (frames && frames.length < same.length ? ` · playing ${frames.length} of ${same.length} frames` : ''),
    ...(frames ? { frames } : {}),
    ...(molecule ? { molecule: true } : {}),
  };
}
