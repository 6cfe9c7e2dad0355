/**
 * Relaxation of the atomic positions in a fixed cell with FIRE (Bitzek et al., PRL 97, 170201, 2006), as
 * ASE implements it: unit masses, time in ASE units (Å·√(amu/eV) ≈ 10.18 fs), the whole step limited to
 * 0.2 Å. Pure; a generator that yields after every step (see core/util/steps.ts).
 */
import { add, dot, norm, scale, type Cell, type Vec3 } from './cell';
import { projector, type Flags } from './constraints';
import { FrameRecorder, type Frame } from './frames';
import { forceFieldFor } from './forceField';
import type { Evaluation } from './potential';
import type { Steps } from '../../core/util/steps';

/** ASE's defaults. */
export const FIRE = { dt: 0.1, dtMax: 1, maxStep: 0.2, nMin: 5, fInc: 1.1, fDec: 0.5, alphaStart: 0.1, fAlpha: 0.99 };

export interface RelaxOptions {
  /** eV/Å: converged once no atom feels a larger (constrained) force. */
  fmax: number;
  maxSteps: number;
  flags?: (Flags | undefined)[];
  /** The energy and forces to relax on: by default the potential forceFieldFor chooses for the elements. */
  evaluate?: (cell: Cell) => Evaluation;
}

export interface RelaxResult {
  converged: boolean;
  /** Steps taken; energies and forcesMax have one entry more (index 0 is the input). */
  steps: number;
  energies: number[];
  forcesMax: number[];
  positions: Vec3[];
  frames: Frame[];
}

export function* relax(cell: Cell, options: RelaxOptions): Steps<RelaxResult> {
  const project = projector(cell.lattice, options.flags);
  const fire = new Fire();
  const recorder = new FrameRecorder();
  const energies: number[] = [];
  const forcesMax: number[] = [];
  let positions = cell.positions;
  const evaluate = options.evaluate ?? forceFieldFor(cell.symbols).evaluate;
  for (let step = 0; ; step++) {
    const { energy, forces } = evaluate({ ...cell, positions });
    project(forces);
    energies.push(energy);
    forcesMax.push(Math.max(0, ...forces.map(norm)));
    recorder.add(step, positions);
    if (forcesMax[step]! < options.fmax || step >= options.maxSteps) {
      return {
        converged: forcesMax[step]! < options.fmax,
        steps: step,
        energies,
        forcesMax,
        positions,
        frames: recorder.finish(step, positions),
      };
    }
    const dr = fire.step(forces);
    positions = positions.map((p, i) => add(p, dr[i]!));
    yield;
  }
}

const sumDot = (a: readonly Vec3[], b: readonly Vec3[]): number => a.reduce((s, v, i) => s + dot(v, b[i]!), 0);

/** FIRE's state over a run: a step from the forces on every degree of freedom (here rows of three). */
export class Fire {
  private v: Vec3[] | undefined;
  private dt = FIRE.dt;
  private alpha = FIRE.alphaStart;
  private downhill = 0;

  /** The displacements for these forces. */
  step(f: Vec3[]): Vec3[] {
    let v = this.v ?? f.map((): Vec3 => [0, 0, 0]);
    if (this.v) {
      const vf = sumDot(v, f);
      if (vf > 0) {
        const mix = Math.sqrt(sumDot(v, v) / sumDot(f, f)) * this.alpha;
        v = v.map((vi, i) => add(scale(vi, 1 - this.alpha), scale(f[i]!, mix)));
        if (this.downhill > FIRE.nMin) {
          this.dt = Math.min(this.dt * FIRE.fInc, FIRE.dtMax);
          this.alpha *= FIRE.fAlpha;
        }
        this.downhill++;
      } else {
        v = v.map((): Vec3 => [0, 0, 0]);
        this.alpha = FIRE.alphaStart;
        this.dt *= FIRE.fDec;
        this.downhill = 0;
      }
    }
    this.v = v.map((vi, i) => add(vi, scale(f[i]!, this.dt)));
    const dr = this.v.map((vi) => scale(vi, this.dt));
    const length = Math.sqrt(sumDot(dr, dr));
    return length > FIRE.maxStep ? dr.map((d) => scale(d, FIRE.maxStep / length)) : dr;
  }
}
