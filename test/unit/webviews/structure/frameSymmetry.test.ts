/**
 * The space group of the trajectory frame the 3D view shows: moyo's (the real finder) per frame, a frame's answer
 * kept, the latest frame asked searched next while a search runs (frames passed meanwhile are not), the editor's
 * atom limit said rather than searched, a molecule not searched. Expected groups are spglib 2.0's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SymmetryFinder, type SymmetryOutcome } from '../../../../src/core/crystallography/symmetry';
import type { Cell } from '../../../../src/core/crystallography/cell';
import { loadMoyoNode } from '../../../../src/platform/moyoNode';
import { FrameSymmetry, frameCell } from '../../../../src/webviews/structure/frameSymmetry';
import type { StructureData } from '../../../../src/webviews/structure/protocol';

/** Si₂ in a 5.43 Å cube, the first atom moved along x frame by frame (spglib: R-3m (166), then C2/m (12)). */
function trajectory(frames: number, sources?: number[]): StructureData {
  const a = 5.43;
  return {
    lattice: [
      [a, 0, 0],
      [0, a, 0],
      [0, 0, a],
    ],
    elements: ['Si', 'Si'],
    frac: [0, 0, 0, 0.25, 0.25, 0.25],
    labels: ['Si 1', 'Si 2'],
    summary: '',
    frames: Array.from({ length: frames }, (_, i) => ({
      frac: [0.01 * i, 0, 0, 0.25, 0.25, 0.25],
      caption: `configuration ${i + 1}`,
      ...(sources ? { source: sources[i]! } : {}),
    })),
  };
}

test('frameCell: the frame named by its index in the file, in its cell; none for a molecule', () => {
  const thinned = trajectory(3, [0, 10, 20]);
  assert.deepEqual(frameCell(thinned, 10)!.frac, [
    [0.01, 0, 0],
    [0.25, 0.25, 0.25],
  ]);
  assert.equal(frameCell(thinned, 1), undefined, 'a frame the player does not play');
  assert.equal(frameCell({ ...thinned, molecule: true }, 0), undefined);
});

test('each frame shown gets its own space group from moyo; known ones are not searched again', async () => {
  const finder = new SymmetryFinder(loadMoyoNode);
  let searches = 0;
  const posted: [number, string][] = [];
  const symmetry = new FrameSymmetry(
    (cell, symprec) => {
      searches++;
      return finder.find(cell, symprec, 300);
    },
    () => 1e-3,
    (frame, text) => posted.push([frame, text]),
  );
  const structure = trajectory(3);
  symmetry.shown(structure, 0);
  await until(() => posted.length === 1);
  symmetry.shown(structure, 1);
  await until(() => posted.length === 2);
  symmetry.shown(structure, 0);
  assert.deepEqual(
    posted.map(([f, t]) => [f, t.split(' · ')[0]]),
    [
      [0, 'R-3m (166)'],
      [1, 'C2/m (12)'],
      [0, 'R-3m (166)'],
    ],
  );
  assert.equal(searches, 2, 'frame 0 came from what was kept');
});

test('while a search runs, only the latest frame shown is searched next; a new structure forgets the old answers', async () => {
  const asked: number[] = [];
  let release: (() => void) | undefined;
  const posted: number[] = [];
  const symmetry = new FrameSymmetry(
    (cell: Cell) => {
      asked.push(cell.frac[0]![0]);
      return new Promise<SymmetryOutcome>((resolve) => {
        release = () => resolve({ ok: false, reason: 'stub', symprec: 1e-3 });
      });
    },
    () => 1e-3,
    (frame) => posted.push(frame),
  );
  const structure = trajectory(5);
  for (const frame of [0, 1, 2, 3]) symmetry.shown(structure, frame);
  release!();
  await until(() => asked.length === 2);
  release!();
  await until(() => posted.length === 2);
  assert.deepEqual(posted, [0, 3], 'frames 1 and 2 were passed while frame 0 was searched');
  symmetry.shown(trajectory(5), 3);
  await until(() => asked.length === 3);
  release!();
  await until(() => posted.length === 3);
});

test('over the editor’s atom limit the legend says so, and moyo is never loaded', async () => {
  let loaded = false;
  const finder = new SymmetryFinder(() => {
    loaded = true;
    return loadMoyoNode();
  });
  const posted: string[] = [];
  const symmetry = new FrameSymmetry(
    (cell, symprec) => finder.find(cell, symprec, 1),
    () => 1e-3,
    (_, text) => posted.push(text),
  );
  symmetry.shown(trajectory(2), 0);
  await until(() => posted.length === 1);
  assert.match(posted[0]!, /^Space group: none \(The symmetry search runs on up to 1 atoms by itself .*this structure has 2\.\)$/);
  assert.equal(loaded, false);
});

async function until(check: () => boolean): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 20_000) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}
