/**
 * POSCARs of N atoms in four layouts that stress a neighbour search differently, for the near-linear
 * tests and the benchmark: a uniform crystal-like grid, every atom at one point, a compact cluster in a
 * 1000 Å box, and a slab (a thin sheet in a tall cell). Cartesian coordinates, seeded, the same text on
 * every run.
 */
import { parsePoscar } from '../../src/core/poscar/index';
import { seededRandom } from '../../src/server/physics/rng';

export type Layout = 'uniform' | 'one point' | 'cluster in a big box' | 'slab';
export const LAYOUTS: readonly Layout[] = ['uniform', 'one point', 'cluster in a big box', 'slab'];

/** Å between neighbouring atoms in the uniform, cluster and slab layouts. */
const SPACING = 2.5;

function positions(layout: Layout, n: number, random: () => number): { box: number[]; at: (i: number) => number[] } {
  const side = Math.ceil(Math.cbrt(n));
  const grid = (i: number, dims: number[]): number[] =>
    [i % dims[0]!, Math.floor(i / dims[0]!) % dims[1]!, Math.floor(i / (dims[0]! * dims[1]!))].map(
      (c) => (c + 0.5 + 0.1 * (random() - 0.5)) * SPACING,
    );
  switch (layout) {
    case 'uniform':
      return { box: [side, side, side].map((s) => s * SPACING), at: (i) => grid(i, [side, side, side]) };
    case 'one point':
      return { box: [10, 10, 10], at: () => [5, 5, 5] };
    case 'cluster in a big box':
      return { box: [1000, 1000, 1000], at: (i) => grid(i, [side, side, side]).map((x) => x + 400) };
    case 'slab': {
      const width = Math.ceil(Math.sqrt(n / 2));
      return { box: [width * SPACING, width * SPACING, 2 * SPACING + 30], at: (i) => grid(i, [width, width, 2]) };
    }
  }
}

export function layoutPoscar(layout: Layout, n: number, seed = 1): string {
  const { box, at } = positions(layout, n, seededRandom(seed));
  const lattice = box.map((L, k) => [0, 1, 2].map((j) => (j === k ? L : 0).toFixed(6)).join(' '));
  const lines = [`${n} atoms, ${layout}`, '1.0', ...lattice, 'Si', String(n), 'Cartesian'];
  for (let i = 0; i < n; i++)
    lines.push(
      at(i)
        .map((x) => x.toFixed(6))
        .join(' '),
    );
  return `${lines.join('\n')}\n`;
}

/** The fastest of `runs` parses: the least disturbed by whatever else the machine does. */
export function fastestParse(text: string, runs = 3): number {
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    parsePoscar(text);
    best = Math.min(best, performance.now() - t);
  }
  return best;
}
