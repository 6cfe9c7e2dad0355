/**
 * What the structure view is sent: a POSCAR's cell and sites, and for a run its trajectory (or its
 * final structure when no frames came back). Pure.
 */
import { summarize } from '../../core/poscar/index';
import { oneLine } from '../../core/poscar/format';
import type { Poscar } from '../../core/poscar/types';
import { toSeries } from '../results/fields';
import { inputStructure } from '../results/poscarText';
import { runTitle, type RunRecord } from '../../core/runs/run';
import { ENGLISH, type Locale } from '../../core/util/locale';
import { resultView } from '../results/view';
import type { StructureData } from './protocol';
import { readFrames, trajectoryOf } from './trajectory';

export function structureData(poscar: Poscar): StructureData {
  return {
    lattice: poscar.lattice,
    elements: poscar.sites.map((s) => s.species),
    frac: poscar.sites.flatMap((s) => s.frac),
    labels: poscar.sites.map((s, i) => `${s.species} ${i + 1}${s.label ? ` ${s.label}` : ''} (line ${s.line + 1})`),
    summary: oneLine(summarize(poscar)),
  };
}

export interface RunStructure {
  /** "Relax: POSCAR — trajectory" */
  title: string;
  structure: StructureData;
  formula: string;
}

/** The run's trajectory to play, else its final structure; or why there is nothing to show. */
export function runStructure(run: RunRecord, locale: Locale = ENGLISH): RunStructure | string {
  const { t } = locale;
  const input = inputStructure(run.inputText);
  if (!input) return t('The structure sent for this run ({0}) cannot be read.', run.inputName);
  const body = run.response?.body.type === 'json' ? run.response.body.value : undefined;
  const frames = trajectoryOf(body);
  const formula = summarize(input).formula;
  if (frames !== undefined) {
    const energies = body && typeof body === 'object' ? toSeries((body as { energies?: unknown }).energies)?.values : undefined;
    const read = readFrames(frames, { input, energies });
    if (typeof read === 'string') return read;
    return { title: t('{0} — trajectory', runTitle(run, t)), structure: { ...structureData(input), frames: read }, formula };
  }
  const model = resultView(run, input, locale)?.model;
  const final =
    model && (model.kind === 'relax' || model.kind === 'md') && model.finalPoscar ? inputStructure(model.finalPoscar) : undefined;
  if (!final) return t('This run returned neither trajectory frames nor a final structure to show.');
  return { title: t('{0} — final structure', runTitle(run, t)), structure: structureData(final), formula: summarize(final).formula };
}
