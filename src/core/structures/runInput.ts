/**
 * What a run sends for a structure file of any registered format: POSCAR text, the file's own for a
 * POSCAR, else one frame converted (the frame shown in the 3D view's player if given, else the last of a
 * trajectory or a run's ionic steps, the first block of a CIF). Refused, with why and what to do: a file
 * with errors, one with no structure, a frame with partial occupancy; worded in the Locale given. Pure.
 */
import { formatEntry, errorsOf } from './formats';
import { frameToPoscarText, refusalToRun } from './poscar';
import type { SourceRange } from './types';
import { ENGLISH, plural, type Locale } from '../util/locale';

export interface RunPoscar {
  /** The POSCAR text to send. */
  text: string;
  /** The frame sent (0-based) and how many the file has; absent for a POSCAR sent as it is. */
  frame?: number;
  frames?: number;
}

export interface RunRefusal {
  refuse: string;
  /** Where the problem is, to select it. */
  at?: SourceRange;
}

export function runPoscar(
  format: string,
  text: string,
  name: string,
  shownFrame?: number,
  locale: Locale = ENGLISH,
): RunPoscar | RunRefusal {
  const { t } = locale;
  const entry = formatEntry(format);
  if (!entry?.structure)
    return {
      refuse: t(
        '{0} is not a structure file Token Lens reads ({1}): open a POSCAR, CIF, XYZ, XDATCAR, OUTCAR or vasprun.xml.',
        name,
        format,
      ),
    };
  const file = entry.structure(entry.parse(text, locale), locale);
  const errors = errorsOf(file);
  if (errors.length)
    return {
      refuse: plural(
        locale,
        errors.length,
        '{1} has {0} error, so Token Lens did not send it. {2}',
        '{1} has {0} errors, so Token Lens did not send it. {2}',
        name,
        errors[0]!.message,
      ),
      at: errors[0]!.range,
    };
  if (format === 'poscar') return { text };
  if (!file.frames.length) return { refuse: t('{0} holds no structure to send.', name) };
  const index =
    shownFrame !== undefined && shownFrame >= 0 && shownFrame < file.frames.length
      ? shownFrame
      : format === 'cif'
        ? 0
        : file.frames.length - 1;
  const frame = file.frames[index]!;
  const refused = refusalToRun(frame, name, locale);
  if (refused) return { refuse: refused, at: { line: frame.lines.first, start: 0, end: 0 } };
  if (frame.species.length === 0) return { refuse: t('{0}: the frame to send ({1}) has no atoms.', name, index + 1) };
  return { text: frameToPoscarText(frame), frame: index, frames: file.frames.length };
}

export const isRefusal = (value: RunPoscar | RunRefusal): value is RunRefusal => 'refuse' in value;
