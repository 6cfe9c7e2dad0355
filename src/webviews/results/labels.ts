/**
 * High-symmetry labels of a band path, in whatever form they come:
 *  - a list of {index | distance | kpoint, label} objects, or of [position, label] pairs;
 *  - one string per k-point ('' where there is none);
 *  - names with a parallel list of positions (`label_indices`, `label_distances`, …);
 *  - an object {label: position}.
 * A position is a k-point index, a k-distance, or fractional coordinates (matched against the
 * k-points, every match ticked). Bare numbers are indices when all are whole and below the k-point
 * count, else distances. Labels are normalised as the core's k-paths write them (core/crystallography/kpathLabels.ts:
 * G, \Gamma, $\Gamma$, GAMMA → Γ; \Sigma_1 → Σ₁; X_1 → X₁) and labels at one distance merged ("X|U"). Pure.
 */
import { displayLabel } from '../../core/crystallography/kpathLabels';
import type { Vec3 } from '../../core/poscar/types';
import { isRecord } from '../../core/util/guards';
import { toCount, toNumber, toVec3Rows, type Fields } from './fields';
import type { BandTick } from './model';

type Position = { index: number } | { distance: number } | { number: number } | { coords: Vec3 };
interface Mark {
  label: string;
  at: Position;
}

const toVec3 = (value: unknown): Vec3 | undefined => toVec3Rows([value])?.[0];

function position(value: unknown): Position | undefined {
  const n = toNumber(value);
  if (n !== undefined) return { number: n };
  const coords = toVec3(value);
  return coords ? { coords } : undefined;
}

function positions(value: unknown, length: number): Position[] | undefined {
  const all = Array.isArray(value) && value.length === length ? value.map(position) : [];
  return all.length && all.every((p) => p !== undefined) ? all : undefined;
}

const firstOf = <T>(rec: Record<string, unknown>, names: string[], read: (v: unknown) => T | undefined): T | undefined =>
  names.map((n) => (Object.hasOwn(rec, n) ? read(rec[n]) : undefined)).find((v) => v !== undefined);

function markOf(item: unknown): Mark | undefined {
  if (isRecord(item)) {
    const label = firstOf(item, ['label', 'name', 'symbol', 'kpoint_label'], (v) => (typeof v === 'string' ? v : undefined));
    const index = firstOf(item, ['index', 'k_index', 'kpoint_index', 'idx', 'i'], toCount);
    const distance = firstOf(item, ['distance', 'x', 'kdistance', 'position'], toNumber);
    const coords = firstOf(item, ['kpoint', 'coords', 'frac', 'k'], toVec3);
    const at: Position | undefined =
      index !== undefined ? { index } : distance !== undefined ? { distance } : coords ? { coords } : undefined;
    return label !== undefined && at ? { label, at } : undefined;
  }
  if (!Array.isArray(item) || item.length !== 2) return undefined;
  const [a, b] = typeof item[0] === 'string' ? [item[1], item[0]] : [item[0], item[1]];
  const at = position(a);
  return typeof b === 'string' && at ? { label: b, at } : undefined;
}

/** The marks of a labels field, or undefined when it is in no form above. */
function marksOf(value: unknown, f: Fields, nk: number): Mark[] | undefined {
  if (isRecord(value)) {
    const marks = Object.entries(value).map(([label, v]) => ({ label, at: position(v) }));
    return marks.every((m): m is Mark => m.at !== undefined) ? marks : undefined;
  }
  if (!Array.isArray(value)) return undefined;
  if (value.every((v) => typeof v === 'string')) {
    if (value.length === nk) return value.flatMap((label: string, index) => (label.trim() ? [{ label, at: { index } }] : []));
    const at = f.read(['label_indices', 'label_positions', 'label_distances', 'tick_positions', 'tick_distances'], (v) =>
      positions(v, value.length),
    );
    return at && value.map((label: string, i) => ({ label, at: at[i]! }));
  }
  const marks = value.map(markOf);
  return marks.every((m) => m !== undefined) ? marks : undefined;
}

const near = (a: Vec3, b: Vec3): boolean => a.every((x, i) => Math.abs(x - b[i]!) < 1e-4);

/** Ticks at k-distances, sorted, labels at one distance merged. */
function ticksOf(marks: Mark[], distances: readonly number[], kpoints: readonly Vec3[] | undefined): BandTick[] {
  const numbers = marks.flatMap((m) => ('number' in m.at ? [m.at.number] : []));
  const asIndex = numbers.every((n) => Number.isInteger(n) && n >= 0 && n < distances.length);
  const ticks = marks
    .flatMap(({ label, at }): BandTick[] => {
      const name = displayLabel(label);
      if ('coords' in at) return (kpoints ?? []).flatMap((k, i) => (near(k, at.coords) ? [{ distance: distances[i]!, label: name }] : []));
      const index = 'index' in at ? at.index : 'number' in at && asIndex ? at.number : undefined;
      if (index !== undefined) return index < distances.length ? [{ distance: distances[index]!, label: name }] : [];
      return [{ distance: 'distance' in at ? at.distance : (at as { number: number }).number, label: name }];
    })
    .sort((a, b) => a.distance - b.distance);
  const merged: BandTick[] = [];
  for (const tick of ticks) {
    const previous = merged.at(-1);
    if (previous && Math.abs(previous.distance - tick.distance) < 1e-6) {
      if (!previous.label.split('|').includes(tick.label)) previous.label += `|${tick.label}`;
    } else merged.push({ ...tick });
  }
  return merged;
}

const LABEL_NAMES = [
  'labels',
  'kpoint_labels',
  'k_labels',
  'label_names',
  'high_symmetry_labels',
  'high_symmetry_points',
  'special_points',
  'ticks',
];

export function readTicks(f: Fields, distances: readonly number[], kpoints: readonly Vec3[] | undefined): BandTick[] | undefined {
  const marks = f.read(LABEL_NAMES, (v) => marksOf(v, f, distances.length), f.t('a form of k-point labels this view knows'));
  return marks && ticksOf(marks, distances, kpoints);
}
