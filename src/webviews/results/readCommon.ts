/** What every reader of a run kind shares: its context and the atom-count check. */
import { isRecord, type Rec } from '../../core/util/guards';
import { kindLabel, type RunKind } from '../../core/runs/run';
import { ENGLISH, type Translate } from '../../core/util/locale';
import { MAX_POINTS, toVec3Rows } from './fields';
import type { ResultModel, Trajectory } from './model';

export interface ReadContext {
  /** Atoms in the structure that was sent, when it could be read. */
  atoms?: number;
  /** An application run: the request body that was sent (the match overlays the measured pattern it carried). */
  request?: Rec;
  /** Wording of what the readers name (an application's tables and plots); English when not given. */
  t?: Translate;
}

/** What a reader of one kind gets: the context, and the answer's own atom count. */
export interface KindContext extends ReadContext {
  natoms?: number;
}

/** What a kind's reader returns: its model without the parts read.ts adds to every kind. */
export type Read<M extends ResultModel> = Omit<M, 'extra' | 'images' | 'warnings' | 'method' | 'natoms' | 'species'>;

/** The warning of an answer none of whose fields a reader placed. */
export const unrecognised = (kind: RunKind, t: Translate = ENGLISH.t): string =>
  t('Nothing in the answer was recognised as a {0} result: all of it is under Other fields.', kindLabel(kind, t).toLowerCase());

/** The warning of an answer a reader failed on (its mistake, not the service's). */
export const unreadable = (error: unknown, t: Translate = ENGLISH.t): string =>
  t('This answer could not be read ({0}): all of it is under Other fields.', String(error));

/**
 * The number of atoms: the input structure's, else the answer's natoms, else the first count given.
 * Every count that disagrees is a warning ("forces: 7 rows, but the structure has 8 atoms"); `noun` is worded by
 * the caller (context.t).
 */
export function atomCount(
  warnings: string[],
  context: KindContext,
  counts: [name: string, n: number | undefined, noun: string][],
): number | undefined {
  const t = context.t ?? ENGLISH.t;
  const given = counts.filter((c): c is [string, number, string] => c[1] !== undefined);
  const first = given[0]?.[0];
  const atoms = context.atoms ?? context.natoms ?? given[0]?.[1];
  for (const [name, n, noun] of given) {
    if (n === atoms) continue;
    warnings.push(
      context.atoms !== undefined
        ? t('{0}: {1} {2}, but the structure has {3} atoms.', name, n, noun, atoms!)
        : context.natoms !== undefined
          ? t('{0}: {1} {2}, but natoms is {3} atoms.', name, n, noun, atoms!)
          : t('{0}: {1} {2}, but {3} has {4} atoms.', name, n, noun, first!, atoms!),
    );
  }
  return atoms;
}

function frameAtoms(frame: unknown): number | undefined {
  const positions = isRecord(frame) ? (frame.positions ?? frame.coords ?? frame.cart_coords) : frame;
  return toVec3Rows(positions)?.length;
}

/** Frames of N×3 Cartesian positions, bare or as objects with `positions`: counted, not kept. */
export function toTrajectory(value: unknown): Trajectory | undefined {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_POINTS) return undefined;
  const atoms = value.map(frameAtoms);
  return atoms.every((n) => n !== undefined) ? { frames: value.length, atoms: atoms[0]! } : undefined;
}

export const TRAJECTORY_NAMES = ['trajectory', 'frames', 'positions_trajectory'];
export const POSCAR_NAMES = ['final_poscar', 'relaxed_poscar', 'poscar', 'final_structure', 'contcar'];
