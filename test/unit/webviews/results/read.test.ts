import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { BandsModel, MdModel, RelaxModel, SinglePointModel } from '../../../../src/webviews/results/model';
import { isToResultPage } from '../../../../src/webviews/results/protocol';
import { imageFromString } from '../../../../src/webviews/results/images';
import { readResult } from '../../../../src/webviews/results/read';
import type { RunKind } from '../../../../src/core/runs/run';
import { cpuMs } from '../../../support/linearity';

const DIR = join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'results');
const fixture = (name: string): string => readFileSync(join(DIR, name), 'utf8');
const json = (name: string): unknown => JSON.parse(fixture(name));
const read = <M>(kind: RunKind, value: unknown, atoms = 8): M => readResult(kind, { type: 'json', value }, {}, { atoms }) as M;
const close = (a: number | undefined, b: number, eps = 1e-6) => assert.ok(a !== undefined && Math.abs(a - b) < eps, `${a} ≉ ${b}`);

// ---- relax ----------------------------------------------------------------------------------------

test('relax, reference shape: every field recognised, unknown ones kept in extra', () => {
  const m = read<RelaxModel>('relax', json('relax.reference.json'));
  assert.equal(m.kind, 'relax');
  assert.equal(m.converged, true);
  assert.match(m.finalPoscar!, /^Si8 relaxed/);
  assert.equal(m.energies.length, 24);
  assert.equal(m.forcesMax.length, 24);
  assert.equal(m.steps, 23);
  assert.equal(m.fmax, 0.05);
  close(m.initialEnergy, -41.2);
  assert.equal(m.finalEnergy, m.energies.at(-1));
  assert.deepEqual(m.trajectory, { frames: 6, atoms: 8 });
  assert.deepEqual(Object.keys(m.extra).sort(), ['optimizer', 'wall_time_s']);
  assert.deepEqual(m.warnings, []);
});

test('relax, aliases: relaxed_poscar, fmax as the per-step list, nsteps, "false" as a string', () => {
  const m = read<RelaxModel>('relax', json('relax.aliases.json'));
  assert.equal(m.converged, false);
  assert.match(m.finalPoscar!, /^Si8 relaxed/);
  assert.equal(m.forcesMax.length, 12);
  assert.equal(m.fmax, undefined);
  assert.equal(m.steps, 11);
  assert.equal(m.initialEnergy, m.energies[0]);
  assert.equal(m.method, 'alignn_ff');
  assert.deepEqual(Object.keys(m.extra), ['note']);
});

test('relax, the old shape: a text answer that is the relaxed POSCAR itself', () => {
  const text = fixture('relax.legacy.txt');
  const m = readResult('relax', { type: 'text', text, contentType: 'text/plain' }) as RelaxModel;
  assert.equal(m.finalPoscar, text);
  assert.deepEqual(m.energies, []);
  assert.equal(m.steps, undefined);
  assert.deepEqual(m.extra, {});
});

test('relax: steps counted from the lists when the answer gives no count (index 0 = input)', () => {
  const m = read<RelaxModel>('relax', { energies: [-1, -2, -3], forces_max: [1, 0.5, 0.01], fmax: 0.05 });
  assert.equal(m.steps, 2);
  assert.equal(m.fmax, 0.05);
  assert.equal(m.finalEnergy, -3);
});

test('relax: a trajectory of another atom count is a warning', () => {
  const m = read<RelaxModel>('relax', { trajectory: [[[0, 0, 0]], [[0, 0, 1]]] });
  assert.deepEqual(m.trajectory, { frames: 2, atoms: 1 });
  assert.match(m.warnings.join(' '), /trajectory: 1 atoms per frame, but the structure has 8 atoms/);
});

// ---- single point -------------------------------------------------------------------------------

test('single point, reference shape: energies, forces N×3, Voigt stress in GPa as a symmetric 3×3', () => {
  const m = read<SinglePointModel>('singlePoint', json('singlePoint.reference.json'));
  close(m.energy, -43.2871);
  close(m.energyPerAtom, -5.41089);
  assert.equal(m.energyPerAtomComputed, undefined);
  assert.equal(m.forces!.length, 8);
  close(m.maxForce, 0.9199);
  assert.deepEqual(m.stress, [
    [1.21, 0.03, -0.02],
    [0.03, 1.19, 0.01],
    [-0.02, 0.01, 1.25],
  ]);
  assert.equal(m.stressUnit, 'GPa');
  assert.equal(m.natoms, 8);
  assert.equal(m.method, 'alignn_ff');
  assert.deepEqual(Object.keys(m.extra), ['calculator_version']);
  assert.deepEqual(m.warnings, []);
});

test('single point: a 3×3 stress in eV/Å³ is converted to GPa; the largest force is computed', () => {
  const m = read<SinglePointModel>('singlePoint', json('singlePoint.eVA3.json'));
  close(m.stress![0][0], 0.0075 * 160.21766208);
  close(m.stress![2][2], 0.0078 * 160.21766208);
  assert.equal(m.stressUnit, 'eV/Å³');
  close(m.energyPerAtom, -43.2871 / 8);
  assert.equal(m.energyPerAtomComputed, true);
  close(m.maxForce, Math.hypot(0.912, -0.11, 0.05));
});

test('single point: kBar ×0.1, numbers as strings, "NaN" refused, 7 force rows for 8 atoms warned', () => {
  const m = read<SinglePointModel>('singlePoint', json('singlePoint.kbar.json'));
  close(m.energy, -43.2871);
  close(m.stress![0][0], 1.21);
  close(m.stress![0][1], 0.03);
  assert.equal(m.stressUnit, 'kBar');
  assert.equal(m.forces!.length, 7);
  assert.ok(m.warnings.includes('forces: 7 rows, but the structure has 8 atoms.'), m.warnings.join('\n'));
  assert.ok(m.warnings.some((w) => w.startsWith('energy_per_atom is not a number')));
  assert.equal(m.extra.energy_per_atom, 'NaN');
  close(m.energyPerAtom, -43.2871 / 8);
});

test('single point: stress without a unit is read as GPa and says so; an unknown unit leaves it in extra', () => {
  const assumed = read<SinglePointModel>('singlePoint', { stress: [1, 2, 3, 0, 0, 0] });
  assert.equal(assumed.stressUnit, 'GPa (assumed: no stress_unit)');
  assert.equal(assumed.stress![1][1], 2);
  const unknown = read<SinglePointModel>('singlePoint', { stress: [1, 2, 3, 0, 0, 0], stress_unit: 'furlongs' });
  assert.equal(unknown.stress, undefined);
  assert.deepEqual(unknown.extra.stress, [1, 2, 3, 0, 0, 0]);
  assert.match(unknown.warnings.join(' '), /furlongs/);
});

// ---- MD -----------------------------------------------------------------------------------------

test("MD, reference shape: energies object, temperatures, times in fs, the service's averages", () => {
  const m = read<MdModel>('md', json('md.reference.json'));
  assert.equal(m.timeUnit, 'fs');
  assert.equal(m.time.length, 61);
  assert.equal(m.time[10], 10);
  for (const s of [m.total, m.kinetic, m.potential, m.temperature]) assert.equal(s.length, 61);
  assert.equal(m.steps, 60);
  assert.equal(m.timestepFs, 1);
  assert.equal(m.energyDriftComputed, undefined);
  assert.match(m.finalPoscar!, /Si8 relaxed/);
  assert.deepEqual(m.trajectory, { frames: 7, atoms: 8 });
  assert.deepEqual(Object.keys(m.extra).sort(), ['seed']); // ensemble is read: NVE, no thermostat
  assert.equal(m.thermostat, undefined);
  assert.deepEqual(m.warnings, []);
});

test('MD, parallel top-level arrays: time from step × timestep, mean T and drift computed', () => {
  const m = read<MdModel>('md', json('md.parallel.json'));
  assert.equal(m.timeUnit, 'fs');
  assert.equal(m.time[3], 6);
  const temps = m.temperature as number[];
  close(m.averageTemperature, temps.reduce((a, b) => a + b, 0) / temps.length);
  assert.equal(m.finalTemperature, temps.at(-1));
  const totals = m.total as number[];
  close(m.energyDrift, (totals.at(-1)! - totals[0]!) / 8);
  assert.equal(m.energyDriftComputed, true);
  assert.deepEqual(m.extra, {});
});

test('MD, a list of per-step objects: their time, and fields not shown kept per step', () => {
  const m = read<MdModel>('md', json('md.records.json'));
  assert.equal(m.time.length, 31);
  assert.equal(m.time[2], 2);
  assert.equal(m.kinetic.length, 31);
  const kept = m.extra.answer as Record<string, unknown>[];
  assert.equal(kept.length, 31);
  assert.deepEqual(kept[0], { pressure: 0.1 });
});

test('MD: no time and no timestep → the step index; a single temperature is the target; short series padded', () => {
  const m = read<MdModel>('md', { energies: { total: [1, 2, 3], kinetic: [0.1, 0.2] }, temperature: 300 });
  assert.equal(m.timeUnit, 'step');
  assert.deepEqual(m.time, [0, 1, 2]);
  assert.deepEqual(m.kinetic, [0.1, 0.2, null]);
  assert.equal(m.targetTemperature, 300);
  assert.match(m.warnings.join(' '), /kinetic: 2 values, but the longest series has 3/);
});

test('MD: total = kinetic + potential when only those come', () => {
  const m = read<MdModel>('md', { kinetic_energy: [1, 2], potential_energy: [-5, -6] });
  assert.deepEqual(m.total, [-4, -4]);
});

// ---- band structure -----------------------------------------------------------------------------

test("bands, reference shape: [k][band] turned into bands, labels by index, the service's edges", () => {
  const m = read<BandsModel>('tightbinding', json('bands.reference.json'));
  assert.equal(m.bands.length, 8);
  assert.equal(m.bands[0]!.length, 41);
  assert.equal(m.distanceSource, 'service');
  assert.deepEqual(
    m.ticks.map((t) => t.label),
    ['Γ', 'X', 'W', 'L', 'Γ'],
  );
  assert.equal(m.ticks[4]!.distance, m.distances[40]);
  assert.equal(m.edges.source, 'service');
  close(m.edges.gap, 1.12, 1e-3);
  assert.equal(m.edges.direct, false);
  assert.equal(m.edges.vbmK, 0);
  assert.equal(m.edges.cbmK, 8);
  assert.equal(m.fermi, 0.2);
  assert.deepEqual(Object.keys(m.extra).sort(), ['kpath_density', 'solver']);
});

test('bands under band_data: [band][k], GAMMA labels from parallel lists, distances from k-points, edges from electrons', () => {
  const m = read<BandsModel>('tightbinding', json('bands.banddata.json'));
  assert.equal(m.bands.length, 8);
  assert.equal(m.distanceSource, 'kpoints');
  close(m.distances.at(-1), 2.28024, 1e-4);
  assert.deepEqual(
    m.ticks.map((t) => t.label),
    ['Γ', 'X', 'W', 'L', 'Γ'],
  );
  assert.equal(m.edges.source, 'electrons');
  close(m.edges.vbm, 0);
  close(m.edges.gap, 1.12, 1e-3);
  assert.equal(m.edges.direct, false);
  assert.equal(m.edges.vbmK, 0);
  assert.equal(m.edges.cbmK, 8);
  assert.deepEqual(m.extra, { band_data: { units: 'eV' }, formula: 'Si8' });
});

test('bands of a metal: high-symmetry points as coordinates, a band crossing the Fermi level', () => {
  const m = read<BandsModel>('tightbinding', json('bands.metal.json'));
  assert.equal(m.bands.length, 3);
  assert.deepEqual(
    m.ticks.map((t) => t.label),
    ['Γ', 'X', 'W', 'L', 'Γ'],
  );
  assert.equal(m.edges.metal, true);
  assert.equal(m.edges.gap, 0);
  assert.equal(m.edges.source, 'fermi');
});

test('bands: a transposed matrix is detected against the k-point count', () => {
  const bandsByK = [
    [-1, 1],
    [-0.5, 1.5],
    [-0.8, 0.9],
  ]; // 3 k-points × 2 bands, sent as "bands"
  const m = read<BandsModel>('tightbinding', { bands: bandsByK, kdistances: [0, 1, 2], nelectrons: 2 });
  assert.deepEqual(m.bands, [
    [-1, -0.5, -0.8],
    [1, 1.5, 0.9],
  ]);
  assert.equal(m.edges.vbm, -0.5);
  assert.equal(m.edges.cbm, 0.9);
  close(m.edges.gap, 1.4);
  assert.equal(m.edges.vbmK, 1);
  assert.equal(m.edges.cbmK, 2);
  assert.equal(m.edges.direct, false);
});

test('bands: odd electron count is a metal; overlapping bands are a metal', () => {
  const bands = [
    [-1, 0.6],
    [0.5, 1],
  ];
  assert.equal(read<BandsModel>('tightbinding', { bands, nelectrons: 3 }).edges.metal, true);
  const overlap = read<BandsModel>('tightbinding', { bands, nelectrons: 2 });
  assert.equal(overlap.edges.metal, true);
  assert.equal(overlap.edges.gap, 0);
});

test('bands: a PNG answer with the gap in its headers', () => {
  const bytes = new Uint8Array(readFileSync(join(DIR, 'bands.png')));
  const m = readResult(
    'tightbinding',
    { type: 'bytes', bytes, contentType: 'image/png' },
    {
      'content-type': 'image/png',
      'x-band-gap': '1.12 eV',
      'x-vbm': '-0.1',
      'X-CBM': '1.02',
      'x-gap-type': 'indirect',
      'x-request-id': 'abc',
    },
  ) as BandsModel;
  assert.equal(m.images.length, 1);
  assert.match(m.images[0]!.dataUrl, /^data:image\/png;base64,iVBORw0KGgo/);
  assert.equal(m.edges.gap, 1.12);
  assert.equal(m.edges.vbm, -0.1);
  assert.equal(m.edges.cbm, 1.02);
  assert.equal(m.edges.direct, false);
  assert.equal(m.edges.source, 'headers');
  assert.deepEqual(m.bands, []);
  assert.deepEqual(m.extra, {});
});

test('bands: labels as [index, name] pairs, one string per k-point, and {label: distance}', () => {
  const base = {
    eigenvalues: [
      [0, 1],
      [0.1, 1.1],
      [0.2, 1.2],
    ],
    kdistances: [0, 0.5, 1.5],
  };
  const pairs = read<BandsModel>('tightbinding', {
    ...base,
    labels: [
      [0, '$\\Gamma$'],
      [2, 'X_1'],
    ],
  });
  assert.deepEqual(pairs.ticks, [
    { distance: 0, label: 'Γ' },
    { distance: 1.5, label: 'X₁' },
  ]);
  const perK = read<BandsModel>('tightbinding', { ...base, labels: ['G', '', 'K'] });
  assert.deepEqual(
    perK.ticks.map((t) => t.label),
    ['Γ', 'K'],
  );
  const byDistance = read<BandsModel>('tightbinding', { ...base, high_symmetry_points: { Γ: 0, M: 0.75 } });
  assert.deepEqual(byDistance.ticks, [
    { distance: 0, label: 'Γ' },
    { distance: 0.75, label: 'M' },
  ]);
  const merged = read<BandsModel>('tightbinding', {
    ...base,
    labels: [
      { distance: 0.5, label: 'X' },
      { distance: 0.5, label: 'U' },
    ],
  });
  assert.deepEqual(merged.ticks, [{ distance: 0.5, label: 'X|U' }]);
});

// ---- images and hostile input -------------------------------------------------------------------

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

test('images: base64 fields, data: URLs and SVG markup are taken; base64 of something else is not', () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
  const m = read<RelaxModel>('relax', {
    plot_base64: PNG_BASE64,
    image: `data:image/png;base64,${PNG_BASE64}`,
    png: svg,
    not_image: Buffer.from('just some text that is long enough').toString('base64'),
    fake: `data:image/png;base64,${Buffer.from('GIF?no, text here........').toString('base64')}`,
  });
  assert.deepEqual(
    m.images.map((i) => i.source),
    ['plot_base64', 'image', 'png'],
  );
  assert.ok(m.images[2]!.dataUrl.startsWith('data:image/svg+xml;base64,'));
  assert.deepEqual(Object.keys(m.extra).sort(), ['fake', 'not_image']);
});

test('SVG is recognised after a declaration, comments and a doctype, and a run of comments costs linear time', async () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
  const prologue = '<?xml version="1.0"?>\n<!-- one -->\n<!---->  <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n';
  for (const text of [svg, `  ${prologue}${svg}`, `<?XML version="1.0"?><SVG>${'x'.repeat(40)}</SVG>`]) {
    assert.ok(imageFromString(text)?.startsWith('data:image/svg+xml;base64,'), text.slice(0, 60));
  }
  for (const text of [`<!-- never closed <svg>${'x'.repeat(40)}`, `<?xml version="1.0" <svg>${'x'.repeat(40)}`, `<div>${svg}</div>`]) {
    assert.equal(imageFromString(text), undefined, text.slice(0, 60));
  }
  // The regex this replaced took seconds on 26 empty comments and did not finish on 40 (a 281-character answer field).
  const comments = `${'<!---->'.repeat(30)}x`;
  const used = await cpuMs(() => {
    assert.equal(imageFromString(comments), undefined);
    const m = readResult('singlePoint', { type: 'json', value: { energy: -1, note: comments } });
    assert.deepEqual(m.extra, { note: comments });
  });
  assert.ok(used < 200, `${used.toFixed(0)} ms of CPU`);
});

test('hostile input never throws: NaN strings, wrong lengths, nulls, __proto__ keys, odd types', () => {
  const hostile = [
    null,
    42,
    'text',
    [],
    [null],
    { energies: null },
    { forces: [[1, 2]], stress: 'high', energy: 'NaN' },
    { eigenvalues: [[1, 2], [3]], kdistances: ['a', 'b'] },
    { eigenvalues: [[[[1]]]] },
    { energies: { total: 'x' } },
    JSON.parse('{"__proto__": {"polluted": true}, "energy": 1, "constructor": {"prototype": {"x": 1}}}'),
    { labels: [{ index: 99, label: 'Z' }], eigenvalues: [[0, 1]] },
    { band_data: null },
    { trajectory: [[[0, 0, 'x']]] },
    { temperatures: [Infinity, -Infinity, '1e400'] },
    { converged: 'maybe' },
    { final_poscar: 12 },
  ];
  for (const kind of ['relax', 'singlePoint', 'md', 'tightbinding'] as const) {
    for (const value of hostile) {
      const m = readResult(kind, { type: 'json', value });
      assert.ok(Array.isArray(m.warnings) && typeof m.extra === 'object', `${kind} ${JSON.stringify(value)}`);
      JSON.stringify(m);
    }
    readResult(kind, undefined);
    readResult(kind, { type: 'text', text: '{not json', contentType: 'application/json' });
    readResult(kind, { type: 'bytes', bytes: new Uint8Array([0, 1, 2]), contentType: 'application/octet-stream' });
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const m = readResult('singlePoint', { type: 'json', value: JSON.parse('{"__proto__": {"polluted": true}, "energy": 1}') });
  assert.ok(Object.hasOwn(m.extra, '__proto__'));
  assert.equal(Object.getPrototypeOf(m.extra), Object.prototype);
});

test('huge arrays are cut with a warning, quickly', async () => {
  // CPU time: beside the editor lane a 9-million-element answer's wall time is mostly the machine's (6.8 s once in CI).
  const used = await cpuMs(() => {
    const energies = Array.from({ length: 1_000_000 }, (_, i) => -i);
    const m = read<RelaxModel>('relax', { energies, eigenvalues: Array.from({ length: 3000 }, () => new Array(3000).fill(1)) });
    assert.equal(m.energies.length, 200_000);
    assert.match(m.warnings.join(' '), /energies has 1,000,000 values: the first 200,000 are shown/);
    const bands = readResult('tightbinding', {
      type: 'json',
      value: { eigenvalues: Array.from({ length: 3000 }, () => new Array(3000).fill(1)) },
    }) as BandsModel;
    assert.deepEqual(bands.bands, []);
    assert.ok('eigenvalues' in bands.extra);
  });
  assert.ok(used < 5000, `${used.toFixed(0)} ms of CPU`);
});

test('holes in a series become gaps, counted in a warning', () => {
  const m = read<RelaxModel>('relax', { energies: [1, 'NaN', null, '2.5', { x: 1 }] });
  assert.deepEqual(m.energies, [1, null, null, 2.5, null]);
  assert.match(m.warnings.join(' '), /energies: 3 of 5 values are not numbers/);
});

test('an answer with nothing recognisable says so, and keeps it all', () => {
  const m = readResult('md', { type: 'json', value: { status: 'queued', job: 17 } });
  assert.match(m.warnings[0]!, /Nothing in the answer was recognised as a molecular dynamics result/);
  assert.deepEqual(m.extra, { status: 'queued', job: 17 });
  const text = readResult('singlePoint', { type: 'text', text: 'Internal error', contentType: 'text/plain' });
  assert.deepEqual(text.extra, { answer: 'Internal error' });
  const bytes = readResult('relax', { type: 'bytes', bytes: new Uint8Array([1, 2, 3]), contentType: 'application/octet-stream' });
  assert.deepEqual(bytes.extra, { answer: '3 bytes of application/octet-stream', answer_base64: 'AQID' });
});

test('a JSON answer that came as text is read as JSON', () => {
  const m = readResult('singlePoint', { type: 'text', text: '{"energy": -3.5}', contentType: 'text/plain' }) as SinglePointModel;
  assert.equal(m.energy, -3.5);
});

test('every field of every fixture swapped for hostile values: never throws, and the page accepts what comes out', () => {
  const run = { id: 'r', kind: 'relax', title: 't', inputName: 'POSCAR', state: 'done', startedAt: 0 };
  const HOSTILE: unknown[] = [null, 'NaN', '', [], {}, [[]], [null], -1, 1e308, true, '__proto__', [[1, 2, 3], 'x'], { total: [1, 'a'] }];
  const fixtures: [RunKind, string][] = [
    ['relax', 'relax.reference.json'],
    ['relax', 'relax.aliases.json'],
    ['singlePoint', 'singlePoint.reference.json'],
    ['singlePoint', 'singlePoint.eVA3.json'],
    ['md', 'md.reference.json'],
    ['md', 'md.parallel.json'],
    ['tightbinding', 'bands.reference.json'],
    ['tightbinding', 'bands.banddata.json'],
    ['tightbinding', 'bands.metal.json'],
  ];
  let cases = 0;
  for (const [kind, name] of fixtures) {
    const original = json(name) as Record<string, unknown>;
    const keys = [...Object.keys(original), ...Object.keys(original.band_data ?? {}).map((k) => `band_data.${k}`)];
    for (const key of keys) {
      for (const value of HOSTILE) {
        const copy = structuredClone(original);
        const [outer, inner] = key.split('.');
        if (inner) (copy[outer!] as Record<string, unknown>)[inner] = value;
        else copy[outer!] = value;
        const m = readResult(kind, { type: 'json', value: copy }, {}, { atoms: 8 });
        const message = JSON.parse(
          JSON.stringify({ type: 'show', seq: 1, run: { ...run, kind }, view: { model: m, elements: [], lattice: [] } }),
        );
        assert.ok(isToResultPage(message), `${name} ${key} = ${JSON.stringify(value)}`);
        cases++;
      }
    }
  }
  assert.ok(cases > 500, String(cases));
});
