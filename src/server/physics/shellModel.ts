/**
 * The adiabatic shell model (Dick and Overhauser 1958, as Bush et al. 1994 fitted it and GULP evaluates it): an ion of
 * a set's `shells` is a core and a massless shell on a spring ½k|d|²; the shells are relaxed to their minimum at every
 * evaluation, so the energy is a function of the ion positions alone and the force on an ion is the sum of the forces
 * on its core and its shell (∂E/∂d = 0). Coulomb acts between every core and shell (Ewald, ewald.ts) except an ion's own
 * core and shell, the short-range terms between shells (or cores, for an ion without one). Pure.
 *
 * The neighbour list is built once over the ions with SKIN beyond the cutoffs, and each ion pair gives its four
 * core/shell pairs; a shell that moves further than SKIN/2 from its core is refused (the polarisation catastrophe of
 * ions pressed too close). The shells are relaxed by Newton steps, each solved by conjugate gradients preconditioned
 * with every shell's own 3×3 curvature (spring and short-range terms) and measuring the rest by probes a step away: each
 * probe is a full evaluation, at most MAX_SHELL_EVALUATIONS per relaxation (4 to 12 in a relaxation's steps, which start
 * from the last step's shells). Shells count as charges towards ewald.ts's limits.
 */
import { InputError, type Cell, type Vec3 } from './cell';
import { addReciprocal, COULOMB, realTerm, splitting, type Splitting } from './ewald';
import { MIN_SEPARATION, SHORT_OFF, shortRange } from './buckingham';
import type { ShellSet, ShortRange } from './ionicParameters';
import { neighborList, type NeighborList } from './neighbors';
import type { Evaluation } from './potential';
import { pairTable } from './species';

/** Å: how far the list reaches beyond the cutoffs, twice the furthest a shell may stray from its core. */
const SKIN = 1;
/** eV/Å: the largest force left on a relaxed shell. */
export const SHELL_TOLERANCE = 1e-7;
/** Full evaluations one relaxation of the shells may take (each Newton step's conjugate-gradient probes counted). */
export const MAX_SHELL_EVALUATIONS = 200;
/** Å: the length of the step along which a probe measures the curvature. */
const PROBE = 1e-5;
const CATASTROPHE =
  'The shell model has no minimum for the shells here (a polarisation catastrophe: the polarisable ions are pulled onto their neighbours); the structure may be far from what the parameters were fitted to.';

/** The cores and shells of a cell: particle p < n is ion p's core, n + s the shell of ion owner[s]. */
interface Particles {
  n: number;
  owner: number[];
  /** Each ion's shell index (into owner), or −1. */
  shellOf: number[];
  charges: number[];
  springs: number[];
  /** The particle the ion's short-range terms act on. */
  carrier: number[];
  pair: (i: number, j: number) => ShortRange | undefined;
}

function particlesOf(cell: Cell, set: ShellSet): Particles {
  const n = cell.symbols.length;
  const owner = cell.symbols.flatMap((x, i) => (set.shells[x] ? [i] : []));
  const shellOf = cell.symbols.map(() => -1);
  owner.forEach((i, k) => (shellOf[i] = k));
  const charges = [
    ...cell.symbols.map((x) => set.shells[x]?.core ?? set.charges[x]!),
    ...owner.map((i) => set.shells[cell.symbols[i]!]!.shell),
  ];
  return {
    n,
    owner,
    shellOf,
    charges,
    springs: owner.map((i) => set.shells[cell.symbols[i]!]!.k),
    carrier: shellOf.map((s, i) => (s < 0 ? i : n + s)),
    pair: pairTable(cell.symbols, (x, y) => set.pairs[[x, y].sort().join('-')]),
  };
}

/** One evaluation at fixed shell displacements: energy, forces on every particle, virial, each shell's curvature. */
interface Terms {
  energy: number;
  forces: Vec3[];
  virial: number[];
  /** Per shell, the 3×3 curvature block flattened (spring plus short-range). */
  blocks: number[][];
}

function addToVirial(virial: number[], g: number, d: Vec3): void {
  virial[0]! += g * d[0] * d[0];
  virial[1]! += g * d[1] * d[1];
  virial[2]! += g * d[2] * d[2];
  virial[3]! += g * d[1] * d[2];
  virial[4]! += g * d[0] * d[2];
  virial[5]! += g * d[0] * d[1];
}

/** Adds the pair energy's effect for particles a, b at separation d = r_b − r_a with dE/dr / r = g. */
function addPair(t: Terms, a: number, b: number, d: Vec3, g: number): void {
  for (let k = 0; k < 3; k++) {
    t.forces[a]![k]! += g * d[k]!;
    t.forces[b]![k]! -= g * d[k]!;
  }
  addToVirial(t.virial, g, d);
}

/** Adds the short-range curvature φ'' u⊗u + (φ'/r)(1 − u⊗u) of a pair to a shell's block (switching left out). */
function addCurvature(block: number[], p: ShortRange, d: Vec3, r: number): void {
  const e = p.A * Math.exp(-r / p.rho);
  const first = (-e / p.rho + (6 * p.C) / r ** 7) / r;
  const second = e / (p.rho * p.rho) - (42 * p.C) / r ** 8;
  for (let x = 0; x < 3; x++) for (let y = 0; y < 3; y++) block[3 * x + y]! += ((second - first) * d[x]! * d[y]!) / (r * r);
  for (let x = 0; x < 3; x++) block[4 * x]! += first;
}

/** erf(x)/x and (d/dx of it)/x, by erf's Taylor series (x ≤ 1: an own core–shell pair is well inside that). */
function erfOverX(x: number): [number, number] {
  let term = 2 / Math.sqrt(Math.PI);
  let value = term;
  let slope = 0;
  for (let n = 1; n < 30 && Math.abs(term) > 1e-18; n++) {
    // With term = 2/√π (−x²)^(n−1)/(n−1)!: d/dx of the next term of the series, over x.
    slope -= (2 * term) / (2 * n + 1);
    term *= (-x * x) / n;
    value += term / (2 * n + 1);
  }
  return [value, slope];
}

/**
 * Ion i's own core and shell: the spring, and minus the part of their Coulomb energy the reciprocal sum counted
 * (−k q_c q_s erf(αr)/r; the real-space sum leaves the pair out).
 */
function addOwnPair(t: Terms, p: Particles, s: number, d: Vec3, alpha: number): void {
  const i = p.owner[s]!;
  const r = Math.hypot(...d);
  const qq = COULOMB * p.charges[i]! * p.charges[p.n + s]!;
  const [g, slope] = erfOverX(alpha * r);
  t.energy += 0.5 * p.springs[s]! * r * r - qq * alpha * g;
  addPair(t, i, p.n + s, d, p.springs[s]! - qq * alpha * alpha * alpha * slope);
  for (let x = 0; x < 3; x++) t.blocks[s]![4 * x]! += p.springs[s]!;
}

const particle = (p: Particles, ion: number, shell: boolean): number => (shell ? p.n + p.shellOf[ion]! : ion);

/**
 * The real-space Ewald and short-range terms of the four core/shell pairs of every listed ion pair. The hot loop of
 * every shell relaxation: written without an array made per pair (one `d` reused), the sums in the same order.
 */
function addIonPairs(t: Terms, p: Particles, list: NeighborList, displacement: (q: number) => Vec3, s: Splitting): void {
  const d: Vec3 = [0, 0, 0];
  for (let m = 0; m < list.count; m++) {
    const i = list.i[m]!;
    const j = list.j[m]!;
    const lastI = p.shellOf[i]! < 0 ? 0 : 1;
    const lastJ = p.shellOf[j]! < 0 ? 0 : 1;
    for (let si = 0; si <= lastI; si++) {
      for (let sj = 0; sj <= lastJ; sj++) {
        const a = particle(p, i, si === 1);
        const b = particle(p, j, sj === 1);
        const da = displacement(a);
        const db = displacement(b);
        for (let k = 0; k < 3; k++) d[k] = list.d[3 * m + k]! + db[k]! - da[k]!;
        const r = Math.hypot(d[0], d[1], d[2]);
        const [e, de] = r < s.realCutoff ? realTerm(p.charges[a]! * p.charges[b]!, r, s.alpha) : [0, 0];
        const sr = a === p.carrier[i] && b === p.carrier[j] && r < SHORT_OFF ? p.pair(i, j) : undefined;
        const [f, df] = sr ? shortRange(sr, r) : [0, 0];
        t.energy += e + f;
        addPair(t, a, b, d, (de + df) / r);
        if (sr && si === 1) addCurvature(t.blocks[a - p.n]!, sr, d, r);
        if (sr && sj === 1) addCurvature(t.blocks[b - p.n]!, sr, d, r);
      }
    }
  }
}

function terms(cell: Cell, p: Particles, list: NeighborList, shells: Vec3[], s: Splitting): Terms {
  const positions = [...cell.positions, ...p.owner.map((i, k) => cell.positions[i]!.map((x, c) => x + shells[k]![c]!) as Vec3)];
  const t: Terms = {
    energy: 0,
    forces: positions.map(() => [0, 0, 0]),
    virial: [0, 0, 0, 0, 0, 0],
    blocks: shells.map(() => [0, 0, 0, 0, 0, 0, 0, 0, 0]),
  };
  const zero: Vec3 = [0, 0, 0];
  addIonPairs(t, p, list, (q) => (q < p.n ? zero : shells[q - p.n]!), s);
  shells.forEach((d, k) => addOwnPair(t, p, k, d, s.alpha));
  t.energy += addReciprocal({ ...cell, positions }, p.charges, s, t.forces, t.virial);
  return t;
}

const det3 = (m: readonly number[]): number =>
  m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) - m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) + m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);

/** x = M⁻¹ b for a 3×3 block, by Cramer's rule. */
function solve(m: readonly number[], b: Vec3): Vec3 {
  const det = det3(m);
  return [0, 1, 2].map((k) => det3(m.map((x, e) => (e % 3 === k ? b[Math.floor(e / 3)]! : x))) / det) as Vec3;
}

const dotAll = (a: readonly Vec3[], b: readonly Vec3[]): number =>
  a.reduce((sum, v, k) => sum + v[0] * b[k]![0] + v[1] * b[k]![1] + v[2] * b[k]![2], 0);
const largest = (v: readonly Vec3[]): number => Math.max(0, ...v.map((x) => Math.hypot(...x)));
const plus = (a: readonly Vec3[], b: readonly Vec3[], f: number): Vec3[] => a.map((v, k) => v.map((x, c) => x + f * b[k]![c]!) as Vec3);

/** Relaxes the shells from `start`; returns the terms at their minimum and the shells there. */
function relaxShells(at: (shells: Vec3[]) => Terms, start: Vec3[], shellForces: (t: Terms) => Vec3[]) {
  let shells = start;
  let t = at(shells);
  let evaluations = 1;
  for (;;) {
    const r = shellForces(t);
    const residual = largest(r);
    if (residual < SHELL_TOLERANCE) return { terms: t, shells };
    if (evaluations >= MAX_SHELL_EVALUATIONS)
      throw new InputError(
        `The shells did not settle in ${MAX_SHELL_EVALUATIONS} evaluations (a force of ${residual.toExponential(1)} eV/Å is left).`,
      );
    // Newton: solve H δ = r by conjugate gradients preconditioned with the shells' blocks, H·v from forces a step away.
    const precondition = (v: Vec3[]): Vec3[] => v.map((x, k) => solve(t.blocks[k]!, x));
    let step: Vec3[] = r.map(() => [0, 0, 0]);
    let res = r;
    let z = precondition(res);
    let direction = z;
    let rz = dotAll(res, z);
    while (largest(res) > Math.max(SHELL_TOLERANCE / 3, 1e-3 * residual) && evaluations < MAX_SHELL_EVALUATIONS) {
      const h = PROBE / largest(direction);
      const probe = shellForces(at(plus(shells, direction, h)));
      evaluations++;
      const hp = r.map((x, k) => x.map((f, c) => (f - probe[k]![c]!) / h) as Vec3);
      const curvature = dotAll(direction, hp);
      if (!(curvature > 0)) throw new InputError(CATASTROPHE);
      const alpha = rz / curvature;
      step = plus(step, direction, alpha);
      res = plus(res, hp, -alpha);
      z = precondition(res);
      const next = dotAll(res, z);
      direction = plus(z, direction, next / rz);
      rz = next;
    }
    shells = plus(shells, step, 1);
    if (largest(shells) > SKIN / 2) throw new InputError(CATASTROPHE);
    t = at(shells);
    evaluations++;
  }
}

/** Where a run's shells were last, to start the next evaluation's relaxation from (a relaxation or MD step moves them little). */
export interface ShellMemory {
  shells?: Vec3[];
}

/** The shell-model energy, forces on the ions and virial, the shells relaxed (from where `memory` last left them). */
export function evaluateShellModel(cell: Cell, set: ShellSet, alpha?: number, memory: ShellMemory = {}): Evaluation {
  const p = particlesOf(cell, set);
  const s = splitting({ ...cell, positions: [...cell.positions, ...p.owner.map((i) => cell.positions[i]!)] }, alpha, SHORT_OFF);
  const list = neighborList(cell.lattice, cell.positions, Math.max(s.realCutoff, SHORT_OFF) + SKIN);
  const closest = list.r.reduce((m, r) => Math.min(m, r), Infinity);
  if (closest < MIN_SEPARATION) {
    const m = list.r.indexOf(closest);
    throw new InputError(
      `Ions ${list.i[m]! + 1} and ${list.j[m]! + 1} are ${closest.toFixed(2)} Å apart (periodic images counted): the shell model needs at least ${MIN_SEPARATION} Å between ions; check the structure.`,
    );
  }
  const start = memory.shells?.length === p.owner.length ? memory.shells : p.owner.map((): Vec3 => [0, 0, 0]);
  const { terms: t, shells } = relaxShells(
    (x) => terms(cell, p, list, x, s),
    start,
    (x) => x.forces.slice(p.n),
  );
  memory.shells = shells;
  const forces = cell.positions.map((_, i) => {
    const k = p.shellOf[i]!;
    return (k < 0 ? t.forces[i] : t.forces[i]!.map((f, c) => f + t.forces[p.n + k]![c]!)) as Vec3;
  });
  return { energy: t.energy, forces, virial: t.virial };
}
