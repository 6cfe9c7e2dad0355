import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parsePoscar, summarize, toPoscarText, type Poscar } from '../../../../src/core/poscar/index';
import { gridPoscar, NACL, withLine } from '../../../support/poscarSamples';
import { cpuMs } from '../../../support/linearity';

const ROOT = join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures');
const fixture = (name: string) => readFileSync(join(ROOT, 'poscar', name), 'utf8');
const workspace = (name: string) => readFileSync(join(ROOT, 'workspace', name), 'utf8');

/** The structure, or a failure listing the diagnostics. */
function parsed(text: string): Poscar {
  const { poscar, diagnostics } = parsePoscar(text);
  assert.ok(poscar, diagnostics.map((d) => d.message).join('\n'));
  return poscar;
}

const codes = (text: string) => parsePoscar(text).diagnostics.map((d) => d.code);

function assertClose(actual: readonly number[], expected: readonly number[], tolerance = 1e-8, what = '') {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((x, i) => assert.ok(Math.abs(x - expected[i]!) <= tolerance, `${what}[${i}]: ${x} vs ${expected[i]}`));
}

/** The same structure: lattice, species, sites (positions, flags, labels) and the CONTCAR blocks. */
function assertSameStructure(a: Poscar, b: Poscar) {
  a.lattice.forEach((v, k) => assertClose(b.lattice[k]!, v, 1e-8, `lattice ${k}`));
  assert.deepEqual(b.species, a.species);
  assert.equal(b.sites.length, a.sites.length);
  a.sites.forEach((site, i) => {
    assertClose(b.sites[i]!.cart, site.cart, 1e-8, `site ${i} cart`);
    assertClose(b.sites[i]!.frac, site.frac, 1e-8, `site ${i} frac`);
    assert.equal(b.sites[i]!.species, site.species);
    assert.deepEqual(b.sites[i]!.flags, site.flags);
    assert.equal(b.sites[i]!.label, site.label);
  });
  assert.equal(b.selectiveDynamics, a.selectiveDynamics);
  assert.deepEqual(b.velocities, a.velocities);
  assert.equal(b.velocityMode, a.velocityMode);
  assert.deepEqual(b.latticeVelocities, a.latticeVelocities);
  assert.deepEqual(b.predictorCorrector, a.predictorCorrector);
}

test('the workspace samples parse with no diagnostics at all', () => {
  for (const name of ['POSCAR', 'Si.vasp', 'NaCl.vasp', 'GaAs.vasp']) {
    assert.deepEqual(parsePoscar(workspace(name)).diagnostics, [], name);
  }
});

test('a VASP 5 file: every part read, with the lines of each part', () => {
  const p = parsed(NACL);
  assert.equal(p.comment, 'NaCl rock salt');
  assert.deepEqual(p.scale, { kind: 'factor', values: [5.64] });
  assert.deepEqual(p.lattice, [
    [5.64, 0, 0],
    [0, 5.64, 0],
    [0, 0, 5.64],
  ]);
  assert.deepEqual([p.species, p.speciesRaw, p.speciesSource, p.counts], [['Na', 'Cl'], ['Na', 'Cl'], 'species-line', [4, 4]]);
  assert.equal(p.coordinateMode, 'Direct');
  assert.equal(p.selectiveDynamics, false);
  assert.equal(p.sites.length, 8);
  assert.deepEqual(p.sites[5], { species: 'Cl', speciesIndex: 1, frac: [0, 0.5, 0], cart: [0, 2.82, 0], label: '', line: 13 });
  assert.deepEqual(p.lines, {
    comment: 0,
    scale: 1,
    lattice: [2, 3, 4],
    species: 5,
    counts: 6,
    mode: 7,
    sitesBySpecies: [
      { first: 8, last: 11 },
      { first: 12, last: 15 },
    ],
    sites: { first: 8, last: 15 },
  });
});

test('VASP 4: names from the comment line when it lists them, else placeholders that are no elements', () => {
  const named = parsePoscar(fixture('FeO_vasp4.POSCAR'));
  assert.deepEqual([named.poscar!.species, named.poscar!.speciesSource], [['Fe', 'O'], 'comment']);
  assert.deepEqual(
    named.diagnostics.map((d) => [d.code, d.severity, d.range.line]),
    [['no-species-line', 'warning', 5]],
  );
  assert.match(
    named.diagnostics[0]!.message,
    /^Line 6: no element names line \(VASP 4 format\): the names are taken from the comment line \(Fe O\)/,
  );
  assert.equal(named.poscar!.lines.species, undefined);

  const unnamed = parsePoscar(fixture('unnamed_vasp4.POSCAR'));
  assert.deepEqual([unnamed.poscar!.species, unnamed.poscar!.speciesSource], [['X1', 'X2'], 'unknown']);
  assert.deepEqual(
    unnamed.poscar!.sites.map((s) => s.species),
    ['X1', 'X2'],
  );
  assert.match(unnamed.diagnostics[0]!.message, /^Line 6: .*the elements are unknown \(shown as X1, X2\)/);
  // The comment's leading element symbols must be exactly one per count.
  const vasp4 = (comment: string) => parsed(withLine(withLine(NACL, 6, undefined), 1, comment));
  assert.equal(vasp4('Na Cl K salt').speciesSource, 'unknown');
  assert.equal(vasp4('NaCl').speciesSource, 'unknown');
  assert.equal(vasp4('na cl').speciesSource, 'unknown');
  assert.deepEqual(vasp4('Na Cl rock salt').species, ['Na', 'Cl']);
});

test('VASP 6 names with POTCAR hashes, POTCAR variants and pseudo-hydrogen are normalised; the raw names kept', () => {
  const mgsi = parsed(fixture('MgSi_vasp6.POSCAR'));
  assert.deepEqual(
    [mgsi.species, mgsi.speciesRaw],
    [
      ['Mg', 'Si'],
      ['Mg_pv/f474ac0d', 'Si/79d9987ad87'],
    ],
  );
  assert.deepEqual(
    mgsi.sites.map((s) => s.label),
    ['Mg', 'Si'],
  );
  const feo = parsePoscar(fixture('Fe3O4_potcar_names.POSCAR'));
  assert.deepEqual(feo.diagnostics, []);
  assert.deepEqual(feo.poscar!.species, ['Fe', 'O', 'Fe']);
  const names = parsed(NACL.replace('Na Cl', 'H.75 Ga_d').replace('4 4', '7 1'));
  assert.deepEqual(names.species, ['H', 'Ga']);
  assert.deepEqual(parsed(NACL.replace('Na Cl', 'H1.25 FE')).species, ['H', 'Fe']);
  assert.deepEqual(parsed(NACL.replace('Na Cl', 'na cl')).species, ['Na', 'Cl']);
});

test('species lists wrapped over several lines, as VASP writes more than 20 groups', () => {
  const { poscar, diagnostics } = parsePoscar(fixture('CrFeNi_wrapped_species.POSCAR'));
  assert.deepEqual(diagnostics, []);
  assert.equal(poscar!.species.length, 25);
  assert.deepEqual([poscar!.species[15], poscar!.species[24]], ['Ni', 'Fe']);
  assert.equal(poscar!.sites.length, 53);
  assert.deepEqual([poscar!.lines.species, poscar!.lines.counts, poscar!.lines.mode], [5, 7, 9]);
  assert.equal(poscar!.sites[52]!.species, 'Fe');
});

test('selective dynamics: flags per site, Fortran logicals, trailing labels kept', () => {
  const p = parsed(fixture('Cu100_slab_selective.POSCAR'));
  assert.equal(p.selectiveDynamics, true);
  assert.equal(p.lines.selective, 7);
  assert.deepEqual(
    p.sites.map((s) => s.flags),
    [
      [false, false, false],
      [true, true, true],
      [true, true, false],
    ],
  );
  assert.deepEqual(
    p.sites.map((s) => s.label),
    ['Cu1 bottom', 'Cu2', 'Cu3 top'],
  );
  const fortran = parsed(NACL.replace('Direct', 'selective\nDirect').replace('0 0 0\n', '0 0 0 .TRUE. f .false.\n'));
  assert.deepEqual(fortran.sites[0]!.flags, [true, false, false]);
});

test('Cartesian coordinates are multiplied by the scale, per axis for a triple scale', () => {
  const cart = parsed(NACL.replace('Direct', 'Cartesian').replace('0.5 0.5 0.5\n', '0.25 0.5 1\n'));
  assert.equal(cart.coordinateMode, 'Cartesian');
  assertClose(cart.sites[7]!.cart, [1.41, 2.82, 5.64]);
  assertClose(cart.sites[7]!.frac, [0.25, 0.5, 1]);
  for (const mode of ['cartesian', 'Kartesisch', 'k']) assert.equal(parsed(NACL.replace('Direct', mode)).coordinateMode, 'Cartesian');
  for (const mode of ['direct', 'Fractional', 'x']) assert.equal(parsed(NACL.replace('Direct', mode)).coordinateMode, 'Direct');

  const triple = parsed(NACL.replace('5.64', '2 3 4').replace('Direct', 'Cartesian'));
  assert.deepEqual(triple.scale, { kind: 'triple', values: [2, 3, 4] });
  assert.deepEqual(triple.lattice, [
    [2, 0, 0],
    [0, 3, 0],
    [0, 0, 4],
  ]);
  assertClose(triple.sites[7]!.cart, [1, 1.5, 2]);
  assertClose(triple.sites[7]!.frac, [0.5, 0.5, 0.5]);
  // The triple scales Cartesian components (columns), not lattice vectors (rows), as VASP and ASE do.
  const skew = parsed(NACL.replace('5.64', '2 1 1').replace('0 1 0\n', '1 1 0\n'));
  assert.deepEqual(skew.lattice[1], [2, 1, 0]);
});

test('a negative scale is the cell volume: the lattice is rescaled to it, Cartesian positions with it', () => {
  const p = parsed(NACL.replace('5.64', '-125').replace('Direct', 'Cartesian'));
  assert.deepEqual(p.scale, { kind: 'volume', values: [-125] });
  assertClose(p.lattice.flat(), [5, 0, 0, 0, 5, 0, 0, 0, 5], 1e-12);
  assertClose(p.sites[7]!.cart, [2.5, 2.5, 2.5], 1e-12);
  const hex = parsed(NACL.replace('5.64', '-100').replace('0 1 0', '-0.5 0.8660254037844386 0').replace('0 0 1', '0 0 1.6'));
  assert.ok(Math.abs(Math.abs(hex.lattice[0][0] * hex.lattice[1][1] * hex.lattice[2][2]) - 100) < 1e-9);
});

test('numbers as Fortran writes them: D exponents, .5, 5., +1e-3, -.35E-03', () => {
  const p = parsed(NACL.replace('5.64', '0.564D1').replace('0.5 0.5 0.5\n', '.5 5.D-1 +5e-1\n').replace('0.5 0 0\n', '5. 0d0 -.35E-03\n'));
  assert.equal(p.lattice[0][0], 5.64);
  assertClose(p.sites[7]!.frac, [0.5, 0.5, 0.5]);
  assertClose(p.sites[4]!.frac, [5, 0, -0.00035]);
});

test('CRLF, lone CR, tabs, trailing blanks and a byte-order mark read the same as plain text', () => {
  const plain = parsed(NACL);
  const variants = [
    NACL.replace(/\n/g, '\r\n'),
    NACL.replace(/\n/g, '\r'),
    NACL.replace(/ /g, '\t').replace(/\n/g, '  \t\n'),
    `\ufeff${NACL}`,
    NACL.replace(/\n$/, ''),
    `${NACL}\n\n\n`,
  ];
  for (const text of variants) {
    const { poscar, diagnostics } = parsePoscar(text);
    assert.deepEqual(diagnostics, [], JSON.stringify(text.slice(0, 30)));
    assertSameStructure(plain, poscar!);
    assert.deepEqual(poscar!.lines.sites, plain.lines.sites);
  }
  // Columns are UTF-16 units on the line, after the \r\n.
  const crlf = parsePoscar(NACL.replace(/\n/g, '\r\n').replace('4 4', '4\tfour'));
  assert.deepEqual(
    crlf.diagnostics.map((d) => d.range),
    [{ line: 6, start: 2, end: 6 }],
  );
});

test('an empty comment line is a comment', () => {
  assert.equal(parsed(NACL.replace('NaCl rock salt', '')).comment, '');
});

test('a CONTCAR of an MD run: lattice velocities, atomic velocities and predictor-corrector data', () => {
  const { poscar: p, diagnostics } = parsePoscar(fixture('Si_md.CONTCAR'));
  assert.deepEqual(diagnostics, []);
  assert.equal(p!.latticeVelocities!.length, 6);
  assert.deepEqual(p!.latticeVelocities![0], [0.12345678e-3, 0, 0]);
  assert.deepEqual(p!.latticeVelocities![5], [1.9334873, 1.1162994, 3.1573715]);
  assert.deepEqual(p!.velocities, [
    [0.001, -0.002, 0.003],
    [-0.001, 0.002, -0.003],
  ]);
  assert.equal(p!.velocityMode, 'Cartesian');
  assert.equal(p!.predictorCorrector!.length, 3 + 3 * 2);
  assert.equal(p!.predictorCorrector![0], '  1');
  assert.deepEqual(
    [p!.lines.latticeVelocities, p!.lines.velocities, p!.lines.predictorCorrector],
    [
      { first: 10, last: 17 },
      { first: 19, last: 20 },
      { first: 22, last: 30 },
    ],
  );
});

test('velocities after a Direct or Cartesian line (the VASP manual form) or after a blank line and one', () => {
  const velocities = '0.1 0 0\n0 0.1 0\n0 0 0.1\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n0 0 0\n';
  const direct = parsed(`${NACL}Direct\n${velocities}`);
  assert.equal(direct.velocityMode, 'Direct');
  assert.equal(direct.velocities!.length, 8);
  const blankThenMode = parsed(`${NACL}\nCartesian\n${velocities}`);
  assert.equal(blankThenMode.velocityMode, 'Cartesian');
  assert.deepEqual(blankThenMode.lines.velocities, { first: 18, last: 25 });
  const workspaceContcar = parsed(workspace('CONTCAR.relax'));
  assert.deepEqual(workspaceContcar.velocities, [
    [0.0012, -0.00035, 0.0001],
    [-0.0012, 0.00035, -0.0001],
  ]);
});

test('toPoscarText: VASP 5 text that reads back as the same structure, in either coordinate mode', () => {
  const samples = [
    NACL,
    workspace('NaCl.vasp'),
    workspace('POSCAR'),
    fixture('Si_md.CONTCAR'),
    fixture('Cu100_slab_selective.POSCAR'),
    fixture('MgSi_vasp6.POSCAR'),
    fixture('Fe3O4_potcar_names.POSCAR'),
    fixture('CrFeNi_wrapped_species.POSCAR'),
    fixture('FeO_vasp4.POSCAR'),
    fixture('unnamed_vasp4.POSCAR'),
    NACL.replace('5.64', '-150').replace('0 1 0', '0.3 1 0'),
    NACL.replace('5.64', '1 2 3').replace('Direct', 'Cartesian'),
    `${NACL}Direct\n${'0.01 0.02 0.03\n'.repeat(8)}`,
  ];
  for (const text of samples) {
    const original = parsed(text);
    for (const mode of [undefined, 'Direct', 'Cartesian'] as const) {
      const written = toPoscarText(original, mode);
      const back = parsed(written);
      assertSameStructure(original, back);
      assert.equal(back.coordinateMode, mode ?? original.coordinateMode);
      assert.deepEqual(back.scale, { kind: 'factor', values: [1] });
      assert.equal(back.comment, original.comment);
      assert.ok(!codes(written).includes('no-species-line') || original.speciesSource === 'unknown', written);
    }
  }
});

test('toPoscarText writes what VASP expects', () => {
  const text = toPoscarText(parsed(fixture('Cu100_slab_selective.POSCAR')));
  const lines = text.split('\n');
  assert.deepEqual(lines.slice(0, 2), ['Cu(100) 1x1 slab, 3 layers, bottom layer fixed', '1.0']);
  assert.deepEqual(lines.slice(5, 9), ['Cu', '3', 'Selective dynamics', 'Direct']);
  assert.match(lines[9]!, /^ +0\.0000000000000000 +0\.0000000000000000 +0\.0000000000000000 F F F Cu1 bottom$/);
  const unnamed = toPoscarText(parsed(fixture('unnamed_vasp4.POSCAR'))).split('\n');
  assert.deepEqual(unnamed.slice(5, 7), ['1 1', 'Direct'], 'no names line for placeholders');
  const md = toPoscarText(parsed(fixture('Si_md.CONTCAR'))).split('\n');
  assert.deepEqual(md.slice(10, 12), ['Lattice velocities and vectors', '  1']);
  assert.equal(md[18], '', 'a blank line: Cartesian velocities');
});

test('a generated 1,000-atom cell parses with no diagnostics', () => {
  const { poscar, diagnostics } = parsePoscar(gridPoscar([10, 10, 10]));
  assert.deepEqual(diagnostics, []);
  assert.equal(poscar!.sites.length, 1000);
  assert.deepEqual(poscar!.counts, [500, 500]);
  assert.deepEqual(poscar!.lines.sitesBySpecies, [
    { first: 8, last: 507 },
    { first: 508, last: 1007 },
  ]);
});

test('10,000 atoms parse and diagnose quickly (sanity bound only; the benchmark times it)', async () => {
  const text = gridPoscar([25, 20, 20]);
  parsePoscar(text);
  let parsed = parsePoscar('');
  const elapsed = await cpuMs(() => (parsed = parsePoscar(text)));
  const { poscar, diagnostics } = parsed;
  assert.equal(poscar!.sites.length, 10_000);
  assert.deepEqual(diagnostics, []);
  assert.ok(elapsed < 1000, `${elapsed.toFixed(0)} ms`);
});

test('VASP 4 species from the labels after the coordinates, as pymatgen and ASE read them (FePO4: title Fe4P4O16, sites labelled Fe, P, O)', () => {
  const text = readFileSync(
    join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'poscar', 'FePO4_vasp4_labels.POSCAR'),
    'utf8',
  );
  const { poscar, diagnostics } = parsePoscar(text);
  assert.deepEqual(poscar!.species, ['Fe', 'P', 'O']);
  assert.equal(poscar!.speciesSource, 'site-labels');
  assert.deepEqual(
    diagnostics.map((d) => d.code),
    ['no-species-line'],
  );
  assert.match(diagnostics[0]!.message, /taken from the labels after the coordinates \(Fe P O\)/);
  const s = summarize(poscar!);
  assert.equal(s.reducedFormula, 'FePO4');
  assert.ok(s.density! > 0, 'a density, since the elements are known');
  // Labels that disagree within a group, or are not elements, fall back to the comment line, then to placeholders.
  const mixed = text.replace(/ Fe\n(?=.* Fe\n)/, ' P\n');
  assert.notEqual(parsePoscar(mixed).poscar!.speciesSource, 'site-labels');
  assert.deepEqual(parsePoscar(text.replace(/ (Fe|P|O)$/gm, ' Xx')).poscar!.species, ['X1', 'X2', 'X3']);
});
