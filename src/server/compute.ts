/**
 * The structure calculations as jobs a worker thread runs: plain data in (the structure and the
 * checked options), the answer out. Pure apart from the physics it calls.
 */
import type { Ensemble } from './physics/md';
import { bandStructure, dynamics, relaxation, singlePoint, type Structure } from './physics/answers';
import { runToEnd } from './physics/schedule';

export type Job =
  | { kind: 'singlePoint'; structure: Structure }
  | { kind: 'relax'; structure: Structure; options: { fmax: number; maxSteps: number; relaxCell: boolean } }
  | {
      kind: 'md';
      structure: Structure;
      options: { temperature: number; timestep: number; steps: number; seed: number; ensemble: Ensemble; interval: number };
    }
  | { kind: 'tightbinding'; structure: Structure; density: number };

export function runJob(job: Job): unknown {
  switch (job.kind) {
    case 'singlePoint':
      return singlePoint(job.structure);
    case 'relax':
      return runToEnd(relaxation(job.structure, job.options));
    case 'md':
      return runToEnd(dynamics(job.structure, job.options));
    case 'tightbinding':
      return runToEnd(bandStructure(job.structure, job.density));
  }
}

/** What a worker posts back: the answer, or the error (an InputError is the caller's mistake: a 400). */
export type JobOutcome = { ok: true; value: unknown } | { ok: false; input: boolean; message: string };
