/**
 * The POSCAR TextMate grammar, tokenized by vscode-textmate with the Oniguruma wasm as VS Code does:
 * line by line, each line starting from the rule stack the previous one left.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { INITIAL, type StateStack } from 'vscode-textmate';
import { lines, loadGrammar, root, tokenizer } from '../../../support/grammar';
import { cpuMs } from '../../../support/linearity';

const poscar = loadGrammar('poscar.tmLanguage.json', 'source.poscar');
const tokenize = tokenizer(poscar);

const each = (scope: string, ...texts: string[]): [string, string][] => texts.map((text) => [text, scope]);
const COMMENT = 'comment.line.poscar';
const TRAILING = 'comment.line.trailing.poscar';
const SCALE = 'constant.numeric.scale.poscar';
const LATTICE = 'meta.lattice.poscar constant.numeric.lattice.poscar';
const SPECIES = 'entity.name.type.species.poscar';
const COUNT = 'constant.numeric.integer.count.poscar';
const DIRECT = 'keyword.other.mode.direct.poscar';
const CARTESIAN = 'keyword.other.mode.cartesian.poscar';
const COORD = 'constant.numeric.coordinate.poscar';
const TRUE = 'constant.language.boolean.true.poscar';
const FALSE = 'constant.language.boolean.false.poscar';
const LABEL = 'entity.name.tag.label.poscar';
const VELOCITY = 'meta.velocities.poscar constant.numeric.velocity.poscar';
const INVALID = 'invalid.illegal.poscar';
const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[EeDd][-+]?\d+)?$/;

const SI_FE = `Si2 diamond, primitive cell
   5.431
     0.0  0.5  0.5
     0.5  0.0  0.5
     0.5  0.5  0.0
   Si/1a2b3c  Fe_pv
     1   1
Selective dynamics
Direct
  0.00 0.00 0.00  T T F  Si1
  0.25 0.25 0.25  F F F

  0.0 0.0 1e-3
  0.0 0.0 -1e-3
`;

test('VASP 5 with selective dynamics: every part of the file gets its scope', async () => {
  assert.deepEqual(await tokenize(lines(SI_FE)), [
    [['Si2 diamond, primitive cell', COMMENT]],
    [['5.431', SCALE]],
    each(LATTICE, '0.0', '0.5', '0.5'),
    each(LATTICE, '0.5', '0.0', '0.5'),
    each(LATTICE, '0.5', '0.5', '0.0'),
    [
      ['Si', SPECIES],
      ['/1a2b3c', 'storage.modifier.hash.poscar'],
      ['Fe', SPECIES],
      ['_pv', 'storage.modifier.variant.poscar'],
    ],
    each(COUNT, '1', '1'),
    [['Selective dynamics', 'keyword.control.selective.poscar']],
    [['Direct', DIRECT]],
    [...each(COORD, '0.00', '0.00', '0.00'), ['T', TRUE], ['T', TRUE], ['F', FALSE], ['Si1', LABEL]],
    [...each(COORD, '0.25', '0.25', '0.25'), ...each(FALSE, 'F', 'F', 'F')],
    [],
    each(VELOCITY, '0.0', '0.0', '1e-3'),
    each(VELOCITY, '0.0', '0.0', '-1e-3'),
    [],
  ]);
});

test('VASP 4 (counts right after the lattice), a triple scale, Cartesian by C, c, K or k, flags only under selective dynamics', async () => {
  const doc = await tokenize(
    lines('NaCl, VASP 4\n 1.0 1.0 1.2\n5.64 0 0\n0 5.64 0\n0 0 5.64\n  1 1\nKartesian\n 0 0 0 T T F\n 2.82 2.82 2.82 Cl\n'),
  );
  assert.deepEqual(doc.slice(1, 2), [each(SCALE, '1.0', '1.0', '1.2')]);
  assert.deepEqual(doc.slice(5), [
    each(COUNT, '1', '1'),
    [['Kartesian', CARTESIAN]],
    [...each(COORD, '0', '0', '0'), ['T T F', LABEL]],
    [...each(COORD, '2.82', '2.82', '2.82'), ['Cl', LABEL]],
    [],
  ]);
  for (const mode of ['Cartesian', 'cartesian', 'k']) {
    assert.deepEqual((await tokenize(lines(`x\n1\n1 0 0\n0 1 0\n0 0 1\nO\n1\n${mode}\n`)))[7], [[mode, CARTESIAN]]);
  }
  const direct = (mode: string) => tokenize(lines(`x\n1\n1 0 0\n0 1 0\n0 0 1\n1\n${mode}\n0 0 0\n`));
  assert.deepEqual((await direct('fractional')).slice(6, 8), [[['fractional', DIRECT]], each(COORD, '0', '0', '0')]);
  assert.deepEqual((await direct('')).slice(6, 8), [[], each(COORD, '0', '0', '0')], 'a blank mode line means Direct');
});

test('numbers and flags in every Fortran form, tabs as separators, text after the numbers, the blocks after the sites', async () => {
  const doc = await tokenize(
    lines(
      'forms\n-1000.\t! target volume\n\t-0.5\t.5\t5. a1\n1e-3 1.0E+02 1.0D-3\n+1 1d0 0\nSi\n2\nsel\nD\n.5 -.5 1.5E-1 t .true. .F.\n' +
        'Lattice velocities and vectors\n1\n0.1 0.2 0.3\nCartesian\n1.0d-2 0 0\n',
    ),
  );
  assert.deepEqual(doc.slice(1), [
    [
      ['-1000.', SCALE],
      ['! target volume', TRAILING],
    ],
    [...each(LATTICE, '-0.5', '.5', '5.'), ['a1', `meta.lattice.poscar ${TRAILING}`]],
    each(LATTICE, '1e-3', '1.0E+02', '1.0D-3'),
    each(LATTICE, '+1', '1d0', '0'),
    [['Si', SPECIES]],
    [['2', COUNT]],
    [['sel', 'keyword.control.selective.poscar']],
    [['D', DIRECT]],
    [...each(COORD, '.5', '-.5', '1.5E-1'), ...each(TRUE, 't', '.true.'), ['.F.', FALSE]],
    [['Lattice velocities and vectors', 'meta.velocities.poscar keyword.other.lattice-velocities.poscar']],
    [['1', VELOCITY]],
    each(VELOCITY, '0.1', '0.2', '0.3'),
    [['Cartesian', `meta.velocities.poscar ${CARTESIAN}`]],
    each(VELOCITY, '1.0d-2', '0', '0'),
    [],
  ]);
});

test('a CRLF file: the same scopes, split as VS Code splits it or with each line keeping its \\r', async () => {
  const crlf = SI_FE.replace(/\n/g, '\r\n');
  const expected = await tokenize(lines(SI_FE));
  assert.deepEqual(await tokenize(lines(crlf)), expected);
  assert.deepEqual(await tokenize(crlf.split('\n')), expected);
});

test('text where numbers belong is invalid.illegal; a broken header does not derail the lines after it', async () => {
  assert.deepEqual(await tokenize(lines('c\n1.0 2.0\n1 0 0 Å\n0 1\n0 0 1 1\nSi 2\n2 1.5 two 3\nS\nD\n0 0 0 T T\n0 0\n0 0 0x\n')), [
    [['c', COMMENT]],
    [
      ['1.0', SCALE],
      ['2.0', INVALID],
    ],
    [...each(LATTICE, '1', '0', '0'), ['Å', `meta.lattice.poscar ${TRAILING}`]],
    [['0 1', `meta.lattice.poscar ${INVALID}`]],
    [...each(LATTICE, '0', '0', '1'), ['1', `meta.lattice.poscar ${TRAILING}`]],
    [
      ['Si', SPECIES],
      ['2', INVALID],
    ],
    [['2', COUNT], ...each(INVALID, '1.5', 'two'), ['3', COUNT]],
    [['S', 'keyword.control.selective.poscar']],
    [['D', DIRECT]],
    [['0 0 0 T T', INVALID]],
    [['0 0', INVALID]],
    [['0 0 0x', INVALID]],
    [],
  ]);
  const missingVector = await tokenize(
    lines('lost a lattice vector, stray blank line\n5.431\n0.0 0.5 0.5\n\n0.5 0.0 0.5\nSi\n2\nDirect\n0.00 0.00 0.00\n0.25 0.25 0.25\n'),
  );
  assert.deepEqual(missingVector.slice(5), [
    [['Si', `meta.lattice.poscar ${INVALID}`]],
    [['2', COUNT]],
    [['Direct', DIRECT]],
    each(COORD, '0.00', '0.00', '0.00'),
    each(COORD, '0.25', '0.25', '0.25'),
    [],
  ]);
  assert.deepEqual(await tokenize(['']), [[]]);
  assert.equal((await tokenize(lines('# not a POSCAR\n{"a": [1, 2]}\n\tx\n'))).length, 4);
});

test('the workspace fixtures: every number has a numeric scope, nothing is invalid', async () => {
  for (const name of ['POSCAR', 'Si.vasp', 'NaCl.vasp', 'GaAs.vasp', 'CONTCAR.relax']) {
    const text = lines(readFileSync(join(root, 'test', 'fixtures', 'workspace', name), 'utf8'));
    (await tokenize(text)).slice(1).forEach((tokens, i) => {
      const numbers = text[i + 1]!.split(/\s+/).filter((word) => NUMBER.test(word));
      assert.deepEqual(
        tokens.filter(([, scopes]) => scopes.includes('constant.numeric.')).map(([word]) => word),
        numbers,
        `${name} line ${i + 2}`,
      );
      assert.ok(!tokens.some(([, scopes]) => scopes.includes('invalid')), `${name} line ${i + 2}`);
    });
  }
});

test('10,000 lines tokenize in under 2 s, and site lines leave the rule stack as it was', async () => {
  const grammar = await poscar;
  const header = lines(SI_FE).slice(0, 9);
  const sites = Array.from(
    { length: 9_000 },
    (_, i) => `  ${(i / 9000).toFixed(16)}  0.5000000000000000  0.2500000000000000  T F T  Si${i}`,
  );
  const velocities = Array.from({ length: 988 }, () => '  0.12345678E-02 -0.23456789E-03  0.34567890E-02');
  const hostile = ['1'.repeat(5_000) + 'x', '0 '.repeat(3_000) + 'x'];
  const doc = [...header, ...sites, ...hostile, '', ...velocities];
  assert.equal(doc.length, 10_000);
  const states: StateStack[] = [];
  let state = INITIAL;
  const ms = await cpuMs(() => {
    for (const line of doc) states.push((state = grammar.tokenizeLine(line, state).ruleStack));
  });
  assert.ok(ms < 2000, `${ms.toFixed(0)} ms of CPU`);
  assert.ok(states[100]!.equals(states[9_000]!), 'an edit to a site line re-tokenizes that line only');
});
