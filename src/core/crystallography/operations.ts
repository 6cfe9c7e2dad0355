/**
 * Cell operations without the symmetry finder: the Niggli cell (niggli.ts), supercells, and symmetrizing positions with the
 * operations a search found. Pure and bounded: every loop has a count it cannot pass.
 */
import type { Mat3, Vec3 } from '../poscar/types';
import { determinant, dot } from '../poscar/vec';
import { inverse, matTimes, metric, transpose, wrapUnit, type Cell } from './cell';
import { CellOperationError, niggliReduce } from './niggli';
import type { SymmetryResult } from './symmetry';

/** The most atoms a supercell may have. */
export const MAX_SUPERCELL_ATOMS = 100_000;
/** The largest entry of a supercell matrix. */
export const MAX_SUPERCELL_ENTRY = 1000;

/** Positions expressed in a new basis L' = M·L (the same points in space), wrapped into the new cell. */
export function changeBasis(cell: Cell, m: Mat3): Cell {
  const inv = inverse(m);
  const lattice = matTimes(m, cell.lattice);
  return {
    lattice,
    species: [...cell.species],
    frac: cell.frac.map((f) => {
      // cart = f·L = f'·M·L  →  f' = f·M⁻¹
      const g: Vec3 = [
        f[0] * inv[0][0] + f[1] * inv[1][0] + f[2] * inv[2][0],
        f[0] * inv[0][1] + f[1] * inv[1][1] + f[2] * inv[2][1],
        f[0] * inv[0][2] + f[1] * inv[1][2] + f[2] * inv[2][2],
      ];
      return g.map((x) => wrapUnit(Math.abs(x - Math.round(x)) < 1e-10 ? Math.round(x) : x)) as Vec3;
    }),
  };
}

/** The Niggli-reduced cell with every atom, wrapped into it. */
export function niggliCell(cell: Cell): Cell {
  return changeBasis(cell, niggliReduce(cell.lattice).transform);
}

// ---- supercells ----------------------------------------------------------------------------------------------

const isInt = (x: number): boolean => Number.isInteger(x);

/** What is wrong with a supercell matrix for this cell, or undefined. */
export function supercellProblem(p: Mat3, atoms: number): string | undefined {
  if (!p.every((r) => r.every(isInt))) return 'A supercell matrix has whole numbers only.';
  if (!p.every((r) => r.every((x) => Math.abs(x) <= MAX_SUPERCELL_ENTRY))) return `Each entry is at most ${MAX_SUPERCELL_ENTRY} in size.`;
  const det = Math.round(determinant(p));
  if (det <= 0) return `The matrix's determinant is ${det}: it must be positive (a right-handed supercell of at least one cell).`;
  if (det * atoms > MAX_SUPERCELL_ATOMS) {
    return `That supercell would have ${(det * atoms).toLocaleString('en-US')} atoms; the limit is ${MAX_SUPERCELL_ATOMS.toLocaleString('en-US')}.`;
  }
  return undefined;
}

/** The adjugate of an integer matrix: P·adj(P) = det(P)·I, exactly in integers. */
function adjugate(m: Mat3): Mat3 {
  const [[a, b, c], [d, e, f], [g, h, i]] = m;
  return [
    [e * i - f * h, c * h - b * i, b * f - c * e],
    [f * g - d * i, a * i - c * g, c * d - a * f],
    [d * h - e * g, b * g - a * h, a * e - b * d],
  ];
}

/**
 * The supercell L' = P·L for an integer matrix P (rows: the new vectors in the old ones) with det P > 0: every
 * lattice point of the old cell inside the new one, found exactly: n (integer, in old coordinates) lies in the new
 * cell when n·adj(P) has every component in [0, det P). There are det P of them.
 */
export function supercell(cell: Cell, p: Mat3): Cell {
  const problem = supercellProblem(p, cell.frac.length);
  if (problem) throw new CellOperationError(problem);
  const det = Math.round(determinant(p));
  const adj = adjugate(p);
  // The new cell's corners in old coordinates bound the search box.
  const lo = [0, 0, 0];
  const hi = [0, 0, 0];
  for (let mask = 0; mask < 8; mask++) {
    for (let k = 0; k < 3; k++) {
      const x = (mask & 1 ? p[0][k]! : 0) + (mask & 2 ? p[1][k]! : 0) + (mask & 4 ? p[2][k]! : 0);
      lo[k] = Math.min(lo[k]!, x);
      hi[k] = Math.max(hi[k]!, x);
    }
  }
  const box = (hi[0]! - lo[0]! + 1) * (hi[1]! - lo[1]! + 1) * (hi[2]! - lo[2]! + 1);
  if (box > 50_000_000) throw new CellOperationError('That supercell matrix is too skewed to enumerate; use a less skewed equivalent.');
  const points: Vec3[] = [];
  for (let x = lo[0]!; x <= hi[0]!; x++) {
    for (let y = lo[1]!; y <= hi[1]!; y++) {
      for (let z = lo[2]!; z <= hi[2]!; z++) {
        const q = [0, 1, 2].map((k) => x * adj[0][k]! + y * adj[1][k]! + z * adj[2][k]!);
        if (q.every((v) => v >= 0 && v < det)) points.push([x, y, z]);
      }
    }
  }
  if (points.length !== det) throw new CellOperationError(`Found ${points.length} lattice points for a supercell of ${det} cells.`);
  const inv: Mat3 = adj.map((r) => r.map((v) => v / det)) as Mat3;
  const frac: Vec3[] = [];
  const species: string[] = [];
  cell.frac.forEach((f, i) => {
    for (const n of points) {
      const o: Vec3 = [f[0] + n[0], f[1] + n[1], f[2] + n[2]];
      const g: Vec3 = [0, 1, 2].map((k) => o[0] * inv[0][k]! + o[1] * inv[1][k]! + o[2] * inv[2][k]!) as Vec3;
      frac.push(g.map((x) => wrapUnit(Math.abs(x - Math.round(x)) < 1e-12 ? Math.round(x) : x)) as Vec3);
      species.push(cell.species[i]!);
    }
  });
  return { lattice: matTimes(p, cell.lattice), frac, species };
}

/** Reads "2 2 1" (three integers: a diagonal matrix) or nine integers (a 3×3 matrix, rows). */
export function parseSupercellMatrix(text: string): Mat3 | string {
  const parts = text
    .trim()
    .split(/[\s,;[\]]+/)
    .filter((s) => s !== '');
  if (!parts.every((s) => /^[+-]?\d{1,6}$/.test(s))) return 'Give three whole numbers ("2 2 1") or nine (a 3×3 matrix, rows).';
  const n = parts.map(Number);
  if (n.length === 3) {
    return [
      [n[0]!, 0, 0],
      [0, n[1]!, 0],
      [0, 0, n[2]!],
    ];
  }
  if (n.length === 9) {
    return [
      [n[0]!, n[1]!, n[2]!],
      [n[3]!, n[4]!, n[5]!],
      [n[6]!, n[7]!, n[8]!],
    ];
  }
  return `Give three whole numbers ("2 2 1") or nine (a 3×3 matrix, rows), not ${n.length}.`;
}

// ---- symmetrize ----------------------------------------------------------------------------------------------

/** Eigen-decomposition of a symmetric 3×3 matrix by cyclic Jacobi rotations (at most 50 sweeps). */
function symmetricEigen(a0: Mat3): { values: Vec3; vectors: Mat3 } {
  const a = a0.map((r) => [...r]) as Mat3;
  const v: Mat3 = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2;
    if (off < 1e-30 * (a[0][0] ** 2 + a[1][1] ** 2 + a[2][2] ** 2)) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      if (a[p][q] === 0) continue;
      const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[k]![p];
        const akq = a[k]![q];
        a[k]![p] = c * akp - s * akq;
        a[k]![q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p][k]!;
        const aqk = a[q][k]!;
        a[p][k] = c * apk - s * aqk;
        a[q][k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k]![p];
        const vkq = v[k]![q];
        v[k]![p] = c * vkp - s * vkq;
        v[k]![q] = s * vkp + c * vkq;
      }
    }
  }
  return { values: [a[0][0], a[1][1], a[2][2]], vectors: v };
}

/** S^power for a symmetric positive-definite S (power ±1/2). */
function symmetricPower(s: Mat3, power: number): Mat3 {
  const { values, vectors } = symmetricEigen(s);
  const out: Mat3 = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (let k = 0; k < 3; k++) {
    const w = Math.max(values[k]!, 0) ** power;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out[i]![j]! += vectors[i]![k]! * w * vectors[j]![k]!;
  }
  return out;
}

const apply = (r: Mat3, x: Vec3): Vec3 => [dot(r[0], x), dot(r[1], x), dot(r[2], x)];

/**
 * Moves every site onto its Wyckoff position and the lattice onto its symmetric form, with the operations the
 * search found (in the input's fractional coordinates, x' = R·x + t):
 * - each position becomes the average of its images under the group pulled back to it,
 *   x̄_i = x_i + (1/|G|) Σ_g [g⁻¹(x_σg(i)) − x_i] (each difference taken to its nearest lattice image), the
 *   projection onto the positions the site symmetry and the orbit allow;
 * - the metric becomes Ḡ = (1/|G|) Σ Rᵀ·G·R, and the lattice L' = S·L with S = Ḡ^½·G^−½ (so L'·L'ᵀ = Ḡ; S ≈ 1, the
 *   orientation kept).
 * The order of sites is kept. Sites are matched by species and nearest image; an operation that maps a site to
 * no site within 10 × symprec (not a symmetry of this structure) is an error.
 */
export function symmetrizeCell(cell: Cell, symmetry: Pick<SymmetryResult, 'operations' | 'symprec'>): Cell {
  const ops = symmetry.operations;
  if (ops.length === 0) throw new CellOperationError('The search found no operations.');
  const n = cell.frac.length;
  const g = metric(cell.lattice);
  const tolerance = 10 * symmetry.symprec;
  const distance = (d: Vec3): number => {
    const gd = apply(g, d);
    return Math.sqrt(Math.max(0, dot(d, gd)));
  };
  const near = (d: Vec3): Vec3 => d.map((x) => x - Math.round(x)) as Vec3;
  const sums: Vec3[] = cell.frac.map(() => [0, 0, 0]);
  for (const op of ops) {
    const rInv = inverse(op.rotation);
    for (let i = 0; i < n; i++) {
      // g(x_i) is near some x_j of the same species; g⁻¹(x_j) is then near x_i.
      const image = apply(op.rotation, cell.frac[i]!).map((x, k) => x + op.translation[k]!) as Vec3;
      let best = -1;
      let bestDistance = Infinity;
      for (let j = 0; j < n; j++) {
        if (cell.species[j] !== cell.species[i]) continue;
        const d = distance(near(cell.frac[j]!.map((x, k) => x - image[k]!) as Vec3));
        if (d < bestDistance) {
          bestDistance = d;
          best = j;
        }
      }
      if (best < 0 || bestDistance > tolerance) {
        throw new CellOperationError('A symmetry operation maps a site to no site: symmetrize with the tolerance the search used.');
      }
      const xj = cell.frac[best]!;
      const back = apply(rInv, [xj[0] - op.translation[0], xj[1] - op.translation[1], xj[2] - op.translation[2]]);
      const d = near(back.map((x, k) => x - cell.frac[i]![k]!) as Vec3);
      const s = sums[i]!;
      s[0] += d[0];
      s[1] += d[1];
      s[2] += d[2];
    }
  }
  const frac = cell.frac.map((x, i) => x.map((v, k) => wrapUnit(v + sums[i]![k]! / ops.length)) as Vec3);
  // The symmetric metric and the lattice that has it.
  const gBar: Mat3 = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (const op of ops) {
    const rgr = matTimes(transpose(op.rotation), matTimes(g, op.rotation));
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) gBar[i]![j]! += rgr[i]![j]! / ops.length;
  }
  const s = matTimes(symmetricPower(gBar, 0.5), symmetricPower(g, -0.5));
  return { lattice: matTimes(s, cell.lattice), frac, species: [...cell.species] };
}
