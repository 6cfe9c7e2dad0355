/** The reference server's answers (the first variant of every shape) read without a warning. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parsePoscar } from '../../../../src/core/poscar/index';
import { bandStructure, dynamics, relaxation, singlePoint, structureOf } from '../../../../src/server/physics/answers';
import { runToEnd } from '../../../../src/core/util/steps';
import type { BandsModel, MdModel, RelaxModel, SinglePointModel } from '../../../../src/webviews/results/model';
import { readResult } from '../../../../src/webviews/results/read';
import type { RunKind } from '../../../../src/core/runs/run';

const text = readFileSync(join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'results', 'POSCAR.Si8'), 'utf8');
const structure = structureOf(parsePoscar(text).poscar!);
const viaJson = <M>(kind: RunKind, answer: unknown): M =>
  readResult(kind, { type: 'json', value: JSON.parse(JSON.stringify(answer)) }, {}, { atoms: 8 }) as M;

test('reference single point', () => {
  const m = viaJson<SinglePointModel>('singlePoint', singlePoint(structure));
  assert.deepEqual(m.warnings, []);
  assert.deepEqual(m.extra, {});
  assert.equal(m.forces!.length, 8);
  assert.equal(m.stressUnit, 'GPa');
  assert.ok(m.energy !== undefined && m.energyPerAtom !== undefined && m.method);
});

test('reference relaxation', () => {
  const m = viaJson<RelaxModel>('relax', runToEnd(relaxation(structure, { fmax: 0.05, maxSteps: 100 })));
  assert.deepEqual(m.warnings, []);
  // Shown under Other fields: the cell before and after, and how it was relaxed.
  assert.deepEqual(Object.keys(m.extra).sort(), ['initial_lattice', 'lattice', 'optimizer', 'relax_cell']);
  assert.equal(m.energies.length, m.steps! + 1);
  assert.equal(m.fmax, 0.05);
  assert.equal(m.maxSteps, 100);
  assert.ok(m.finalPoscar && m.trajectory && m.converged !== undefined);
});

test('reference MD', () => {
  const m = viaJson<MdModel>('md', runToEnd(dynamics(structure, { temperature: 300, timestep: 1, steps: 20, seed: 1 })));
  assert.deepEqual(m.warnings, []);
  assert.deepEqual(Object.keys(m.extra).sort(), ['interval', 'seed']); // shown under Other fields
  assert.equal(m.time.length, 21);
  assert.equal(m.timeUnit, 'fs');
  assert.equal(m.targetTemperature, 300);
  assert.equal(m.energyDriftComputed, undefined);
});

test('reference band structure', () => {
  const m = viaJson<BandsModel>('tightbinding', runToEnd(bandStructure(structure, 5)));
  assert.deepEqual(m.warnings, []);
  assert.deepEqual(Object.keys(m.extra), ['space_group', 'kpath_density']); // the number is in the source's words too
  assert.match(m.latticeTypeSource ?? '', /^space group \d+$/); // read, not left under Other fields
  assert.ok(m.dos && m.dos.energies.length === m.dos.states.length && m.dos.energies.length > 100, 'the density of states is read');
  assert.equal(m.bands.length, 40); // Si in Vogl's sp3s*: five orbitals per atom
  assert.equal(m.distanceSource, 'service');
  assert.equal(m.ticks[0]!.label, 'Γ');
  assert.equal(m.edges.source, 'service');
  assert.ok(m.path && m.latticeType);
});

test('reference band structure of a rhombohedral cell: the view ticks the path’s own labels, subscripts as SC write them', () => {
  const t = (70 * Math.PI) / 180;
  const x = Math.cos(t) / Math.cos(t / 2);
  const a = 2.9;
  const rows = [
    [a * Math.cos(t / 2), -a * Math.sin(t / 2), 0],
    [a * Math.cos(t / 2), a * Math.sin(t / 2), 0],
    [a * x, 0, a * Math.sqrt(1 - x * x)],
  ];
  const poscar = `rhombohedral Cu\n1.0\n${rows.map((r) => r.join(' ')).join('\n')}\nCu\n1\nDirect\n0 0 0\n`;
  const answer = runToEnd(bandStructure(structureOf(parsePoscar(poscar).poscar!), 5)) as {
    labels: { distance: number; label: string }[];
    lattice_type: string;
  };
  assert.equal(answer.lattice_type, 'RHL1');
  const m = readResult('tightbinding', { type: 'json', value: JSON.parse(JSON.stringify(answer)) }, {}, { atoms: 1 }) as BandsModel;
  assert.deepEqual(m.warnings, []);
  assert.deepEqual(
    m.ticks.map((tick) => tick.label),
    ['Γ', 'L', 'B₁|B', 'Z', 'Γ', 'X|Q', 'F', 'P₁', 'Z|L', 'P'],
  );
  m.ticks.forEach((tick, i) => assert.equal(tick.distance, answer.labels[i]!.distance));
});
