/**
 * Space-group symmetry of a crystal structure by moyo (https://github.com/spglib/moyo; K. Shinohara, A. Togo and
 * I. Tanaka, "Algorithms for crystal structure symmetry analysis", arXiv:2311.01523 (2023)), spglib's successor by
 * the same authors, through its WebAssembly build @spglib/moyo-wasm, in spglib's setting ("Spglib"): the space
 * group number, the Hermann–Mauguin symbol as spglib writes it (`international`: "Fd-3m", "P2_1/c"), the crystal
 * system, the Bravais lattice (the Pearson symbol's first two letters), a Wyckoff letter per site, and the
 * standardized conventional and primitive cells with their transformations.
 *
 * The core never loads the WebAssembly itself: each host injects a loader (platform/moyo.ts), which the finder
 * calls on its first search only, never at activation. Pure: no Node, no vscode, no DOM.
 */
import type { Mat3, Vec3 } from '../poscar/types';
import { SETTING_DEFAULTS } from '../settings';
import { determinant, rowTimes } from '../poscar/vec';
import { inverse, matTimes, transpose, typeNumbers, wrapUnit, type Cell } from './cell';
import { primitiveReduction, type Reduction } from './primitive';

/** The part of @spglib/moyo-wasm's bindings the finder calls (the package's own functions, once initialized). */
export interface MoyoBindings {
  analyze_cell(cellJson: string, symprec: number, setting: string): unknown;
  hall_symbol_entry(hallNumber: number): unknown;
}

/** The default distance tolerance, Å (spglib's symprec): the setting tokenLens.symmetry.tolerance's default. */
export const DEFAULT_SYMPREC: number = SETTING_DEFAULTS['symmetry.tolerance'];
/** The tolerances the setting accepts, Å: below, floating-point noise; above, neighbouring atoms merge. */
export const SYMPREC_RANGE = { min: 1e-6, max: 0.5 } as const;
/**
 * The most atoms a search is run on (the cell commands, the CLI). The search reduces a supercell to its primitive
 * cell first (primitive.ts), so a 8,000-atom perovskite supercell takes about a second; a cell without pure
 * translations is moyo's whole cost: ~1.3 s for 3,000 atoms in P1 (npm run bench -- --only=symmetry, loaded
 * machine). In the desktop editor it runs on a worker thread with a timeout (platform/symmetryPool.ts).
 */
export const MAX_SYMMETRY_ATOMS = 20_000;
/**
 * The most atoms the editor searches by itself (CodeLens, hover, 3D legend) where the search runs on a worker
 * thread (the desktop host): it never blocks the editor, and a changed document cancels it.
 */
export const AUTO_SYMMETRY_ATOMS = 5000;
/**
 * The same where the search runs on the extension host's own thread (the web host, where moyo's WebAssembly
 * cannot be moved off it): ~0.2 s for 1,000 atoms in P1, less for a supercell.
 */
export const AUTO_SYMMETRY_ATOMS_IN_THREAD = 1000;
/** How long the first load of the WebAssembly may take before the search says it timed out, ms. */
export const LOAD_TIMEOUT_MS = 20_000;

export type CrystalSystem = 'triclinic' | 'monoclinic' | 'orthorhombic' | 'tetragonal' | 'trigonal' | 'hexagonal' | 'cubic';

export interface SymmetryOperation {
  /** Integer rotation acting on fractional coordinates of the input cell (rows: x' = R·x + t). */
  rotation: Mat3;
  translation: Vec3;
}

export interface SymmetryResult {
  /** International Tables number, 1–230. */
  number: number;
  /** Hermann–Mauguin symbol as spglib's `international` writes it: no spaces, screw axes as 2_1. */
  symbol: string;
  /** The full symbol, e.g. "P 4_2/m 2_1/n 2/m". */
  fullSymbol: string;
  hallNumber: number;
  crystalSystem: CrystalSystem;
  /** Bravais lattice as its two-letter symbol (cF, tI, hR, …) and name. */
  bravais: string;
  bravaisName: string;
  pearson: string;
  /** One letter per site of the input, in its order. */
  wyckoffs: string[];
  /** Each site's site-symmetry symbol, oriented ("-43m", ".m."). */
  siteSymmetries: string[];
  /** The index of each site's representative among symmetry-equivalent sites. */
  orbits: number[];
  operations: SymmetryOperation[];
  /** The tolerance used, Å. */
  symprec: number;
  /**
   * The standardized conventional cell in spglib's setting, as moyo gives it: the lattice not idealized (see
   * standard.ts standardCells, which idealizes it as spglib does) and its basis in the monoclinic and triclinic
   * cases not necessarily spglib's (the same lattice, another choice of vectors).
   */
  conventional: Cell;
  /** The standardized primitive cell, as moyo gives it (the same caveats). */
  primitive: Cell;
}

/** A search run elsewhere (a worker thread): the same answer as analyzeSymmetry, cancelled by `signal`. */
export type SymmetrySearch = (cell: Cell, symprec: number, signal?: AbortSignal) => Promise<SymmetryResult>;

export type SymmetryOutcome = { ok: true; result: SymmetryResult; ms: number } | { ok: false; reason: string; symprec: number };

const SYSTEMS: [number, CrystalSystem][] = [
  [2, 'triclinic'],
  [15, 'monoclinic'],
  [74, 'orthorhombic'],
  [142, 'tetragonal'],
  [167, 'trigonal'],
  [194, 'hexagonal'],
  [230, 'cubic'],
];

/** The crystal system of a space group number (International Tables, Vol. A, Table 2.1.1.1). */
export function crystalSystem(number: number): CrystalSystem {
  for (const [last, system] of SYSTEMS) if (number <= last) return system;
  return 'cubic';
}

const LATTICE_NAMES: Record<string, string> = {
  a: 'triclinic',
  m: 'monoclinic',
  o: 'orthorhombic',
  t: 'tetragonal',
  h: 'hexagonal',
  c: 'cubic',
};
const CENTRING_NAMES: Record<string, string> = {
  P: 'primitive',
  S: 'base-centred',
  C: 'base-centred',
  A: 'base-centred',
  B: 'base-centred',
  I: 'body-centred',
  F: 'face-centred',
  R: 'rhombohedral',
};

/** "face-centred cubic" for cF; the 14 Bravais lattices' names (hR: rhombohedral). */
export function bravaisName(bravais: string): string {
  if (bravais === 'hR') return 'rhombohedral';
  return `${CENTRING_NAMES[bravais[1] ?? ''] ?? bravais[1] ?? ''} ${LATTICE_NAMES[bravais[0] ?? ''] ?? ''}`.trim();
}

/** spglib's `international`: moyo's short symbol ("P 2_1/c", "F d -3 m") without spaces. */
export const spglibSymbol = (hmShort: string): string => hmShort.replace(/\s+/g, '');

export class SymmetryError extends Error {}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
function nums(x: unknown, n: number): number[] {
  if (!Array.isArray(x) || x.length !== n || !x.every(isNum)) throw new SymmetryError('moyo answered in an unexpected shape.');
  return x;
}
const mat3 = (x: unknown): Mat3 => {
  const v = nums(x, 9);
  return [
    [v[0]!, v[1]!, v[2]!],
    [v[3]!, v[4]!, v[5]!],
    [v[6]!, v[7]!, v[8]!],
  ];
};

function readCell(x: unknown, symbolOf: Map<number, string>): Cell {
  if (!isObj(x) || !isObj(x.lattice) || !Array.isArray(x.positions) || !Array.isArray(x.numbers)) {
    throw new SymmetryError('moyo answered in an unexpected shape.');
  }
  const positions = x.positions as unknown[];
  const numbers = x.numbers as unknown[];
  return {
    lattice: mat3(x.lattice.basis),
    frac: positions.map((p) => nums(p, 3) as Vec3),
    species: numbers.map((n) => symbolOf.get(n as number) ?? String(n)),
  };
}

/** Why a cell cannot be searched, or undefined. */
export function cellProblem(cell: Cell, symprec: number, maxAtoms = MAX_SYMMETRY_ATOMS): string | undefined {
  if (!(symprec >= SYMPREC_RANGE.min && symprec <= SYMPREC_RANGE.max)) {
    return `The symmetry tolerance must be between ${SYMPREC_RANGE.min} and ${SYMPREC_RANGE.max} Å, not ${symprec}.`;
  }
  if (cell.frac.length === 0) return 'The structure has no atoms.';
  if (cell.frac.length > maxAtoms) {
    return `The symmetry search runs on up to ${maxAtoms.toLocaleString('en-US')} atoms${maxAtoms < MAX_SYMMETRY_ATOMS ? ' by itself (the cell commands and the CLI take up to ' + MAX_SYMMETRY_ATOMS.toLocaleString('en-US') + ')' : ''}; this structure has ${cell.frac.length.toLocaleString('en-US')}.`;
  }
  if (cell.frac.length !== cell.species.length) return 'The structure has a different number of positions and species.';
  const det = determinant(cell.lattice);
  if (!Number.isFinite(det) || Math.abs(det) < 1e-6) return 'The lattice vectors are degenerate (zero volume).';
  if (!cell.frac.every((f) => f.every(Number.isFinite))) return 'A position is not a finite number.';
  return undefined;
}

/** moyo's dataset for a cell, JSON in, object out; a failure is a SymmetryError with moyo's words. */
function moyoDataset(moyo: MoyoBindings, cell: Cell, symprec: number): unknown {
  // moyo takes the lattice row-major, rows = vectors: the same layout as ours.
  const json = JSON.stringify({ lattice: { basis: cell.lattice.flat() }, positions: cell.frac, numbers: typeNumbers(cell.species) });
  try {
    return moyo.analyze_cell(json, symprec, 'Spglib');
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new SymmetryError(`No space group found at symprec ${symprec} Å (moyo: ${detail.slice(0, 200)}).`);
  }
}

/**
 * moyo's raw dataset of the cell's primitive cell (primitive.ts; the cell itself when it is primitive), for the
 * callers that read the standard cell and its rotation (both the same for a cell and its primitive cell: the
 * Cartesian frame is shared).
 */
export function primitiveDataset(moyo: MoyoBindings, cell: Cell, symprec: number): unknown {
  return moyoDataset(moyo, primitiveReduction(cell, symprec)?.cell ?? cell, symprec);
}

function readOperation(op: unknown): SymmetryOperation {
  if (!isObj(op)) throw new SymmetryError('moyo answered in an unexpected shape.');
  // moyo writes a rotation column by column (nalgebra's order): transposed here to rows.
  return { rotation: transpose(mat3(op.rotation)), translation: nums(op.translation, 3) as Vec3 };
}

function readResult(moyo: MoyoBindings, raw: unknown, symbolOf: Map<number, string>, symprec: number): SymmetryResult {
  if (!isObj(raw) || !isNum(raw.number) || !isNum(raw.hall_number) || !Array.isArray(raw.wyckoffs)) {
    throw new SymmetryError('moyo answered in an unexpected shape.');
  }
  const entry = moyo.hall_symbol_entry(raw.hall_number);
  const hmShort = isObj(entry) && typeof entry.hm_short === 'string' ? entry.hm_short : String(raw.hm_symbol ?? '');
  const hmFull = isObj(entry) && typeof entry.hm_full === 'string' ? entry.hm_full : hmShort;
  const pearson = typeof raw.pearson_symbol === 'string' ? raw.pearson_symbol : '';
  const bravais = pearson.slice(0, 2);
  return {
    number: raw.number,
    symbol: spglibSymbol(hmShort),
    fullSymbol: hmFull,
    hallNumber: raw.hall_number,
    crystalSystem: crystalSystem(raw.number),
    bravais,
    bravaisName: bravaisName(bravais),
    pearson,
    wyckoffs: (raw.wyckoffs as unknown[]).map(String),
    siteSymmetries: Array.isArray(raw.site_symmetry_symbols) ? (raw.site_symmetry_symbols as unknown[]).map(String) : [],
    orbits: Array.isArray(raw.orbits) ? (raw.orbits as unknown[]).map(Number) : [],
    operations: Array.isArray(raw.operations) ? raw.operations.map(readOperation) : [],
    symprec,
    conventional: readCell(raw.std_cell, symbolOf),
    primitive: readCell(raw.prim_std_cell, symbolOf),
  };
}

/**
 * The primitive cell's operations in the input's coordinates, each combined with every pure translation: with
 * x = Mᵀ·y (M the primitive vectors in the input's fractional coordinates, rows), R = Mᵀ·R_p·Mᵀ⁻¹ and t = Mᵀ·t_p.
 * A rotation that is not integer there does not map the input's lattice onto itself (a supercell that breaks the
 * lattice's symmetry, e.g. a cubic cell repeated 1×1×2): moyo and spglib leave those out of a cell's operations, so
 * this does too.
 */
function liftOperations(operations: SymmetryOperation[], reduction: Reduction): SymmetryOperation[] {
  const mt = transpose(reduction.basis);
  const mtInv = inverse(mt);
  return operations.flatMap((op) => {
    const exact = matTimes(mt, matTimes(op.rotation, mtInv));
    const rotation = exact.map((r) => r.map(Math.round)) as Mat3;
    if (exact.some((r, i) => r.some((x, k) => Math.abs(x - rotation[i]![k]!) > 1e-6))) return [];
    const t = rowTimes(op.translation, reduction.basis);
    return reduction.translations.map((tau) => ({ rotation, translation: t.map((x, k) => wrapUnit(x + tau[k]!)) as Vec3 }));
  });
}

/** The primitive cell's answer for the input's sites: each site takes its primitive site's letter and symbol. */
function liftResult(result: SymmetryResult, reduction: Reduction): SymmetryResult {
  const site = [...reduction.site];
  // An orbit is named by its first site, as moyo and spglib name it.
  const firstOf = new Map<number, number>();
  site.forEach((p, i) => firstOf.has(result.orbits[p]!) || firstOf.set(result.orbits[p]!, i));
  return {
    ...result,
    wyckoffs: site.map((p) => result.wyckoffs[p]!),
    siteSymmetries: result.siteSymmetries.length > 0 ? site.map((p) => result.siteSymmetries[p]!) : [],
    orbits: result.orbits.length > 0 ? site.map((p) => firstOf.get(result.orbits[p]!)!) : [],
    operations: liftOperations(result.operations, reduction),
  };
}

/**
 * The search: the cell reduced to its primitive cell by its pure translations (primitive.ts), which moyo searches
 * in one synchronous call, and the answer mapped back to the input's sites and coordinates. Throws SymmetryError
 * with a sentence for the user when the cell cannot be searched or moyo finds no group at this tolerance (e.g.
 * atoms closer than symprec).
 */
export function analyzeSymmetry(moyo: MoyoBindings, cell: Cell, symprec = DEFAULT_SYMPREC): SymmetryResult {
  const problem = cellProblem(cell, symprec);
  if (problem) throw new SymmetryError(problem);
  const numbers = typeNumbers(cell.species);
  const symbolOf = new Map<number, string>();
  numbers.forEach((n, i) => symbolOf.set(n, cell.species[i]!));
  const reduction = primitiveReduction(cell, symprec);
  const result = readResult(moyo, moyoDataset(moyo, reduction?.cell ?? cell, symprec), symbolOf, symprec);
  return reduction ? liftResult(result, reduction) : result;
}

/** "Fd-3m (227), face-centred cubic" — the one-line form the CodeLens and the legend show. */
export function symmetryLine(r: SymmetryResult): string {
  return `${r.symbol} (${r.number}), ${r.bravaisName}`;
}

/**
 * Finds symmetry with moyo loaded on first use. `load` is the host's loader (platform/moyo.ts); it is called once,
 * on the first search, and a failed load is reported by every search (the structure stays usable) and retried
 * on the next one.
 */
export class SymmetryFinder {
  private loading: Promise<MoyoBindings> | undefined;
  /** How long the load took, ms, once it did. */
  loadMs: number | undefined;

  /**
   * `load` gives the bindings on this thread (the cell commands' standard cells, and the search itself unless
   * `offThread` runs it elsewhere).
   */
  constructor(
    private readonly load: () => Promise<MoyoBindings>,
    private readonly loadTimeoutMs = LOAD_TIMEOUT_MS,
    private readonly offThread?: SymmetrySearch,
  ) {}

  /** The most atoms the editor searches by itself with this finder. */
  get autoAtoms(): number {
    return this.offThread ? AUTO_SYMMETRY_ATOMS : AUTO_SYMMETRY_ATOMS_IN_THREAD;
  }

  /** True once moyo is loaded (nothing loads it but a search). */
  get loaded(): boolean {
    return this.loadMs !== undefined;
  }

  private bindings(): Promise<MoyoBindings> {
    if (!this.loading) {
      const start = performance.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new SymmetryError(`Loading the symmetry finder (moyo) took over ${this.loadTimeoutMs / 1000} s; it was stopped.`)),
          this.loadTimeoutMs,
        );
      });
      this.loading = Promise.race([this.load(), timeout]).then(
        (moyo) => {
          clearTimeout(timer);
          this.loadMs = performance.now() - start;
          return moyo;
        },
        (error: unknown) => {
          clearTimeout(timer);
          this.loading = undefined;
          throw error instanceof SymmetryError
            ? error
            : new SymmetryError(
                `The symmetry finder (moyo) could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
              );
        },
      );
    }
    return this.loading;
  }

  /** The loaded bindings, for the cell commands that need moyo's operations. */
  async moyo(): Promise<MoyoBindings> {
    return this.bindings();
  }

  /** Never throws: a failure (a cancellation by `signal` too) is an outcome with its reason. */
  async find(cell: Cell, symprec = DEFAULT_SYMPREC, maxAtoms = MAX_SYMMETRY_ATOMS, signal?: AbortSignal): Promise<SymmetryOutcome> {
    const problem = cellProblem(cell, symprec, maxAtoms);
    if (problem) return { ok: false, reason: problem, symprec };
    try {
      const moyo = this.offThread ? undefined : await this.bindings();
      const start = performance.now();
      const result = moyo ? analyzeSymmetry(moyo, cell, symprec) : await this.offThread!(cell, symprec, signal);
      return { ok: true, result, ms: performance.now() - start };
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error), symprec };
    }
  }
}
