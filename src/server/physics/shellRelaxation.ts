/**
 * The shells' minimum at fixed cores (shellModel.ts). Two kinds of step:
 * - Newton steps solved by conjugate gradients preconditioned with every shell's own 3×3 curvature, measuring the rest
 *   by probes a step away (each probe one evaluation of the shell forces): robust, and all a single evaluation needs;
 * - in a run, whose ions move little from one evaluation to the next, quasi-Newton steps δ = H⁻¹F with the shells'
 *   whole Hessian H computed analytically (the problem's `hessian`) and factored once, corrected by L-BFGS from the
 *   last PAIRS steps' change of the forces as the ions move on, and reused while each step still divides the force
 *   left by RECYCLED_GAIN or more; it is refreshed when not, and the conjugate-gradient step takes over when even a
 *   fresh one does not. A relaxation then takes four to six evaluations instead of twenty.
 * Pure.
 */
import { InputError } from './cell';

export interface ShellProblem {
  /** The forces on the shells (3 per shell) at these displacements; with `blocks`, each shell's own 3×3 curvature too. */
  forces(shells: Float64Array, blocks?: Float64Array): Float64Array;
  /** The shells' Hessian at these displacements (dense, row-major), or undefined where it would cost too much. */
  hessian(shells: Float64Array): Float64Array | undefined;
}

/** What a run keeps between relaxations: the factored Hessian and whether it was made at the last one. */
export interface Recycled {
  factor?: Cholesky;
  /** The steps taken with it and the change of the forces along each (s, y = H s): L-BFGS's corrections to it. */
  pairs?: { s: Float64Array; y: Float64Array }[];
}

/** The most step pairs kept to correct a reused Hessian. */
const PAIRS = 8;

/** eV/Å: the largest force left on a relaxed shell. */
const SHELL_TOLERANCE = 1e-7;
/** Evaluations one relaxation of the shells may take (each Newton step's probes counted). */
const MAX_SHELL_EVALUATIONS = 200;
/** A reused Hessian is kept while each step divides the largest shell force by at least this. */
const RECYCLED_GAIN = 4;
/** Å: the length of the step along which a probe measures the curvature. */
const PROBE = 1e-5;
const CATASTROPHE =
  'The shell model has no minimum for the shells here (a polarisation catastrophe: the polarisable ions are pulled onto their neighbours); the structure may be far from what the parameters were fitted to.';

const dot = (a: Float64Array, b: Float64Array): number => {
  let sum = 0;
  for (let k = 0; k < a.length; k++) sum += a[k]! * b[k]!;
  return sum;
};
/** The largest force (or displacement) of one shell. */
const largest = (v: Float64Array): number => {
  let most = 0;
  for (let k = 0; k < v.length; k += 3) most = Math.max(most, Math.sqrt(v[k]! ** 2 + v[k + 1]! ** 2 + v[k + 2]! ** 2));
  return most;
};
/** a + f·b, in place. */
const addScaled = (a: Float64Array, b: Float64Array, f: number): Float64Array => {
  for (let k = 0; k < a.length; k++) a[k]! += f * b[k]!;
  return a;
};

/** A symmetric positive definite matrix factored as L Lᵀ (row-major, lower triangle used). */
export class Cholesky {
  private constructor(
    private readonly l: Float64Array,
    private readonly size: number,
  ) {}

  /** The factor of `h` (overwritten), or undefined when h is not positive definite. */
  static of(h: Float64Array, size: number): Cholesky | undefined {
    for (let j = 0; j < size; j++) {
      const rowJ = j * size;
      let diagonal = h[rowJ + j]!;
      for (let p = 0; p < j; p++) diagonal -= h[rowJ + p]! ** 2;
      if (!(diagonal > 0)) return undefined;
      const root = Math.sqrt(diagonal);
      h[rowJ + j] = root;
      for (let i = j + 1; i < size; i++) {
        const rowI = i * size;
        let sum = h[rowI + j]!;
        for (let p = 0; p < j; p++) sum -= h[rowI + p]! * h[rowJ + p]!;
        h[rowI + j] = sum / root;
      }
    }
    return new Cholesky(h, size);
  }

  solve(b: Float64Array): Float64Array {
    const { l, size } = this;
    const x = Float64Array.from(b);
    for (let i = 0; i < size; i++) {
      for (let p = 0; p < i; p++) x[i]! -= l[i * size + p]! * x[p]!;
      x[i]! /= l[i * size + i]!;
    }
    for (let i = size - 1; i >= 0; i--) {
      for (let p = i + 1; p < size; p++) x[i]! -= l[p * size + i]! * x[p]!;
      x[i]! /= l[i * size + i]!;
    }
    return x;
  }
}

/** x = M⁻¹ b for each shell's 3×3 block (its adjugate over its determinant). */
function precondition(blocks: Float64Array, b: Float64Array): Float64Array {
  const x = new Float64Array(b.length);
  for (let s = 0; s < b.length; s += 3) {
    const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = blocks.subarray(3 * s, 3 * s + 9) as unknown as number[];
    const a = [m4! * m8! - m5! * m7!, m2! * m7! - m1! * m8!, m1! * m5! - m2! * m4!];
    const c = [m5! * m6! - m3! * m8!, m0! * m8! - m2! * m6!, m2! * m3! - m0! * m5!];
    const e = [m3! * m7! - m4! * m6!, m1! * m6! - m0! * m7!, m0! * m4! - m1! * m3!];
    const det = m0! * a[0]! + m1! * c[0]! + m2! * e[0]!;
    for (const [k, row] of [a, c, e].entries()) x[s + k] = (row[0]! * b[s]! + row[1]! * b[s + 1]! + row[2]! * b[s + 2]!) / det;
  }
  return x;
}

/** One Newton step: H δ = r solved to 10⁻³ of |r| (or the tolerance) by preconditioned conjugate gradients. */
function newtonStep(problem: ShellProblem, shells: Float64Array, r: Float64Array, blocks: Float64Array, budget: () => boolean) {
  const target = Math.max(SHELL_TOLERANCE / 3, 1e-3 * largest(r));
  const step = new Float64Array(r.length);
  const res = Float64Array.from(r);
  let z = precondition(blocks, res);
  let direction = z;
  let rz = dot(res, z);
  while (largest(res) > target && budget()) {
    const h = PROBE / largest(direction);
    const probed = problem.forces(addScaled(Float64Array.from(shells), direction, h));
    const hd = Float64Array.from(r, (f, k) => (f - probed[k]!) / h);
    const curvature = dot(direction, hd);
    if (!(curvature > 0)) throw new InputError(CATASTROPHE);
    const alpha = rz / curvature;
    addScaled(step, direction, alpha);
    addScaled(res, hd, -alpha);
    z = precondition(blocks, res);
    const next = dot(res, z);
    direction = addScaled(Float64Array.from(z), direction, next / rz);
    rz = next;
  }
  return step;
}

/** Where the shells are and the forces on them. */
interface State {
  shells: Float64Array;
  forces: Float64Array;
}

/** H⁻¹F by L-BFGS's two loops (Nocedal 1980) over the kept step pairs, with the factored Hessian as the first guess. */
function corrected(recycled: Recycled, forces: Float64Array): Float64Array {
  const pairs = recycled.pairs ?? [];
  const q = Float64Array.from(forces);
  const a = pairs.map(() => 0);
  for (let i = pairs.length - 1; i >= 0; i--) {
    a[i] = dot(pairs[i]!.s, q) / dot(pairs[i]!.y, pairs[i]!.s);
    addScaled(q, pairs[i]!.y, -a[i]!);
  }
  const r = recycled.factor!.solve(q);
  pairs.forEach(({ s, y }, i) => addScaled(r, s, a[i]! - dot(y, r) / dot(y, s)));
  return r;
}

/**
 * A quasi-Newton step with the run's factored Hessian, made here if it has none: the new state if it divided the
 * force left by RECYCLED_GAIN; else the factor is dropped and the answer is undefined (try a fresh one) or, when it was
 * fresh, 'fresh failed' (the shells are too far from their minimum for one: conjugate gradients take over).
 */
function recycledStep(problem: ShellProblem, at: State, recycled: Recycled, maxShift: number): State | 'fresh failed' | undefined {
  const fresh = !recycled.factor;
  if (fresh) {
    const h = problem.hessian(at.shells);
    recycled.factor = h && Cholesky.of(h, at.shells.length);
    if (!recycled.factor) return 'fresh failed';
  }
  const step = corrected(recycled, at.forces);
  const shells = addScaled(Float64Array.from(at.shells), step, 1);
  if (largest(shells) <= maxShift) {
    const forces = problem.forces(shells);
    const y = Float64Array.from(forces, (f, k) => at.forces[k]! - f);
    if (dot(step, y) > 0) recycled.pairs = [...(recycled.pairs ?? []), { s: step, y }].slice(-PAIRS);
    if (largest(forces) * RECYCLED_GAIN <= largest(at.forces)) return { shells, forces };
  }
  [recycled.factor, recycled.pairs] = [undefined, undefined];
  return fresh ? 'fresh failed' : undefined;
}

/**
 * Relaxes the shells from `start`; `recycled`: a run's Hessian to reuse (none for a single evaluation), `maxShift`:
 * Å, the furthest a shell may stray from its core. Returns the relaxed shells.
 */
export function relaxShells(problem: ShellProblem, start: Float64Array, maxShift: number, recycled?: Recycled): Float64Array {
  const blocks = new Float64Array(3 * start.length);
  let state: State = { shells: start, forces: problem.forces(start, blocks) };
  let evaluations = 1;
  let blocksFresh = true;
  let quasiNewton = recycled !== undefined;
  const budget = (): boolean => evaluations++ < MAX_SHELL_EVALUATIONS;
  for (;;) {
    const residual = largest(state.forces);
    if (residual < SHELL_TOLERANCE) return state.shells;
    if (evaluations >= MAX_SHELL_EVALUATIONS)
      throw new InputError(
        `The shells did not settle in ${MAX_SHELL_EVALUATIONS} evaluations (a force of ${residual.toExponential(1)} eV/Å is left).`,
      );
    if (quasiNewton) {
      const next = recycledStep(problem, state, recycled!, maxShift);
      evaluations++;
      if (typeof next === 'object') {
        [state, blocksFresh] = [next, false];
        continue;
      }
      quasiNewton = next === undefined;
      if (quasiNewton) continue;
    }
    if (!blocksFresh) state.forces = problem.forces(state.shells, blocks.fill(0));
    const shells = addScaled(Float64Array.from(state.shells), newtonStep(problem, state.shells, state.forces, blocks, budget), 1);
    if (largest(shells) > maxShift) throw new InputError(CATASTROPHE);
    state = { shells, forces: problem.forces(shells, blocks.fill(0)) };
    [blocksFresh, evaluations] = [true, evaluations + 1];
  }
}
