/**
 * The CIF reader and writer on hand-written files (all written here): CIF 1.1 syntax corners (quotes that
 * close only before whitespace, text fields, comments, uncertainties, ? and .), CIF 2.0 triple quotes and
 * lists, DDLm dotted names, symmetry expansion (rock salt from 2 sites in Fm-3m), duplicate merging,
 * occupancy and disorder, and every diagnostic the reader can give, each on its exact line and columns.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cartToFrac, latticeParameters } from '../../../../../src/core/poscar/structure';
import {
  cellFromParameters,
  cifNumber,
  findSetting,
  MAX_GENERATED,
  parseSymOp,
  readCif,
  siteElement,
  SITE_TOLERANCE,
  writeCif,
} from '../../../../../src/core/structures/cif/index';
import { PeriodicHash, wrap } from '../../../../../src/core/structures/cif/symops';
import type { StructureFile, StructureFrame } from '../../../../../src/core/structures/types';
import { fm3mOperations, largeFm3mCif, NACL_CIF, sampleCif } from '../../../../support/cifSamples';
import { moyoSpaceGroups } from '../../../../support/spaceGroupTable';

const SOURCES = join(__dirname, '..', '..', '..', '..', '..', '..', 'src', 'core', 'structures', 'cif');

const covered = (text: string, r: { line: number; start: number; end: number }) =>
  (text.split(/\r\n|\r|\n/)[r.line] ?? '').slice(r.start, r.end);
const describe = (text: string, file: StructureFile) =>
  file.diagnostics.map((d) => `${d.severity} ${d.code} ${d.message} [${covered(text, d.range)}]`).join('\n');
const fracs = (frame: StructureFrame) => frame.positions.map((p) => cartToFrac(frame.lattice!, p));
const near = (a: number, b: number, tol = 1e-9) => Math.abs(a - b) <= tol;

const CUBIC = (body: string, name = 'c') =>
  `data_${name}\n_cell_length_a 4\n_cell_length_b 4\n_cell_length_c 4\n_cell_angle_alpha 90\n_cell_angle_beta 90\n_cell_angle_gamma 90\n${body}`;

test('rock salt: 2 sites in Fm-3m (192 operations) expand to 4 Na + 4 Cl at the rock-salt positions', () => {
  const file = readCif(NACL_CIF);
  assert.equal(file.format, 'cif');
  assert.deepEqual(file.diagnostics, [], describe(NACL_CIF, file));
  const [frame] = file.frames;
  assert.ok(frame);
  assert.equal(frame.title, 'NaCl');
  assert.equal(frame.positions.length, 8);
  assert.deepEqual([...frame.species].sort(), ['Cl', 'Cl', 'Cl', 'Cl', 'Na', 'Na', 'Na', 'Na']);
  // Na at the face-centred positions, Cl shifted by (½,½,½): ITA Wyckoff 4a and 4b of Fm-3m.
  const key = (f: number[]) => f.map((v) => v.toFixed(3)).join(' ');
  const na = fracs(frame)
    .filter((_, i) => frame.species[i] === 'Na')
    .map(key)
    .sort();
  const cl = fracs(frame)
    .filter((_, i) => frame.species[i] === 'Cl')
    .map(key)
    .sort();
  assert.deepEqual(na, ['0.000 0.000 0.000', '0.000 0.500 0.500', '0.500 0.000 0.500', '0.500 0.500 0.000']);
  assert.deepEqual(cl, ['0.000 0.000 0.500', '0.000 0.500 0.000', '0.500 0.000 0.000', '0.500 0.500 0.500']);
  assert.equal(frame.lattice![0][0], 5.64, 'a = 5.6400(2) read without its uncertainty');
  assert.equal(frame.occupancy, undefined);
  assert.deepEqual(frame.labels?.slice(0, 1), ['Na1']);
  assert.deepEqual(
    file.outline[0]?.children?.map((c) => c.name),
    ['loop_ _space_group_symop_operation_xyz', 'loop_ _atom_site'],
  );
  assert.match(file.outline[0].detail, /^NaCl, 8 atoms$/);
});

test('a general position of Fm-3m gives 192 atoms; 52 such sites give 9,984, all in [0,1)', () => {
  const { text, atoms } = largeFm3mCif(52);
  const file = readCif(text);
  assert.deepEqual(file.diagnostics, [], describe(text, file));
  assert.equal(file.frames[0]!.positions.length, atoms);
  assert.equal(atoms, 9984);
  for (const f of fracs(file.frames[0]!)) for (const v of f) assert.ok(v > -1e-9 && v < 1 + 1e-9, String(v));
});

test('standard uncertainties, ? and . as numbers', () => {
  const tok = (text: string, plain = true) => ({ kind: 'value' as const, text, line: 0, start: 0, end: text.length, plain });
  assert.equal(cifNumber(tok('5.4307(2)')), 5.4307);
  assert.equal(cifNumber(tok('-0.125(13)')), -0.125);
  assert.equal(cifNumber(tok('.5')), 0.5);
  assert.equal(cifNumber(tok('1.')), 1);
  assert.equal(cifNumber(tok('1.2e-3(4)')), 0.0012);
  assert.equal(cifNumber(tok('+3')), 3);
  assert.equal(cifNumber(tok('?')), 'unknown');
  assert.equal(cifNumber(tok('.')), 'unknown');
  assert.equal(cifNumber(tok('?', false)), 'bad', "a quoted '?' is text, not unknown");
  assert.equal(cifNumber(tok('5.43(')), 'bad');
  assert.equal(cifNumber(tok('1e999')), 'bad');
  assert.equal(cifNumber(tok('abc')), 'bad');
});

test('symmetry operations: the forms real files write, and what is not an operation', () => {
  const op = (text: string) => {
    const r = parseSymOp(text);
    assert.ok('op' in r, `${text}: ${'error' in r ? r.error : ''}`);
    return r.op;
  };
  assert.deepEqual(op('x, y, z'), {
    rot: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    trans: [0, 0, 0],
  });
  assert.deepEqual(op('-y, x-y, z+1/3'), {
    rot: [
      [0, -1, 0],
      [1, -1, 0],
      [0, 0, 1],
    ],
    trans: [0, 0, 1 / 3],
  });
  assert.deepEqual(op('1/2+x,-y+1/2, 0.25-z'), {
    rot: [
      [1, 0, 0],
      [0, -1, 0],
      [0, 0, -1],
    ],
    trans: [0.5, 0.5, 0.25],
  });
  assert.deepEqual(op('+X,-Y,+Z'), {
    rot: [
      [1, 0, 0],
      [0, -1, 0],
      [0, 0, 1],
    ],
    trans: [0, 0, 0],
  });
  assert.deepEqual(op('-x+y, y, -z+5/6').trans, [0, 0, 5 / 6]);
  assert.deepEqual(op('x-1/2, y, z').trans, [-0.5, 0, 0]);
  for (const bad of ['x, y', 'x, y, z, 1', 'x, y, 2z', 'x, x, z', 'x, y, q', 'x, y, 1/0+z', 'x, y, ', 'x,y,z*1/2', 'x, y, 0.5x'])
    assert.ok('error' in parseSymOp(bad), bad);
  assert.equal(fm3mOperations().length, 192);
  assert.equal(new Set(fm3mOperations()).size, 192);
});

test('elements from type symbols and labels, by pymatgen _parse_symbol rules', () => {
  const cases: Array<[string, string | undefined]> = [
    ['Fe1', 'Fe'],
    ['FE1', 'Fe'],
    ['Fe3+', 'Fe'],
    ['O2-', 'O'],
    ['OW', 'O'],
    ['Ow1', 'O'],
    ['Hw2', 'H'],
    ['Wat', 'O'],
    ['Ca2', 'Ca'],
    ['C12a', 'C'],
    ['Cl-', 'Cl'],
    ['D1', 'H'],
    ['K1+', 'K'],
    ['NO3', 'N'],
    ['Xx', undefined],
    ['', undefined],
    ['1', undefined],
  ];
  for (const [text, expected] of cases) assert.equal(siteElement(text), expected, text);
});

test('the lattice in ASE cellpar_to_cell orientation: a along x, b in the xy plane', () => {
  // Hexagonal a = 3, c = 5: b = a(cos 120°, sin 120°, 0) = (-1.5, 2.598076…, 0), c along z.
  const hex = cellFromParameters(3, 3, 5, 90, 90, 120)!;
  assert.deepEqual(hex[0], [3, 0, 0]);
  assert.ok(near(hex[1][0], -1.5, 1e-12) && near(hex[1][1], 1.5 * Math.sqrt(3), 1e-12) && hex[1][2] === 0);
  assert.deepEqual(hex[2], [0, 0, 5]);
  // Triclinic: the parameters come back from the vectors.
  const tri = cellFromParameters(4, 5, 6, 70, 80, 100)!;
  const p = latticeParameters(tri);
  for (const [got, want] of [
    [p.a, 4],
    [p.b, 5],
    [p.c, 6],
    [p.alpha, 70],
    [p.beta, 80],
    [p.gamma, 100],
  ] as const)
    assert.ok(near(got, want, 1e-9), `${got} vs ${want}`);
  assert.equal(tri[0][1], 0);
  assert.equal(tri[0][2], 0);
  assert.equal(tri[1][2], 0);
  assert.equal(cellFromParameters(1, 1, 1, 10, 10, 170), undefined, 'no cell has these angles');
});

test('CIF 1.1 syntax: quotes close only before whitespace, text fields, comments, ? and .', () => {
  const text = [
    '# a comment line',
    'data_syntax   # a comment after the name',
    "_publ_section_title 'O'Neil's structure'",
    "_chemical_name_common 'a 'quoted'word'",
    '_journal_name_full',
    ';',
    'A text field',
    "with 'quotes' and # no comment",
    ';',
    '_cell_length_a 4.0(1)',
    '_cell_length_b 4.0',
    '_cell_length_c 4.0',
    '_cell_angle_alpha 90',
    '_cell_angle_beta 90.0',
    '_cell_angle_gamma 90.000(3)',
    'loop_ _atom_site_label _atom_site_type_symbol _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z',
    "Ti1 Ti 0 0 0   'O 1' O 0.5 0.5 0   # two rows on one line",
    'O#2 O 0.5',
    '0',
    '0.5',
    'O3 ? 0 0.5 0.5',
  ].join('\r\n');
  const file = readCif(text);
  assert.deepEqual(file.diagnostics, [], describe(text, file));
  const frame = file.frames[0]!;
  assert.deepEqual(frame.labels, ['Ti1', 'O 1', 'O#2', 'O3']);
  assert.deepEqual(frame.species, ['Ti', 'O', 'O', 'O']);
  assert.equal(frame.title, 'syntax');
  assert.deepEqual(file.outline[0]!.lines, { first: 1, last: 20 });
});

test('CIF 2.0: triple quotes across lines, quotes closing at the first match, lists skipped with a warning, dotted names', () => {
  const text = [
    '#\\#CIF_2.0',
    'data_two',
    "_publ_section_title '''a title",
    "over two lines with ' and ''",
    "'''",
    "_chemical_name_common 'it'",
    '_cell.length_a 3',
    '_cell.length_b 3',
    '_cell.length_c 3',
    '_cell.angle_alpha 90',
    '_cell.angle_beta 90',
    '_cell.angle_gamma 90',
    '_audit.list [1 2 [3 "]"]',
    '  4]',
    '_audit.table {"a":1 "b":[2]}',
    'loop_',
    '_space_group_symop.operation_xyz',
    '"x,y,z"',
    '"-x,-y,-z"',
    'loop_',
    '_atom_site.label',
    '_atom_site.fract_x',
    '_atom_site.fract_y',
    '_atom_site.fract_z',
    'Cs1 0 0 0',
    'Cl1 0.25 0.25 0.25',
  ].join('\n');
  const file = readCif(text);
  assert.deepEqual(
    file.diagnostics.map((d) => [d.code, d.range.line + 1, covered(text, d.range)]),
    [
      ['cif2-compound', 13, '[1 2 [3 "]"]'],
      ['cif2-compound', 15, '{"a":1 "b":[2]}'],
    ],
    describe(text, file),
  );
  const frame = file.frames[0]!;
  assert.deepEqual(frame.species, ['Cs', 'Cl', 'Cl']);
  assert.equal(latticeParameters(frame.lattice!).a, 3);
});

test('occupancy: partly occupied sites keep their occupancy, with a warning on the first one naming them', () => {
  const text = sampleCif({
    name: 'disorder',
    cell: [5, 5, 5, 90, 90, 90],
    sites: [
      { label: 'Fe1', symbol: 'Fe2+', xyz: [0, 0, 0], occupancy: '0.5(1)' },
      { label: 'Mn1', symbol: 'Mn', xyz: [0, 0, 0], occupancy: 0.5 },
      { label: 'O1', symbol: 'O', xyz: [0.5, 0.5, 0.5], occupancy: 1 },
      { label: 'Li1', symbol: 'Li', xyz: [0.5, 0, 0], occupancy: 0 },
    ],
  });
  const file = readCif(text);
  const frame = file.frames[0]!;
  assert.deepEqual(frame.species, ['Fe', 'Mn', 'O']);
  assert.deepEqual(frame.occupancy, [0.5, 0.5, 1]);
  assert.deepEqual(
    file.diagnostics.map((d) => [d.severity, d.code, d.range.line + 1, covered(text, d.range)]),
    [
      ['warning', 'partial-occupancy', 15, '0.5(1)'],
      ['warning', 'zero-occupancy', 18, '0'],
    ],
    describe(text, file),
  );
  assert.match(file.diagnostics[0]!.message, /^Line 15: 2 sites partly occupied: Fe1 0\.5, Mn1 0\.5; sharing a position: Fe1 and Mn1\./);
  assert.match(file.outline[0]!.detail, /disordered/);
});

test('duplicates: copies within the tolerance are one site, across the periodic boundary too', () => {
  // P6/mmm-like operations on a site written with four decimals (1/3 as 0.3333): 2 atoms, not 4 or 6.
  const text = sampleCif({
    name: 'hex',
    cell: [3, 3, 5, 90, 90, 120],
    ops: ['x,y,z', '-y,x-y,z', '-x+y,-x,z', '-x,-y,z', 'y,-x+y,z', 'x-y,x,z'],
    sites: [{ label: 'B1', xyz: ['0.3333', '0.6667', '0.5'] }],
  });
  const file = readCif(text);
  assert.deepEqual(file.diagnostics, [], describe(text, file));
  assert.equal(file.frames[0]!.positions.length, 2);
  // A copy at 0.99995 is the same site as one at 0.00003 (both wrap into [0,1) within the tolerance).
  const edge = readCif(
    CUBIC(
      'loop_ _symmetry_equiv_pos_as_xyz x,y,z -x,-y,-z\nloop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z\nC1 0.00003 0 0.5\n',
    ),
  );
  assert.equal(edge.frames[0]!.positions.length, 1);
  assert.ok(SITE_TOLERANCE === 1e-3);
  // A site just beyond the tolerance is another site.
  const apart = readCif(
    CUBIC(
      'loop_ _symmetry_equiv_pos_as_xyz x,y,z -x,-y,-z\nloop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z\nC1 0.0006 0 0.5\n',
    ),
  );
  assert.equal(apart.frames[0]!.positions.length, 2);
});

test('two blocks, two frames; a block without atoms is in the outline only', () => {
  const text = `${NACL_CIF}\ndata_global_info\n_journal_year 2026\n\n${sampleCif({ name: 'Po', cell: [3.35, 3.35, 3.35, 90, 90, 90], sites: [{ label: 'Po1', xyz: [0, 0, 0] }] })}`;
  const file = readCif(text);
  assert.deepEqual(file.diagnostics, [], describe(text, file));
  assert.deepEqual(
    file.frames.map((f) => [f.title, f.positions.length]),
    [
      ['NaCl', 8],
      ['Po', 1],
    ],
  );
  assert.deepEqual(
    file.outline.map((o) => [o.name, o.detail, o.kind]),
    [
      ['NaCl', 'NaCl, 8 atoms', 'block'],
      ['global_info', 'no structure', 'block'],
      ['Po', 'Po, 1 atom', 'block'],
    ],
  );
  const [first, second, third] = file.outline;
  assert.ok(first!.lines.last < second!.lines.first && second!.lines.last < third!.lines.first);
  assert.equal(file.frames[1]!.lines.first, third!.lines.first);
});

// ---------------------------------------------------------------------------------------------
// Every diagnostic: the code, the line and the text its range covers.

const SITES = 'loop_\n_atom_site_label\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\n';

interface Case {
  code: string;
  text: string;
  line: number;
  token: string;
  severity?: 'error' | 'warning';
  /** The frames read despite the problem. */
  frames?: number;
  message?: RegExp;
}

const CASES: Case[] = [
  {
    code: 'unterminated-text-field',
    text: CUBIC(`_publ_section_title\n;never closed\n${SITES}Fe1 0 0 0\n`),
    line: 9,
    token: ';never closed',
    frames: 0,
  },
  { code: 'unterminated-quote', text: CUBIC(`_publ_section_title 'it's\n${SITES}Fe1 0 0 0\n`), line: 8, token: "'it's", frames: 1 },
  { code: 'unterminated-quote', text: `#\\#CIF_2.0\n${CUBIC(`_t '''never\nclosed\n`)}`, line: 9, token: "'''never", frames: 0 },
  { code: 'unbalanced-brackets', text: `#\\#CIF_2.0\n${CUBIC(`_t [1 2}\n${SITES}Fe1 0 0 0\n`)}`, line: 9, token: '}', frames: 1 },
  { code: 'unbalanced-brackets', text: `#\\#CIF_2.0\n${CUBIC(`${SITES}Fe1 0 0 0\n_t [1 2\n`)}`, line: 15, token: '[1 2', frames: 1 },
  {
    code: 'cif2-compound',
    text: `#\\#CIF_2.0\n${CUBIC(`${SITES}Fe1 [0 1] 0 0\n`)}`,
    line: 14,
    token: '[0 1]',
    severity: 'warning',
    frames: 0,
  },
  { code: 'empty-block-name', text: 'data_\n_cell_length_a 4\n', line: 1, token: 'data_' },
  { code: 'reserved-word', text: CUBIC(`_t loop_x\n${SITES}Fe1 0 0 0\n`), line: 8, token: 'loop_x', severity: 'warning', frames: 1 },
  { code: 'outside-block', text: `_cell_length_a 4\n${CUBIC(`${SITES}Fe1 0 0 0\n`)}`, line: 1, token: '_cell_length_a', frames: 1 },
  {
    code: 'missing-value',
    text: CUBIC(`_symmetry_space_group_name_H-M\n${SITES}Fe1 0 0 0\n`),
    line: 8,
    token: '_symmetry_space_group_name_H-M',
    frames: 1,
  },
  { code: 'eof-tag', text: CUBIC(`${SITES}Fe1 0 0 0\n_eof\n`), line: 14, token: '_eof', severity: 'warning', frames: 1 },
  {
    code: 'duplicate-tag',
    text: CUBIC(`_cell_length_a 5\n${SITES}Fe1 0 0 0\n`),
    line: 8,
    token: '_cell_length_a',
    severity: 'warning',
    frames: 1,
  },
  {
    code: 'duplicate-block',
    text: `${CUBIC(`${SITES}Fe1 0 0 0\n`, 'x')}${CUBIC(`${SITES}Fe1 0 0 0\n`, 'X')}`,
    line: 14,
    token: 'data_X',
    severity: 'warning',
    frames: 2,
  },
  { code: 'empty-loop', text: CUBIC(`loop_\n${SITES}Fe1 0 0 0\n`), line: 8, token: 'loop_', frames: 1 },
  {
    code: 'loop-without-values',
    text: CUBIC(`loop_ _t1 _t2\n${SITES}Fe1 0 0 0\n`),
    line: 8,
    token: 'loop_',
    severity: 'warning',
    frames: 1,
  },
  {
    code: 'loop-incomplete-row',
    text: CUBIC(`${SITES}Fe1 0 0 0\nO1 0.5 0.5\n`),
    line: 14,
    token: '0.5',
    frames: 1,
    message: /the last row has 3/,
  },
  {
    code: 'save-frame',
    text: CUBIC(`save_def\n_name x\nsave_\n${SITES}Fe1 0 0 0\n`),
    line: 8,
    token: 'save_def',
    severity: 'warning',
    frames: 1,
  },
  {
    code: 'global-block',
    text: `global_\n_t 1\n${CUBIC(`${SITES}Fe1 0 0 0\n`)}`,
    line: 1,
    token: 'global_',
    severity: 'warning',
    frames: 1,
  },
  { code: 'stop-ignored', text: CUBIC(`${SITES}Fe1 0 0 0\nstop_\n`), line: 14, token: 'stop_', severity: 'warning', frames: 1 },
  { code: 'value-without-tag', text: CUBIC(`_t 1 2\n${SITES}Fe1 0 0 0\n`), line: 8, token: '2', frames: 1 },
  { code: 'no-data-block', text: '# nothing\nhello\n', line: 2, token: 'hello', frames: 0 },
  {
    code: 'cartesian-only',
    text: CUBIC('loop_ _atom_site_label _atom_site_Cartn_x _atom_site_Cartn_y _atom_site_Cartn_z\nFe1 0 0 0\n'),
    line: 8,
    token: '_atom_site_Cartn_x',
    frames: 0,
    message: /only Cartesian coordinates/,
  },
  {
    code: 'no-coordinates',
    text: CUBIC('loop_ _atom_site_label _atom_site_type_symbol\nFe1 Fe\n'),
    line: 8,
    token: '_atom_site_label',
    frames: 0,
  },
  { code: 'no-atoms', text: CUBIC(''), line: 1, token: 'data_c', severity: 'warning', frames: 0 },
  {
    code: 'missing-coordinate',
    text: CUBIC('loop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y\nFe1 0 0\n'),
    line: 8,
    token: '_atom_site_fract_x',
    frames: 0,
  },
  {
    code: 'missing-cell',
    text: `data_nocell\n_cell_length_a 4\n_cell_length_b ?\n${SITES}Fe1 0 0 0\n`,
    line: 1,
    token: 'data_nocell',
    frames: 0,
    message: /_cell_length_b, _cell_length_c, _cell_angle_alpha/,
  },
  {
    code: 'bad-cell',
    text: CUBIC(`${SITES}Fe1 0 0 0\n`).replace('_cell_length_b 4', '_cell_length_b -4'),
    line: 3,
    token: '-4',
    frames: 0,
  },
  {
    code: 'bad-cell',
    text: CUBIC(`${SITES}Fe1 0 0 0\n`).replace('_cell_angle_beta 90', '_cell_angle_beta 180'),
    line: 6,
    token: '180',
    frames: 0,
  },
  {
    code: 'bad-cell',
    text: CUBIC(`${SITES}Fe1 0 0 0\n`).replace('_cell_length_c 4', '_cell_length_c four'),
    line: 4,
    token: 'four',
    frames: 0,
  },
  {
    code: 'bad-cell',
    text: CUBIC(`${SITES}Fe1 0 0 0\n`)
      .replace('_cell_angle_alpha 90', '_cell_angle_alpha 10')
      .replace('_cell_angle_beta 90', '_cell_angle_beta 10')
      .replace('_cell_angle_gamma 90', '_cell_angle_gamma 170'),
    line: 5,
    token: '10',
    frames: 0,
    message: /no cell has the angles/,
  },
  {
    code: 'no-species',
    text: CUBIC('loop_ _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z\n0 0 0\n'),
    line: 8,
    token: '_atom_site_fract_x',
    frames: 0,
  },
  {
    code: 'site-columns',
    text: CUBIC('loop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y\nFe1 0 0\nFe2 0.5 0.5\n_atom_site_fract_z 0\n'),
    line: 8,
    token: '_atom_site_fract_x',
    frames: 1,
  },
  {
    code: 'bad-coordinate',
    text: CUBIC(`${SITES}Fe1 0 ? 0\nFe2 0.5 0.5 0.5\n`),
    line: 13,
    token: '?',
    frames: 1,
    message: /site 'Fe1' has an unknown coordinate/,
  },
  { code: 'bad-coordinate', text: CUBIC(`${SITES}Fe1 0 x 0\nFe2 0.5 0.5 0.5\n`), line: 13, token: 'x', frames: 1 },
  { code: 'dot-coordinate', text: CUBIC(`${SITES}Fe1 0 . 0\n`), line: 13, token: '.', severity: 'warning', frames: 1 },
  {
    code: 'bad-occupancy',
    text: CUBIC('loop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z _atom_site_occupancy\nFe1 0 0 0 half\n'),
    line: 9,
    token: 'half',
    frames: 1,
  },
  {
    code: 'occupancy-above-one',
    text: CUBIC('loop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z _atom_site_occupancy\nFe1 0 0 0 1.2\n'),
    line: 9,
    token: '1.2',
    severity: 'warning',
    frames: 1,
  },
  {
    code: 'zero-occupancy',
    text: CUBIC(
      'loop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z _atom_site_occupancy\nFe1 0 0 0 1\nFe2 .5 .5 .5 0.0\n',
    ),
    line: 10,
    token: '0.0',
    severity: 'warning',
    frames: 1,
  },
  { code: 'unknown-element', text: CUBIC(`${SITES}Qq1 0 0 0\n`), line: 13, token: 'Qq1', severity: 'warning', frames: 1 },
  {
    code: 'implicit-hydrogens',
    text: CUBIC(
      'loop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z _atom_site_attached_hydrogens\nO1 0 0 0 2\n',
    ),
    line: 9,
    token: '2',
    severity: 'warning',
    frames: 1,
  },
  {
    code: 'bad-symop',
    text: CUBIC(`loop_ _symmetry_equiv_pos_as_xyz x,y,z 'x,y,2z'\n${SITES}Fe1 0 0 0\n`),
    line: 8,
    token: "'x,y,2z'",
    frames: 1,
    message: /determinant 2/,
  },
  {
    code: 'no-identity',
    text: CUBIC(`loop_ _symmetry_equiv_pos_as_xyz -x,-y,-z\n${SITES}Fe1 0.1 0 0\n`),
    line: 8,
    token: '_symmetry_equiv_pos_as_xyz',
    severity: 'warning',
    frames: 1,
  },
  {
    code: 'too-many-operations',
    text: CUBIC(`loop_ _symmetry_equiv_pos_as_xyz\n${Array.from({ length: 1600 }, () => 'x,y,z').join('\n')}\n${SITES}Fe1 0 0 0\n`),
    line: 8,
    token: '_symmetry_equiv_pos_as_xyz',
    frames: 0,
  },
  {
    code: 'too-many-atoms',
    text: CUBIC(
      `loop_ _symmetry_equiv_pos_as_xyz\n${fm3mOperations().join('\n')}\n${SITES}${Array.from({ length: Math.ceil(MAX_GENERATED / 192) + 1 }, (_, i) => `C${i} 0.1 0.2 0.3`).join('\n')}\n`,
    ),
    line: 1,
    token: 'data_c',
    frames: 0,
  },
  {
    code: 'asymmetric-unit-only',
    text: CUBIC(`_symmetry_space_group_name_H-M 'F m -3 m'\n${SITES}Fe1 0 0 0\n`),
    line: 8,
    token: "'F m -3 m'",
    severity: 'warning',
    frames: 1,
    message: /names space group 'F m -3 m' but lists no symmetry operations/,
  },
  { code: 'sites-coincide', text: CUBIC(`${SITES}Fe1 0 0 0\nFe2 0.0002 0 0\n`), line: 14, token: 'Fe2', severity: 'warning', frames: 1 },
  {
    code: 'overfull-position',
    text: CUBIC(
      'loop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z _atom_site_occupancy\nFe1 0 0 0 0.7\nMn1 0 0 0 0.7\n',
    ),
    line: 10,
    token: 'Mn1',
    severity: 'warning',
    frames: 1,
    message: /Fe1 \+ Mn1 = 1\.4/,
  },
  {
    code: 'partial-occupancy',
    text: CUBIC(
      'loop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z _atom_site_occupancy\nO1 0.5 0.5 0.5 1\nFe1 0 0 0 0.25\n',
    ),
    line: 10,
    token: '0.25',
    severity: 'warning',
    frames: 1,
    message: /1 site partly occupied: Fe1 0\.25\./,
  },
  {
    code: 'disorder',
    text: CUBIC(
      'loop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z _atom_site_disorder_group\nC1 0 0 0 .\nC2 0.1 0 0 1\nC3 0.2 0 0 2\n',
    ),
    line: 10,
    token: '1',
    severity: 'warning',
    frames: 1,
    message: /C2 \(group 1\), C3 \(group 2\)/,
  },
  {
    code: 'crowded-position',
    text: CUBIC(
      `loop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z _atom_site_occupancy\n${Array.from({ length: 70 }, (_, i) => `C${i} 0 0 0 0.01`).join('\n')}\n`,
    ),
    line: 1,
    token: 'data_c',
    frames: 1,
  },
];

for (const c of CASES)
  test(`diagnostic ${c.code} (line ${c.line}, ${JSON.stringify(c.token.slice(0, 20))})`, () => {
    const file = readCif(c.text);
    const found = file.diagnostics.filter((d) => d.code === c.code);
    assert.ok(found.length > 0, `no ${c.code}:\n${describe(c.text, file)}`);
    const d = found[0]!;
    assert.equal(d.severity, c.severity ?? 'error', describe(c.text, file));
    assert.equal(d.range.line + 1, c.line, describe(c.text, file));
    assert.equal(covered(c.text, d.range), c.token, describe(c.text, file));
    assert.ok(d.message.startsWith(`Line ${c.line}: `), d.message);
    if (c.message) assert.match(d.message, c.message);
    if (c.frames !== undefined) assert.equal(file.frames.length, c.frames, describe(c.text, file));
  });

test('every diagnostic code the reader can give is exercised above', () => {
  const codes = new Set<string>();
  for (const name of readdirSync(SOURCES).filter((n) => n.endsWith('.ts')))
    for (const m of readFileSync(join(SOURCES, name), 'utf8').matchAll(/\.(?:error|warning)\(\s*'([a-z0-9-]+)'/g)) codes.add(m[1]!);
  codes.delete('internal-error'); // the safety net around a reader that is total: never reached
  // Tested with the space-group table, below.
  const tested = new Set([...CASES.map((c) => c.code), 'operations-from-symbol']);
  assert.deepEqual([...codes].filter((c) => !tested.has(c)).sort(), []);
  assert.ok(codes.size >= 40, `${codes.size} codes`);
});

test('a frame with disorder carries occupancy; the partial-occupancy warning is on the first partial site', () => {
  const file = readCif(
    CUBIC(
      'loop_ _atom_site_label _atom_site_fract_x _atom_site_fract_y _atom_site_fract_z _atom_site_occupancy\nO1 0.5 0.5 0.5 1\nFe1 0 0 0 0.25\n',
    ),
  );
  assert.deepEqual(file.frames[0]!.occupancy, [1, 0.25]);
  assert.deepEqual(
    file.diagnostics.map((d) => d.code),
    ['partial-occupancy'],
  );
});

// ---------------------------------------------------------------------------------------------
// Writer

test('writeCif writes P1 with every site; readCif reads back the same cell, species, labels and positions', () => {
  const source = readCif(NACL_CIF).frames[0]!;
  const text = writeCif(source);
  assert.match(text, /^_symmetry_equiv_pos_as_xyz$/m);
  assert.match(text, /^1 'x, y, z'$/m);
  assert.match(text, /^data_NaCl$/m);
  const back = readCif(text);
  assert.deepEqual(back.diagnostics, [], describe(text, back));
  const frame = back.frames[0]!;
  assert.deepEqual(frame.species, source.species);
  // The expanded copies share their site's label; the writer numbers them per element so labels stay unique.
  assert.deepEqual(frame.labels, ['Na1', 'Na2', 'Na3', 'Na4', 'Cl1', 'Cl2', 'Cl3', 'Cl4']);
  frame.positions.forEach((p, i) =>
    p.forEach((v, k) => assert.ok(near(v, source.positions[i]![k]!, 1e-8), `${v} vs ${source.positions[i]![k]}`)),
  );
  // A triclinic cell in another orientation: positions come back in the standard orientation, same fractions.
  const tri: StructureFrame = {
    lattice: [
      [0, 4, 0],
      [-5, 0.5, 0],
      [0.3, 1, 6],
    ],
    pbc: [true, true, true],
    species: ['Fe', 'O', 'Xx'],
    positions: [
      [0, 0, 0],
      [1, 2, 3],
      [-1, 8, 2],
    ],
    labels: ['a b', 'O1', 'O1'],
    occupancy: [1, 0.5, 0.25],
    title: 'my structure',
    lines: { first: 0, last: 0 },
  };
  const written = writeCif(tri, 'my structure');
  assert.match(written, /^data_my_structure$/m);
  const read = readCif(written);
  const out = read.frames[0]!;
  assert.deepEqual(out.labels, ['Fe1', 'O1', 'X1'], 'labels with spaces or repeated are replaced');
  assert.deepEqual(out.species, ['Fe', 'O', 'X']);
  assert.deepEqual(out.occupancy, [1, 0.5, 0.25]);
  const want = tri.positions.map((p) => cartToFrac(tri.lattice!, p).map((v) => v - Math.floor(v)));
  fracs(out).forEach((f, i) =>
    f.forEach((v, k) => assert.ok(near(v, want[i]![k]!, 1e-8) || near(Math.abs(v - want[i]![k]!), 1, 1e-8), `${v} vs ${want[i]![k]}`)),
  );
  const lp = latticeParameters(tri.lattice!);
  const lq = latticeParameters(out.lattice!);
  for (const k of ['a', 'b', 'c', 'alpha', 'beta', 'gamma'] as const) assert.ok(near(lp[k], lq[k], 1e-8), k);
});

test('writeCif of a molecule writes Cartesian coordinates, which readCif refuses as a crystal', () => {
  const text = writeCif({
    lattice: null,
    pbc: [false, false, false],
    species: ['O', 'H', 'H'],
    positions: [
      [0, 0, 0],
      [0.96, 0, 0],
      [-0.24, 0.93, 0],
    ],
    title: '',
    lines: { first: 0, last: 0 },
  });
  assert.match(text, /^data_structure$/m);
  assert.match(text, /_atom_site_Cartn_x/);
  const file = readCif(text);
  assert.equal(file.frames.length, 0);
  assert.deepEqual(
    file.diagnostics.map((d) => d.code),
    ['cartesian-only'],
  );
});

test('readCif is total on degenerate input', () => {
  for (const text of [
    '',
    '\n',
    ';',
    "'",
    '"""',
    'data_',
    'loop_',
    '_a',
    '#\\#CIF_2.0\n[',
    '#\\#CIF_2.0\n_a [',
    'data_x\n;\n',
    '\uFEFFdata_x _a 1',
    null as unknown as string,
  ]) {
    const file = readCif(text);
    assert.equal(file.format, 'cif');
    assert.ok(!file.diagnostics.some((d) => d.code === 'internal-error'), JSON.stringify(text));
  }
});

// ---------------------------------------------------------------------------------------------
// A space group named without its operations: the operations from moyo's table of the 530 settings.

const NAMED = (name: string, sites = 'Na1 0 0 0\nCl1 0.5 0.5 0.5\n') =>
  CUBIC(`${name}\n${SITES}${sites}`, 'named').replace(
    '_cell_length_a 4\n_cell_length_b 4\n_cell_length_c 4',
    '_cell_length_a 5.64\n_cell_length_b 5.64\n_cell_length_c 5.64',
  );

test('a group named without operations: rock salt from "F m -3 m" and 2 sites, with a warning naming the setting', async () => {
  const spaceGroups = await moyoSpaceGroups();
  const text = NAMED("_symmetry_space_group_name_H-M 'F m -3 m'");
  const file = readCif(text, { spaceGroups });
  assert.equal(file.frames[0]!.positions.length, 8);
  assert.deepEqual([...file.frames[0]!.species].sort(), ['Cl', 'Cl', 'Cl', 'Cl', 'Na', 'Na', 'Na', 'Na']);
  assert.deepEqual(
    file.diagnostics.map((d) => [d.code, d.range.line + 1, covered(text, d.range)]),
    [['operations-from-symbol', 8, "'F m -3 m'"]],
  );
  assert.match(
    file.diagnostics[0]!.message,
    /the 192 operations of space group F 4\/m -3 2\/m \(No\. 225, Hall symbol -F 4 2 3\) were generated from 'F m -3 m'/,
  );
  // Without the table: the two sites as written, and a warning that says so.
  const alone = readCif(text);
  assert.equal(alone.frames[0]!.positions.length, 2);
  assert.deepEqual(
    alone.diagnostics.map((d) => d.code),
    ['asymmetric-unit-only'],
  );
  assert.match(alone.diagnostics[0]!.message, /the space-group table that would give its operations is not loaded/);
});

test('space-group names: full, short, monoclinic without its 1s, orthorhombic settings, origin choices, Hall symbols, numbers', async () => {
  const spaceGroups = await moyoSpaceGroups();
  const setting = (name: Parameters<typeof findSetting>[1]) => {
    const s = findSetting(spaceGroups, name);
    return s && `${s.number} ${s.setting} ${s.hallSymbol}`;
  };
  assert.equal(setting({ hm: 'P 1 21/n 1' }), '14 b2 -P 2yn');
  assert.equal(setting({ hm: 'P21/n' }), '14 b2 -P 2yn');
  assert.equal(setting({ hm: 'P 21/c' }), '14 b1 -P 2ybc');
  assert.equal(setting({ hm: 'p 21/c' }), '14 b1 -P 2ybc');
  assert.equal(setting({ hm: 'P n m a' }), '62  -P 2ac 2n');
  assert.equal(setting({ hm: 'P b n m' }), '62 cab -P 2c 2ab');
  assert.equal(setting({ hm: 'F d -3 m' }), '227 1 F 4d 2 3 -1d');
  assert.equal(setting({ hm: 'F d -3 m:2' }), '227 2 -F 4vw 2vw 3');
  assert.equal(setting({ hm: 'R -3 m' }), '166 H -R 3 2=');
  assert.equal(setting({ hall: '-R 3 2"' }), '166 H -R 3 2=');
  assert.equal(setting({ hm: 'R -3 m:R' }), '166 R -P 3* 2');
  assert.equal(setting({ hall: '-P 2yn' }), '14 b2 -P 2yn');
  assert.equal(setting({ number: 225 }), '225  -F 4 2 3');
  assert.equal(setting({ hm: 'Q 9', number: 2 }), '2  -P 1');
  assert.equal(setting({ hm: 'Q 9' }), undefined);
  assert.equal(setting({ hm: ' ' }), undefined);
  assert.equal(spaceGroups.operations(526).length, 192);
  assert.deepEqual(spaceGroups.operations(999), []);
});

test('a group named by number only, by Hall symbol, or by a name no setting has', async () => {
  const spaceGroups = await moyoSpaceGroups();
  const byNumber = readCif(NAMED('_space_group_IT_number 225'), { spaceGroups });
  assert.equal(byNumber.frames[0]!.positions.length, 8);
  const byHall = readCif(NAMED("_space_group_name_Hall '-F 4 2 3'"), { spaceGroups });
  assert.equal(byHall.frames[0]!.positions.length, 8);
  // A general position of P 21/n: 4 copies.
  const monoclinic = readCif(NAMED("_symmetry_space_group_name_H-M 'P 21/n'", 'C1 0.1 0.2 0.3\n'), { spaceGroups });
  assert.equal(monoclinic.frames[0]!.positions.length, 4);
  const unknown = readCif(NAMED("_symmetry_space_group_name_H-M 'Q 9'"), { spaceGroups });
  assert.equal(unknown.frames[0]!.positions.length, 2);
  assert.match(unknown.diagnostics[0]!.message, /no setting of the 230 space groups has this name/);
  // P 1 needs no operations and gets no warning; listed operations win over the name.
  assert.deepEqual(readCif(NAMED("_symmetry_space_group_name_H-M 'P 1'"), { spaceGroups }).diagnostics, []);
  const listed = readCif(NAMED("_symmetry_space_group_name_H-M 'F m -3 m'\nloop_ _symmetry_equiv_pos_as_xyz x,y,z"), { spaceGroups });
  assert.equal(listed.frames[0]!.positions.length, 2);
});

test('the periodic hash finds exactly the points a comparison with every point finds, on bucket borders too', () => {
  const random = (() => {
    let s = 12345;
    return () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  })();
  // Coordinates on a 0.001 grid put ±tol exactly on bucket borders (0.014 × 500 = 6.999…), where a lookup once
  // missed a point; y and z in a narrow band so that most points have neighbours within the tolerance.
  const grid = (width: number) => Math.round(random() * width * 1000) / 1000;
  const points = Array.from(
    { length: 3000 },
    () => [grid(1), grid(0.006), grid(0.006)].map((v) => (v >= 1 ? 0 : v)) as [number, number, number],
  );
  const hash = new PeriodicHash(SITE_TOLERANCE);
  points.forEach((p, i) => hash.add(p, i));
  const close = (a: number[], b: number[]) =>
    a.every((v, k) => {
      const d = Math.abs(v - b[k]!);
      return d <= SITE_TOLERANCE || Math.abs(d - 1) <= SITE_TOLERANCE;
    });
  for (let q = 0; q < 3000; q++) {
    const probe =
      q < 1000
        ? points[q]!
        : q < 2000
          ? points[q]!.map((v) => wrap(v + (random() - 0.5) * 0.0024))
          : [grid(1), grid(0.006), grid(0.006)].map(wrap);
    const want = points.map((p, i) => (close(p, probe) ? i : -1)).filter((i) => i >= 0);
    assert.deepEqual(
      [...hash.near(probe as [number, number, number])].sort((a, b) => a - b),
      want,
      probe.join(' '),
    );
  }
});

test('the positions symmetry generates are capped over the whole file, not per block: copies that merge cost work too', () => {
  // Each block alone is under the cap; its sites all coincide, so the atom cap never stops the expansion.
  const sites = Math.ceil(MAX_GENERATED / 192 / 2) + 1;
  const block = (name: string) =>
    CUBIC(`loop_ _symmetry_equiv_pos_as_xyz\n${fm3mOperations().join('\n')}\n${SITES}${'H1 0 0 0\n'.repeat(sites)}`, name);
  const text = block('first') + block('second');
  const file = readCif(text);
  assert.equal(file.frames.length, 1, describe(text, file));
  const refused = file.diagnostics.find((d) => d.code === 'too-many-atoms');
  assert.ok(refused, describe(text, file));
  assert.equal(covered(text, refused.range), 'data_second');
  assert.match(refused.message, /more than the \d+ left of the 4000000 read from a file/);
});
