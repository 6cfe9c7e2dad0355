/**
 * Trajectory analysis: g(r) against ASE's Analysis.get_rdf (the field's reference library) and against fcc's
 * coordination shells by hand; the MSD and D of random walks whose D is known.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import {
  meanSquaredDisplacement,
  minimumImageRMax,
  radialDistribution,
  TrajectoryError,
  unwrap,
  type PeriodicFrame,
} from '../../../../src/core/crystallography/trajectory';
import { seededRandom } from '../../../../src/server/physics/rng';
import type { Vec3 } from '../../../../src/core/poscar/types';
import { cubicCell as cube, FCC } from '../../../support/cubicCells';
import { PYTHON } from '../../../support/python';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readResult } from '../../../../src/webviews/results/read';
import { plotsOf } from '../../../../src/webviews/results/plots';
import { isToResultPage } from '../../../../src/webviews/results/protocol';
import type { MdModel } from '../../../../src/webviews/results/model';

/** n×n×n conventional cells of a rock-salt (two species) or fcc (one) crystal, rattled by up to `rattle` Å. */
function crystal(a: number, n: number, species: [string, string?], rattle: number, seed: number): PeriodicFrame {
  const random = seededRandom(seed);
  const positions: Vec3[] = [];
  const names: string[] = [];
  const basis = species[1]
    ? [...FCC.map((f) => [f, species[0]] as const), ...FCC.map((f) => [[f[0] + 0.5, f[1], f[2]] as Vec3, species[1]!] as const)]
    : FCC.map((f) => [f, species[0]] as const);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      for (let k = 0; k < n; k++)
        for (const [f, s] of basis) {
          positions.push([
            (f[0] + i) * a + rattle * (random() - 0.5),
            (f[1] + j) * a + rattle * (random() - 0.5),
            (f[2] + k) * a + rattle * (random() - 0.5),
          ]);
          names.push(s);
        }
  return { lattice: cube(a * n), species: names, positions };
}

test('fcc by hand: 12 neighbours at a/√2, 6 at a, 24 at a√(3/2); g integrates to the coordination numbers', () => {
  const a = 3.61;
  const frame = crystal(a, 3, ['Cu'], 0, 1);
  const rMax = minimumImageRMax([frame]);
  assert.ok(Math.abs(rMax - 0.499 * 3 * a) < 1e-12);
  const rdf = radialDistribution([frame], rMax, 500);
  const rho = frame.positions.length / (3 * a) ** 3;
  // N(r) = ∫ ρ g 4πr² dr over a shell: the shell's own bin volume, as g was divided by it.
  const coordination = (lo: number, hi: number) =>
    rdf.r.reduce(
      (s, r, b) => (r > lo && r < hi ? s + rdf.total[b]! * rho * 4 * Math.PI * rdf.dr * (r * r + (rdf.dr * rdf.dr) / 12) : s),
      0,
    );
  assert.ok(Math.abs(coordination(2.4, 2.7) - 12) < 1e-9, `${coordination(2.4, 2.7)}`);
  assert.ok(Math.abs(coordination(3.5, 3.7) - 6) < 1e-9);
  assert.ok(Math.abs(coordination(4.3, 4.5) - 24) < 1e-9);
  const peak = rdf.r[rdf.total.indexOf(Math.max(...rdf.total))]!;
  assert.ok(Math.abs(peak - a / Math.SQRT2) < rdf.dr, `first peak at ${peak}`);
  assert.deepEqual(
    rdf.pairs.map((p) => `${p.a}-${p.b}`),
    ['Cu-Cu'],
  );
  assert.deepEqual(rdf.pairs[0]!.g, rdf.total, 'one element: the partial is the total');
});

const ASE_RDF = String.raw`
import json, sys
import numpy as np
from ase import Atoms
from ase.geometry.analysis import Analysis
job = json.load(sys.stdin)
atoms = Atoms(job['species'], positions=job['positions'], cell=job['lattice'], pbc=True)
a = Analysis(atoms)
total = a.get_rdf(job['rmax'], job['nbins'])[0]
from ase.data import atomic_numbers
pair = a.get_rdf(job['rmax'], job['nbins'], elements=[atomic_numbers[job['pair'][0]], atomic_numbers[job['pair'][1]]])[0]
print(json.dumps({'total': list(map(float, total)), 'pair': list(map(float, pair))}))
`;

test('rattled NaCl: g(r) and the Na–Cl partial are ASE Analysis.get_rdf (its partial times N/N_Cl)', (t) => {
  const frame = crystal(5.64, 2, ['Na', 'Cl'], 0.4, 3);
  const rMax = 5.5;
  const nbins = 110;
  const run = spawnSync(PYTHON, ['-c', ASE_RDF], {
    input: JSON.stringify({ ...frame, rmax: rMax, nbins, pair: ['Na', 'Cl'] }),
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.status !== 0)
    return t.skip(
      `SKIPPED LOUDLY: ASE is not installed for /usr/bin/python3 (apt-get install python3-ase), so g(r) was not compared: ${run.stderr.slice(-200)}`,
    );
  const ase = JSON.parse(run.stdout) as { total: number[]; pair: number[] };
  const ours = radialDistribution([frame], rMax, nbins);
  assert.equal(ase.total.length, nbins);
  ours.total.forEach((g, b) => assert.ok(Math.abs(g - ase.total[b]!) < 1e-9, `bin ${b}: ${g} vs ASE ${ase.total[b]}`));
  const naCl = ours.pairs.find((p) => p.a === 'Na' && p.b === 'Cl')!;
  const n = frame.positions.length;
  const nCl = frame.species.filter((s) => s === 'Cl').length;
  naCl.g.forEach((g, b) => assert.ok(Math.abs((g * nCl) / n - ase.pair[b]!) < 1e-9, `Na–Cl bin ${b}: ${g} vs ASE ${ase.pair[b]}`));
  assert.ok(
    ours.total.some((g) => g > 2),
    'a structured g(r), not a flat one',
  );
});

test('an ideal gas has g(r) → 1 for every pair, averaged over frames', () => {
  const random = seededRandom(9);
  const frames: PeriodicFrame[] = Array.from({ length: 20 }, () => ({
    lattice: cube(20),
    species: Array.from({ length: 300 }, (_, i) => (i % 3 ? 'Ar' : 'Kr')),
    positions: Array.from({ length: 300 }, () => [20 * random(), 20 * random(), 20 * random()] as Vec3),
  }));
  const rdf = radialDistribution(frames, 9, 18);
  const mean = (g: number[]) => g.slice(4).reduce((s, v) => s + v, 0) / (g.length - 4);
  assert.ok(Math.abs(mean(rdf.total) - 1) < 0.02, `${mean(rdf.total)}`);
  for (const p of rdf.pairs) assert.ok(Math.abs(mean(p.g) - 1) < 0.05, `${p.a}-${p.b}: ${mean(p.g)}`);
  assert.equal(rdf.frames, 20);
});

/** Random walkers with Gaussian steps of variance 2D·dt per axis: MSD(τ) = 6Dτ exactly in expectation. */
function randomWalk(walkers: number, steps: number, d: number, dt: number, seed: number): Vec3[][] {
  const random = seededRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const sigma = Math.sqrt(2 * d * dt);
  const frames: Vec3[][] = [Array.from({ length: walkers }, () => [0, 0, 0] as Vec3)];
  for (let s = 1; s <= steps; s++)
    frames.push(frames[s - 1]!.map((p) => [p[0] + sigma * gauss(), p[1] + sigma * gauss(), p[2] + sigma * gauss()] as Vec3));
  return frames;
}

test('a random walk of known D: the Einstein relation gives D back within 5 %, from the 10–50 % window', () => {
  for (const [d, seed] of [
    [0.05, 1],
    [0.002, 2],
  ] as const) {
    const frames = randomWalk(1000, 300, d, 2, seed);
    const times = frames.map((_, i) => 2 * i);
    const msd = meanSquaredDisplacement(frames, times);
    assert.ok(msd.diffusion !== undefined);
    assert.ok(Math.abs(msd.diffusion / d - 1) < 0.05, `D = ${msd.diffusion} vs ${d}`);
    assert.deepEqual(msd.window, [60, 300]);
    assert.equal(msd.msd[0], 0);
    assert.ok(Math.abs(msd.msd[10]! / (6 * d * 20) - 1) < 0.1, 'MSD(τ) ≈ 6Dτ at every lag');
  }
});

test('a wrapped trajectory is unwrapped before the MSD: the same D as the continuous one', () => {
  const box = 12;
  const continuous = randomWalk(50, 200, 0.05, 2, 4).map((frame) => frame.map((p) => p.map((x) => x + box / 2) as Vec3));
  const wrapped: PeriodicFrame[] = continuous.map((frame) => ({
    lattice: cube(box),
    species: frame.map(() => 'Li'),
    positions: frame.map((p) => p.map((x) => x - box * Math.floor(x / box)) as Vec3),
  }));
  assert.ok(
    wrapped.some((f, t) => f.positions.some((p, i) => Math.abs(p[0] - continuous[t]![i]![0]) > 1)),
    'some walkers did cross the box',
  );
  const unwrapped = unwrap(wrapped);
  unwrapped.forEach((frame, t) => frame.forEach((p, i) => p.forEach((x, k) => assert.ok(Math.abs(x - continuous[t]![i]![k]!) < 1e-9))));
  const times = continuous.map((_, i) => 2 * i);
  const [a, b] = [meanSquaredDisplacement(unwrapped, times).diffusion!, meanSquaredDisplacement(continuous, times).diffusion!];
  assert.ok(Math.abs(a / b - 1) < 1e-12, `${a} vs ${b}`);
});

test('problems are TrajectoryErrors: no frames, uneven times, a range too long for the pairs allowed', () => {
  assert.throws(() => radialDistribution([], 5, 10), TrajectoryError);
  assert.throws(() => meanSquaredDisplacement([[[0, 0, 0]]], [0]), /two frames/);
  assert.throws(() => meanSquaredDisplacement([[[0, 0, 0]], [[1, 0, 0]], [[2, 0, 0]]], [0, 1, 5]), /equally spaced/);
  const short = meanSquaredDisplacement([[[0, 0, 0]], [[1, 0, 0]], [[2, 0, 0]]], [0, 1, 2]);
  assert.equal(short.diffusion, undefined, 'too few lags in the window for a fit');
});

test('the MD result view: g(r) and MSD panels from the answer’s frames, the final POSCAR’s cell and the timestep, D in the title', () => {
  // A random walk of 27 Li in a 12 Å cube, recorded every 5 steps of 2 fs, and a last frame off the stride (as the
  // reference server keeps the final step): the MSD uses the evenly spaced frames.
  const walk = randomWalk(27, 200, 0.05, 2, 8);
  const steps = [...Array.from({ length: 40 }, (_, i) => i * 5), 199];
  const poscar = [
    'Li27',
    '1.0',
    '12 0 0',
    '0 12 0',
    '0 0 12',
    'Li',
    '27',
    'Cartesian',
    ...walk[199]!.map((p) => p.map((x) => x + 6).join(' ')),
    '',
  ].join('\n');
  const answer = {
    energies: { total: [1, 1], kinetic: [0.5, 0.5], potential: [0.5, 0.5] },
    timestep_fs: 2,
    trajectory: steps.map((step) => ({ step, positions: walk[step]!.map((p) => p.map((x) => x + 6)) })),
    final_poscar: poscar,
  };
  const m = readResult('md', { type: 'json', value: answer }, {}, { atoms: 27 }) as MdModel;
  assert.ok(m.analysis?.rdf && m.analysis.msd, JSON.stringify(m.analysis?.note));
  assert.equal(m.analysis.msd.unit, 'fs');
  assert.equal(m.analysis.msd.lag.length, 40, 'the off-stride last frame is left out of the MSD');
  assert.equal(m.analysis.msd.lag[1], 10);
  assert.equal(m.analysis.rdf.frames, 14, 'g(r) averages at most 20 frames, evenly picked: every 3rd of 41');
  const plots = plotsOf({ model: m, elements: [], lattice: [] });
  const msd = plots.find((p) => p.id === 'msd')!;
  assert.match(msd.title, /^Mean squared displacement: D = \d\.\d\de-\d cm²\/s \(MSD = 6Dt fitted over 40–190 fs\)$/);
  assert.ok(plots.some((p) => p.id === 'rdf'));
  assert.ok(
    isToResultPage({
      type: 'show',
      seq: 1,
      run: { id: 'r', kind: 'md', title: 'MD', inputName: 'POSCAR', state: 'done', startedAt: 0 },
      view: { model: m, elements: [], lattice: [] },
    }),
    'the page accepts it',
  );
  // Without a cell there is no analysis, and the view says why.
  const none = readResult('md', { type: 'json', value: { ...answer, final_poscar: undefined } }, {}, { atoms: 27 }) as MdModel;
  assert.match(none.analysis?.note ?? '', /no final POSCAR/);
});

test('the reference MD fixture (Si8, 7 frames): g(r) with its first shell at the Si–Si bond', () => {
  const value = JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'results', 'md.reference.json'), 'utf8'),
  );
  const m = readResult('md', { type: 'json', value }, {}, { atoms: 8 }) as MdModel;
  const rdf = m.analysis!.rdf!;
  const first = rdf.r[rdf.total.findIndex((g) => g > 0)]!;
  assert.ok(first > 2.0 && first < 2.5, `the nearest neighbours at ${first} Å (Si–Si 2.35 Å)`);
});
