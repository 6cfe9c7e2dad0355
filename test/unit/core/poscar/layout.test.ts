import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inInputLayout } from '../../../../src/core/poscar/layout';
import { parsePoscar, toPoscarText } from '../../../../src/core/poscar/index';

const INPUT = [
  'Si8 relaxed input',
  '   1.00000000',
  '     5.43100000    0.00000000    0.00000000',
  '     0.00000000    5.43100000    0.00000000',
  '     0.00000000    0.00000000    5.43100000',
  '   Si',
  '     8',
  'Selective dynamics',
  'Direct',
  '  0.00000000  0.00000000  0.00000000   T   T   T Si1',
  '  0.00000000  0.50000000  0.50000000   T   T   T Si2',
  '  0.50000000  0.00000000  0.50000000   T   T   T',
  '  0.50000000  0.50000000  0.00000000   F   F   F fixed',
  '  0.25000000  0.25000000  0.25000000   T   T   T',
  '  0.25000000  0.75000000  0.75000000   T   T   T',
  '  0.75000000  0.25000000  0.75000000   T   T   T',
  '  0.75000000  0.75000000  0.25000000   T   T   T',
  '',
].join('\n');

/** What a service returns: Cartesian, 16 decimals, another comment, two atoms moved out of the cell. */
function answer(moves: Record<number, [number, number, number]>, lattice?: number): string {
  const p = parsePoscar(INPUT).poscar!;
  const L = lattice ?? 5.431;
  const cell = [
    [L, 0, 0],
    [0, L, 0],
    [0, 0, L],
  ] as [[number, number, number], [number, number, number], [number, number, number]];
  const sites = p.sites.map((s, i) => {
    const frac = s.frac.map((f, k) => f + (moves[i]?.[k] ?? 0)) as [number, number, number];
    return { ...s, frac, cart: frac.map((f) => f * L) as [number, number, number] };
  });
  return toPoscarText({ ...p, lattice: cell, comment: 'Si8 (relaxed by the service)', sites }, 'Cartesian');
}

test("a relaxed structure in the input's layout: only the moved numbers change, wrapped into the cell", () => {
  const out = inInputLayout(INPUT, answer({ 0: [-0.03, 0, 0], 4: [0, 0.85, 0] }));
  const before = INPUT.split('\n');
  const after = out.split('\n');
  assert.equal(after.length, before.length);
  const changed = before.map((line, i) => (line === after[i] ? undefined : i)).filter((i) => i !== undefined);
  assert.deepEqual(changed, [9, 13], out);
  assert.equal(after[9], '  0.97000000  0.00000000  0.00000000   T   T   T Si1', 'x = -0.03 wrapped to 0.97, flags and label kept');
  assert.equal(after[13], '  0.25000000  0.10000000  0.25000000   T   T   T', 'y = 1.10 wrapped to 0.10');
  const reread = parsePoscar(out).poscar!;
  assert.ok(reread.sites.every((s) => s.frac.every((f) => f >= 0 && f < 1)));
});

test("a cell the run changed: lattice lines rewritten in the input's scale; Cartesian inputs stay Cartesian", () => {
  const out = inInputLayout(INPUT, answer({}, 5.5));
  assert.match(out.split('\n')[2]!, /^ {5}5\.50000000 {4}0\.00000000 {4}0\.00000000$/);
  const cartesian = toPoscarText(parsePoscar(INPUT).poscar!, 'Cartesian');
  const moved = inInputLayout(cartesian, answer({ 1: [0, 0, 0.6] }));
  assert.equal(parsePoscar(moved).poscar!.coordinateMode, 'Cartesian');
  const site = parsePoscar(moved).poscar!.sites[1]!;
  assert.ok(Math.abs(site.frac[2] - 0.1) < 1e-9, `z wrapped: ${site.frac[2]}`);
});

test('what cannot be matched atom for atom is returned as the service sent it', () => {
  const other = answer({});
  assert.equal(inInputLayout(INPUT.replace('     8', '     7'), other), other);
  assert.equal(inInputLayout('not a poscar', other), other);
});
