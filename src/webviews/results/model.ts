/**
 * What the tolerant reader makes of a service answer: one typed model per run kind, plus what it did
 * not know (`extra`), the images that came back and what looked wrong. JSON-safe (no undefined in
 * arrays, no NaN: a value that could not be read is null), so it crosses to the page as it is.
 */
import type { Mat3, Vec3 } from '../../core/poscar/types';
import type { AppModel } from './apps/model';
import type { BandTick, Common, Series } from './basics';

export type { BandTick, Common, ResultImage, Series } from './basics';

export interface Trajectory {
  frames: number;
  /** Atoms per frame (of the first frame). */
  atoms: number;
}

export interface SinglePointModel extends Common {
  kind: 'singlePoint';
  /** eV */
  energy?: number;
  energyPerAtom?: number;
  /** True when energyPerAtom is energy / atoms rather than the service's own number. */
  energyPerAtomComputed?: boolean;
  /** eV/Å, one row per atom */
  forces?: Vec3[];
  /** eV/Å: the service's, else the largest |F| of forces. */
  maxForce?: number;
  /** GPa, tensile positive. */
  stress?: Mat3;
  /** The unit the service named (or "GPa (assumed)"). */
  stressUnit?: string;
}

export interface RelaxModel extends Common {
  kind: 'relax';
  converged?: boolean;
  finalPoscar?: string;
  initialEnergy?: number;
  finalEnergy?: number;
  /** eV per step; index 0 is the input structure. */
  energies: Series;
  /** eV/Å per step. */
  forcesMax: Series;
  steps?: number;
  /** The step limit the run had. */
  maxSteps?: number;
  /** The force threshold, eV/Å. */
  fmax?: number;
  trajectory?: Trajectory;
}

/** g(r) and the MSD of an MD trajectory (readTrajectory.ts), or why there are none. */
export interface MdAnalysis {
  /** r in Å (bin centres); g dimensionless; pairs labelled "Na–Cl". */
  rdf?: { r: number[]; total: number[]; pairs: { label: string; g: number[] }[]; frames: number };
  /** Lags in fs (or frames when the answer gives no times), MSD in Å²; D in Å² per lag unit, fitted over window. */
  msd?: { lag: number[]; msd: number[]; unit: 'fs' | 'frame'; diffusion?: number; window?: number[] };
  note?: string;
}

export interface MdModel extends Common {
  kind: 'md';
  /** x of every series: fs, or step numbers when the answer gives no time. */
  time: number[];
  timeUnit: 'fs' | 'step';
  total: Series;
  kinetic: Series;
  potential: Series;
  /** K */
  temperature: Series;
  averageTemperature?: number;
  finalTemperature?: number;
  /** eV/atom, last total minus first over the atoms (computed when the service gives none). */
  energyDrift?: number;
  energyDriftComputed?: boolean;
  timestepFs?: number;
  steps?: number;
  /** Set from a single number such as `temperature: 300`: the thermostat's target, or without one the initial temperature. */
  targetTemperature?: number;
  /** The run held its temperature (an NVT or NPT ensemble); otherwise targetTemperature is only where it started. */
  thermostat?: boolean;
  finalPoscar?: string;
  trajectory?: Trajectory;
  analysis?: MdAnalysis;
}

export interface BandEdges {
  /** eV, absolute */
  vbm?: number;
  cbm?: number;
  /** eV; 0 for a metal. */
  gap?: number;
  metal?: boolean;
  direct?: boolean;
  /** eV: the smallest direct gap, when the service gives it besides the gap. */
  directGap?: number;
  /** k-point indices of the edges, when known. */
  vbmK?: number;
  cbmK?: number;
  /** Where the numbers came from. */
  source: 'service' | 'electrons' | 'fermi' | 'headers' | 'none';
}

export interface BandsModel extends Common {
  kind: 'tightbinding';
  /** One x per k-point. */
  distances: number[];
  /** 'kpoints': cumulative distance between fractional k-points (no lattice: approximate). */
  distanceSource: 'service' | 'kpoints' | 'index';
  /** bands[b][k], eV */
  bands: Series[];
  ticks: BandTick[];
  fermi?: number;
  edges: BandEdges;
  nelectrons?: number;
  /** "Γ-X-W-K-Γ-L-U-W-L-K|U-X" */
  path?: string;
  /** "FCC" */
  latticeType?: string;
  /** Where the lattice type came from: "space group 227", or the cell's metric and why. */
  latticeTypeSource?: string;
  /** The density of states: energies (eV, on the bands' scale) and states per eV, when the answer has one. */
  dos?: { energies: number[]; states: Series; /** "σ 0.1 eV, 8×8×8 k-mesh" */ made?: string };
}

export type ResultModel = SinglePointModel | RelaxModel | MdModel | BandsModel | AppModel;
