/**
 * The adiabatic shell model (Dick and Overhauser 1958, as Bush et al. 1994 fitted it and GULP evaluates it): an ion of
 * a set's `shells` is a core and a massless shell on a spring ½k|d|²; the shells are relaxed to their minimum at every
 * evaluation, so the energy is a function of the ion positions alone and the force on an ion is the sum of the forces
 * on its core and its shell (∂E/∂d = 0). Coulomb acts between every core and shell (Ewald, ewald.ts) except an ion's own
 * core and shell, the short-range terms between shells (or cores, for an ion without one). Pure.
 *
 * The neighbour list is built once over the ions with SKIN beyond the cutoffs, and each ion pair gives its four
 * core/shell pairs; a shell that moves further than SKIN/2 from its core is refused (the polarisation catastrophe of
 * ions pressed too close). The shells are relaxed by shellRelaxation.ts, whose steps need only the forces on the
 * shells: those leave out the core–core pairs and sum the cores' part of the reciprocal sum once per evaluation. A run
 * keeps what it can between evaluations (ShellMemory): its shells, each step starting from them extrapolated along
 * their last move; the shells' Hessian, factored; and the neighbour list while the ions stay within VERLET_SKIN/2 in
 * the same cell. Shells count as charges towards ewald.ts's limits.
 */
import { InputError, type Cell, type Vec3 } from './cell';
import { COULOMB, Reciprocal, realTerm, splitting, type Factors, type Phases, type Splitting } from './ewald';
import { MIN_SEPARATION, SHORT_OFF, shortRange } from './buckingham';
import type { ShellSet, ShortRange } from './ionicParameters';
import { VerletList, type NeighborList } from './neighbors';
import { addToVirial, type Evaluation } from './potential';
import { relaxShells, type Recycled, type ShellProblem } from './shellRelaxation';
import { pairTable } from './species';

/** Å: how far the list reaches beyond the cutoffs, twice the furthest a shell may stray from its core. */
const SKIN = 1;

/** The cores and shells of a cell: particle p < n is ion p's core, n + s the shell of ion owner[s]. */
interface Particles {
  n: number;
  owner: number[];
  /** Each ion's shell index (into owner), or −1. */
  shellOf: number[];
  charges: Float64Array;
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
  const charges = Float64Array.from([
    ...cell.symbols.map((x) => set.shells[x]?.core ?? set.charges[x]!),
    ...owner.map((i) => set.shells[cell.symbols[i]!]!.shell),
  ]);
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

/**
 * The core/shell pairs of every listed ion pair, those with a shell first (`moving` of them: all a probe needs), then
 * the core–core ones, which do not change while the shells relax.
 */
interface Combos {
  count: number;
  moving: number;
  a: Int32Array;
  b: Int32Array;
  /** The ion pair's index in the neighbour list. */
  pair: Int32Array;
  qq: Float64Array;
  short: (ShortRange | undefined)[];
}

/** The particles ion i's side of a pair may be: its core, and its shell if it has one. */
const sidesOf = (p: Particles, i: number): number[] => (p.shellOf[i]! < 0 ? [i] : [i, p.n + p.shellOf[i]!]);

function combosOf(p: Particles, list: NeighborList): Combos {
  const sides = p.shellOf.map((_, i) => sidesOf(p, i));
  let count = 0;
  let fixedCount = 0;
  for (let m = 0; m < list.count; m++) {
    count += sides[list.i[m]!]!.length * sides[list.j[m]!]!.length;
    fixedCount++;
  }
  const combos: Combos = {
    count,
    moving: count - fixedCount,
    a: new Int32Array(count),
    b: new Int32Array(count),
    pair: new Int32Array(count),
    qq: new Float64Array(count),
    short: new Array<ShortRange | undefined>(count),
  };
  // Each ion pair has one core–core pair: the moving ones fill the front, the fixed ones the back.
  let front = 0;
  let back = combos.moving;
  for (let m = 0; m < list.count; m++) {
    const i = list.i[m]!;
    const j = list.j[m]!;
    const short = p.pair(i, j);
    for (const a of sides[i]!) {
      for (const b of sides[j]!) {
        const c = a >= p.n || b >= p.n ? front++ : back++;
        combos.a[c] = a;
        combos.b[c] = b;
        combos.pair[c] = m;
        combos.qq[c] = p.charges[a]! * p.charges[b]!;
        combos.short[c] = a === p.carrier[i] && b === p.carrier[j] ? short : undefined;
      }
    }
  }
  return combos;
}

/**
 * What one evaluation adds up: energy, forces on every particle (flattened), virial, each shell's curvature block. A
 * probe of the shells has no virial (nor a use for the energy).
 */
interface Sums {
  energy: number;
  forces: Float64Array;
  virial?: number[];
  blocks?: Float64Array;
}

/** Adds the pair energy's effect for particles a, b at separation d = r_b − r_a with dE/dr / r = g. */
function addPair(t: Sums, a: number, b: number, dx: number, dy: number, dz: number, g: number): void {
  t.forces[3 * a]! += g * dx;
  t.forces[3 * a + 1]! += g * dy;
  t.forces[3 * a + 2]! += g * dz;
  t.forces[3 * b]! -= g * dx;
  t.forces[3 * b + 1]! -= g * dy;
  t.forces[3 * b + 2]! -= g * dz;
  if (t.virial) addToVirial(t.virial, g, dx, dy, dz);
}

/** The short-range pair's φ'/r and φ'' (switching left out). */
function shortCurvature(p: ShortRange, r: number): [number, number] {
  const e = p.A * Math.exp(-r / p.rho);
  return [(-e / p.rho + (6 * p.C) / r ** 7) / r, e / (p.rho * p.rho) - (42 * p.C) / r ** 8];
}

/** The real-space Coulomb pair's φ'/r and φ'' from its energy e and dE/dr de (realTerm's). */
function coulombCurvature(qq: number, e: number, de: number, r: number, alpha: number): [number, number] {
  const gauss = ((COULOMB * qq * 2 * alpha) / Math.sqrt(Math.PI)) * Math.exp(-alpha * alpha * r * r);
  return [de / r, -de / r + e / (r * r) + gauss * (1 / (r * r) + 2 * alpha * alpha)];
}

/** Adds a pair's curvature φ'' u⊗u + (φ'/r)(1 − u⊗u) times `sign` to the 3×3 block at h[at] (rows `size` apart). */
function addCurvature(
  h: Float64Array,
  at: number,
  size: number,
  [first, second]: [number, number],
  d: readonly number[],
  r: number,
  sign = 1,
): void {
  for (let x = 0; x < 3; x++) {
    for (let y = 0; y < 3; y++) h[at + x * size + y]! += sign * (((second - first) * d[x]! * d[y]!) / (r * r) + (x === y ? first : 0));
  }
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

/** One cell's shell model, set up once per evaluation: what stays fixed while the shells relax. */
interface Model {
  p: Particles;
  list: NeighborList;
  s: Splitting;
  combos: Combos;
  reciprocal: Reciprocal;
  /** Where the cores are (flattened), their phases and their part of S(k). */
  cores: Float64Array;
  corePhases: Phases;
  coreFactors: Factors;
  /** The shells' phases, written over at each evaluation (the structure's). */
  scratch: Phases;
}

/**
 * Ion i's own core and shell: the spring, and minus the part of their Coulomb energy the reciprocal sum counted
 * (−k q_c q_s erf(αr)/r; the real-space sum leaves the pair out).
 */
function addOwnPairs(t: Sums, model: Model, shells: Float64Array): void {
  const { p, s } = model;
  p.owner.forEach((i, k) => {
    const [dx, dy, dz] = [shells[3 * k]!, shells[3 * k + 1]!, shells[3 * k + 2]!];
    const r = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const qq = COULOMB * p.charges[i]! * p.charges[p.n + k]!;
    const [g, slope] = erfOverX(s.alpha * r);
    t.energy += 0.5 * p.springs[k]! * r * r - qq * s.alpha * g;
    addPair(t, i, p.n + k, dx, dy, dz, p.springs[k]! - qq * s.alpha ** 3 * slope);
    if (t.blocks) for (let x = 0; x < 3; x++) t.blocks[9 * k + 4 * x]! += p.springs[k]!;
  });
}

/** Writes core/shell pair c's separation r_b − r_a at these shell displacements into d; returns its length. */
function separation(model: Model, shells: Float64Array, c: number, d: number[]): number {
  const { n } = model.p;
  const [a, b, m] = [model.combos.a[c]!, model.combos.b[c]!, 3 * model.combos.pair[c]!];
  for (let k = 0; k < 3; k++) d[k] = model.list.d[m + k]! + (b < n ? 0 : shells[3 * (b - n) + k]!) - (a < n ? 0 : shells[3 * (a - n) + k]!);
  return Math.sqrt(d[0]! * d[0]! + d[1]! * d[1]! + d[2]! * d[2]!);
}

/**
 * The real-space Ewald and short-range terms of the first `upTo` core/shell pairs (the moving ones, or all). The hot
 * loop of every shell relaxation: no array made per pair.
 */
function addCombos(t: Sums, model: Model, shells: Float64Array, upTo: number): void {
  const { p, combos } = model;
  const { realCutoff, alpha } = model.s;
  const [n, shortOff] = [p.n, SHORT_OFF];
  const reach = Math.max(realCutoff, shortOff);
  const d = [0, 0, 0];
  for (let c = 0; c < upTo; c++) {
    const a = combos.a[c]!;
    const b = combos.b[c]!;
    const r = separation(model, shells, c, d);
    // The list reaches beyond both cutoffs, by the shells' and the Verlet skins.
    if (r >= reach) continue;
    const [e, de] = r < realCutoff ? realTerm(combos.qq[c]!, r, alpha) : [0, 0];
    const sr = r < shortOff ? combos.short[c] : undefined;
    const [f, df] = sr ? shortRange(sr, r) : [0, 0];
    t.energy += e + f;
    addPair(t, a, b, d[0]!, d[1]!, d[2]!, (de + df) / r);
    if (sr && t.blocks && a >= n) addCurvature(t.blocks, 9 * (a - n), 3, shortCurvature(sr, r), d, r);
    if (sr && t.blocks && b >= n) addCurvature(t.blocks, 9 * (b - n), 3, shortCurvature(sr, r), d, r);
  }
}

/** Where the shells are: their cores' positions displaced. */
function shellPositions(model: Model, shells: Float64Array): Float64Array {
  return Float64Array.from(shells, (x, k) => model.cores[3 * model.p.owner[Math.floor(k / 3)]! + (k % 3)]! + x);
}

/** The forces on the shells at these displacements (and their curvature blocks): all a probe needs. */
function shellForces(model: Model, shells: Float64Array, blocks?: Float64Array): Float64Array {
  const { p, reciprocal } = model;
  const t: Sums = { energy: 0, forces: new Float64Array(3 * p.charges.length), blocks };
  addCombos(t, model, shells, model.combos.moving);
  addOwnPairs(t, model, shells);
  const charges = p.charges.subarray(p.n);
  const phases = reciprocal.phases(shellPositions(model, shells), model.scratch);
  reciprocal.addForces(phases, charges, reciprocal.factors(phases, charges, model.coreFactors), t.forces, p.n);
  return t.forces.slice(3 * p.n);
}

/** Every term at these displacements: energy, forces on cores and shells, virial. */
function allTerms(model: Model, shells: Float64Array): Sums & { virial: number[] } {
  const { p, reciprocal } = model;
  const t = { energy: 0, forces: new Float64Array(3 * p.charges.length), virial: [0, 0, 0, 0, 0, 0] };
  addCombos(t, model, shells, model.combos.count);
  addOwnPairs(t, model, shells);
  const charges = p.charges.subarray(p.n);
  const phases = reciprocal.phases(shellPositions(model, shells), model.scratch);
  const total = reciprocal.factors(phases, charges, model.coreFactors);
  reciprocal.addForces(model.corePhases, p.charges.subarray(0, p.n), total, t.forces);
  reciprocal.addForces(phases, charges, total, t.forces, p.n);
  t.energy += reciprocal.energy(total, t.virial) + reciprocal.self(p.charges);
  return t;
}

/** The largest number of shell coordinates whose Hessian is made and factored (its cost grows as their cube). */
const DENSE_LIMIT = 1200;
/** The part of the reciprocal vectors (|k| ≤ this × k_c) the Hessian takes: the rest weigh under e^(−p/4) ≈ 1 %. */
const LONG_WAVES = 0.5;

/**
 * The shells' Hessian (dense, 3 rows per shell), for quasi-Newton steps in a run: every real-space pair with a shell,
 * the springs with their own pairs' Coulomb correction, and the long waves of the reciprocal sum.
 */
function shellHessian(model: Model, shells: Float64Array): Float64Array | undefined {
  const { p, combos, s } = model;
  const size = shells.length;
  if (size > DENSE_LIMIT) return undefined;
  const h = new Float64Array(size * size);
  const d = [0, 0, 0];
  const at = (x: number, y: number): number => 3 * (x - p.n) * size + 3 * (y - p.n);
  for (let c = 0; c < combos.moving; c++) {
    const [a, b] = [combos.a[c]!, combos.b[c]!];
    const r = separation(model, shells, c, d);
    const curvature: [number, number] = [0, 0];
    if (r < s.realCutoff) {
      const [e, de] = realTerm(combos.qq[c]!, r, s.alpha);
      coulombCurvature(combos.qq[c]!, e, de, r, s.alpha).forEach((x, k) => (curvature[k]! += x));
    }
    const sr = combos.short[c];
    if (sr && r < SHORT_OFF) shortCurvature(sr, r).forEach((x, k) => (curvature[k]! += x));
    if (a >= p.n) addCurvature(h, at(a, a), size, curvature, d, r);
    if (b >= p.n) addCurvature(h, at(b, b), size, curvature, d, r);
    if (a >= p.n && b >= p.n) {
      addCurvature(h, at(a, b), size, curvature, d, r, -1);
      addCurvature(h, at(b, a), size, curvature, d, r, -1);
    }
  }
  p.owner.forEach((i, k) => {
    const r = Math.hypot(shells[3 * k]!, shells[3 * k + 1]!, shells[3 * k + 2]!);
    const own = p.springs[k]! - COULOMB * p.charges[i]! * p.charges[p.n + k]! * s.alpha ** 3 * erfOverX(s.alpha * r)[1];
    for (let x = 0; x < 3; x++) h[(3 * k + x) * size + 3 * k + x]! += own;
  });
  const charges = p.charges.subarray(p.n);
  const phases = model.reciprocal.phases(shellPositions(model, shells), model.scratch);
  model.reciprocal.addHessian(phases, charges, model.reciprocal.factors(phases, charges, model.coreFactors), h, size, LONG_WAVES);
  return h;
}

/** Å: how far an ion may move before a run's neighbour list is built again (twice that beyond the cutoffs). */
const VERLET_SKIN = 0.6;

/** What stays fixed while a run's ions move a little in the same cell: the pairs to sum and the reciprocal vectors. */
interface Structure {
  /** The set, the elements and the Ewald splitting asked for: another of any needs another structure. */
  key: string;
  p: Particles;
  s: Splitting;
  reciprocal: Reciprocal;
  verlet: VerletList;
  combos: Combos;
  scratch: Phases;
}

const keyOf = (cell: Cell, set: ShellSet, alpha: number | undefined): string => `${set.name} ${alpha} ${cell.symbols.join(' ')}`;

function structureOf(cell: Cell, set: ShellSet, alpha: number | undefined): Structure {
  const p = particlesOf(cell, set);
  const s = splitting({ ...cell, positions: [...cell.positions, ...p.owner.map((i) => cell.positions[i]!)] }, alpha, SHORT_OFF);
  const verlet = VerletList.build(cell.lattice, cell.positions, Math.max(s.realCutoff, SHORT_OFF) + SKIN, VERLET_SKIN);
  const list = verlet.at(cell.lattice, cell.positions)!;
  return {
    key: keyOf(cell, set, alpha),
    p,
    s,
    reciprocal: new Reciprocal(cell.lattice, s),
    verlet,
    combos: combosOf(p, list),
    scratch: { cos: new Float64Array(0), sin: new Float64Array(0) },
  };
}

function modelOf(cell: Cell, set: ShellSet, alpha: number | undefined, memory: ShellMemory): Model {
  const kept = memory.structure;
  let list = kept?.key === keyOf(cell, set, alpha) ? kept.verlet.at(cell.lattice, cell.positions) : undefined;
  if (!list) {
    memory.structure = structureOf(cell, set, alpha);
    list = memory.structure.verlet.at(cell.lattice, cell.positions)!;
  }
  const { p, s, reciprocal, combos } = memory.structure!;
  const closest = list.r.reduce((m, r) => Math.min(m, r), Infinity);
  if (closest < MIN_SEPARATION) {
    const m = list.r.indexOf(closest);
    throw new InputError(
      `Ions ${list.i[m]! + 1} and ${list.j[m]! + 1} are ${closest.toFixed(2)} Å apart (periodic images counted): the shell model needs at least ${MIN_SEPARATION} Å between ions; check the structure.`,
    );
  }
  const cores = Float64Array.from(cell.positions.flat());
  const corePhases = reciprocal.phases(cores);
  const coreFactors = reciprocal.factors(corePhases, p.charges.subarray(0, p.n));
  return { p, list, s, combos, reciprocal, cores, corePhases, coreFactors, scratch: memory.structure!.scratch };
}

const problemOf = (model: Model): ShellProblem => ({
  forces: (shells, blocks) => shellForces(model, shells, blocks),
  hessian: (shells) => shellHessian(model, shells),
});

/** The shells' problem in this cell with its cores fixed: the forces on them and their Hessian, at any displacements. */
export const shellProblem = (cell: Cell, set: ShellSet): ShellProblem => problemOf(modelOf(cell, set, undefined, {}));

/** Å: the furthest a shell may stray from its core. */
export const MAX_SHELL_SHIFT = SKIN / 2;

/** A run's shells, where they were before, their Hessian (factored) and neighbour list (one memory per run). */
export interface ShellMemory {
  shells?: Float64Array;
  structure?: Structure;
  previous?: Float64Array;
  recycled?: Recycled;
}

/**
 * Where this evaluation's shells start: on their cores, or where the run left them, extrapolated along their last
 * move (a run's ions move smoothly, in MD and in a relaxation alike).
 */
function startingShells(memory: ShellMemory, count: number): Float64Array {
  const { shells, previous } = memory;
  if (shells?.length !== 3 * count) return new Float64Array(3 * count);
  if (previous?.length !== shells.length) return Float64Array.from(shells);
  return Float64Array.from(shells, (x, k) => 2 * x - previous[k]!);
}

/** The shell-model energy, forces on the ions and virial, the shells relaxed (from where `memory` last left them). */
export function evaluateShellModel(cell: Cell, set: ShellSet, alpha?: number, memory: ShellMemory = {}): Evaluation {
  const model = modelOf(cell, set, alpha, memory);
  const { p } = model;
  const start = startingShells(memory, p.owner.length);
  // A single evaluation (no shells from before) gets no Hessian: conjugate gradients cost it less.
  const recycled = memory.shells?.length === start.length ? (memory.recycled ??= {}) : (memory.recycled = undefined);
  const shells = relaxShells(problemOf(model), start, MAX_SHELL_SHIFT, recycled);
  [memory.previous, memory.shells] = [memory.shells, shells];
  const t = allTerms(model, shells);
  const forces = cell.positions.map((_, i): Vec3 => {
    const q = p.shellOf[i]! < 0 ? -1 : p.n + p.shellOf[i]!;
    return [0, 1, 2].map((k) => t.forces[3 * i + k]! + (q < 0 ? 0 : t.forces[3 * q + k]!)) as Vec3;
  });
  return { energy: t.energy, forces, virial: t.virial };
}
