/**
 * Trajectory analysis of periodic frames (MD results, XDATCAR): the radial distribution function, total and per
 * element pair, and the mean squared displacement with a self-diffusion coefficient. Pure: no `vscode`, no Node.
 *
 * g(r): every pair within rMax through every periodic image (core/poscar/cellList.ts, which is the minimum image
 * for rMax below half the cell's thinnest width, ASE's condition), histogrammed in shells of width dr and divided
 * by what an ideal gas of the same density would put there, N·ρ·4π dr (r² + dr²/12) (the shell's exact volume
 * 4π∫r²dr over the bin), as in M. P. Allen and D. J. Tildesley, Computer Simulation of Liquids, 2nd ed., Oxford
 * 2017, §8.2, and ASE's ase.geometry.analysis.Analysis.get_rdf for the total. The partial g_ab(r) is normalised by
 * N_a·ρ_b (Allen & Tildesley's convention, → 1 at large r for every pair; ASE's partial divides by N_a·ρ_total instead,
 * which is ours times N_b/N). Frames are averaged.
 *
 * MSD(τ) = ⟨|r_i(t + τ) − r_i(t)|²⟩ over atoms and every time origin t, on unwrapped positions (a frame-to-frame jump
 * of more than half a cell is taken back through the nearest image, so wrapped trajectories work too). The
 * self-diffusion coefficient from the Einstein relation MSD = 6Dτ, by a least-squares line over the diffusive window
 * τ from 10 % to 50 % of the run: the start is ballistic and the end has few origins to average (E. J. Maginn et al.,
 * "Best Practices for Computing Transport Properties 1. Self-Diffusivity and Viscosity from Equilibrium Molecular
 * Dynamics", Living J. Comput. Mol. Sci. 1, 6324 (2019)).
 */
import { cellGrid, forEachPair } from '../poscar/cellList';
import type { Mat3, Vec3 } from '../poscar/types';
import { determinant, dot, planeSpacings, reciprocal } from '../poscar/vec';

export interface PeriodicFrame {
  lattice: Mat3;
  species: readonly string[];
  /** Cartesian Å. */
  positions: readonly Vec3[];
}

export interface Rdf {
  /** Bin centres, Å. */
  r: number[];
  dr: number;
  rMax: number;
  total: number[];
  /** One per element pair a ≤ b (in order of first appearance). */
  pairs: { a: string; b: string; g: number[] }[];
  frames: number;
}

export class TrajectoryError extends Error {}

/** Pair visits at most over all frames (about a second). */
export const MAX_PAIR_VISITS = 20_000_000;

/** rMax that keeps to one image per pair: just under half the thinnest width of every frame's cell, at most `cap` Å. */
export function minimumImageRMax(frames: readonly PeriodicFrame[], cap = 10): number {
  const widths = frames.flatMap((f) => planeSpacings(f.lattice));
  return Math.min(cap, 0.499 * Math.min(...widths));
}

const elementsOf = (species: readonly string[]): string[] => [...new Set(species)];

/** g(r) averaged over frames; nbins shells of rMax / nbins. */
export function radialDistribution(frames: readonly PeriodicFrame[], rMax: number, nbins: number): Rdf {
  if (!frames.length) throw new TrajectoryError('No frames to analyse.');
  if (!(rMax > 0) || !(nbins >= 1) || !Number.isInteger(nbins))
    throw new TrajectoryError('rMax must be positive and the bins a whole number.');
  const elements = elementsOf(frames[0]!.species);
  const m = elements.length;
  const dr = rMax / nbins;
  const total = new Float64Array(nbins);
  const partial = Array.from({ length: m * m }, () => new Float64Array(nbins));
  let visits = 0;
  for (const frame of frames) {
    const n = frame.positions.length;
    const volume = Math.abs(determinant(frame.lattice));
    if (!(volume > 0)) throw new TrajectoryError('A frame has a cell without volume.');
    const kind = Int32Array.from(frame.species, (s) => {
      const k = elements.indexOf(s);
      if (k < 0) throw new TrajectoryError(`Element ${s} appears in a later frame only.`);
      return k;
    });
    const counts = new Float64Array(m);
    for (const k of kind) counts[k]!++;
    const inv = reciprocal(frame.lattice);
    const frac = new Float64Array(3 * n);
    frame.positions.forEach((p, i) => {
      frac[3 * i] = dot(p, inv[0]);
      frac[3 * i + 1] = dot(p, inv[1]);
      frac[3 * i + 2] = dot(p, inv[2]);
    });
    // Ordered pairs (i, j ≠ i or another image of i) per shell: a visit of i < j counts both orders; i = j comes once per image.
    const hist = new Float64Array(nbins);
    const pairHist = Array.from({ length: m * m }, () => new Float64Array(nbins));
    const grid = cellGrid(frame.lattice, rMax);
    forEachPair(
      frame.lattice,
      frac,
      rMax,
      grid,
      (i, j, _tx, _ty, _tz, _x, _y, _z, r2) => {
        visits++;
        const bin = Math.ceil(Math.sqrt(r2) / dr) - 1; // ASE's bins: ((k−1)dr, k·dr]
        if (bin < 0 || bin >= nbins) return;
        const weight = i === j ? 1 : 2;
        hist[bin]! += weight;
        if (i === j) pairHist[kind[i]! * m + kind[i]!]![bin]!++;
        else {
          pairHist[kind[i]! * m + kind[j]!]![bin]!++;
          pairHist[kind[j]! * m + kind[i]!]![bin]!++;
        }
      },
      () => visits > MAX_PAIR_VISITS,
    );
    if (visits > MAX_PAIR_VISITS)
      throw new TrajectoryError(
        `More than ${MAX_PAIR_VISITS.toLocaleString('en-US')} pairs within ${rMax.toFixed(2)} Å: use fewer frames or a shorter range.`,
      );
    for (let b = 0; b < nbins; b++) {
      const rc = (b + 0.5) * dr;
      const shell = 4 * Math.PI * dr * (rc * rc + (dr * dr) / 12);
      total[b]! += hist[b]! / ((n * n * shell) / volume);
      for (let a = 0; a < m; a++)
        for (let c = 0; c < m; c++)
          if (counts[a]! && counts[c]!) partial[a * m + c]![b]! += pairHist[a * m + c]![b]! / ((counts[a]! * counts[c]! * shell) / volume);
    }
  }
  const scale = (h: Float64Array) => Array.from(h, (v) => v / frames.length);
  const pairs: Rdf['pairs'] = [];
  for (let a = 0; a < m; a++) for (let c = a; c < m; c++) pairs.push({ a: elements[a]!, b: elements[c]!, g: scale(partial[a * m + c]!) });
  return { r: Array.from({ length: nbins }, (_, b) => (b + 0.5) * dr), dr, rMax, total: scale(total), pairs, frames: frames.length };
}

/** Positions made continuous: each frame-to-frame displacement taken through the nearest periodic image. */
export function unwrap(frames: readonly PeriodicFrame[]): Vec3[][] {
  if (!frames.length) return [];
  const out: Vec3[][] = [frames[0]!.positions.map((p) => [...p] as Vec3)];
  for (let t = 1; t < frames.length; t++) {
    const { lattice, positions } = frames[t]!;
    const inv = reciprocal(lattice);
    const previousRaw = frames[t - 1]!.positions;
    const previous = out[t - 1]!;
    out.push(
      positions.map((p, i) => {
        const d: Vec3 = [p[0] - previousRaw[i]![0], p[1] - previousRaw[i]![1], p[2] - previousRaw[i]![2]];
        const f = [dot(d, inv[0]), dot(d, inv[1]), dot(d, inv[2])].map((x) => x - Math.round(x));
        const step: Vec3 = [0, 1, 2].map((k) => f[0]! * lattice[0][k]! + f[1]! * lattice[1][k]! + f[2]! * lattice[2][k]!) as Vec3;
        return [previous[i]![0] + step[0], previous[i]![1] + step[1], previous[i]![2] + step[2]];
      }),
    );
  }
  return out;
}

export interface Msd {
  /** Lag times, in the unit of `times`. */
  lag: number[];
  /** Å² */
  msd: number[];
  /** D in Å² per time unit, from the fit over the window; undefined with fewer than 3 lags in it. */
  diffusion?: number;
  /** The fitted line's intercept, Å². */
  intercept?: number;
  /** The lag window of the fit, in time units. */
  window?: [number, number];
}

/**
 * MSD(τ) of frames at `times` (equally spaced), averaged over atoms and time origins, and D from MSD = 6Dτ over
 * τ in [10 %, 50 %] of the run. `positions` are unwrapped (unwrap() makes them so).
 */
export function meanSquaredDisplacement(positions: readonly (readonly Vec3[])[], times: readonly number[]): Msd {
  const frames = positions.length;
  if (frames < 2 || times.length !== frames) throw new TrajectoryError('The MSD needs two frames or more, each with its time.');
  const n = positions[0]!.length;
  const dt = (times[frames - 1]! - times[0]!) / (frames - 1);
  if (!(dt > 0) || times.some((t, i) => Math.abs(t - times[0]! - i * dt) > 1e-6 * Math.max(1, Math.abs(dt) * frames)))
    throw new TrajectoryError('The frames must be equally spaced in time.');
  const lag: number[] = [0];
  const msd: number[] = [0];
  for (let k = 1; k < frames; k++) {
    let sum = 0;
    for (let t = 0; t + k < frames; t++) {
      const a = positions[t]!;
      const b = positions[t + k]!;
      for (let i = 0; i < n; i++) {
        const dx = b[i]![0] - a[i]![0];
        const dy = b[i]![1] - a[i]![1];
        const dz = b[i]![2] - a[i]![2];
        sum += dx * dx + dy * dy + dz * dz;
      }
    }
    lag.push(k * dt);
    msd.push(sum / ((frames - k) * n));
  }
  const run = lag[lag.length - 1]!;
  const inWindow = lag.map((t, k) => [t, msd[k]!] as const).filter(([t]) => t >= 0.1 * run - 1e-12 && t <= 0.5 * run + 1e-12);
  if (inWindow.length < 3) return { lag, msd };
  const mx = inWindow.reduce((s, [t]) => s + t, 0) / inWindow.length;
  const my = inWindow.reduce((s, [, y]) => s + y, 0) / inWindow.length;
  const sxy = inWindow.reduce((s, [t, y]) => s + (t - mx) * (y - my), 0);
  const sxx = inWindow.reduce((s, [t]) => s + (t - mx) ** 2, 0);
  const slope = sxy / sxx;
  return { lag, msd, diffusion: slope / 6, intercept: my - slope * mx, window: [inWindow[0]![0], inWindow[inWindow.length - 1]![0]] };
}

/** Å²/fs → cm²/s (1 Å² = 1e-16 cm², 1 fs = 1e-15 s). */
export const A2_PER_FS_IN_CM2_PER_S = 0.1;
