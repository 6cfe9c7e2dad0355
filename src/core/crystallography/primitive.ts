/**
 * The primitive cell of a structure by its pure translations, found before the space-group search: moyo's cost
 * grows steeply with the pure translations of a supercell (a 1,000-atom 5×5×8 perovskite supercell took 14 s in
 * moyo-wasm 0.15 where spglib took 0.2 s), so the search runs on the primitive cell and its answer is mapped back.
 *
 * The method is spglib's and moyo's first step (A. Togo, K. Shinohara and I. Tanaka, Sci. Technol. Adv. Mater.
 * Meth. 4, 2384822 (2024), §3.1; K. Shinohara et al., arXiv:2311.01523, §3.2): the candidates are the vectors
 * from one atom of the least frequent species to the others of that species; a candidate is a pure translation
 * when it moves every atom onto an atom of the same species within the tolerance (symprec, Å). Each check is
 * O(N) through a spatial hash, and a candidate already implied by the translations found (the orbits of the group
 * they generate, kept in a union–find) is not checked again. The primitive lattice is the integer lattice the
 * translations generate (a Hermite basis of their exact rationals: each generator's order is the length of its
 * cycle through the anchor atom), Niggli-reduced. Anything inconsistent (orbits of unequal size, a volume that
 * does not divide) returns undefined and the caller searches the cell as it is.
 * Pure: no I/O.
 */
import type { Mat3, Vec3 } from '../poscar/types';
import { determinant, planeSpacings, rowTimes } from '../poscar/vec';
import { inverse, matTimes, metric, wrapUnit, type Cell } from './cell';
import { niggliReduce } from './niggli';

export interface Reduction {
  /** The primitive cell, sites in the order of their first input site. */
  cell: Cell;
  /** The primitive site of each input site. */
  site: Int32Array;
  /** The primitive vectors in the input's fractional coordinates (rows): L_prim = M·L. */
  basis: Mat3;
  /** The pure translations in the input's fractional coordinates, [0, 1), the zero vector first. */
  translations: Vec3[];
}

const nearest = (d: number): number => d - Math.round(d);

/** Atoms binned on a fractional grid whose cells are at least `tolerance` wide, for O(1) neighbour lookups. */
class SiteGrid {
  private readonly n: [number, number, number];
  /** Per axis, the bin offsets of the neighbours (−1, 0, +1, fewer where the axis has fewer than three bins). */
  private readonly offsets: number[][];
  private readonly bins = new Map<number, number[]>();
  private readonly g: Mat3;

  constructor(
    private readonly cell: Cell,
    private readonly tolerance: number,
  ) {
    this.g = metric(cell.lattice);
    const perAxis = Math.ceil(Math.cbrt(cell.frac.length));
    this.n = planeSpacings(cell.lattice).map((s) => Math.max(1, Math.min(Math.floor(s / tolerance), perAxis))) as [number, number, number];
    this.offsets = this.n.map((n) => (n === 1 ? [0] : n === 2 ? [0, 1] : [-1, 0, 1]));
    cell.frac.forEach((f, i) => {
      const key = this.key(this.bin(f[0], 0), this.bin(f[1], 1), this.bin(f[2], 2));
      const list = this.bins.get(key);
      if (list) list.push(i);
      else this.bins.set(key, [i]);
    });
  }

  private bin(x: number, axis: number): number {
    const n = this.n[axis]!;
    return Math.floor(wrapUnit(x) * n) % n;
  }

  private key(i: number, j: number, k: number): number {
    const [, n1, n2] = this.n;
    return (i * n1 + j) * n2 + k;
  }

  /** The squared distance (Å²) between two fractional points, nearest image. */
  distance2(a: Vec3, b: Vec3): number {
    const d0 = nearest(a[0] - b[0]);
    const d1 = nearest(a[1] - b[1]);
    const d2 = nearest(a[2] - b[2]);
    const g = this.g;
    return d0 * d0 * g[0][0] + d1 * d1 * g[1][1] + d2 * d2 * g[2][2] + 2 * (d0 * d1 * g[0][1] + d0 * d2 * g[0][2] + d1 * d2 * g[1][2]);
  }

  /** The site of `species` nearest to `f` within the tolerance, or −1. */
  find(f: Vec3, species: string): number {
    const [n0, n1, n2] = this.n;
    const b0 = this.bin(f[0], 0);
    const b1 = this.bin(f[1], 1);
    const b2 = this.bin(f[2], 2);
    let best = -1;
    let bestD = this.tolerance * this.tolerance;
    for (const i of this.offsets[0]!) {
      for (const j of this.offsets[1]!) {
        for (const k of this.offsets[2]!) {
          const sites = this.bins.get(this.key((b0 + i + n0) % n0, (b1 + j + n1) % n1, (b2 + k + n2) % n2));
          if (!sites) continue;
          for (const s of sites) {
            if (this.cell.species[s] !== species) continue;
            const d = this.distance2(f, this.cell.frac[s]!);
            if (d <= bestD) {
              best = s;
              bestD = d;
            }
          }
        }
      }
    }
    return best;
  }
}

class UnionFind {
  readonly parent: Int32Array;
  constructor(n: number) {
    this.parent = Int32Array.from({ length: n }, (_, i) => i);
  }
  find(i: number): number {
    while (this.parent[i] !== i) i = this.parent[i] = this.parent[this.parent[i]!]!;
    return i;
  }
  union(a: number, b: number): void {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

/** The sites in a fixed shuffled order, so that a candidate that fails meets a site it fails on early. */
function shuffledSites(count: number): Int32Array {
  const order = Int32Array.from({ length: count }, (_, i) => i);
  let seed = 29;
  for (let i = count - 1; i > 0; i--) {
    seed = (seed * 16807) % 2147483647;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** The permutation a translation makes of the sites, or undefined when some site lands on no site or on a taken one. */
function translationImage(cell: Cell, grid: SiteGrid, t: Vec3, order: Int32Array): Int32Array | undefined {
  const image = new Int32Array(cell.frac.length);
  const taken = new Uint8Array(cell.frac.length);
  const target: Vec3 = [0, 0, 0];
  for (const i of order) {
    const f = cell.frac[i]!;
    target[0] = f[0] + t[0];
    target[1] = f[1] + t[1];
    target[2] = f[2] + t[2];
    const j = grid.find(target, cell.species[i]!);
    if (j < 0 || taken[j]) return undefined;
    taken[j] = 1;
    image[i] = j;
  }
  return image;
}

/** A generator of the translations as an exact rational: numerators over its order. */
interface Generator {
  numerators: Vec3;
  order: number;
}

/** The translation measured over every site (the mean of the matched differences) and its order. */
function generatorOf(cell: Cell, image: Int32Array, t: Vec3, anchor: number): Generator {
  const sum = [0, 0, 0];
  image.forEach((j, i) => {
    for (let k = 0; k < 3; k++) sum[k]! += nearest(cell.frac[j]![k]! - cell.frac[i]![k]! - t[k]!);
  });
  let order = 1;
  for (let at = image[anchor]!; at !== anchor; at = image[at]!) order++;
  const mean = t.map((x, k) => x + sum[k]! / image.length);
  return { numerators: mean.map((x) => Math.round(x * order)) as Vec3, order };
}

/** The species with the fewest sites (the first such in the file), and its sites. */
function rarestSites(species: readonly string[]): number[] {
  const sites = new Map<string, number[]>();
  species.forEach((s, i) => (sites.get(s) ?? sites.set(s, []).get(s)!).push(i));
  let best: number[] = [];
  for (const list of sites.values()) if (best.length === 0 || list.length < best.length) best = list;
  return best;
}

/** The generators of the pure translations and the orbits of the group they generate. */
function pureTranslations(cell: Cell, symprec: number): { generators: Generator[]; orbits: UnionFind } {
  const grid = new SiteGrid(cell, symprec);
  const orbits = new UnionFind(cell.frac.length);
  const generators: Generator[] = [];
  const order = shuffledSites(cell.frac.length);
  const [anchor, ...others] = rarestSites(cell.species);
  const a = cell.frac[anchor!]!;
  for (const j of others) {
    if (orbits.find(j) === orbits.find(anchor!)) continue;
    const t = cell.frac[j]!.map((x, k) => nearest(x - a[k]!)) as Vec3;
    if (grid.distance2(t, [0, 0, 0]) <= symprec * symprec) continue;
    const image = translationImage(cell, grid, t, order);
    if (!image) continue;
    image.forEach((to, from) => orbits.union(from, to));
    generators.push(generatorOf(cell, image, t, anchor!));
  }
  return { generators, orbits };
}

/** A basis (rows) of the integer lattice spanned by the rows (full rank), by column-wise Euclidean reduction. */
export function integerBasis(rows: number[][]): Mat3 {
  let rest = rows.map((r) => [...r]);
  const basis: number[][] = [];
  for (let c = 0; c < 3; c++) {
    for (;;) {
      const live = rest.filter((r) => r[c] !== 0);
      if (live.length <= 1) break;
      const pivot = live.reduce((p, r) => (Math.abs(r[c]!) < Math.abs(p[c]!) ? r : p));
      for (const r of live) {
        if (r === pivot) continue;
        const q = Math.trunc(r[c]! / pivot[c]!);
        for (let k = 0; k < 3; k++) r[k]! -= q * pivot[k]!;
      }
    }
    const pivot = rest.find((r) => r[c] !== 0);
    if (!pivot) throw new Error('The translations do not span three dimensions.');
    basis.push(pivot);
    rest = rest.filter((r) => r !== pivot);
  }
  return basis as Mat3;
}

/** The primitive basis (rows, the input's fractional coordinates) the generators span with the input lattice. */
function primitiveBasis(generators: Generator[], n: number): Mat3 | undefined {
  if (generators.some((g) => n % g.order !== 0)) return undefined;
  const rows = [[n, 0, 0], [0, n, 0], [0, 0, n], ...generators.map((g) => g.numerators.map((x) => x * (n / g.order)))];
  const m = integerBasis(rows).map((r) => r.map((x) => x / n)) as Mat3;
  return Math.abs(Math.abs(determinant(m)) * n - 1) < 1e-9 ? m : undefined;
}

/** The sites of each orbit, in input order; undefined unless every orbit has the same size. */
function orbitMembers(orbits: UnionFind, count: number): number[][] | undefined {
  const byRoot = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const root = orbits.find(i);
    (byRoot.get(root) ?? byRoot.set(root, []).get(root)!).push(i);
  }
  const members = [...byRoot.values()];
  const size = members[0]!.length;
  return members.every((m) => m.length === size) ? members : undefined;
}

/**
 * The primitive cell of `cell` by its pure translations at tolerance `symprec` (Å); undefined when it is
 * primitive already, or when the translations found are not consistent (the caller then searches the cell itself).
 */
export function primitiveReduction(cell: Cell, symprec: number): Reduction | undefined {
  const { generators, orbits } = pureTranslations(cell, symprec);
  if (generators.length === 0) return undefined;
  const members = orbitMembers(orbits, cell.frac.length);
  if (!members) return undefined;
  const n = members[0]!.length;
  const hermite = primitiveBasis(generators, n);
  if (!hermite) return undefined;
  const basis = matTimes(niggliReduce(matTimes(hermite, cell.lattice)).transform, hermite);
  const toPrim = inverse(basis);
  const site = new Int32Array(cell.frac.length);
  const frac = members.map((list, p) => {
    const y0 = rowTimes(cell.frac[list[0]!]!, toPrim);
    const sum = [0, 0, 0];
    for (const i of list) {
      site[i] = p;
      const y = rowTimes(cell.frac[i]!, toPrim);
      for (let k = 0; k < 3; k++) sum[k]! += nearest(y[k]! - y0[k]!);
    }
    return y0.map((x, k) => wrapUnit(x + sum[k]! / list.length)) as Vec3;
  });
  // The translations exactly: each anchor-orbit difference snapped onto the primitive lattice.
  const anchorOrbit = members.find((m) => m.includes(rarestSites(cell.species)[0]!))!;
  const x0 = cell.frac[anchorOrbit[0]!]!;
  const translations = anchorOrbit.map((j) => {
    const y = rowTimes(cell.frac[j]!.map((x, k) => x - x0[k]!) as Vec3, toPrim).map(Math.round) as Vec3;
    return rowTimes(y, basis).map(wrapUnit) as Vec3;
  });
  return {
    cell: { lattice: matTimes(basis, cell.lattice), frac, species: members.map((list) => cell.species[list[0]!]!) },
    site,
    basis,
    translations,
  };
}
