/**
 * The application result views' readers, on the reference server's own answers and on the other
 * shapes a service may send: headline, tables, plots, and nothing lost (Other fields).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linearRatio } from '../../../../support/linearity';
import { referenceServer } from '../../../../support/serverHarness';
import type { AppModel } from '../../../../../src/webviews/results/apps/model';
import { subscripts } from '../../../../../src/webviews/results/apps/readBuild';
import { readResult } from '../../../../../src/webviews/results/read';
import type { AppKind } from '../../../../../src/core/runs/run';

const { post } = referenceServer('readers-key');

async function answer(path: string, body: object): Promise<unknown> {
  const reply = await post(path, body);
  assert.equal(reply.status, 200, path);
  return reply.body;
}

const read = (kind: AppKind, value: unknown, request: Record<string, unknown> = {}): AppModel =>
  readResult(kind, { type: 'json', value }, {}, { request }) as AppModel;

test('search: a sortable table of every material found, rows open their detail; nothing left over', async () => {
  const m = read('search', await answer('/materials_explorer/search', { elements: ['O'], element_mode: 'any' }));
  assert.equal(m.headline, '3 materials found');
  const table = m.tables[0]!;
  assert.deepEqual(table.columns.slice(0, 4), ['Id', 'Formula', 'Name', 'Space group']);
  assert.ok(table.columns.includes('bulk_modulus'), 'fields the view has no label for still get a column');
  assert.deepEqual(table.rows.map((r) => r.detail).sort(), ['JVASP-104', 'JVASP-116', 'JVASP-32']);
  assert.equal(table.detailApp, 'materials_explorer');
  assert.deepEqual(m.extra, {});
  const gap = table.columns.indexOf('Band gap (eV)');
  assert.ok(table.rows.every((r) => typeof r.keys[gap] === 'number'));
});

test('predict: value with its unit and the model', async () => {
  const m = read('predict', await answer('/gnn_predictor/predict', { jid: 'JVASP-1174', model: 'optb88vdw_bandgap' }));
  assert.equal(m.headline, 'Band gap: 1.42 eV');
  assert.deepEqual(m.facts, ['Material: GaAs (JVASP-1174)', 'Model: optb88vdw_bandgap', 'Source: tabulated reference value']);
  // Another service's shape: the unit from the model name, the rest kept.
  const other = read('predict', { predictions: '0.5', confidence: 0.9 }, { jid: 'JVASP-1', model: 'bulk_modulus_kv' });
  assert.equal(other.headline, 'Prediction: 0.5 GPa');
  assert.deepEqual(other.extra, { confidence: 0.9 });
});

test('pxrd: peaks as sticks and a table; a match overlays the measured pattern on the best match', async () => {
  const m = read('pxrd', await answer('/pxrd/compute', { jid: 'JVASP-1002' }), { jid: 'JVASP-1002' });
  assert.match(m.headline, /^\d+ peaks for Si \(JVASP-1002\)$/);
  assert.equal(m.plots[0]!.series[0]!.sticks, true);
  assert.equal(m.tables[0]!.rows.length, m.plots[0]!.x.length);
  assert.ok(
    m.facts.some((f) => /Strongest peak at 2θ = 28\.\d\d°/.test(f)),
    m.facts.join('; '),
  );
  const xrd = '28.44 1000\n47.30 600\n56.12 350\n';
  const match = read('pxrdMatch', await answer('/pxrd/match', { xrd_data: xrd }), { xrd_data: xrd });
  assert.match(match.headline, /^Best match: JVASP-1002 · Si \(score /);
  const plot = match.plots[0]!;
  assert.deepEqual(
    plot.series.map((s) => [s.label, !!s.sticks]),
    [
      ['Measured', false],
      ['Best match (Si · JVASP-1002)', true],
    ],
  );
  assert.deepEqual(
    plot.series[0]!.values.filter((v) => v !== null),
    [100, 60, 35],
    'measured scaled to 100',
  );
  // Parallel lists are read too.
  assert.equal(read('pxrd', { two_theta: [20, 30], intensities: [50, 100] }).plots[0]!.x.length, 2);
});

test('optimade: a paged table of the structures', async () => {
  const m = read('optimade', await answer('/optimade_explorer/query', { filter_string: 'nelements = 1' }));
  assert.equal(m.headline, '5 structures match');
  assert.equal(m.tables[0]!.pageSize, 5);
  assert.deepEqual(m.tables[0]!.columns.slice(0, 3), ['Id', 'Formula', 'Elements']);
  assert.ok(m.facts.includes('The database holds 10 entries'));
});

test('heterostructure: the POSCAR with its mismatch; VQE next to classical; reaction as an equation; HEA phase', async () => {
  const h = read(
    'heterostructure',
    await answer('/heterostructure/generate', { jid1: 'JVASP-1174', jid2: 'JVASP-1002', film_thickness: 6, subs_thickness: 6 }),
    { jid1: 'JVASP-1174', jid2: 'JVASP-1002' },
  );
  assert.match(h.headline, /^Interface of 16 atoms, largest mismatch 4\.09 %$/);
  assert.match(h.poscar!.text, /^GaAs on Si/);
  assert.deepEqual(h.tables[0]!.rows[0]!.cells, ['Mismatch along u', '+4.088 %']);
  const v = read('vqe', await answer('/quantum/vqe', { jid: 'JVASP-867', kpoint: [0, 0, 0] }));
  assert.match(v.headline, /^VQE −34\.00\d+ eV · classical −34\.00\d+ eV$/);
  assert.equal(v.plots[0]!.hLines![0]!.label, 'classical');
  assert.ok(v.tables[0]!.rows.some((r) => r.cells[0] === 'Qubits' && r.cells[1] === '3'));
  const r = read('reaction', await answer('/reaction_network/balance', { reactants: 'Fe2O3 + C', products: 'Fe + CO2' }));
  assert.equal(r.headline, '2 Fe₂O₃ + 3 C → 4 Fe + 3 CO₂');
  assert.deepEqual(r.extra, {});
  assert.equal(read('reaction', { balanced: '2 H2 + O2 -> 2 H2O' }).headline, '2 H₂ + O₂ → 2 H₂O');
  assert.equal(read('reaction', { balanced: 'CH4+2O2=CO2 + 2H2O' }).headline, 'CH₄+2O₂ → CO₂ + 2H₂O');
  assert.equal(read('reaction', { balanced: 'C + O2  =>  CO2' }).headline, 'C + O₂ → CO₂');
  assert.equal(read('reaction', { balanced: 'H2 + O2' }).headline, 'H₂ + O₂');
  assert.equal(subscripts('Ca(OH)2'), 'Ca(OH)₂');
  const hea = read('hea', await answer('/hea/compute', { elements: ['Ti', 'Zr', 'Hf', 'Nb', 'Ta'] }));
  assert.equal(hea.headline, 'Predicted phase: BCC');
  assert.ok(hea.tables[0]!.rows.some((row) => row.cells[0]!.startsWith('Valence electron concentration') && row.cells[1] === '4.4'));
  assert.equal(hea.tables[1]!.rows.length, 5);
  assert.deepEqual(hea.extra, {});
});

test('a reaction answer with a long blank and no arrow costs linear time', async () => {
  const blank = (n: number) => ({ balanced: `H2 +${' '.repeat(n)}O2` });
  const run = (value: object) => read('reaction', value);
  const { ratio, message } = await linearRatio({ what: '8× the blank', run, small: blank(12_000), large: blank(96_000), limit: 32 });
  assert.ok(ratio < 32, message);
});

test('an answer no reader knows goes whole under Other fields, with a warning', () => {
  const m = read('hea', { something: 1 });
  assert.equal(m.headline, 'No predicted phase in the answer');
  assert.deepEqual(m.extra, { something: 1 });
  assert.match(m.warnings[0]!, /Nothing in the answer was recognised/);
  assert.match(read('search', 'plain text').headline, /No materials match/);
});
