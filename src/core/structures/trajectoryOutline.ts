/**
 * What the trajectory readers (XYZ, extended XYZ, XDATCAR) share: the limits that keep a hostile or huge
 * file from exhausting memory, and an outline that stays usable for a long run (frames grouped by 100,
 * groups grouped by 100 again). Pure: no `vscode`.
 */
import type { OutlineEntry } from './types';
import { ENGLISH, type Locale } from '../util/locale';

/** Frames kept from one file; past this the rest is left out with a warning. */
export const MAX_FRAMES = 100_000;
/** Atoms in one frame. */
export const MAX_FRAME_ATOMS = 1_000_000;
/** Atoms over all frames kept (each costs a position, maybe a force): about 0.5 GB at most. */
export const MAX_TOTAL_SITES = 5_000_000;
/** Entries in one level of the outline. */
export const OUTLINE_GROUP = 100;

/**
 * The outline of a trajectory: one entry per frame, and for more than 100 frames, sections of 100
 * ('frames 1–100', 'frames 101–200', …), themselves grouped by 100 until the top level has at most 100.
 */
export function groupFrames(entries: OutlineEntry[], { t }: Locale = ENGLISH): OutlineEntry[] {
  let level = entries;
  let size = 1;
  while (level.length > OUTLINE_GROUP) {
    const grouped: OutlineEntry[] = [];
    const total = entries.length;
    for (let i = 0; i < level.length; i += OUTLINE_GROUP) {
      const children = level.slice(i, i + OUTLINE_GROUP);
      const first = i * size + 1;
      const last = Math.min((i + children.length) * size, total);
      grouped.push({
        name: t('frames {0}–{1}', first, last),
        detail: t('{0} frames', last - first + 1),
        kind: 'section',
        lines: { first: children[0]!.lines.first, last: children[children.length - 1]!.lines.last },
        children,
      });
    }
    level = grouped;
    size *= OUTLINE_GROUP;
  }
  return level;
}

/** '12 atoms' plus the energy when the frame has one: the detail of a frame's outline entry. */
export function frameDetail(atoms: number, energy?: number, { t }: Locale = ENGLISH): string {
  const count = atoms === 1 ? t('{0} atom', atoms) : t('{0} atoms', atoms);
  return energy === undefined ? count : t('{0}, E = {1} eV', count, energy.toFixed(4));
}
