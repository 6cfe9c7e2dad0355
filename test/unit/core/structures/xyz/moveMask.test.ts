/**
 * Extended XYZ's move_mask (ASE's FixAtoms as move_mask:L:1, FixCartesian as move_mask:L:3; T = free) read into
 * the frame's selective-dynamics flags and written back, checked against ASE (Debian's python3-ase), which writes
 * the files we read and reads the files we write.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { readXyz, writeExtxyz } from '../../../../../src/core/structures/xyz/index';
import { frameToPoscarText } from '../../../../../src/core/structures/poscar';
import { parsePoscar } from '../../../../../src/core/poscar/index';
import { PYTHON } from '../../../../support/python';

/** ASE writes a FixAtoms slab and a FixCartesian molecule; then reads what we wrote (stdin) and reports its constraints. */
const SCRIPT = String.raw`
import io, json, sys
import numpy as np
from ase.build import fcc111, molecule
from ase.constraints import FixAtoms, FixCartesian
from ase.io import read, write
slab = fcc111('Cu', size=(2, 2, 3), vacuum=6.0)
slab.set_constraint(FixAtoms(indices=[a.index for a in slab if a.tag > 1]))
mol = molecule('H2O'); mol.center(vacuum=3.0); mol.pbc = True
mol.set_constraint([FixCartesian(0, mask=(1, 0, 1)), FixCartesian(2, mask=(0, 0, 1))])
written = {}
for name, atoms in (('slab', slab), ('water', mol)):
    buf = io.StringIO(); write(buf, atoms, format='extxyz', columns=['symbols', 'positions', 'move_mask']); written[name] = buf.getvalue()
def free_flags(atoms):
    free = np.ones((len(atoms), 3), dtype=bool)
    for c in atoms.constraints:
        if isinstance(c, FixAtoms): free[c.index] = False
        elif isinstance(c, FixCartesian): free[c.a] = c.mask  # ASE 3.22 keeps the free axes in .mask
    return free.tolist()
back = [free_flags(a) for a in read(io.StringIO(sys.stdin.read()), index=':', format='extxyz')] if len(sys.argv) > 1 else []
print(json.dumps({'written': written, 'expected': {'slab': free_flags(slab), 'water': free_flags(mol)}, 'back': back}))
`;

interface Oracle {
  written: Record<'slab' | 'water', string>;
  expected: Record<'slab' | 'water', boolean[][]>;
  back: boolean[][][];
}

function ase(input = ''): Oracle | string {
  const run = spawnSync(PYTHON, ['-c', SCRIPT, ...(input ? ['read'] : [])], { input, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) return `${PYTHON} cannot run ASE (${(run.stderr || String(run.error)).trim().split('\n').pop()})`;
  return JSON.parse(run.stdout) as Oracle;
}

test('move_mask: T or F for all three axes, or one per axis; a bad value or shape is a warning, the frame kept', () => {
  const file = readXyz(
    '2\nProperties=species:S:1:pos:R:3:move_mask:L:3\nO 0 0 0 T F True\nH 1 0 0 f t T\n2\nProperties=species:S:1:pos:R:3:move_mask:L:1\nO 0 0 0 F\nH 1 0 0 x\n1\nProperties=species:S:1:pos:R:3:move_mask:R:2\nO 0 0 0 1 2\n',
  );
  assert.deepEqual(file.frames[0]!.free, [
    [true, false, true],
    [false, true, true],
  ]);
  assert.equal(file.frames[1]!.free, undefined);
  assert.equal(file.frames.length, 3);
  assert.deepEqual(
    file.diagnostics.map((d) => [d.code, d.range.line, d.message]),
    [
      ['xyz-not-logical', 7, "Line 8: move_mask must be T or F (found 'x'): the frame's fixed atoms are left out"],
      [
        'xyz-move-mask-shape',
        9,
        'Line 10: move_mask must be move_mask:L:1 or move_mask:L:3 (found move_mask:R:2): the fixed atoms are left out',
      ],
    ],
  );
});

test('move_mask as ASE writes it (FixAtoms, FixCartesian) reads as selective dynamics; ASE reads ours back with the same constraints', (t) => {
  const oracle = ase();
  if (typeof oracle === 'string') return t.skip(`SKIPPED LOUDLY: ${oracle}; apt-get install python3-ase`);
  const slab = readXyz(oracle.written.slab).frames[0]!;
  const water = readXyz(oracle.written.water).frames[0]!;
  assert.match(oracle.written.slab, /move_mask:L:1/);
  assert.match(oracle.written.water, /move_mask:L:3/);
  assert.deepEqual(slab.free, oracle.expected.slab);
  assert.deepEqual(water.free, oracle.expected.water);
  assert.ok(slab.free.some((f) => !f[0]) && slab.free.some((f) => f[0]), 'some atoms fixed, some free');
  // Converted to POSCAR: the same flags as Selective dynamics.
  const poscar = parsePoscar(frameToPoscarText(slab)).poscar!;
  assert.ok(poscar.selectiveDynamics);
  assert.deepEqual(
    poscar.sites.map((s) => s.flags),
    oracle.expected.slab,
  );
  const ours = writeExtxyz([slab, water]);
  assert.match(ours, /move_mask:L:1[\s\S]*move_mask:L:3/, 'FixAtoms as one column, FixCartesian as three');
  const back = ase(ours);
  if (typeof back === 'string') return assert.fail(back);
  assert.deepEqual(back.back, [oracle.expected.slab, oracle.expected.water]);
});
