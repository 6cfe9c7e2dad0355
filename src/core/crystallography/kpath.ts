/**
 * High-symmetry k-paths after Setyawan & Curtarolo, Comput. Mater. Sci. 49, 299 (2010) (SC; the convention of
 * AFLOW and the Materials Project), from the space group and the conventional cell, or — where no space group is
 * known — from the cell's metric. Pure.
 *
 * The steps: the space group's number gives the lattice system and centring; the conventional cell is brought into
 * SC's setting (their section 3: a < b < c for the orthorhombic lattices, the unique axis a with α < 90° for the
 * monoclinic ones, the reduced reciprocal cell for the triclinic one), SC's primitive cell is built from it (their
 * Tables 2–23), the cell's parameters choose the variant (BCT1/2, ORCF1–3, RHL1/2, MCLC1–5, TRI1a/1b/2a/2b) and
 * the variant's table (kpathTable.ts) gives the special points in the reciprocal basis of that primitive cell. All
 * cells stay in the input's Cartesian frame (rows in Å): SC's cells are these up to a rotation, which fractional
 * coordinates do not see, and the points can then be written in the basis of any cell of the same lattice
 * (pointsIn).
 */
import type { Mat3, Vec3 } from '../poscar/types';
import { determinant, dot, norm, reciprocal, rowTimes, scale, sub } from '../poscar/vec';
import { VARIANTS, type CellParameters, type Variant } from './kpathTable';

export type { Variant } from './kpathTable';

export const SETYAWAN_CURTAROLO = 'Setyawan & Curtarolo, Comput. Mater. Sci. 49, 299 (2010)';

export type LatticeSystem = 'cubic' | 'tetragonal' | 'orthorhombic' | 'hexagonal' | 'rhombohedral' | 'monoclinic' | 'triclinic';
export type Centering = 'P' | 'C' | 'A' | 'I' | 'F' | 'R';

export interface Bravais {
  system: LatticeSystem;
  centering: Centering;
}

/** Relative tolerance of SC's boundaries between variants (1/a² = 1/b² + 1/c², k_γ = 90°, …). */
export const VARIANT_TOLERANCE = 1e-5;

// The centring letter of each space group in its standard setting (International Tables A, the first letter of
// the Hermann-Mauguin symbol); test/unit/core/crystallography/kpath.test.ts checks these lists against spglib's database.
const I_GROUPS = [
  23, 24, 44, 45, 46, 71, 72, 73, 74, 79, 80, 82, 87, 88, 97, 98, 107, 108, 109, 110, 119, 120, 121, 122, 139, 140, 141, 142, 197, 199, 204,
  206, 211, 214, 217, 220, 229, 230,
];
const F_GROUPS = [22, 42, 43, 69, 70, 196, 202, 203, 209, 210, 216, 219, 225, 226, 227, 228];
const C_GROUPS = [5, 8, 9, 12, 15, 20, 21, 35, 36, 37, 63, 64, 65, 66, 67, 68];
const A_GROUPS = [38, 39, 40, 41];
const R_GROUPS = [146, 148, 155, 160, 161, 166, 167];

/** The lattice system and centring of a space group (1–230); R groups are rhombohedral, other trigonal ones hexagonal. */
export function bravaisOfSpaceGroup(number: number): Bravais {
  if (!Number.isInteger(number) || number < 1 || number > 230)
    throw new RangeError(`A space group number is a whole number from 1 to 230, not ${number}.`);
  const centering: Centering = I_GROUPS.includes(number)
    ? 'I'
    : F_GROUPS.includes(number)
      ? 'F'
      : C_GROUPS.includes(number)
        ? 'C'
        : A_GROUPS.includes(number)
          ? 'A'
          : R_GROUPS.includes(number)
            ? 'R'
            : 'P';
  const system: LatticeSystem =
    number <= 2
      ? 'triclinic'
      : number <= 15
        ? 'monoclinic'
        : number <= 74
          ? 'orthorhombic'
          : number <= 142
            ? 'tetragonal'
            : number <= 194
              ? centering === 'R'
                ? 'rhombohedral'
                : 'hexagonal'
              : 'cubic';
  return { system, centering };
}

// ---- small linear algebra ----------------------------------------------------------------------------------

/** Rows M·L: each new vector a combination of the rows of L. */
const combine = (m: number[][], lattice: Mat3): Mat3 => m.map((row) => rowTimes(row as Vec3, lattice)) as Mat3;
const negate = (m: Mat3): Mat3 => m.map((v) => scale(v, -1)) as Mat3;
/** Inversion keeps every lattice and every angle; SC's cells are right-handed. */
const rightHanded = (m: Mat3): Mat3 => (determinant(m) < 0 ? negate(m) : m);
const cosine = (u: Vec3, v: Vec3): number => dot(u, v) / (norm(u) * norm(v));
const lengths = (m: Mat3): Vec3 => m.map(norm) as Vec3;
const byLength = (m: Mat3, indices: number[]): number[] => [...indices].sort((i, j) => norm(m[i]!) - norm(m[j]!));
const h = 0.5;
const FACE_CENTRED = [
  [0, h, h],
  [h, 0, h],
  [h, h, 0],
];
const BODY_CENTRED = [
  [-h, h, h],
  [h, -h, h],
  [h, h, -h],
];
/** C-centred orthorhombic, SC Table 9: a₁ = (a/2, −b/2, 0), a₂ = (a/2, b/2, 0), a₃ = (0, 0, c). */
const ORCC_PRIMITIVE = [
  [h, -h, 0],
  [h, h, 0],
  [0, 0, 1],
];
/** C-centred monoclinic, SC Table 18: a₁ = (a/2, b/2, 0), a₂ = (−a/2, b/2, 0), a₃ = (0, c cos α, c sin α). */
const MCLC_PRIMITIVE = [
  [h, h, 0],
  [-h, h, 0],
  [0, 0, 1],
];
/** The rhombohedral cell of a hexagonal cell in the obverse setting (International Tables A, the R centring). */
const OBVERSE = [
  [2 / 3, 1 / 3, 1 / 3],
  [-1 / 3, 1 / 3, 1 / 3],
  [-1 / 3, -2 / 3, 1 / 3],
];

/** The index of the vector most nearly perpendicular to the other two (the unique axis), the others in order. */
function uniqueAxis(m: Mat3): { unique: number; others: [number, number] } {
  const score = (k: number): number => {
    const [i, j] = [0, 1, 2].filter((x) => x !== k) as [number, number];
    return Math.abs(cosine(m[k]!, m[i]!)) + Math.abs(cosine(m[k]!, m[j]!));
  };
  const unique = [2, 0, 1].reduce((best, k) => (score(k) < score(best) - 1e-9 ? k : best), 2);
  return { unique, others: [0, 1, 2].filter((x) => x !== unique) as [number, number] };
}

/** A hexagonal cell with γ = 120° between a and b and c along the unique axis. */
function hexagonalAxes(m: Mat3): Mat3 {
  const { unique, others } = uniqueAxis(m);
  const a = m[others[0]]!;
  let b = m[others[1]]!;
  if (cosine(a, b) > 0) b = sub(b, a); // 60° between them: b − a makes 120°
  return rightHanded([a, b, m[unique]!]);
}

// ---- SC's standard cells -----------------------------------------------------------------------------------

export interface StandardCell {
  variant: Variant;
  bravais: Bravais;
  /** SC's conventional cell (rows, Å) in the input's frame. */
  conventional: Mat3;
  /** SC's standard primitive cell (rows, Å) in the input's frame: the special points are in its reciprocal basis. */
  primitive: Mat3;
  /** a, b, c and α of the conventional cell as SC's formulas take them (RHL: the primitive cell's a and α). */
  cell: CellParameters;
}

const parametersOf = (m: Mat3, alpha = Math.acos(cosine(m[1], m[2]))): CellParameters => {
  const [a, b, c] = lengths(m);
  return { a, b, c, alpha };
};

/** Brings a conventional cell of the given lattice into SC's setting and builds their primitive cell. */
export function standardCell(bravais: Bravais, conventional: Mat3): StandardCell {
  const L = conventional;
  const made = (variant: Variant, conv: Mat3, primitive: Mat3, cell = parametersOf(conv)): StandardCell => ({
    variant,
    bravais,
    conventional: conv,
    primitive,
    cell,
  });
  const { system, centering } = bravais;
  if (system === 'cubic') {
    const conv = rightHanded(L);
    if (centering === 'F') return made('FCC', conv, combine(FACE_CENTRED, conv));
    if (centering === 'I') return made('BCC', conv, combine(BODY_CENTRED, conv));
    return made('CUB', conv, conv);
  }
  if (system === 'tetragonal') {
    // All angles are right: the unique axis is the one whose length the other two do not share (c when ties).
    const spread = (k: number): number => {
      const [i, j] = [0, 1, 2].filter((x) => x !== k) as [number, number];
      return Math.abs(norm(L[i]!) - norm(L[j]!));
    };
    const unique = [2, 0, 1].reduce((best, k) => (spread(k) < spread(best) - 1e-9 ? k : best), 2);
    const others = [0, 1, 2].filter((x) => x !== unique) as [number, number];
    const conv = rightHanded([L[others[0]]!, L[others[1]]!, L[unique]!]);
    const [a1, a2, c] = lengths(conv);
    const a = (a1 + a2) / 2;
    if (centering !== 'I') return made('TET', conv, conv);
    return made(c < a ? 'BCT1' : 'BCT2', conv, combine(BODY_CENTRED, conv), { a, b: a, c, alpha: Math.PI / 2 });
  }
  if (system === 'orthorhombic') {
    if (centering === 'C' || centering === 'A') {
      // SC's C face holds a and b (a < b); an A-centred cell's face holds its b and c, so its a becomes SC's c.
      const [face, axis] = centering === 'C' ? [[0, 1], 2] : [[1, 2], 0];
      const [i, j] = byLength(L, face);
      const conv = rightHanded([L[i!]!, L[j!]!, L[axis]!]);
      return made('ORCC', conv, combine(ORCC_PRIMITIVE, conv));
    }
    const [i, j, k] = byLength(L, [0, 1, 2]);
    const conv = rightHanded([L[i!]!, L[j!]!, L[k!]!]);
    if (centering === 'I') return made('ORCI', conv, combine(BODY_CENTRED, conv));
    if (centering !== 'F') return made('ORC', conv, conv);
    const [a, b, c] = lengths(conv);
    const excess = (1 / a ** 2 - 1 / b ** 2 - 1 / c ** 2) * a ** 2;
    const variant = Math.abs(excess) <= VARIANT_TOLERANCE ? 'ORCF3' : excess > 0 ? 'ORCF1' : 'ORCF2';
    return made(variant, conv, combine(FACE_CENTRED, conv));
  }
  if (system === 'hexagonal') {
    const conv = hexagonalAxes(L);
    return made('HEX', conv, conv);
  }
  if (system === 'rhombohedral') {
    const [a, b, c] = lengths(L);
    const rhombohedralAxes =
      Math.abs(a - b) <= 1e-3 * a && Math.abs(a - c) <= 1e-3 * a && Math.abs(cosine(L[0], L[1]) - cosine(L[1], L[2])) <= 1e-3;
    const conv = rhombohedralAxes ? rightHanded(L) : hexagonalAxes(L);
    const primitive = rhombohedralAxes ? conv : rightHanded(combine(OBVERSE, conv));
    const alpha = Math.acos(cosine(primitive[0], primitive[1]));
    const cell = { a: norm(primitive[0]), b: norm(primitive[0]), c: norm(primitive[0]), alpha };
    return made(alpha < Math.PI / 2 ? 'RHL1' : 'RHL2', conv, primitive, cell);
  }
  if (system === 'monoclinic') return monoclinic(bravais, L);
  return triclinic(bravais, L);
}

/**
 * SC's monoclinic setting: the unique axis is a, α (between b and c) below 90°; MCL has b ≤ c. The C-centred
 * lattice (spglib's and International Tables' C 1 2/m 1: unique axis b, centring (a + b)/2) keeps its centred face,
 * which holds SC's a and b.
 */
function monoclinic(bravais: Bravais, L: Mat3): StandardCell {
  const { unique, others } = uniqueAxis(L);
  let [b, c] = [L[others[0]]!, L[others[1]]!];
  if (bravais.centering === 'P') {
    if (norm(b) > norm(c)) [b, c] = [c, b];
  } else if (unique === 2) {
    throw new Error('A C-centred monoclinic cell needs its unique axis in the centred face (the standard setting C 1 2/m 1).');
  } else if (unique === 0) {
    // unique axis a: the centred face (a, b) already holds it
  } else {
    [b, c] = [L[0], L[2]]; // unique axis b, centring (a + b)/2: SC's b is the cell's a
  }
  let a = L[unique]!;
  if (cosine(b, c) < 0) [a, b] = [scale(a, -1), scale(b, -1)];
  const conv = rightHanded([a, b, c]);
  if (bravais.centering === 'P') return { variant: 'MCL', bravais, conventional: conv, primitive: conv, cell: parametersOf(conv) };
  const primitive = combine(MCLC_PRIMITIVE, conv);
  const cell = parametersOf(conv);
  const recip = reciprocal(primitive);
  const kGamma = cosine(recip[0], recip[1]);
  let variant: Variant;
  if (Math.abs(kGamma) <= VARIANT_TOLERANCE) variant = 'MCLC2';
  else if (kGamma < 0) variant = 'MCLC1';
  else {
    const x = (cell.b * Math.cos(cell.alpha)) / cell.c + (cell.b ** 2 * Math.sin(cell.alpha) ** 2) / cell.a ** 2;
    variant = Math.abs(x - 1) <= VARIANT_TOLERANCE ? 'MCLC4' : x < 1 ? 'MCLC3' : 'MCLC5';
  }
  return { variant, bravais, conventional: conv, primitive, cell };
}

/** The shortest basis of a lattice by greedy steps v_i ← v_i + m v_j + n v_k (|m|, |n| ≤ 2) until none shortens. */
export function reduceBasis(basis: Mat3): Mat3 {
  const v = basis.map((r) => [...r] as Vec3) as Mat3;
  for (let round = 0; round < 200; round++) {
    let changed = false;
    for (let i = 0; i < 3; i++) {
      const [j, k] = [0, 1, 2].filter((x) => x !== i) as [number, number];
      for (let m = -2; m <= 2; m++)
        for (let n = -2; n <= 2; n++) {
          const candidate: Vec3 = [0, 1, 2].map((x) => v[i]![x]! + m * v[j]![x]! + n * v[k]![x]!) as Vec3;
          if (dot(candidate, candidate) < dot(v[i]!, v[i]!) * (1 - 1e-12)) {
            v[i] = candidate;
            changed = true;
          }
        }
    }
    if (!changed) break;
  }
  return v.sort((x, y) => dot(x, x) - dot(y, y));
}

/**
 * SC's triclinic cells are told apart by the angles k_α, k_β, k_γ of the reciprocal basis: TRI1a all above 90°
 * with k_γ the smallest, TRI2a k_α, k_β above and k_γ = 90°, TRI1b all below 90° with k_γ the largest, TRI2b k_α,
 * k_β below and k_γ = 90°. The reciprocal lattice is reduced first (its shortest basis), then signs and a cyclic
 * order of its vectors are chosen to meet one of these.
 */
function triclinic(bravais: Bravais, L: Mat3): StandardCell {
  const reduced = reduceBasis(reciprocal(L));
  const t = VARIANT_TOLERANCE;
  const candidates: { basis: Mat3; ca: number; cb: number; cg: number }[] = [];
  // The cell as it comes first, then fewest sign changes: where SC allow two settings (TRI2a and TRI2b at
  // k_γ = 90°, both reachable by signs) the one nearer the given cell is kept.
  const SIGNS = [0, 1, 2, 4, 3, 5, 6, 7];
  for (const signs of SIGNS)
    for (const order of [
      [0, 1, 2],
      [1, 2, 0],
      [2, 0, 1],
    ]) {
      const basis = order.map((o, i) => scale(reduced[o]!, signs & (1 << i) ? -1 : 1)) as Mat3;
      candidates.push({ basis, ca: cosine(basis[1], basis[2]), cb: cosine(basis[0], basis[2]), cg: cosine(basis[0], basis[1]) });
    }
  const tests: [Variant, (c: (typeof candidates)[number]) => boolean][] = [
    ['TRI1a', ({ ca, cb, cg }) => ca < -t && cb < -t && cg < -t && cg >= ca && cg >= cb],
    ['TRI2a', ({ ca, cb, cg }) => ca < -t && cb < -t && Math.abs(cg) <= t],
    ['TRI1b', ({ ca, cb, cg }) => ca > t && cb > t && cg > t && cg <= ca && cg <= cb],
    ['TRI2b', ({ ca, cb, cg }) => ca > t && cb > t && Math.abs(cg) <= t],
  ];
  // Two right angles or more: the metric is of a higher lattice; the triclinic path still applies (as TRI2a).
  const fallback: (typeof tests)[number] = ['TRI2a', ({ ca, cb, cg }) => ca <= t && cb <= t && Math.abs(cg) <= t];
  for (const candidate of candidates) {
    const variant = tests.find(([, passes]) => passes(candidate))?.[0];
    if (variant) return triclinicCell(bravais, variant, candidate.basis);
  }
  const found = candidates.find(fallback[1]);
  if (found) return triclinicCell(bravais, fallback[0], found.basis);
  throw new Error('No reciprocal basis of this cell meets Setyawan-Curtarolo’s triclinic conditions.');
}

function triclinicCell(bravais: Bravais, variant: Variant, reciprocalBasis: Mat3): StandardCell {
  const primitive = rightHanded(reciprocal(reciprocalBasis));
  return { variant, bravais, conventional: primitive, primitive, cell: parametersOf(primitive) };
}

// ---- the path ----------------------------------------------------------------------------------------------

export interface KPathDefinition extends StandardCell {
  /** SC's parameters of this variant (η, ν, ζ, …) for this cell. */
  parameters: Record<string, number>;
  /** Fractional coordinates of the reciprocal basis of `primitive`. */
  points: Record<string, Vec3>;
  /** Branches of labels; consecutive labels in a branch are joined by a straight segment. */
  branches: string[][];
}

export function setyawanCurtarolo(bravais: Bravais, conventional: Mat3): KPathDefinition {
  const standard = standardCell(bravais, conventional);
  const table = VARIANTS[standard.variant];
  const parameters = table.parameters(standard.cell);
  return { ...standard, parameters, points: table.points(standard.cell, parameters), branches: table.path.map((b) => [...b]) };
}

/** The path for a space group (1–230) and its conventional cell in the standard setting (spglib's, moyo's). */
export const kPathOfSpaceGroup = (spaceGroup: number, conventional: Mat3): KPathDefinition =>
  setyawanCurtarolo(bravaisOfSpaceGroup(spaceGroup), conventional);

/** 'Γ-X-W-K-Γ-L-U-W-L-K|U-X': segments joined by '-', jumps by '|'. */
export const pathText = (branches: readonly string[][]): string => branches.map((b) => b.join('-')).join('|');

/**
 * The special points in the reciprocal basis of another cell of the same lattice (the structure's own, a supercell,
 * the conventional cell): k = Σ fᵢ bᵢ and f'ⱼ = a'ⱼ · k (b without 2π). Where a'ⱼ · bᵢ are whole numbers, as they
 * are for any cell whose vectors are lattice vectors, the product is taken in integers, so the points are exact.
 */
export function pointsIn(definition: Pick<KPathDefinition, 'primitive' | 'points'>, cell: Mat3): Record<string, Vec3> {
  const recip = reciprocal(definition.primitive);
  const t = cell.map((a) => recip.map((b) => dot(a, b)));
  const whole = t.every((row) => row.every((x) => Math.abs(x - Math.round(x)) < 1e-6));
  const m = whole ? t.map((row) => row.map(Math.round)) : t;
  return Object.fromEntries(
    Object.entries(definition.points).map(([label, f]) => [
      label,
      m.map((row) => row[0]! * f[0] + row[1]! * f[1] + row[2]! * f[2]) as Vec3,
    ]),
  );
}

export interface KLabel {
  index: number;
  /** Å⁻¹ (with the 2π) along the path. */
  distance: number;
  /** 'Γ', 'X', …; where the path jumps, both ends: 'K|U' (at the index of the K). */
  label: string;
}

export interface SampledPath {
  path: string;
  /** Fractional coordinates of the reciprocal basis of the lattice the path was sampled for. */
  kpoints: Vec3[];
  /** Å⁻¹ (with the 2π) along the path; zero-length across a jump. */
  distances: number[];
  labels: KLabel[];
}

/** Å⁻¹ with the 2π: |Σ fᵢ bᵢ| for b the reciprocal basis of `lattice` times 2π. */
export function segmentLength(lattice: Mat3, from: Vec3, to: Vec3): number {
  const withTwoPi = reciprocal(lattice).map((b) => scale(b, 2 * Math.PI)) as Mat3;
  return norm(rowTimes(sub(to, from), withTwoPi));
}

/**
 * Samples the path: a segment of length L (Å⁻¹, reciprocal vectors with the 2π, b·a = 2π) gets ceil(density × L)
 * intervals, at least one, so `density` is k-points per Å⁻¹ (pymatgen's line_density). Corners are shared within
 * a branch; after a jump the next branch starts at the same distance.
 */
export function samplePath(points: Record<string, Vec3>, branches: readonly string[][], lattice: Mat3, density: number): SampledPath {
  const result: SampledPath = { path: pathText(branches), kpoints: [], distances: [], labels: [] };
  let distance = 0;
  branches.forEach((names, b) => {
    const jump = result.labels.at(-1);
    if (jump) jump.label += `|${names[0]}`;
    result.kpoints.push(points[names[0]!]!);
    result.distances.push(distance);
    if (b === 0) result.labels.push({ index: 0, distance, label: names[0]! });
    for (let s = 1; s < names.length; s++) {
      const from = points[names[s - 1]!]!;
      const to = points[names[s]!]!;
      const length = segmentLength(lattice, from, to);
      const intervals = Math.max(1, Math.ceil(density * length));
      for (let i = 1; i <= intervals; i++) {
        result.kpoints.push(from.map((x, k) => x + ((to[k]! - x) * i) / intervals) as Vec3);
        result.distances.push(distance + (length * i) / intervals);
      }
      distance += length;
      result.labels.push({ index: result.kpoints.length - 1, distance, label: names[s]! });
    }
  });
  return result;
}

// ---- the lattice from the metric alone ---------------------------------------------------------------------

/** Relative tolerance on lengths and absolute tolerance on angles (degrees) when the metric decides. */
export const LENGTH_TOLERANCE = 1e-3;
export const ANGLE_TOLERANCE = 0.1;

const BCC_ANGLE = (Math.acos(-1 / 3) * 180) / Math.PI;

/**
 * The lattice as far as the cell's own a b c α β γ show it, for where no space group is known: a cubic cell
 * (CUB), SC's primitive FCC (60°) and BCC (109.47°) cells, a rhombohedral cell (a = b = c, α = β = γ), a hexagonal
 * cell (two equal axes at 120° or 60°, the third perpendicular), tetragonal and orthorhombic cells (all 90°) and a
 * monoclinic one (exactly two right angles); anything else is triclinic. Atoms can lower the symmetry; the
 * lattice's path is then of a higher symmetry than the crystal's.
 */
export function bravaisFromMetric(lattice: Mat3): { bravais: Bravais; conventional: Mat3 } {
  const [a, b, c] = lengths(lattice);
  const angles = [cosine(lattice[1], lattice[2]), cosine(lattice[0], lattice[2]), cosine(lattice[0], lattice[1])].map(
    (x) => (Math.acos(Math.min(1, Math.max(-1, x))) * 180) / Math.PI,
  );
  const same = (x: number, y: number): boolean => Math.abs(x - y) <= LENGTH_TOLERANCE * Math.max(x, y);
  const is = (angle: number, degrees: number): boolean => Math.abs(angle - degrees) <= ANGLE_TOLERANCE;
  const all = (degrees: number): boolean => angles.every((angle) => is(angle, degrees));
  const of = (system: LatticeSystem, centering: Centering, conventional = lattice) => ({ bravais: { system, centering }, conventional });
  if (same(a, b) && same(b, c)) {
    if (all(90)) return of('cubic', 'P');
    if (all(60))
      return of(
        'cubic',
        'F',
        combine(
          [
            [-1, 1, 1],
            [1, -1, 1],
            [1, 1, -1],
          ],
          lattice,
        ),
      );
    if (all(BCC_ANGLE))
      return of(
        'cubic',
        'I',
        combine(
          [
            [0, 1, 1],
            [1, 0, 1],
            [1, 1, 0],
          ],
          lattice,
        ),
      );
    if (is(angles[0]!, angles[1]!) && is(angles[1]!, angles[2]!)) return of('rhombohedral', 'R');
  }
  const right = angles.filter((angle) => is(angle, 90)).length;
  const lengthsOf = [a, b, c];
  for (let k = 0; k < 3; k++) {
    const [i, j] = [0, 1, 2].filter((x) => x !== k) as [number, number];
    const between = angles[k]!; // the angle between the other two
    if (right >= 2 && angles.filter((_, x) => x !== k).every((angle) => is(angle, 90)) && same(lengthsOf[i]!, lengthsOf[j]!))
      if (is(between, 120) || is(between, 60)) return of('hexagonal', 'P');
  }
  if (right === 3) {
    const pairs = [same(a, b), same(b, c), same(a, c)].filter(Boolean).length;
    return of(pairs ? 'tetragonal' : 'orthorhombic', 'P');
  }
  if (right === 2) return of('monoclinic', 'P');
  return of('triclinic', 'P');
}
