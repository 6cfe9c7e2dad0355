import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { parsePoscar } from '../../../../src/core/poscar/index';
import type { Poscar } from '../../../../src/core/poscar/types';
import type { RunRecord } from '../../../../src/core/runs/run';
import { runStructure } from '../../../../src/webviews/structure/data';
import { isToStructurePage } from '../../../../src/webviews/structure/protocol';
import { readFrames } from '../../../../src/webviews/structure/trajectory';

const FIXTURES = path.join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'results');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const SI8 = fixture('POSCAR.Si8');
const input = (): Poscar => parsePoscar(SI8).poscar!;

function run(kind: RunRecord['kind'], value: unknown, inputText = SI8): RunRecord {
  return {
    id: 'r1',
    kind,
    inputUri: 'file:///w/POSCAR',
    inputName: 'POSCAR',
    inputText,
    startedAt: 0,
    state: 'done',
    response: { status: 200, headers: {}, body: { type: 'json', value } },
  };
}

test('frames of Cartesian positions become fractional coordinates of the sent cell, captioned with step and energy', () => {
  const si = input();
  const frames = readFrames(
    [
      { step: 0, positions: si.sites.map((s) => s.cart) },
      { step: 2, positions: si.sites.map((s) => [s.cart[0] + 0.54, s.cart[1], s.cart[2]]) },
    ],
    { input: si, energies: [-40, -41, -42.5] },
  );
  assert.ok(Array.isArray(frames));
  assert.equal(frames.length, 2);
  assert.deepEqual(
    frames[0]!.frac.slice(0, 3).map((x) => x.toFixed(6)),
    si.sites[0]!.frac.map((x) => x.toFixed(6)),
  );
  assert.equal((frames[1]!.frac[0]! - frames[0]!.frac[0]!).toFixed(6), '0.100000', '0.54 Å along a of 5.4 Å');
  assert.equal(frames[0]!.caption, 'Step 0 · -40.0000 eV');
  assert.equal(frames[1]!.caption, 'Step 2 · -42.5000 eV');
});

test("bare N×3 frames, a frame's own cell and own energy are read; frames without a step are numbered", () => {
  const si = input();
  const bigger: number[][] = [
    [6, 0, 0],
    [0, 6, 0],
    [0, 0, 6],
  ];
  const frames = readFrames([si.sites.map((s) => s.cart), { cell: bigger, coords: si.sites.map(() => [3, 3, 3]), energy_eV: '-1.5' }], {
    input: si,
  });
  assert.ok(Array.isArray(frames));
  assert.equal(frames[0]!.caption, 'Frame 1');
  assert.equal(frames[1]!.caption, 'Frame 2 · -1.5000 eV');
  assert.deepEqual(frames[1]!.lattice, bigger);
  assert.deepEqual(frames[1]!.frac.slice(0, 3), [0.5, 0.5, 0.5]);
});

test('frames that cannot be drawn right are refused with a message naming the frame', () => {
  const si = input();
  const good = si.sites.map((s) => s.cart);
  assert.equal(readFrames([], { input: si }), 'The answer has no trajectory frames.');
  assert.equal(
    readFrames([good, good.slice(1)], { input: si }),
    'The trajectory cannot be played: frame 2 has 7 atoms, but the structure sent has 8.',
  );
  assert.equal(
    readFrames([good, { positions: 'none' }], { input: si }),
    'The trajectory cannot be played: frame 2 holds no list of [x, y, z] positions.',
  );
  assert.equal(
    readFrames([good.map(() => [0, 'x', 0])], { input: si }),
    'The trajectory cannot be played: frame 1 holds no list of [x, y, z] positions.',
  );
  assert.match(
    readFrames(
      Array.from({ length: 200_000 }, () => good),
      { input: si },
    ) as string,
    /too large to play \(200000 frames of 8 atoms\)/,
  );
});

test("a relax run: the reference answer's trajectory is played, and passes the page's guard", () => {
  const shown = runStructure(run('relax', JSON.parse(fixture('relax.reference.json'))));
  assert.ok(typeof shown !== 'string', String(shown));
  assert.equal(shown.title, 'Relax: POSCAR — trajectory');
  assert.equal(shown.formula, 'Si8');
  assert.equal(shown.structure.frames!.length, 6);
  assert.match(shown.structure.frames![0]!.caption, /^Step 0 · -\d+\.\d{4} eV$/);
  const message = {
    type: 'show',
    seq: 1,
    title: 't',
    uri: 'tokenlens-run:r1',
    structure: shown.structure,
    note: '',
    options: { repeat: [1, 1, 1], bonds: true, cell: true },
  };
  assert.equal(isToStructurePage(message), true);
  const broken = { ...message, structure: { ...shown.structure, frames: [{ frac: [1, 2], caption: 'x' }] } };
  assert.equal(isToStructurePage(broken), false, 'a frame with the wrong number of coordinates is refused by the page');
});

test('without frames the final structure is shown; with neither, or an unreadable input, the user is told why', () => {
  const legacy = runStructure({
    ...run('relax', null),
    response: { status: 200, headers: {}, body: { type: 'text', text: fixture('relax.legacy.txt'), contentType: 'text/plain' } },
  });
  assert.ok(typeof legacy !== 'string', String(legacy));
  assert.equal(legacy.title, 'Relax: POSCAR — final structure');
  assert.equal(legacy.structure.frames, undefined);
  assert.equal(runStructure(run('md', { energies: [] })), 'This run returned neither trajectory frames nor a final structure to show.');
  assert.equal(runStructure(run('md', { trajectory: [] }, 'not a poscar')), 'The structure sent for this run (POSCAR) cannot be read.');
});
