/**
 * What the VASP run readers (OUTCAR, vasprun.xml) share: the outline of ionic steps, grouped for long
 * runs, and the largest force of a step. Pure: no `vscode`.
 */
import type { LineSpan, OutlineEntry, StructureFrame, Vec3 } from './types';

/** Steps listed one by one up to this many; past it they are grouped in sections of this size. */
export const STEPS_PER_GROUP = 100;

/** The largest |F| of the step, in eV/Å (undefined without forces). */
export function maxForce(forces: readonly Vec3[] | undefined): number | undefined {
  if (!forces || forces.length === 0) return undefined;
  let max = 0;
  for (const [x, y, z] of forces) max = Math.max(max, Math.sqrt(x * x + y * y + z * z));
  return max;
}

/** 'E = -1.920020 eV, max |F| = 0.012 eV/Å': what the outline shows of a step. */
export function stepDetail(frame: StructureFrame): string {
  const parts: string[] = [];
  if (frame.energy !== undefined) parts.push(`E = ${frame.energy.toFixed(6)} eV`);
  const f = maxForce(frame.forces);
  if (f !== undefined) parts.push(`max |F| = ${f.toFixed(4)} eV/Å`);
  return parts.join(', ');
}

/** One 'step' entry per frame; more than STEPS_PER_GROUP are grouped in sections 'steps 1–100', … */
export function stepOutline(frames: readonly StructureFrame[]): OutlineEntry[] {
  const steps: OutlineEntry[] = frames.map((frame) => ({ name: frame.title, detail: stepDetail(frame), kind: 'step', lines: frame.lines }));
  if (steps.length <= STEPS_PER_GROUP) return steps;
  const groups: OutlineEntry[] = [];
  for (let from = 0; from < steps.length; from += STEPS_PER_GROUP) {
    const children = steps.slice(from, from + STEPS_PER_GROUP);
    const lines: LineSpan = { first: children[0]!.lines.first, last: children[children.length - 1]!.lines.last };
    groups.push({
      name: `steps ${from + 1}–${from + children.length}`,
      detail: children[children.length - 1]!.detail,
      kind: 'section',
      lines,
      children,
    });
  }
  return groups;
}

/** A symmetric stress tensor from VASP's order XX YY ZZ XY YZ ZX (OUTCAR's 'in kB' line). */
export const stressFromVoigt = ([xx, yy, zz, xy, yz, zx]: readonly number[]): [Vec3, Vec3, Vec3] => [
  [xx!, xy!, zx!],
  [xy!, yy!, yz!],
  [zx!, yz!, zz!],
];
