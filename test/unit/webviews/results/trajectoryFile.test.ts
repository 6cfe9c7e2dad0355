/**
 * Trajectory Analysis of a file: pymatgen's Li–Si XDATCAR (100 frames of 76 atoms) read by our reader, made into the
 * record the result view shows, and its g(r) and MSD compared with ASE's get_rdf on the same frames and with the MSD
 * computed in numpy from ASE's reading of the file (the reference libraries a user would otherwise reach for).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { readXdatcar } from '../../../../src/core/structures/xdatcar/index';
import type { StructureFile } from '../../../../src/core/structures/types';
import { readResult } from '../../../../src/webviews/results/read';
import { plotsOf } from '../../../../src/webviews/results/plots';
import type { MdModel } from '../../../../src/webviews/results/model';
import { hasTrajectory, trajectoryRecord } from '../../../../src/webviews/results/trajectoryFile';
import { PYTHON } from '../../../support/python';

const FILE = '/usr/share/doc/pymatgen-test-files/examples/test_files/Traj_XDATCAR';

// The frames the view averages g(r) over: every 5th of 100 (at most 20). MSD over every origin, on unwrapped positions.
const ASE = String.raw`
import io, json, sys, numpy as np
from ase.io import read
from ase.geometry.analysis import Analysis
job = json.load(sys.stdin)
# ASE's reader takes three numbers per site line: pymatgen's file adds the element after them.
lines = [' '.join(l.split()[:3]) if len(l.split()) == 4 and l.split()[3].isalpha() else l for l in open(job['file']).read().splitlines()]
frames = read(io.StringIO('\n'.join(lines) + '\n'), index=':', format='vasp-xdatcar')
picked = frames[::5]
g = np.mean([Analysis(a).get_rdf(job['rmax'], job['nbins'])[0] for a in picked], axis=0)
frac = np.array([a.get_scaled_positions(wrap=False) for a in frames])
steps = np.diff(frac, axis=0)
steps -= np.round(steps)
unwrapped = np.concatenate([frac[:1], frac[:1] + np.cumsum(steps, axis=0)]) @ frames[0].cell.array
msd = [float(np.mean(np.sum((unwrapped[k:] - unwrapped[:-k]) ** 2, axis=2))) for k in job['lags']]
print(json.dumps({'frames': len(frames), 'g': list(map(float, g)), 'msd': msd}))
`;

function analysed(file: StructureFile): MdModel {
  const record = trajectoryRecord('file:///XDATCAR', 'XDATCAR', file, 'XDATCAR');
  assert.ok(typeof record !== 'string', String(record));
  const body = record.response!.body;
  const model = readResult('md', body, {}, {});
  assert.equal(model.kind, 'md');
  return model;
}

test('Li–Si XDATCAR: g(r) is ASE get_rdf over the same 20 frames, the MSD numpy’s over every origin', (t) => {
  if (!existsSync(FILE)) return t.skip(`SKIPPED LOUDLY: ${FILE} is missing (apt-get install pymatgen-test-files)`);
  const file = readXdatcar(readFileSync(FILE, 'utf8'));
  assert.equal(file.frames.length, 100);
  assert.ok(hasTrajectory(file));
  const model = analysed(file);
  const { rdf, msd } = model.analysis!;
  assert.ok(rdf && msd, JSON.stringify(model.analysis?.note));
  assert.equal(rdf.frames, 20);
  assert.equal(msd.unit, 'frame');
  const rMax = rdf.r.at(-1)! + (rdf.r[1]! - rdf.r[0]!) / 2;
  const lags = [1, 10, 40];
  const run = spawnSync(PYTHON, ['-c', ASE], {
    input: JSON.stringify({ file: FILE, rmax: rMax, nbins: rdf.r.length, lags }),
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.status !== 0 && /ModuleNotFoundError/.test(run.stderr))
    return t.skip(`SKIPPED LOUDLY: ASE is not installed for /usr/bin/python3: ${run.stderr.slice(-200)}`);
  assert.equal(run.status, 0, run.stderr);
  const ase = JSON.parse(run.stdout) as { frames: number; g: number[]; msd: number[] };
  assert.equal(ase.frames, 100);
  rdf.total.forEach((g, b) => assert.ok(Math.abs(g - ase.g[b]!) < 1e-6, `bin ${b}: ${g} vs ASE ${ase.g[b]}`));
  lags.forEach((lag, i) => {
    const ours = msd.msd[msd.lag.indexOf(lag)]!;
    assert.ok(Math.abs(ours - ase.msd[i]!) < 1e-6 * Math.max(1, ase.msd[i]!), `MSD at lag ${lag}: ${ours} vs numpy ${ase.msd[i]}`);
  });
  assert.ok(msd.diffusion! > 0, 'Li diffuses: a positive D');
  assert.deepEqual(
    plotsOf({ model, elements: [], lattice: [] }).map((p) => p.id),
    ['rdf', 'msd'],
    'the view draws g(r) and the MSD, and no energy or temperature plot the file has no data for',
  );
});

test('what cannot be analysed says why: one frame, a frame without a cell, atoms that change', () => {
  const frame = (
    species: string[],
    lattice: StructureFile['frames'][number]['lattice'] = [
      [5, 0, 0],
      [0, 5, 0],
      [0, 0, 5],
    ],
  ) => ({
    lattice,
    pbc: (lattice ? [true, true, true] : [false, false, false]) as [boolean, boolean, boolean],
    species,
    positions: species.map((_, i) => [i, 0, 0] as [number, number, number]),
    title: '',
    lines: { first: 0, last: 0 },
  });
  const file = (frames: ReturnType<typeof frame>[]): StructureFile => ({ format: 'xyz', frames, diagnostics: [], outline: [] });
  assert.match(
    String(trajectoryRecord('u', 'a.xyz', file([frame(['Si'])]), 'XYZ')),
    /one frame: g\(r\) and the MSD need a trajectory of two or more/,
  );
  assert.match(
    String(trajectoryRecord('u', 'a.xyz', file([frame(['Si']), frame(['Si'], null)]), 'XYZ')),
    /^Frame 2 of a\.xyz has no periodic cell/,
  );
  assert.match(
    String(trajectoryRecord('u', 'a.xyz', file([frame(['Si', 'O']), frame(['O', 'Si'])]), 'XYZ')),
    /^Frame 2 of a\.xyz does not have the atoms of frame 1/,
  );
  assert.equal(hasTrajectory(file([frame(['Si']), frame(['Si'], null)])), false);
});
