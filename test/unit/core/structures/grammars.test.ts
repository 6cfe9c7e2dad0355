/**
 * The grammars of CIF, extended XYZ, XDATCAR and OUTCAR, tokenized by vscode-textmate with the Oniguruma wasm as
 * VS Code does: what each colours, and that hostile lines (long runs of digits, quotes that never close, words with
 * no `=`) tokenize quickly (VS Code does not tokenize lines over 20,000 characters at all).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INITIAL } from 'vscode-textmate';
import { lines, loadGrammar, tokenizer } from '../../../support/grammar';
import { cpuMs } from '../../../support/linearity';

const GRAMMARS = {
  cif: loadGrammar('cif.tmLanguage.json', 'source.cif'),
  xyz: loadGrammar('xyz.tmLanguage.json', 'source.xyz'),
  xdatcar: loadGrammar('xdatcar.tmLanguage.json', 'source.xdatcar'),
  outcar: loadGrammar('outcar.tmLanguage.json', 'source.outcar'),
};
const cif = tokenizer(GRAMMARS.cif);
const xyz = tokenizer(GRAMMARS.xyz);
const xdatcar = tokenizer(GRAMMARS.xdatcar);
const outcar = tokenizer(GRAMMARS.outcar);

/** The tokens of one line that carry a scope containing `part`. */
const scoped = (tokens: [string, string][], part: string): string[] => tokens.filter(([, s]) => s.includes(part)).map(([t]) => t);

test('CIF: data_ and loop_, tags, numbers with their uncertainty, quoted strings, text fields, comments, . and ?', async () => {
  const doc = [
    'data_NaCl # rock salt',
    "_chemical_name_common 'sodium chloride'",
    '_cell_length_a 5.6402(3)',
    "_publ_author_name 'O'Brien, J.'",
    '_journal_name_full',
    ';',
    'Acta # not a comment here',
    ';',
    'loop_',
    '_atom_site_label',
    '_atom_site_fract_x',
    'Na1 0.0 ? .',
    '_unterminated "half open',
  ];
  const t = await cif(doc);
  assert.deepEqual(t[0], [
    ['data_', 'keyword.other.block.cif'],
    ['NaCl', 'entity.name.section.cif'],
    ['# rock salt', 'comment.line.number-sign.cif'],
  ]);
  assert.deepEqual(scoped(t[1]!, 'entity.name.tag'), ['_chemical_name_common']);
  assert.equal(scoped(t[1]!, 'string.quoted.single').join(''), "'sodium chloride'");
  assert.deepEqual(t[2], [
    ['_cell_length_a', 'entity.name.tag.cif'],
    ['5.6402', 'constant.numeric.cif'],
    ['(3)', 'constant.numeric.uncertainty.cif'],
  ]);
  assert.equal(scoped(t[3]!, 'string.quoted').join(''), "'O'Brien, J.'", 'a quote closes only before whitespace (CIF 1.1)');
  assert.ok(
    t.slice(5, 8).every((line) => line.every(([, s]) => s.startsWith('string.unquoted.text-field.cif'))),
    JSON.stringify(t.slice(5, 8)),
  );
  assert.deepEqual(t[8], [['loop_', 'keyword.control.cif']]);
  assert.deepEqual(t[11], [
    ['Na1', ''],
    ['0.0', 'constant.numeric.cif'],
    ['?', 'constant.language.cif'],
    ['.', 'constant.language.cif'],
  ]);
  assert.equal(scoped(t[12]!, 'string.quoted.double').join(''), '"half open', 'an unclosed quote ends with its line');
  assert.deepEqual(await cif(['_next 1']), [
    [
      ['_next', 'entity.name.tag.cif'],
      ['1', 'constant.numeric.cif'],
    ],
  ]);
});

test('CIF 2.0 triple-quoted strings span lines; a word with a # inside is not a comment', async () => {
  const t = await cif(["_note '''two", "lines'''", '_x a#b']);
  assert.equal(scoped(t[0]!, 'string.quoted.triple').join(''), "'''two", JSON.stringify(t));
  assert.ok(
    t[1]!.every(([, s]) => s === 'string.quoted.triple.cif'),
    JSON.stringify(t),
  );
  assert.deepEqual(scoped(t[2]!, 'comment'), []);
});

test("extended XYZ: the count, the comment line's key=value pairs (quoted, numbers, words), elements and numbers of each atom", async () => {
  const t = await xyz(
    lines(
      '2\nLattice="5.0 0 0 0 5.0 0 0 0 5.0" Properties=species:S:1:pos:R:3:move_mask:L:1 energy=-10.5 pbc="T T T"\nSi 0.0 0.0 0.0 T\nSi 1.3 1.3 1.3 F\n2\nplain comment\nO 0 0 0\nH 0.96 0 0',
    ),
  );
  assert.deepEqual(t[0], [['2', 'constant.numeric.integer.count.xyz']]);
  assert.deepEqual(scoped(t[1]!, 'attribute-name'), ['Lattice', 'Properties', 'energy', 'pbc']);
  assert.deepEqual(scoped(t[1]!, 'string.quoted'), ['"5.0 0 0 0 5.0 0 0 0 5.0"', '"T T T"']);
  assert.deepEqual(scoped(t[1]!, 'constant.numeric'), ['-10.5']);
  assert.deepEqual(scoped(t[1]!, 'string.unquoted'), ['species:S:1:pos:R:3:move_mask:L:1']);
  assert.deepEqual(t[2], [
    ['Si', 'entity.name.type.element.xyz'],
    ['0.0', 'constant.numeric.xyz'],
    ['0.0', 'constant.numeric.xyz'],
    ['0.0', 'constant.numeric.xyz'],
    ['T', 'constant.language.boolean.xyz'],
  ]);
  assert.deepEqual(t[4], [['2', 'constant.numeric.integer.count.xyz']], 'the second frame');
  assert.deepEqual(t[5], [['plain comment', 'comment.line.xyz']]);
  assert.deepEqual(scoped(t[7]!, 'element'), ['H']);
});

test('XDATCAR: elements, numbers, each configuration line', async () => {
  const t = await xdatcar(lines('Si2\n1.0\n5.43 0 0\nSi\n2\nDirect configuration=     1\n0.0 0 0\n0.25 0.25 0.25'));
  assert.deepEqual(t[0], [['Si2', '']], 'the system line is free text');
  assert.deepEqual(t[3], [['Si', 'entity.name.type.element.xdatcar']]);
  assert.deepEqual(t[5], [
    ['Direct configuration=', 'keyword.control.configuration.xdatcar'],
    ['1', 'constant.numeric.integer.xdatcar'],
  ]);
  assert.deepEqual(scoped(t[7]!, 'constant.numeric'), ['0.25', '0.25', '0.25']);
});

test('OUTCAR: iteration headings, the blocks read, energies, INCAR tags, convergence, numbers', async () => {
  const t = await outcar(
    lines(
      '--------------------------------------- Iteration      1(   1)  ---------------------------------------\n' +
        ' POSITION                                       TOTAL-FORCE (eV/Angst)\n' +
        '  free  energy   TOTEN  =       -34.00709600 eV\n' +
        '   NSW    =      5    number of steps for IOM\n' +
        ' reached required accuracy - stopping structural energy minimisation\n' +
        '      1.38120      0.67346     -0.00000        -0.011071     -0.023470      0.000000',
    ),
  );
  assert.equal(t[0]![0]![1], 'markup.heading.iteration.outcar');
  assert.equal(t[1]![0]![1], 'markup.heading.block.outcar');
  assert.deepEqual(t[2], [
    ['free  energy   TOTEN', 'keyword.other.energy.outcar'],
    ['=', 'keyword.operator.outcar'],
    ['-34.00709600', 'constant.numeric.outcar'],
    ['eV', ''],
  ]);
  assert.deepEqual(scoped(t[3]!, 'variable.parameter'), ['NSW']);
  assert.equal(t[4]![0]![1], 'markup.inserted.converged.outcar');
  assert.equal(scoped(t[5]!, 'constant.numeric').length, 6);
});

test('hostile lines of 5,000 characters tokenize in well under 2 s in every grammar: no catastrophic backtracking', async () => {
  const n = 5_000;
  const hostile = [
    '1'.repeat(n) + 'x',
    " 'a".repeat(n / 3),
    ' "a'.repeat(n / 3),
    'a'.repeat(n) + ' ',
    ' a'.repeat(n / 2),
    ' 1.'.repeat(n / 3) + 'e',
    ' _'.repeat(n / 2),
    ' k='.repeat(n / 3),
    ' 1(1'.repeat(n / 4),
    '-'.repeat(n) + 'Iteration',
  ];
  for (const [name, grammar] of Object.entries(GRAMMARS)) {
    const g = await grammar;
    // After a count line, so that extended XYZ's comment-line rule is open too.
    const after = g.tokenizeLine('5', INITIAL).ruleStack;
    const ms = await cpuMs(() => {
      for (const line of hostile) g.tokenizeLine(line, after);
    });
    assert.ok(ms < 2000, `${name}: ${ms.toFixed(0)} ms of CPU`);
  }
});
