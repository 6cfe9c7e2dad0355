/** Structures for the physics and structure-endpoint tests. */
import type { Cell, Mat3, Vec3 } from '../../src/server/physics/cell';
import { seededRandom } from '../../src/server/physics/rng';
import { cubicCell, FCC } from './cubicCells';

export const SI_A = 5.431;

/** Diamond silicon: the conventional 8-atom cubic cell repeated n×n×n. */
export function diamond(n = 1, a = SI_A): Cell {
  const positions: Vec3[] = [];
  for (let x = 0; x < n; x++) {
    for (let y = 0; y < n; y++) {
      for (let z = 0; z < n; z++) {
        for (const f of FCC) for (const o of [0, 0.25]) positions.push([(x + f[0] + o) * a, (y + f[1] + o) * a, (z + f[2] + o) * a]);
      }
    }
  }
  return {
    lattice: cubicCell(n * a),
    symbols: positions.map(() => 'Si'),
    positions,
  };
}

/** The primitive two-atom cell of diamond Si, α = β = γ = 60°. */
export function primitiveSi(a = SI_A): Cell {
  const h = a / 2;
  return {
    lattice: [
      [0, h, h],
      [h, 0, h],
      [h, h, 0],
    ],
    symbols: ['Si', 'Si'],
    positions: [
      [0, 0, 0],
      [a / 4, a / 4, a / 4],
    ],
  };
}

/** A triclinic cell with Na and Cl at scattered positions, no two closer than 1.9 Å. */
export function skewedNaCl(seed = 7): Cell {
  const lattice: Mat3 = [
    [5.1, 0, 0],
    [1.4, 4.8, 0],
    [-0.9, 1.1, 5.3],
  ];
  const random = seededRandom(seed);
  const positions: Vec3[] = [];
  while (positions.length < 6) {
    const f: Vec3 = [random(), random(), random()];
    const r: Vec3 = [0, 1, 2].map((k) => f[0] * lattice[0][k]! + f[1] * lattice[1][k]! + f[2] * lattice[2][k]!) as Vec3;
    if (positions.every((p) => minimumImage(lattice, p, r) > 1.9)) positions.push(r);
  }
  return { lattice, symbols: ['Na', 'Na', 'Na', 'Cl', 'Cl', 'Cl'], positions };
}

function minimumImage(lattice: Mat3, a: Vec3, b: Vec3): number {
  let best = Infinity;
  for (let i = -2; i <= 2; i++) {
    for (let j = -2; j <= 2; j++) {
      for (let k = -2; k <= 2; k++) {
        const d = [0, 1, 2].map((c) => b[c]! - a[c]! + i * lattice[0][c]! + j * lattice[1][c]! + k * lattice[2][c]!);
        best = Math.min(best, Math.hypot(...d));
      }
    }
  }
  return best;
}

/** Every position moved by up to `amount` Å in each direction, reproducibly. */
export function rattle(cell: Cell, amount: number, seed = 1): Cell {
  const random = seededRandom(seed);
  return { ...cell, positions: cell.positions.map((p) => p.map((x) => x + amount * (2 * random() - 1)) as Vec3) };
}

/** POSCAR text (VASP 5, Cartesian) of a cell whose atoms are grouped by species, with flags if given. */
export function poscarText(cell: Cell, flags?: [boolean, boolean, boolean][]): string {
  const kinds = [...new Set(cell.symbols)];
  const lines = [
    'test structure',
    '1.0',
    ...cell.lattice.map((row) => row.join(' ')),
    kinds.join(' '),
    kinds.map((k) => cell.symbols.filter((s) => s === k).length).join(' '),
  ];
  if (flags) lines.push('Selective dynamics');
  lines.push('Cartesian');
  cell.positions.forEach((p, i) => lines.push(`${p.join(' ')}${flags ? ` ${flags[i]!.map((f) => (f ? 'T' : 'F')).join(' ')}` : ''}`));
  return `${lines.join('\n')}\n`;
}

/** Face-centred cubic copper, n×n×n conventional cells (4n³ atoms) at a = 3.615 Å. */
export function fccCopper(n: number): Cell {
  return fcc(n, 3.615, 'Cu');
}

/** A face-centred cubic crystal of one element, n×n×n conventional cells (4n³ atoms) of side a. */
export function fcc(n: number, a: number, symbol: string): Cell {
  const positions: Vec3[] = [];
  for (let x = 0; x < n; x++)
    for (let y = 0; y < n; y++)
      for (let z = 0; z < n; z++) for (const b of FCC) positions.push([(x + b[0]) * a, (y + b[1]) * a, (z + b[2]) * a]);
  return {
    lattice: cubicCell(n * a),
    symbols: positions.map(() => symbol),
    positions,
  };
}

/** The cell and positions under the deformation F = 1 + ε (ε symmetric): rows times F. */
export function strained(cell: Cell, eps: number[][]): Cell {
  const apply = (r: Vec3): Vec3 =>
    [0, 1, 2].map((c) => r[0] * (+(c === 0) + eps[0]![c]!) + r[1] * (+(c === 1) + eps[1]![c]!) + r[2] * (+(c === 2) + eps[2]![c]!)) as Vec3;
  return { ...cell, lattice: cell.lattice.map(apply) as Mat3, positions: cell.positions.map(apply) };
}

/** The symmetric strain that moves one Voigt component (xx yy zz yz xz xy) by d. */
export const VOIGT: [number, number][] = [
  [0, 0],
  [1, 1],
  [2, 2],
  [1, 2],
  [0, 2],
  [0, 1],
];
export const voigtStrain = ([a, b]: [number, number], d: number): number[][] =>
  [0, 1, 2].map((i) => [0, 1, 2].map((j) => ((i === a && j === b) || (i === b && j === a) ? (a === b ? d : d / 2) : 0)));

/** The first position of atom i moved by dx along axis k. */
export const shifted = (cell: Cell, i: number, k: number, dx: number): Cell => ({
  ...cell,
  positions: cell.positions.map((p, j) => (j === i ? (p.map((x, c) => (c === k ? x + dx : x)) as Vec3) : p)),
});

/** Zincblende (or diamond) in its two-atom primitive cell: the anion at the origin, the cation at a/4 (1,1,1). */
export function zincblende(cation: string, anion: string, a: number): Cell {
  const lattice: Mat3 = [
    [0, a / 2, a / 2],
    [a / 2, 0, a / 2],
    [a / 2, a / 2, 0],
  ];
  return {
    lattice,
    symbols: [anion, cation],
    positions: [
      [0, 0, 0],
      [a / 4, a / 4, a / 4],
    ],
  };
}
