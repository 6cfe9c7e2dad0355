/**
 * readXyz and writeExtxyz on hand-written files: every diagnostic on its line and column, and the format's
 * corners (atomic numbers, labels, extra columns, Properties= widths, Lattice= with commas, pbc=, energy=,
 * stress= in both shapes with the eV/Å³ -> kBar conversion, blank lines, CRLF), the outline's grouping and
 * the limits. The comparisons with ASE and pymatgen on real files are in trajectories.oracle.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readKeyValues } from '../../../../../src/core/structures/xyz/keyValues';
import { KBAR_PER_EV_A3, readXyz, writeExtxyz } from '../../../../../src/core/structures/xyz/index';
import { MAX_FRAMES } from '../../../../../src/core/structures/trajectoryOutline';
import { codes, diagnostic } from '../../../../support/readerDiagnostics';

const WATER = ['3', 'water', 'O 0.0 0.0 0.119', 'H 0.0 0.763 -0.477', 'H 0.0 -0.763 -0.477'];

test('a plain XYZ molecule: no cell, no periodicity, Cartesian positions as written, the comment as title', () => {
  const r = readXyz(WATER.join('\n'));
  assert.deepEqual(codes(r), []);
  assert.equal(r.format, 'xyz');
  const [f] = r.frames;
  assert.equal(f!.lattice, null);
  assert.deepEqual(f!.pbc, [false, false, false]);
  assert.deepEqual(f!.species, ['O', 'H', 'H']);
  assert.deepEqual(f!.positions[1], [0, 0.763, -0.477]);
  assert.equal(f!.title, 'water');
  assert.deepEqual(f!.lines, { first: 0, last: 4 });
  assert.deepEqual(
    r.outline.map((e) => [e.name, e.detail, e.kind]),
    [['frame 1', '3 atoms', 'frame']],
  );
});

test('species as atomic numbers, in any case, or as labels that start with a symbol; extra columns are ignored', () => {
  const r = readXyz(['4', '', '6 0 0 0 0.5', 'cl 1 0 0', 'FE 2 0 0 extra words', 'C12 3 0 0'].join('\r\n'));
  assert.deepEqual(codes(r), []);
  assert.deepEqual(r.frames[0]!.species, ['C', 'Cl', 'Fe', 'C']);
  assert.deepEqual(r.frames[0]!.labels, ['C', 'cl', 'FE', 'C12']);
  assert.equal(r.frames[0]!.title, 'frame 1', 'an empty comment gives a numbered title');
});

test('an unknown species is X with its name kept as the label, reported once', () => {
  const r = readXyz(['2', '', 'Qq 0 0 0', 'Qq 1 0 0'].join('\n'));
  diagnostic(r, 'unknown-element', 2, 0, 2);
  assert.deepEqual(r.frames[0]!.species, ['X', 'X']);
  assert.deepEqual(r.frames[0]!.labels, ['Qq', 'Qq']);
});

test('several frames, of different sizes, with Fortran exponents; a blank line between frames is a warning (ASE stops there)', () => {
  const text = ['2', 'a', 'H 0 0 0', 'H 0 0 0.74D0', '', '1', 'b', 'He 1.0E+00 0 0', ''].join('\n');
  const r = readXyz(text);
  assert.equal(r.frames.length, 2);
  assert.equal(r.frames[0]!.positions[1]![2], 0.74);
  assert.deepEqual(r.frames[1]!.species, ['He']);
  assert.deepEqual(r.frames[1]!.lines, { first: 5, last: 7 });
  diagnostic(r, 'xyz-blank-line', 4, 0, 0);
});

test('text after a blank line that is no frame is ignored with a warning, as ASE and pymatgen ignore it', () => {
  const r = readXyz([...WATER, '', 'Chargemol version 3.5', 'more text'].join('\n'));
  assert.equal(r.frames.length, 1);
  diagnostic(r, 'xyz-trailing-text', 6, 0, 21);
  assert.equal(r.diagnostics.length, 1);
});

test('a count line that is no number: an error on it, the lines up to the next count line skipped', () => {
  const r = readXyz(['x3', 'c', 'H 0 0 0', ...WATER].join('\n'));
  const d = diagnostic(r, 'xyz-count', 0, 0, 2);
  assert.match(d.message, /lines 1–3 skipped/);
  assert.equal(r.frames.length, 1);
  assert.equal(r.frames[0]!.lines.first, 3);
});

test('more atom lines than the count: the line after the frame is reported as a wrong count line', () => {
  const r = readXyz(['1', 'c', 'H 0 0 0', 'H 0 0 1', ...WATER].join('\n'));
  const d = diagnostic(r, 'xyz-count', 3, 0, 7);
  assert.match(d.message, /more atom lines than its count/);
  assert.equal(r.frames.length, 2);
});

test('fewer atom lines than the count: an error on the count, the frame kept with its atoms, the next frame read', () => {
  const r = readXyz(['3', 'c', 'H 0 0 0', 'H 0 0 1', ...WATER].join('\n'));
  const d = diagnostic(r, 'xyz-count-mismatch', 0, 0, 1);
  assert.match(d.message, /2 atom lines but its count says 3/);
  assert.deepEqual(
    r.frames.map((f) => f.positions.length),
    [2, 3],
  );
});

test('more than the count on the count line: a warning (ASE and pymatgen refuse it), the frame read', () => {
  const r = readXyz(['3 atoms', ...WATER.slice(1)].join('\n'));
  diagnostic(r, 'xyz-count-extra', 0, 2, 7);
  assert.equal(r.frames.length, 1);
});

test('a truncated last frame is a warning; the frames before it are kept', () => {
  const r = readXyz([...WATER, ...WATER.slice(0, 3)].join('\n'));
  const d = diagnostic(r, 'xyz-truncated', 7, 15, 15);
  assert.match(d.message, /after 1 atom line of frame 2, whose count on line 6 is 3.*1 frame before it are kept/);
  assert.equal(r.frames.length, 1);
  const bare = readXyz([...WATER, '2'].join('\n'));
  assert.match(diagnostic(bare, 'xyz-truncated', 5).message, /after the atom count of frame 2/);
});

test('a short atom line or a bad number: an error on the exact columns, that frame left out, the next kept', () => {
  const short = readXyz(['2', '', 'H 0 0', 'H 0 0 1', ...WATER].join('\n'));
  assert.match(diagnostic(short, 'xyz-short-line', 2, 0, 5).message, /atom 1 has 3 columns where an XYZ atom line asks for 4/);
  assert.equal(short.frames.length, 1);
  const blank = readXyz(['2', '', 'H 0 0 0', '   ', ...WATER].join('\n'));
  assert.match(diagnostic(blank, 'xyz-short-line', 3, 0, 0).message, /blank line where atom 2 of 2/);
  const bad = readXyz(['1', '', 'H 0 1.2.3 0', ...WATER].join('\n'));
  assert.match(diagnostic(bad, 'xyz-not-number', 2, 4, 9).message, /position's y must be a number \(found '1\.2\.3'\)/);
  assert.equal(bad.frames.length, 1);
  assert.equal(readXyz('1\n\nH nan 0 0').frames.length, 0, 'NaN is no position');
});

test('extended XYZ: Lattice (commas allowed), Properties with columns skipped by width, forces, energy, pbc', () => {
  const comment =
    'Lattice="5.0, 0 0 0 6.0 0 0.5 0 7.0" Properties=species:S:1:pos:R:3:tags:I:1:forces:R:3:name:S:2 energy=-12.5 pbc="T T F" foo=bar';
  const r = readXyz(['2', comment, 'Si 0 0 0 7 0.1 0.2 0.3 a b', 'Si 1 1 1 8 -0.1 -0.2 -0.3 c d'].join('\n'));
  assert.deepEqual(codes(r), []);
  const f = r.frames[0]!;
  assert.deepEqual(f.lattice, [
    [5, 0, 0],
    [0, 6, 0],
    [0.5, 0, 7],
  ]);
  assert.deepEqual(f.pbc, [true, true, false]);
  assert.equal(f.energy, -12.5);
  assert.deepEqual(f.forces, [
    [0.1, 0.2, 0.3],
    [-0.1, -0.2, -0.3],
  ]);
  assert.deepEqual(f.positions[1], [1, 1, 1]);
  assert.equal(f.title, 'frame 1');
  assert.equal(r.outline[0]!.detail, '2 atoms, E = -12.5000 eV');
  const noPbc = readXyz(['1', 'Lattice="3 0 0 0 3 0 0 0 3"', 'Cu 0 0 0'].join('\n'));
  assert.deepEqual(noPbc.frames[0]!.pbc, [true, true, true], "ASE's default with a Lattice");
});

test('Z:I:1 instead of species; no species at all is X with a warning', () => {
  const z = readXyz(['1', 'Properties=pos:R:3:Z:I:1', '0 0 0 26'].join('\n'));
  assert.deepEqual(z.frames[0]!.species, ['Fe']);
  const none = readXyz(['1', 'Properties=pos:R:3', '0 0 0'].join('\n'));
  diagnostic(none, 'xyz-no-species', 1, 11, 18);
  assert.deepEqual(none.frames[0]!.species, ['X']);
});

test('stress in eV/Å³ (ASE) becomes kBar with VASP sign: 9 numbers in Fortran order, or 6 in Voigt order', () => {
  const s = 1 / KBAR_PER_EV_A3; // -1 kBar in ASE's sign per unit
  const nine = readXyz(['1', `stress="${[1, 4, 5, 4, 2, 6, 5, 6, 3].map((x) => x * s).join(' ')}"`, 'H 0 0 0'].join('\n'));
  assert.deepEqual(codes(nine), []);
  const voigt = readXyz(['1', `stress="${[1, 2, 3, 6, 5, 4].map((x) => x * s).join(' ')}"`, 'H 0 0 0'].join('\n'));
  const expected = [
    [-1, -4, -5],
    [-4, -2, -6],
    [-5, -6, -3],
  ];
  for (const r of [nine, voigt])
    r.frames[0]!.stress!.flat().forEach((v, k) => assert.ok(Math.abs(v - expected.flat()[k]!) < 1e-12, `${v}`));
  // 1 eV/Å³ = 160.21766208 GPa (CODATA 2014, ase.units) = 1602.1766208 kBar.
  assert.equal(KBAR_PER_EV_A3, 1602.1766208);
});

test('bad values on the comment line: an error on the value, the frame kept where it can be', () => {
  const lattice = readXyz(['1', 'Lattice="1 2 3" pbc="T T T"', 'H 0 0 0'].join('\n'));
  diagnostic(lattice, 'xyz-lattice', 1, 8, 15);
  assert.equal(lattice.frames[0]!.lattice, null);
  diagnostic(lattice, 'xyz-pbc-without-lattice', 1, 20, 27);
  assert.deepEqual(lattice.frames[0]!.pbc, [false, false, false]);
  const flat = readXyz(['1', 'Lattice="1 0 0 0 1 0 2 0 0"', 'H 0 0 0'].join('\n'));
  diagnostic(flat, 'xyz-lattice-singular', 1, 8, 27);
  const energy = readXyz(['1', 'energy=abc', 'H 0 0 0'].join('\n'));
  diagnostic(energy, 'xyz-energy', 1, 7, 10);
  assert.equal(energy.frames[0]!.energy, undefined);
  assert.equal(energy.frames.length, 1);
  const stress = readXyz(['1', 'stress="1 2 3"', 'H 0 0 0'].join('\n'));
  diagnostic(stress, 'xyz-stress', 1, 7, 14);
  const pbc = readXyz(['1', 'Lattice="3 0 0 0 3 0 0 0 3" pbc="T X T"', 'H 0 0 0'].join('\n'));
  diagnostic(pbc, 'xyz-pbc', 1, 32, 39);
  assert.deepEqual(pbc.frames[0]!.pbc, [true, true, true]);
  const quoteOpen = readXyz(['1', 'energy=1 Lattice="3 0 0 0 3 0 0 0 3', 'H 0 0 0'].join('\n'));
  diagnostic(quoteOpen, 'xyz-unterminated-quote', 1, 17, 18);
  assert.deepEqual(quoteOpen.frames[0]!.lattice![2], [0, 0, 3]);
});

test('a bad Properties= value or one without pos:R:3 loses the frame (its atoms cannot be placed) but not the next', () => {
  for (const [properties, pattern] of [
    ['species:S:1:pos:R', /triples/],
    ['species:S:1:pos:Q:3', /must be R \(real\)/],
    ['species:S:1:pos:R:0', /column count of property 'pos'/],
  ] as const) {
    const r = readXyz(['1', `Properties=${properties}`, 'H 0 0 0', ...WATER].join('\n'));
    assert.match(diagnostic(r, 'xyz-properties', 1, 11, 11 + properties.length).message, pattern);
    assert.equal(r.frames.length, 1);
    assert.equal(r.frames[0]!.lines.first, 3);
  }
  const noPos = readXyz(['1', 'Properties=species:S:1:pos:R:2', 'H 0 0', ...WATER].join('\n'));
  assert.match(diagnostic(noPos, 'xyz-no-positions', 1).message, /pos:R:3 \(found pos:R:2\)/);
  assert.equal(noPos.frames.length, 1);
});

test('a trajectory repeating its Lattice= and Properties= reads each frame as its own line says: problems on every frame', () => {
  const frame = (comment: string, x: string) => ['1', comment, `Si ${x} 0 0 0.5 0 0`];
  const good = 'Lattice="4 0 0 0 4 0 0 0 4" Properties=species:S:1:pos:R:3:forces:R:3';
  const r = readXyz(
    [
      ...frame(`${good} energy=-1`, '0'),
      ...frame(`${good} energy=-2`, '1.5E-1'),
      ...frame(`${good} energy=-3 pbc="T F T"`, '1'),
      ...frame(`${good} energy=oops`, '2'),
      ...frame('Lattice="4 0 0 0 4 0 0 0" Properties=species:S:1:pos:R:3:forces:R:3 energy=-5', '3'),
      ...frame('Lattice="4 0 0 0 4 0 0 0" Properties=species:S:1:pos:R:3:forces:R:3 energy=-6', '4'),
      ...frame(`${good} energy=-7`, '5'),
    ].join('\n'),
  );
  assert.deepEqual(codes(r), ['xyz-energy', 'xyz-lattice', 'xyz-lattice']);
  assert.deepEqual(
    r.diagnostics.map((d) => d.range.line),
    [10, 13, 16],
  );
  assert.deepEqual(
    r.frames.map((f) => [f.energy, f.positions[0]![0], f.forces?.[0]![0], f.lattice?.[0]![0], f.pbc.join()]),
    [
      [-1, 0, 0.5, 4, 'true,true,true'],
      [-2, 0.15, 0.5, 4, 'true,true,true'],
      [-3, 1, 0.5, 4, 'true,false,true'],
      [undefined, 2, 0.5, 4, 'true,true,true'],
      [-5, 3, 0.5, undefined, 'false,false,false'],
      [-6, 4, 0.5, undefined, 'false,false,false'],
      [-7, 5, 0.5, 4, 'true,true,true'],
    ],
  );
});

test('forces with a bad shape or value are left out, the frame kept', () => {
  const shape = readXyz(['1', 'Properties=species:S:1:pos:R:3:forces:R:2', 'H 0 0 0 1 2'].join('\n'));
  diagnostic(shape, 'xyz-forces-shape', 1);
  assert.equal(shape.frames[0]!.forces, undefined);
  const value = readXyz(['1', 'Properties=species:S:1:pos:R:3:forces:R:3', 'H 0 0 0 1 x 2'].join('\n'));
  assert.match(diagnostic(value, 'xyz-not-number', 2, 10, 11).message, /force's y/);
  assert.equal(value.frames.length, 1);
  assert.equal(value.frames[0]!.forces, undefined);
});

test('the comment line read as ASE reads it: quotes, braces, escapes, bare keys, repeated keys', () => {
  const pairs = readKeyValues(String.raw`a=1 b="x y" c={1 2 3} flag d=e=f  t="q\"uote" a=2`);
  assert.deepEqual(
    pairs.map((p) => [p.key, p.value]),
    [
      ['a', '1'],
      ['b', 'x y'],
      ['c', '1 2 3'],
      ['flag', 'T'],
      ['d', 'e=f'],
      ['t', 'q"uote'],
      ['a', '2'],
    ],
  );
  assert.deepEqual([pairs[1]!.valueStart, pairs[1]!.valueEnd], [6, 11]);
  assert.deepEqual([pairs[3]!.keyStart, pairs[3]!.valueEnd], [22, 26]);
  const r = readXyz(['1', 'energy=1 energy=2', 'H 0 0 0'].join('\n'));
  assert.equal(r.frames[0]!.energy, 2, 'the last of a repeated key, as in ASE');
});

test('empty files and hostile counts: an error, no frames, no throw', () => {
  assert.deepEqual(codes(readXyz('')), ['empty-file']);
  assert.deepEqual(codes(readXyz(' \n\t\n')), ['empty-file']);
  const huge = readXyz('99999999999\nc\nH 0 0 0');
  diagnostic(huge, 'xyz-too-many-atoms', 0, 0, 11);
  assert.equal(huge.frames.length, 0);
});

test(`past ${MAX_FRAMES} frames the rest is left out with a warning`, () => {
  const r = readXyz('0\n\n'.repeat(MAX_FRAMES + 5));
  assert.equal(r.frames.length, MAX_FRAMES);
  diagnostic(r, 'too-many-frames', 2 * MAX_FRAMES, 0, 1);
});

test('the outline groups a long trajectory by 100 frames, and groups of groups beyond 10,000', () => {
  const r = readXyz('1\n\nH 0 0 0\n'.repeat(250));
  assert.deepEqual(
    r.outline.map((e) => [e.name, e.children!.length, e.lines.first, e.lines.last]),
    [
      ['frames 1–100', 100, 0, 299],
      ['frames 101–200', 100, 300, 599],
      ['frames 201–250', 50, 600, 749],
    ],
  );
  assert.equal(r.outline[2]!.children![49]!.name, 'frame 250');
  const long = readXyz('0\n\n'.repeat(12_345));
  assert.deepEqual(
    long.outline.map((e) => e.name),
    ['frames 1–10000', 'frames 10001–12345'],
  );
  assert.equal(long.outline[1]!.children!.length, 24);
  assert.equal(long.outline[1]!.children![23]!.name, 'frames 12301–12345');
});

test('writeExtxyz then readXyz gives back the frames: cell, pbc, species, positions, forces, energy, stress', () => {
  const frame = {
    lattice: [
      [5.1, 0, 0],
      [0.3, 5.2, 0],
      [0.1, 0.2, 5.3],
    ] as [number, number, number][],
    pbc: [true, false, true] as [boolean, boolean, boolean],
    species: ['Na', 'Cl'],
    positions: [
      [0.1, 0.2, 1 / 3],
      [2.55, 2.6, 2.65],
    ] as [number, number, number][],
    forces: [
      [1e-3, -2e-3, 0.1],
      [-1e-3, 2e-3, -0.1],
    ] as [number, number, number][],
    energy: -7.123456789,
    stress: [
      [1.5, 0.1, 0.2],
      [0.1, 2.5, 0.3],
      [0.2, 0.3, 3.5],
    ] as [number, number, number][],
    title: 'NaCl "rocksalt" \\ test',
    lines: { first: 0, last: 0 },
  };
  const molecule = {
    lattice: null,
    pbc: [false, false, false] as [boolean, boolean, boolean],
    species: ['O'],
    positions: [[0, 0, 0]] as [number, number, number][],
    title: '',
    lines: { first: 0, last: 0 },
  };
  const text = writeExtxyz([frame as never, molecule]);
  const back = readXyz(text);
  assert.deepEqual(codes(back), []);
  const f = back.frames[0]!;
  assert.deepEqual(f.lattice, frame.lattice);
  assert.deepEqual(f.pbc, frame.pbc);
  assert.deepEqual(f.species, frame.species);
  assert.deepEqual(f.positions, frame.positions);
  assert.deepEqual(f.forces, frame.forces);
  assert.equal(f.energy, frame.energy);
  f.stress!.flat().forEach((v, k) => assert.ok(Math.abs(v - frame.stress.flat()[k]!) < 1e-12));
  assert.equal(back.frames[1]!.lattice, null);
  assert.equal(writeExtxyz([]), '');
});
