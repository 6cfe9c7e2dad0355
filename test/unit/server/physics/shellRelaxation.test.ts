/**
 * How the shells are relaxed (src/server/physics/shellRelaxation.ts) and what a run keeps between evaluations
 * (shellModel.ts: the shells' Hessian, neighbors.ts: the Verlet list): each is checked against what it replaces (finite
 * differences, a relaxation from scratch, a fresh neighbour list), so keeping them cannot change an answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cell, Vec3 } from '../../../../src/server/physics/cell';
import { BUSH_1994 } from '../../../../src/server/physics/ionicParameters';
import { neighborList, VerletList } from '../../../../src/server/physics/neighbors';
import { MAX_SHELL_SHIFT, shellProblem } from '../../../../src/server/physics/shellModel';
import { relaxShells, type Recycled, type ShellProblem } from '../../../../src/server/physics/shellRelaxation';
import { seededRandom } from '../../../../src/server/physics/rng';
import { rattle } from '../../../support/physicsFixtures';
import { rockSalt } from '../../../support/physicsCrystals';

const MGO8 = rattle(rockSalt(1, 4.212, 'Mg', 'O'), 0.08, 5);

test("the shells' Hessian is the derivative of the forces on them (central differences), within 1 %, and symmetric", () => {
  const problem = shellProblem(MGO8, BUSH_1994);
  const random = seededRandom(7);
  const shells = Float64Array.from({ length: 24 }, () => 0.02 * (2 * random() - 1));
  const h = problem.hessian(shells)!;
  const size = shells.length;
  const step = 1e-5;
  let [error, norm, asymmetry] = [0, 0, 0];
  for (let col = 0; col < size; col++) {
    const at = (sign: number): Float64Array => problem.forces(shells.map((x, k) => (k === col ? x + sign * step : x)));
    const [plus, minus] = [at(1), at(-1)];
    for (let row = 0; row < size; row++) {
      const numerical = -(plus[row]! - minus[row]!) / (2 * step);
      error += (h[row * size + col]! - numerical) ** 2;
      norm += numerical ** 2;
      asymmetry = Math.max(asymmetry, Math.abs(h[row * size + col]! - h[col * size + row]!));
    }
  }
  assert.ok(Math.sqrt(error / norm) < 0.01, `relative error ${Math.sqrt(error / norm)}`);
  assert.ok(asymmetry < 1e-9, `asymmetry ${asymmetry}`);
});

/** The problem with its force evaluations counted. */
function counted(problem: ShellProblem): { problem: ShellProblem; count: () => number } {
  let calls = 0;
  return {
    problem: { forces: (x, blocks) => (calls++, problem.forces(x, blocks)), hessian: (x) => problem.hessian(x) },
    count: () => calls,
  };
}

test('in a run, a relaxation after the first takes a few evaluations of the forces, and ends where one from scratch ends', () => {
  const base = rattle(rockSalt(2, 4.212, 'Mg', 'O'), 0.05, 9);
  const random = seededRandom(3);
  const velocity = base.positions.map(() => [0, 1, 2].map(() => 0.004 * (2 * random() - 1)));
  const recycled: Recycled = {};
  let [previous, last] = [undefined as Float64Array | undefined, undefined as Float64Array | undefined];
  const kept: number[] = [];
  const scratch: number[] = [];
  for (let t = 0; t < 6; t++) {
    const cell: Cell = { ...base, positions: base.positions.map((p, i) => p.map((x, k) => x + t * velocity[i]![k]!) as Vec3) };
    const run = counted(shellProblem(cell, BUSH_1994));
    const start = last ? last.map((x, k) => (previous ? 2 * x - previous[k]! : x)) : new Float64Array(3 * 64);
    const shells = relaxShells(run.problem, start, MAX_SHELL_SHIFT, last ? recycled : undefined);
    const alone = counted(shellProblem(cell, BUSH_1994));
    const reference = relaxShells(alone.problem, new Float64Array(3 * 64), MAX_SHELL_SHIFT);
    const apart = Math.max(...shells.map((x, k) => Math.abs(x - reference[k]!)));
    assert.ok(apart < 1e-8, `step ${t}: ${apart} Å from the shells relaxed from scratch`);
    [previous, last] = [last, shells];
    kept.push(run.count());
    scratch.push(alone.count());
  }
  assert.ok(
    kept.slice(2).every((n) => n <= 6),
    `evaluations per relaxation: kept ${kept.join(', ')}; from scratch ${scratch.join(', ')}`,
  );
  assert.ok(kept.slice(2).reduce((a, b) => a + b) * 3 < scratch.slice(2).reduce((a, b) => a + b), `kept ${kept}, scratch ${scratch}`);
});

test('a kept (Verlet) neighbour list gives every pair a fresh one gives, with the same separation, until an atom moves half its skin', () => {
  const cell = rattle(rockSalt(2, 4.212, 'Mg', 'O'), 0.1, 4);
  const [cutoff, skin] = [6, 0.6];
  const verlet = VerletList.build(cell.lattice, cell.positions, cutoff, skin);
  const random = seededRandom(11);
  const moved = cell.positions.map((p) => p.map((x) => x + (0.29 / Math.sqrt(3)) * (2 * random() - 1)) as Vec3);
  const kept = verlet.at(cell.lattice, moved)!;
  const fresh = neighborList(cell.lattice, moved, cutoff);
  const key = (i: number, j: number, d: number[]): string => `${i} ${j} ${d.map((x) => x.toFixed(6)).join(' ')}`;
  const keptPairs = new Set(Array.from({ length: kept.count }, (_, m) => key(kept.i[m]!, kept.j[m]!, kept.d.slice(3 * m, 3 * m + 3))));
  const missing = Array.from({ length: fresh.count }, (_, m) => key(fresh.i[m]!, fresh.j[m]!, fresh.d.slice(3 * m, 3 * m + 3))).filter(
    (k) => !keptPairs.has(k),
  );
  assert.ok(fresh.count > 1000, `${fresh.count} pairs`);
  assert.deepEqual(missing, [], 'pairs of a fresh list the kept one lacks');
  const tooFar = moved.map((p, i) => (i === 7 ? (p.map((x) => x + 0.2) as Vec3) : p));
  assert.equal(verlet.at(cell.lattice, tooFar), undefined, 'an atom 0.35 Å from where the list was built');
  const strained = cell.lattice.map((row) => row.map((x) => x * 1.001)) as Cell['lattice'];
  assert.equal(verlet.at(strained, cell.positions), undefined, 'another cell');
});
