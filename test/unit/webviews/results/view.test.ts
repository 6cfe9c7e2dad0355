import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { duration, fixed, short, signed, tickLabels } from '../../../../src/webviews/results/format';
import type { BandsModel, RelaxModel } from '../../../../src/webviews/results/model';
import { plotsOf, toCsv } from '../../../../src/webviews/results/plots';
import { derivedName, inputStructure } from '../../../../src/webviews/results/poscarText';
import { isFromResultPage, isToResultPage, type ResultView } from '../../../../src/webviews/results/protocol';
import { longestString, shortenStrings } from '../../../../src/webviews/fit';
import { readResult } from '../../../../src/webviews/results/read';
import { runTitle, type RunRecord } from '../../../../src/core/runs/run';
import { bandReference, describe, gapStatement, pressure } from '../../../../src/webviews/results/summary';
import { resultView, runInfo } from '../../../../src/webviews/results/view';

const DIR = join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'results');
const fixture = (name: string): string => readFileSync(join(DIR, name), 'utf8');
const INPUT = fixture('POSCAR.Si8');

function run(kind: RunRecord['kind'], value: unknown, extra: Partial<RunRecord> = {}): RunRecord {
  return {
    id: 'r1',
    kind,
    inputUri: 'file:///w/POSCAR',
    inputName: 'POSCAR',
    inputText: INPUT,
    startedAt: 1_700_000_000_000,
    durationMs: 1500,
    state: 'done',
    response: { status: 200, headers: {}, body: { type: 'json', value } },
    ...extra,
  };
}
const viewOf = (kind: RunRecord['kind'], file: string): ResultView =>
  resultView(run(kind, JSON.parse(fixture(file))), inputStructure(INPUT))!;
const bandsOf = (value: unknown): BandsModel => readResult('tightbinding', { type: 'json', value }) as BandsModel;

test('numbers: true minus signs, no negative zero, explicit plus where a change is meant', () => {
  assert.equal(fixed(-1.23456, 3), '−1.235');
  assert.equal(fixed(-0.0001, 2), '0.00');
  assert.equal(signed(0.5, 1), '+0.5');
  assert.equal(signed(0, 2), '0.00');
  assert.equal(signed(-1, 1), '−1.0');
  assert.equal(signed(0.000014, 6), '+0.000014');
  assert.equal(short(-0.00001234), '−1.234e−5');
  assert.equal(short(1234.5678), '1235');
  assert.equal(duration(800), '0.8 s');
  assert.equal(duration(12_400), '12 s');
  assert.equal(duration(185_000), '3 min 05 s');
});

test('axis ticks: as many decimals as the step needs, so adjacent labels differ (a flat relaxation near −34.007 eV)', () => {
  const flat = [-34.00725, -34.0072, -34.00715, -34.0071];
  assert.deepEqual(tickLabels(flat), ['−34.00725', '−34.00720', '−34.00715', '−34.00710']);
  const labels = tickLabels(flat);
  assert.ok(
    labels.every((l, i) => i === 0 || l !== labels[i - 1]),
    labels.join(' '),
  );
  assert.deepEqual(tickLabels([0, 0.25, 0.5, 0.75]), ['0.00', '0.25', '0.50', '0.75']);
  assert.deepEqual(tickLabels([0, 5, 10, 15]), ['0', '5', '10', '15']);
  assert.deepEqual(tickLabels([-0.2, -0.1, 0.1 - 0.1, 0.1]), ['−0.2', '−0.1', '0.0', '0.1'], 'no negative zero, float noise ignored');
  assert.deepEqual(tickLabels([2e6, 2.5e6, 3e6]), ['2.0e+6', '2.5e+6', '3.0e+6']);
  assert.deepEqual(tickLabels([1e-8, 2e-8, 3e-8]), ['1e−8', '2e−8', '3e−8']);
  assert.deepEqual(tickLabels([null, 1.5, null]), ['', '1.5', ''], 'filtered ticks stay empty; one tick reads as it is');
  assert.deepEqual(tickLabels([]), []);
});

test('titles and file names', () => {
  assert.equal(runTitle({ kind: 'relax', inputName: 'POSCAR' }), 'Relax: POSCAR');
  assert.equal(runTitle({ kind: 'tightbinding', inputName: 'Si.vasp' }), 'Band structure: Si.vasp');
  assert.equal(derivedName('POSCAR', 'relaxed'), 'POSCAR.relaxed');
  assert.equal(derivedName('Si.vasp', 'relaxed'), 'Si.relaxed.vasp');
  assert.equal(derivedName('CONTCAR', 'md-final'), 'CONTCAR.md-final');
});

test('relax view: the cell before and after from both POSCARs, headline and facts', () => {
  const view = viewOf('relax', 'relax.reference.json');
  const rows = Object.fromEntries(view.lattice.map((r) => [r.name, r]));
  assert.equal(rows.a!.before!.toFixed(4), '5.4000');
  assert.equal(rows.a!.after!.toFixed(4), '5.4687');
  assert.equal(rows.V!.unit, 'Å³');
  assert.deepEqual(view.elements, new Array(8).fill('Si'));
  const { headline, facts } = describe(view);
  assert.equal(headline, 'Converged in 23 steps');
  assert.equal(facts[0], 'Energy −41.2000 → −43.2789 eV (ΔE −2.0789 eV)');
  assert.match(facts[1]!, /^Final maximum force 0\.00336\d? eV\/Å, below the threshold 0\.05 eV\/Å$/);
});

test('relax view: a relaxed POSCAR with an error, or another atom count, is a warning', () => {
  const broken = resultView(run('relax', { final_poscar: 'not a poscar' }), inputStructure(INPUT))!;
  assert.match(broken.model.warnings.join(' '), /The relaxed POSCAR has an error: Line/);
  const fewer = INPUT.replace(/\n8\n/, '\n7\n').split('\n').slice(0, -2).join('\n');
  const other = resultView(run('relax', { final_poscar: `${fewer}\n` }), inputStructure(INPUT))!;
  assert.match(other.model.warnings.join(' '), /The relaxed structure has 7 atoms, the input 8/);
});

test('relax headline: not converged at the step limit; the old text answer', () => {
  const m = { energies: [-1, -2], forces_max: [1, 0.5], steps_taken: 200, max_steps: 200, converged: false, natoms: 8 };
  const view = resultView(run('relax', m), undefined)!;
  assert.equal(describe(view).headline, 'Not converged after 200 steps (the step limit)');
  assert.equal(describe(view).facts[0], 'Energy −1.0000 → −2.0000 eV (ΔE −1.0000 eV, −0.1250 eV/atom)');
  const legacy = resultView(
    {
      ...run('relax', null),
      response: { status: 200, headers: {}, body: { type: 'text', text: fixture('relax.legacy.txt'), contentType: 'text/plain' } },
    },
    inputStructure(INPUT),
  )!;
  assert.equal(describe(legacy).headline, 'Relaxed structure returned');
  assert.equal(legacy.lattice.length, 7);
});

test('single point: headline, the largest force and its atom, pressure with its sign explained', () => {
  const view = viewOf('singlePoint', 'singlePoint.reference.json');
  const { headline, facts } = describe(view);
  assert.equal(headline, 'E = −43.2871 eV · −5.4109 eV/atom');
  assert.equal(facts[0], 'Largest force 0.9200 eV/Å on atom 4 (Si)');
  assert.equal(facts[1], 'Pressure −1.217 GPa: under tension, the cell would shrink if relaxed');
  assert.equal(
    pressure([
      [-3, 0, 0],
      [0, -3, 0],
      [0, 0, -3],
    ]),
    3,
  );
});

test('MD plots: energies relative to the start (absolute in the CSV), temperature with its mean and target', () => {
  const view = viewOf('md', 'md.reference.json');
  const [energy, temperature] = plotsOf(view);
  assert.equal(energy!.xLabel, 'Time (fs)');
  assert.deepEqual(
    energy!.series.map((s) => s.label),
    ['Total', 'Kinetic', 'Potential'],
  );
  assert.equal(energy!.series[0]!.values[0], 0);
  const csv = toCsv(energy!).split('\n');
  assert.equal(csv[0], 'Time (fs),Total energy (eV),Kinetic energy (eV),Potential energy (eV)');
  assert.equal(Number(csv[1]!.split(',')[1]), (view.model as { total: number[] }).total[0]);
  assert.equal(csv.length, 61 + 2);
  assert.equal(temperature!.hLines!.length, 1);
  assert.match(describe(view).headline, /^60 steps · 60 fs · mean T \d+\.\d K$/);
});

test('MD temperature: an NVE run (the default) started at the given temperature; only a thermostat has a target', () => {
  const md = JSON.parse(fixture('md.reference.json')) as Record<string, unknown>;
  for (const [ensemble, word] of [
    [undefined, 'initial'],
    ['nve', 'initial'],
    ['NVT', 'target'],
  ] as const) {
    const { ensemble: _given, ...rest } = md;
    const view = resultView(
      run('md', { ...rest, temperature: 300, ...(ensemble === undefined ? {} : { ensemble }) }),
      inputStructure(INPUT),
    )!;
    const [, temperature] = plotsOf(view);
    assert.match(
      temperature!.hLines!.find((line) => !line.label.startsWith('mean'))!.label,
      new RegExp(`^${word} \\d+ K$`),
      String(ensemble),
    );
    assert.ok(
      describe(view).facts.some((f) => new RegExp(`\\(${word} \\d+ K\\)`).test(f)),
      describe(view).facts.join('; '),
    );
  }
});

test('band structure with a density of states: a second plot on the same energy zero, nothing drawn from a mismatched one', () => {
  const base = JSON.parse(fixture('bands.reference.json')) as Record<string, unknown>;
  const energies = Array.from({ length: 101 }, (_, i) => -10 + i * 0.2);
  const states = energies.map((e) => Math.exp(-e * e));
  const view = resultView(run('tightbinding', { ...base, dos: { energies, states } }), undefined)!;
  const plots = plotsOf(view);
  assert.deepEqual(
    plots.map((p) => p.id),
    ['bands', 'dos'],
  );
  const dosPlot = plots[1]!;
  const zero = energies[0]! - dosPlot.x[0]!;
  assert.equal(zero, bandsOf({ ...base }).edges.vbm ?? 0, 'the same zero as the bands (the VBM)');
  const broken = resultView(run('tightbinding', { ...base, dos: { energies, states: states.slice(1) } }), undefined)!;
  assert.deepEqual(
    plotsOf(broken).map((p) => p.id),
    ['bands'],
  );
  assert.ok(broken.model.warnings.some((w) => /density of states/.test(w)));
});

test('relax plots: force on a log axis with the threshold; steps as whole numbers', () => {
  const [energy, force] = plotsOf(viewOf('relax', 'relax.reference.json'));
  assert.equal(energy!.xSteps, true);
  assert.equal(force!.logY, true);
  assert.deepEqual(force!.hLines, [{ y: 0.05, label: 'threshold 0.05 eV/Å', colour: 'green' }]);
  const negative = plotsOf(resultView(run('relax', { forces_max: [1, 0, 0.5] }), undefined)!);
  assert.equal(negative[0]!.logY, false);
});

test('band plot: shifted to the VBM, the gap shaded, edges marked, ticks, breaks where the path jumps', () => {
  const view = viewOf('tightbinding', 'bands.reference.json');
  const [plot] = plotsOf(view);
  assert.equal(plot!.yLabel, 'E − E_VBM (eV)');
  assert.equal(plot!.series.length, 8);
  assert.deepEqual(plot!.yBand, { from: 0, to: (view.model as BandsModel).edges.gap, label: 'gap 1.120 eV' });
  assert.deepEqual(
    plot!.marks!.map((m) => m.label),
    ['VBM', 'CBM'],
  );
  assert.deepEqual(
    plot!.xTicks!.map((t) => t.label),
    ['Γ', 'X', 'W', 'L', 'Γ'],
  );
  assert.deepEqual(plot!.breaks, []);
  const jump = plotsOf({
    model: bandsOf({
      eigenvalues: [
        [0, 1],
        [0.1, 1.1],
        [0.3, 1.3],
        [0.2, 1.2],
      ],
      kdistances: [0, 1, 1, 2],
      fermi_level: 0.15,
    }),
    elements: [],
    lattice: [],
  });
  assert.deepEqual(jump[0]!.breaks, [2]);
  assert.equal(jump[0]!.yLabel, 'E − E_F (eV)');
  assert.equal(toCsv(jump[0]!).split('\n')[0], 'k-distance,Band 1 (eV),Band 2 (eV)');
});

test('gap statements and the energy zero', () => {
  const reference = bandsOf(JSON.parse(fixture('bands.reference.json')));
  assert.equal(gapStatement(reference), 'Indirect gap 1.120 eV (Γ → 0.80 along Γ–X)');
  const direct = bandsOf({
    eigenvalues: [
      [-1, 1],
      [-0.5, 0.5],
      [-1, 1],
    ],
    kdistances: [0, 1, 2],
    labels: [
      [0, 'X'],
      [1, 'G'],
      [2, 'L'],
    ],
    nelectrons: 2,
  });
  assert.equal(gapStatement(direct), 'Direct gap 1.000 eV at Γ');
  assert.deepEqual(bandReference(direct), { value: -0.5, name: 'VBM' });
  assert.equal(gapStatement(bandsOf(JSON.parse(fixture('bands.metal.json')))), 'Metal');
  assert.deepEqual(bandReference(bandsOf(JSON.parse(fixture('bands.metal.json')))), { value: 0, name: 'E_F' });
  assert.equal(gapStatement(bandsOf({ band_gap: 2 })), 'Gap 2.000 eV');
  assert.equal(gapStatement(bandsOf({})), 'Band structure');
});

test('CSV: gaps are empty cells, labels with commas quoted', () => {
  const csv = toCsv({
    id: 'x',
    title: 'T',
    xLabel: 'k, 1/Å',
    yLabel: 'E',
    x: [0, 1],
    legend: false,
    series: [{ label: 'a "b"', values: [1, null], colour: 'blue' }],
  });
  assert.equal(csv, '"k, 1/Å","a ""b"""\n0,1\n1,\n');
});

test("the show message passes the page's guard for every fixture; tampered ones do not", () => {
  const kinds: [RunRecord['kind'], string][] = [
    ['relax', 'relax.reference.json'],
    ['relax', 'relax.aliases.json'],
    ['singlePoint', 'singlePoint.reference.json'],
    ['singlePoint', 'singlePoint.kbar.json'],
    ['md', 'md.reference.json'],
    ['md', 'md.records.json'],
    ['tightbinding', 'bands.reference.json'],
    ['tightbinding', 'bands.metal.json'],
  ];
  for (const [kind, file] of kinds) {
    const r = run(kind, JSON.parse(fixture(file)));
    const message = JSON.parse(JSON.stringify({ type: 'show', seq: 1, run: runInfo(r), view: resultView(r, inputStructure(INPUT)) }));
    assert.ok(isToResultPage(message), file);
  }
  const running = { type: 'show', seq: 2, run: runInfo(run('md', null, { state: 'running', response: undefined })), view: null };
  assert.ok(isToResultPage(running));
  const good = JSON.parse(
    JSON.stringify({
      type: 'show',
      seq: 1,
      run: runInfo(run('relax', JSON.parse(fixture('relax.reference.json')))),
      view: viewOf('relax', 'relax.reference.json'),
    }),
  );
  const tamper = (change: (m: { run: Record<string, unknown>; view: { model: RelaxModel & Record<string, unknown> } }) => void) => {
    const copy = structuredClone(good);
    change(copy);
    return isToResultPage(copy);
  };
  assert.equal(
    tamper((m) => (m.view.model.energies = ['x' as unknown as number])),
    false,
  );
  assert.equal(
    tamper((m) => (m.view.model.kind = 'other' as 'relax')),
    false,
  );
  assert.equal(
    tamper((m) => (m.view.model.images = [{ dataUrl: 'javascript:alert(1)', source: 'x' }])),
    false,
  );
  assert.equal(
    tamper((m) => (m.run.state = 'exploded')),
    false,
  );
  assert.equal(
    tamper((m) => (m.view.model.extra = [] as unknown as Record<string, unknown>)),
    false,
  );
  assert.equal(isToResultPage({ type: 'test', id: 1, action: 'click', target: 'atom:3' }), true);
  assert.equal(
    isToResultPage({ type: 'test', action: 'click', target: 'atom:3' }),
    false,
    'a test message carries the id its report echoes',
  );
  assert.equal(isToResultPage({ type: 'test', id: 1, action: 'explode' }), false);
});

test('messages from the page are checked', () => {
  assert.ok(isFromResultPage({ type: 'structure', action: 'compare' }));
  assert.ok(!isFromResultPage({ type: 'structure', action: 'delete' }));
  assert.ok(isFromResultPage({ type: 'selectAtom', index: 3 }));
  assert.ok(!isFromResultPage({ type: 'selectAtom', index: -1 }));
  assert.ok(isFromResultPage({ type: 'exportPng', name: 'bands', dataUrl: 'data:image/png;base64,AAAA' }));
  assert.ok(!isFromResultPage({ type: 'exportPng', name: 'bands', dataUrl: 'data:text/html;base64,AAAA' }));
  assert.ok(isFromResultPage({ type: 'copyCsv', name: 'energy', text: 'a,b\n' }));
  assert.ok(!isFromResultPage({ type: 'rendered', seq: 1 }));
});

test('a run without an answer has no view; failed runs keep what the service said', () => {
  assert.equal(resultView(run('md', null, { state: 'running', response: undefined }), undefined), null);
  const failed = resultView(run('relax', { detail: 'The POSCAR is malformed' }, { state: 'failed', error: 'HTTP 400' }), undefined)!;
  assert.deepEqual(failed.model.extra, { detail: 'The POSCAR is malformed' });
});

test('views degrade, never blank: an answer with a 300-character species name and a 5,000-character jid is shortened to what the page takes', () => {
  const answer = JSON.parse(fixture('singlePoint.reference.json'));
  answer.species = answer.species.map((s: string, i: number) => (i === 0 ? `${s}${'x'.repeat(300)}` : s));
  answer.jid = 'J'.repeat(5000);
  const r = run('singlePoint', answer);
  const message = JSON.parse(JSON.stringify({ type: 'show', seq: 1, run: runInfo(r), view: resultView(r, inputStructure(INPUT)) }));
  assert.equal(isToResultPage(message), false, 'the page would drop it whole');
  const fitted = shortenStrings(message, 100) as any;
  assert.ok(isToResultPage(fitted), 'shortened, the page takes it');
  assert.deepEqual(longestString(message).length > 100, true);
  assert.match(JSON.stringify(fitted), /x{10,}…/, 'the long name is cut and marked');
});

test('Parameters: a relax or MD view lists what the run record says the request carried, with what the answer says', () => {
  const answer = JSON.parse(fixture('relax.reference.json')) as Record<string, unknown>;
  const info = runInfo(run('relax', { ...answer, fmax: 0.02, max_steps: 50 }, { params: { fmax: 0.02, steps: 50 } }));
  assert.deepEqual(
    info.parameters!.map((r) => [r.name, r.sent, r.answer === '' ? '' : 'said']),
    [
      ['fmax', '0.02 eV/Å', 'said'],
      ['steps', '50 steps', 'said'],
      ['optimizer', 'not sent (default)', answer.optimizer === undefined ? '' : 'said'],
      ['relax_cell', 'not sent (default)', answer.relax_cell === undefined ? '' : 'said'],
    ],
  );
  assert.equal(info.parameters![0]!.answer, '0.02 eV/Å');
  // While it runs there is no answer yet, and the rows say only what was sent.
  const running = runInfo(run('md', null, { state: 'running', response: undefined, params: { ensemble: 'nvt', temperature: 600 } }));
  assert.deepEqual(
    running.parameters!.map((r) => [r.name, r.sent, r.answer]),
    [
      ['temperature', '600 K', ''],
      ['timestep', 'not sent (default)', ''],
      ['steps', 'not sent (default)', ''],
      ['interval', 'not sent (default)', ''],
      ['ensemble', 'nvt', ''],
    ],
  );
  assert.ok(isToResultPage(JSON.parse(JSON.stringify({ type: 'show', seq: 3, run: running, view: null }))));
  // Runs recorded before parameters were kept, and kinds without them: no Parameters table.
  assert.equal(runInfo(run('relax', answer)).parameters, undefined);
  assert.equal(runInfo(run('singlePoint', {}, { params: { fmax: 1 } })).parameters, undefined);
  // The page's guard: rows of text only.
  const tampered = { type: 'show', seq: 4, run: { ...running, parameters: [{ name: 'fmax', sent: 1, answer: '' }] }, view: null };
  assert.equal(isToResultPage(tampered), false);
});
