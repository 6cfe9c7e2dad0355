/**
 * readXdatcar on hand-written files: fixed and variable cell, VASP 4 style without element names, blank
 * lines for configuration lines, every diagnostic on its line and column, the limits. The comparisons with
 * ASE and pymatgen on real files are in trajectories.oracle.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readXdatcar } from '../../../../../src/core/structures/xdatcar/index';
import { MAX_FRAMES } from '../../../../../src/core/structures/trajectoryOutline';
import { codes, diagnostic } from '../../../../support/readerDiagnostics';

const close = (a: number[], b: number[], what: string) =>
  a.forEach((v, k) => assert.ok(Math.abs(v - b[k]!) < 1e-12, `${what}: ${a} vs ${b}`));

const HEADER = ['LiO run', '   2.0', '  2.0 0.0 0.0', '  0.0 2.5 0.0', '  0.0 0.5 3.0', '   Li   O', '    2   1'];
const config = (n: number, shift = 0) => [
  `Direct configuration=     ${n}`,
  `  ${0.1 + shift} 0.2 0.3`,
  `  0.5 0.5 ${0.5 + shift}`,
  '  0.0 0.0 0.0',
];

test('a fixed cell: one header, every configuration with its number, Cartesian positions from fractions', () => {
  const r = readXdatcar([...HEADER, ...config(1), ...config(2, 0.01), ...config(3, 0.02)].join('\n'));
  assert.deepEqual(codes(r), []);
  assert.equal(r.format, 'xdatcar');
  assert.equal(r.frames.length, 3);
  const f = r.frames[1]!;
  assert.deepEqual(f.lattice, [
    [4, 0, 0],
    [0, 5, 0],
    [0, 1, 6],
  ]);
  assert.deepEqual(f.pbc, [true, true, true]);
  assert.deepEqual(f.species, ['Li', 'Li', 'O']);
  close(f.positions[0]!, [0.11 * 4, 0.2 * 5 + 0.3 * 1, 0.3 * 6], 'site 1');
  close(f.positions[1]!, [2, 2.5 + 0.51, 0.51 * 6], 'site 2');
  assert.equal(f.title, 'configuration 2');
  assert.deepEqual(r.frames[0]!.lines, { first: 0, last: 10 }, 'the first configuration includes the header');
  assert.deepEqual(f.lines, { first: 11, last: 14 });
  assert.deepEqual(
    r.outline.map((e) => [e.name, e.detail]),
    [
      ['configuration 1', '3 atoms'],
      ['configuration 2', '3 atoms'],
      ['configuration 3', '3 atoms'],
    ],
  );
});

test('a variable cell (ISIF=3 MD): the header repeated before each configuration, each frame with its own cell', () => {
  const second = [...HEADER];
  second[2] = '  2.1 0.0 0.0';
  const r = readXdatcar([...HEADER, ...config(1), ...second, ...config(2)].join('\n'));
  assert.deepEqual(codes(r), []);
  assert.equal(r.frames.length, 2);
  assert.deepEqual(r.frames[0]!.lattice![0], [4, 0, 0]);
  assert.deepEqual(r.frames[1]!.lattice![0], [4.2, 0, 0]);
  close(r.frames[1]!.positions[0]!, [0.1 * 4.2, 1.3, 1.8], 'scaled by the second cell');
  assert.deepEqual(r.frames[1]!.lines, { first: 11, last: 21 });
});

test('a repeated header with other names or counts is read whole; one with the same lines shares the species', () => {
  const second = [...HEADER];
  second[5] = '   Na   O';
  const third = [...HEADER];
  third[1] = '   2.2';
  const r = readXdatcar([...HEADER, ...config(1), ...second, ...config(2), ...third, ...config(3)].join('\n'));
  assert.deepEqual(codes(r), []);
  assert.deepEqual(
    r.frames.map((f) => f.species.join(' ')),
    ['Li Li O', 'Na Na O', 'Li Li O'],
  );
  assert.deepEqual(r.frames[2]!.lattice![0], [4.4, 0, 0], 'the third header read for its scale');
  const fourth = [...HEADER];
  fourth[6] = '    1   2';
  const s = readXdatcar([...HEADER, ...config(1), ...third, ...config(2), ...fourth, ...config(3)].join('\n'));
  assert.deepEqual(s.frames[1]!.species, s.frames[0]!.species);
  assert.deepEqual(s.frames[2]!.species, ['Li', 'O', 'O'], 'new counts');
});

test('positions kept packed read as Vec3 rows: the same through spread and JSON, and assignable', () => {
  const r = readXdatcar([...HEADER, ...config(1)].join('\n'));
  const frame = r.frames[0]!;
  close(frame.positions[1]!, [2, 3, 3], 'atom 2: (0.5, 0.5, 0.5) in the cell scaled by 2');
  assert.equal(frame.positions, frame.positions, 'made once');
  assert.deepEqual({ ...frame }.positions, frame.positions);
  assert.deepEqual(JSON.parse(JSON.stringify(frame)).positions, frame.positions);
  frame.positions = [[1, 2, 3]];
  assert.deepEqual(frame.positions, [[1, 2, 3]]);
});

test('a negative scale is the cell volume (VASP, pymatgen); labels after the coordinates are ignored', () => {
  const header = [...HEADER];
  header[1] = '  -240';
  const r = readXdatcar([...header, 'Direct configuration= 1', '0 0 0 Li', '0.5 0.5 0.5 Li', '0 0.5 0 O'].join('\n'));
  assert.deepEqual(codes(r), []);
  const [a, b, c] = r.frames[0]!.lattice!;
  const volume = a[0] * (b[1] * c[2] - b[2] * c[1]);
  assert.ok(Math.abs(volume - 240) < 1e-9, `${volume}`);
});

test('VASP 4 style without the element names line: names from the comment line, as pymatgen; else X1, X2', () => {
  const named = readXdatcar(['Li O md', ...HEADER.slice(1, 5), ...HEADER.slice(6), ...config(1)].join('\n'));
  assert.deepEqual(named.frames[0]!.species, ['Li', 'Li', 'O']);
  assert.match(diagnostic(named, 'no-species-line', 5, 4, 9).message, /from the comment line \(Li O\)/);
  const unnamed = readXdatcar(['md run', ...HEADER.slice(1, 5), ...HEADER.slice(6), ...config(1), ...config(2)].join('\n'));
  assert.deepEqual(unnamed.frames[1]!.species, ['X1', 'X1', 'X2']);
  diagnostic(unnamed, 'no-species-line', 5);
});

test('blank lines instead of configuration lines: each ends a configuration, as pymatgen reads it', () => {
  const coords = ['  0.1 0.2 0.3', '  0.5 0.5 0.5', '  0.0 0.0 0.0'];
  const r = readXdatcar([...HEADER, ' ', ...coords, ' ', ...coords, '', ...coords, ''].join('\n'));
  assert.equal(r.frames.length, 3);
  diagnostic(r, 'xdatcar-no-configuration-line', 7, 0, 0);
  assert.deepEqual(
    r.frames.map((f) => f.title),
    ['configuration 1', 'configuration 2', 'configuration 3'],
  );
  assert.equal(r.diagnostics.length, 1);
});

test('a truncated last configuration is a warning: the ones before it are kept', () => {
  const r = readXdatcar([...HEADER, ...config(1), ...config(2), ...config(3).slice(0, 2)].join('\n'));
  assert.equal(r.frames.length, 2);
  const d = diagnostic(r, 'xdatcar-truncated', 16, 13, 13);
  assert.match(
    d.message,
    /Line 17: the file ends after 1 coordinate line of configuration 3 \(of 3\).*2 configurations before it are kept/,
  );
});

test('a short or unreadable coordinate line: an error on it, that configuration left out, the next read', () => {
  const short = config(2);
  short[2] = '  0.5 0.5';
  const r = readXdatcar([...HEADER, ...config(1), ...short, ...config(3)].join('\n'));
  assert.match(diagnostic(r, 'xdatcar-short-line', 13, 2, 9).message, /atom 2 needs three fractional coordinates \(found 2\)/);
  assert.deepEqual(
    r.frames.map((f) => f.title),
    ['configuration 1', 'configuration 3'],
  );
  const bad = config(2);
  bad[3] = '  0.0 ** 0.0';
  const r2 = readXdatcar([...HEADER, ...config(1), ...bad].join('\n'));
  assert.match(diagnostic(r2, 'xdatcar-not-number', 14, 6, 8).message, /found '\*\*'/);
  assert.equal(r2.frames.length, 1);
});

test('fewer coordinate lines than the counts: an error on the configuration line that comes too soon', () => {
  const r = readXdatcar([...HEADER, ...config(1).slice(0, 3), ...config(2)].join('\n'));
  assert.match(diagnostic(r, 'xdatcar-count-mismatch', 10, 0, 27).message, /configuration 1 has 2 coordinate lines but the counts say 3/);
  assert.deepEqual(
    r.frames.map((f) => f.title),
    ['configuration 2'],
  );
});

test('more coordinate lines than the counts: an error on the first extra line, the frames before kept', () => {
  const r = readXdatcar([...HEADER, ...config(1), '  0.9 0.9 0.9', ...config(2)].join('\n'));
  assert.match(diagnostic(r, 'xdatcar-unexpected-line', 11, 0, 13).message, /more atoms than the counts say/);
  assert.equal(r.frames.length, 1);
});

test("'Cartesian configuration=' is read as Direct, with a warning", () => {
  const c = config(1);
  c[0] = 'Cartesian configuration= 1';
  const r = readXdatcar([...HEADER, ...c].join('\n'));
  diagnostic(r, 'xdatcar-cartesian', 7, 0, 26);
  close(r.frames[0]!.positions[0]!, [0.4, 1.3, 1.8], 'fractional');
});

test("a repeated header's problems are reported on the file's lines; an unreadable one ends the reading", () => {
  const second = [...HEADER];
  second[3] = '  0.0 abc 0.0';
  const r = readXdatcar([...HEADER, ...config(1), ...second, ...config(2)].join('\n'));
  diagnostic(r, 'lattice-not-number', 14, 6, 9);
  diagnostic(r, 'xdatcar-bad-header', 11, 0, 7);
  assert.equal(r.frames.length, 1);
});

test("a left-handed cell's warning is given once, not again for every repeated header", () => {
  const header = [...HEADER];
  header[4] = '  0.0 0.0 -3.0';
  const r = readXdatcar([...header, ...config(1), ...header, ...config(2), ...header, ...config(3)].join('\n'));
  assert.equal(r.frames.length, 3);
  diagnostic(r, 'left-handed-lattice', 2);
});

test('a header that cannot be read: its errors, no frames; an empty file', () => {
  const header = [...HEADER];
  header[1] = ' scale';
  const r = readXdatcar([...header, ...config(1)].join('\n'));
  diagnostic(r, 'scale-not-number', 1, 1, 6);
  assert.equal(r.frames.length, 0);
  assert.deepEqual(codes(readXdatcar('')), ['empty-file']);
  assert.equal(readXdatcar('title\n').frames.length, 0);
});

test(`past ${MAX_FRAMES} configurations the rest is left out with a warning; the outline is grouped`, () => {
  const header = ['big', '1', '1 0 0', '0 1 0', '0 0 1', 'H', '1'];
  const body = Array.from({ length: MAX_FRAMES + 3 }, (_, i) => `Direct configuration= ${i + 1}\n0 0 0`).join('\n');
  const r = readXdatcar(`${header.join('\n')}\n${body}\n`);
  assert.equal(r.frames.length, MAX_FRAMES);
  diagnostic(r, 'too-many-frames', 7 + 2 * MAX_FRAMES);
  assert.equal(r.outline.length, 10);
  assert.equal(r.outline[9]!.name, 'frames 90001–100000');
  assert.equal(r.outline[9]!.children![99]!.children![99]!.name, 'configuration 100000');
});
