/** A trajectory of unknown length, kept to a bounded number of evenly spaced frames. Pure. */
import type { Vec3 } from './cell';

export interface Frame {
  step: number;
  /** Cartesian Å, one per atom */
  positions: Vec3[];
}

export const MAX_FRAMES = 50;

const snapshot = (positions: readonly Vec3[]): Vec3[] => positions.map((p) => [...p] as Vec3);

/**
 * Records every `stride`-th step; when that would exceed the limit, drops every other frame and doubles the
 * stride. The first and the last step are always among the frames, and there are at most `max` of them.
 */
export class FrameRecorder {
  private readonly frames: Frame[] = [];

  /** `stride`: keep every stride-th step to begin with (MD's interval); it doubles when the frames would exceed `max`. */
  constructor(
    private readonly max = MAX_FRAMES,
    private stride = 1,
  ) {}

  add(step: number, positions: readonly Vec3[]): void {
    if (step % this.stride !== 0) return;
    this.frames.push({ step, positions: snapshot(positions) });
    if (this.frames.length < this.max) return;
    this.stride *= 2;
    const kept = this.frames.filter((f) => f.step % this.stride === 0);
    this.frames.splice(0, this.frames.length, ...kept);
  }

  /** The frames, ending with this last step. */
  finish(step: number, positions: readonly Vec3[]): Frame[] {
    if (this.frames.at(-1)?.step !== step) this.frames.push({ step, positions: snapshot(positions) });
    return this.frames;
  }
}
