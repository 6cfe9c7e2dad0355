import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parsePoscar, type PoscarDiagnostic, type SourceRange } from '../../../../src/core/poscar/index';
import { cpuMs, leastUnder } from '../../../support/linearity';
import { NACL, withLine } from '../../../support/poscarSamples';

/** The text a range covers. */
const covered = (text: string, r: SourceRange) => (text.split(/\r\n|\r|\n/)[r.line] ?? '').slice(r.start, r.end);

interface Expected {
  line: number;
  severity: PoscarDiagnostic['severity'];
  code: string;
  message: string | RegExp;
  /** The text the range covers. */
  token: string;
}

/** Exactly these diagnostics, in this order. */
function expectDiagnostics(text: string, expected: Expected[]) {
  const { diagnostics } = parsePoscar(text);
  const describe = diagnostics.map((d) => `${d.severity} ${d.code} ${d.message} [${covered(text, d.range)}]`).join('\n');
  assert.equal(diagnostics.length, expected.length, describe);
  expected.forEach((e, i) => {
    const d = diagnostics[i]!;
    assert.equal(d.range.line + 1, e.line, describe);
    assert.equal(d.severity, e.severity, describe);
    assert.equal(d.code, e.code, describe);
    if (typeof e.message === 'string') assert.equal(d.message, e.message);
    else assert.match(d.message, e.message);
    assert.equal(covered(text, d.range), e.token, describe);
  });
}

const error = (line: number, code: string, message: string | RegExp, token: string): Expected => ({
  line,
  severity: 'error',
  code,
  message,
  token,
});
const warning = (line: number, code: string, message: string | RegExp, token: string): Expected => ({
  line,
  severity: 'warning',
  code,
  message,
  token,
});

test('counts: words, negative and fractional numbers are errors; the structure is not built', () => {
  const huge = '9'.repeat(20);
  const cases: [string, string, string][] = [
    ['4 two', 'counts-not-integer', 'two'],
    ['4 -4', 'counts-negative', '-4'],
    ['4 2.5', 'counts-not-integer', '2.5'],
    [`4 ${huge}`, 'counts-not-integer', huge],
  ];
  for (const [counts, code, token] of cases) {
    const text = withLine(NACL, 7, counts);
    expectDiagnostics(text, [
      error(7, code, `Line 7: the counts line must hold positive whole numbers, one per species (found '${token}')`, token),
    ]);
    assert.equal(parsePoscar(text).poscar, undefined);
  }
  expectDiagnostics(withLine(NACL, 7, '! no counts'), [
    error(7, 'counts-not-integer', 'Line 7: the counts line holds no numbers, only a comment', '! no counts'),
  ]);
});

test('counts: a trailing ! or # comment is allowed; a zero count is a warning', () => {
  assert.deepEqual(parsePoscar(withLine(NACL, 7, '4 4 ! Na Cl')).diagnostics, []);
  const zero = withLine(withLine(NACL, 6, 'Na Cl Ar'), 7, '4 4 0');
  expectDiagnostics(zero, [
    warning(
      7,
      'count-zero',
      'Line 7: 0 atoms of Ar: VASP stops on a species without atoms; remove it from the names, the counts and the POTCAR',
      '0',
    ),
  ]);
  assert.equal(parsePoscar(zero).poscar!.sites.length, 8);
});

test('names and counts of different lengths: an error, the structure still read with a placeholder', () => {
  const text = withLine(NACL, 7, '4 2 2');
  expectDiagnostics(text, [
    error(7, 'species-counts-mismatch', 'Line 7: 3 counts for 2 element names (Na Cl): give one count per species', '4 2 2'),
  ]);
  assert.deepEqual(parsePoscar(text).poscar!.species, ['Na', 'Cl', 'X3']);
  const fewer = withLine(NACL, 7, '8');
  expectDiagnostics(fewer, [error(7, 'species-counts-mismatch', /^Line 7: 1 count for 2 element names/, '8')]);
  assert.deepEqual(parsePoscar(fewer).poscar!.species, ['Na']);
});

test('scale: zero, not a number, two numbers, a non-positive triple', () => {
  expectDiagnostics(withLine(NACL, 2, '0.0'), [
    error(2, 'scale-zero', 'Line 2: the scale factor is 0: give a positive factor, or the cell volume in Å³ as a negative number', '0.0'),
  ]);
  expectDiagnostics(withLine(NACL, 2, 'abc'), [
    error(2, 'scale-not-number', "Line 2: the scale factor must be a number (found 'abc')", 'abc'),
  ]);
  expectDiagnostics(withLine(NACL, 2, 'NaN'), [
    error(2, 'scale-not-number', "Line 2: the scale factor must be a number (found 'NaN')", 'NaN'),
  ]);
  expectDiagnostics(withLine(NACL, 2, '1e400'), [
    error(2, 'scale-not-number', "Line 2: the scale factor must be a number (found '1e400')", '1e400'),
  ]);
  expectDiagnostics(withLine(NACL, 2, '1.0 2.0'), [
    error(2, 'scale-count', /^Line 2: the scale line holds one number .* or three .*, not two$/, '1.0 2.0'),
  ]);
  expectDiagnostics(withLine(NACL, 2, '1 -1 1'), [
    error(2, 'scale-not-positive', "Line 2: three scale factors (one per Cartesian axis) must all be positive (found '-1')", '-1'),
  ]);
  expectDiagnostics(withLine(NACL, 2, '1 1 0'), [error(2, 'scale-not-positive', /found '0'/, '0')]);
  // Text after the number is ignored, as VASP and ASE read it.
  assert.deepEqual(parsePoscar(withLine(NACL, 2, '5.64 ! lattice constant')).diagnostics, []);
});

test('lattice: a word, too few numbers, a missing line; extra tokens are ignored', () => {
  expectDiagnostics(withLine(NACL, 4, '0 one 0'), [
    error(4, 'lattice-not-number', "Line 4: the second lattice vector must hold three numbers (found 'one')", 'one'),
  ]);
  expectDiagnostics(withLine(NACL, 5, '0 0'), [
    error(5, 'lattice-not-number', 'Line 5: the third lattice vector needs three numbers (found 2)', '0 0'),
  ]);
  expectDiagnostics('NaCl\n5.64\n1 0 0\n0 1 0\n', [error(5, 'missing-line', 'Line 5: the file ends before the third lattice vector', '')]);
  expectDiagnostics(withLine(NACL, 4, ''), [
    error(4, 'missing-line', 'Line 4: the line is blank where the second lattice vector should be', ''),
  ]);
  assert.deepEqual(parsePoscar(withLine(NACL, 3, '1 0 0 a-vector')).diagnostics, []);
  // Errors in scale and counts are all reported together.
  const both = parsePoscar(withLine(withLine(NACL, 2, 'x'), 7, 'y 4'));
  assert.deepEqual(
    both.diagnostics.map((d) => [d.range.line + 1, d.code]),
    [
      [2, 'scale-not-number'],
      [7, 'counts-not-integer'],
    ],
  );
});

test('the file ends early: each missing part named, at the end of the last line (never past the document)', () => {
  const cut = (lines: number) => NACL.split('\n').slice(0, lines).join('\n');
  expectDiagnostics(cut(1), [error(1, 'missing-line', 'Line 1: the file ends before the scale factor', '')]);
  expectDiagnostics(cut(5), [error(5, 'missing-line', 'Line 5: the file ends before the element names and atom counts', '')]);
  expectDiagnostics(cut(6), [error(6, 'missing-line', 'Line 6: the file ends before the atom counts', '')]);
  expectDiagnostics(cut(7), [error(7, 'missing-line', 'Line 7: the file ends before the coordinate mode line (Direct or Cartesian)', '')]);
  expectDiagnostics(`${cut(1)}\n`, [error(2, 'missing-line', 'Line 2: the file ends before the scale factor', '')]);
  expectDiagnostics(cut(8), [
    error(7, 'too-few-sites', 'Line 7: the counts add up to 8 atoms, but no coordinate lines follow before the file ends', '4 4'),
  ]);
  for (const text of ['', ' \n\t\n', '\r\n']) {
    expectDiagnostics(text, [error(1, 'empty-file', /^Line 1: the file is empty/, '')]);
  }
});

test('a singular lattice is an error, a left-handed one a warning', () => {
  const singular = withLine(NACL, 5, '1 1 0');
  expectDiagnostics(singular, [
    error(3, 'lattice-singular', 'Line 3: the three lattice vectors lie in one plane (zero cell volume): check the lattice lines', '1 0 0'),
  ]);
  assert.ok(parsePoscar(singular).poscar, 'the header was read');
  expectDiagnostics(withLine(NACL, 2, '1e200'), [
    error(3, 'lattice-overflow', /^Line 3: the scaled lattice vectors are too large to compute with/, '1 0 0'),
  ]);
  const left = withLine(NACL, 5, '0 0 -1');
  expectDiagnostics(left, [
    warning(3, 'left-handed-lattice', /^Line 3: the lattice vectors are left-handed \(a·\(b×c\) = -179\.406 Å³ is negative\)/, '1 0 0'),
  ]);
});

test('fewer coordinate lines than the counts say: at the counts line, saying where they stop', () => {
  expectDiagnostics(withLine(NACL, 16, undefined), [
    error(7, 'too-few-sites', 'Line 7: the counts add up to 8 atoms, but only 7 coordinate lines follow before the file ends', '4 4'),
  ]);
  const blank = withLine(NACL, 12, '');
  expectDiagnostics(blank, [
    error(7, 'too-few-sites', 'Line 7: the counts add up to 8 atoms, but only 3 coordinate lines follow before the blank line 12', '4 4'),
  ]);
  const { poscar } = parsePoscar(blank);
  assert.equal(poscar!.sites.length, 3);
  assert.deepEqual(poscar!.lines.sitesBySpecies, [
    { first: 8, last: 10 },
    { first: 12, last: 10 },
  ]);
});

test('more coordinate lines than the counts say: a warning on the first extra line', () => {
  expectDiagnostics(`${NACL}0.25 0.25 0.25\n`, [
    warning(
      17,
      'extra-coordinate-lines',
      'Line 17: more coordinate lines than the counts say (8 atoms): this line is ignored',
      '0.25 0.25 0.25',
    ),
  ]);
  expectDiagnostics(`${NACL}0.25 0.25 0.25\n0.75 0.75 0.75\n0.1 0.1 0.1\n`, [
    warning(17, 'extra-coordinate-lines', /this line and the 2 after it are ignored$/, '0.25 0.25 0.25'),
  ]);
});

test('coordinate lines: words and too few numbers are errors on the token; the rest of the sites are read', () => {
  const word = withLine(NACL, 10, '0 abc 0.5');
  expectDiagnostics(word, [error(10, 'coordinates-not-number', "Line 10: a coordinate line needs three numbers (found 'abc')", 'abc')]);
  assert.equal(parsePoscar(word).poscar!.sites.length, 7);
  expectDiagnostics(withLine(NACL, 10, '0 0.5'), [
    error(10, 'coordinates-too-few', 'Line 10: a coordinate line needs three numbers (found 2)', '0 0.5'),
  ]);
  expectDiagnostics(withLine(NACL, 10, '0 Infinity 0'), [error(10, 'coordinates-not-number', /found 'Infinity'/, 'Infinity')]);
});

test('numbers run together by fixed-width output are split, with a warning', () => {
  const text = withLine(NACL, 16, '0.5-0.25-0.125');
  expectDiagnostics(text, [
    warning(
      16,
      'coordinates-run-together',
      "Line 16: numbers run together ('0.5-0.25-0.125'), read as 0.5, -0.25, -0.125: widen the columns to be safe",
      '0.5-0.25-0.125',
    ),
  ]);
  assert.deepEqual(parsePoscar(text).poscar!.sites[7]!.frac, [0.5, -0.25, -0.125]);
  assert.deepEqual(parsePoscar(withLine(NACL, 16, '0.5 1.0e-5-0.5')).poscar!.sites[7]!.frac, [0.5, 1e-5, -0.5]);
});

test('selective dynamics: flags that are not three T/F are errors on the token', () => {
  const selective = NACL.replace('Direct', 'Selective dynamics\nDirect')
    .split('\n')
    .map((l, i) => (i >= 9 && l ? `${l} T T T` : l))
    .join('\n');
  assert.deepEqual(parsePoscar(selective).diagnostics, []);
  expectDiagnostics(withLine(selective, 10, '0 0 0 T X F'), [
    error(
      10,
      'selective-flags',
      "Line 10: under Selective dynamics each coordinate line needs three T or F flags after the numbers (found 'X')",
      'X',
    ),
  ]);
  expectDiagnostics(withLine(selective, 10, '0 0 0 T T'), [
    error(10, 'selective-flags', /needs three T or F flags after the numbers \(found only 2\)$/, 'T T'),
  ]);
  expectDiagnostics(withLine(selective, 10, '0 0 0'), [error(10, 'selective-flags', /\(found none\)$/, '0')]);
});

test('the coordinate mode line: missing (numbers instead) is an error, blank a warning', () => {
  expectDiagnostics(withLine(NACL, 8, undefined), [
    error(
      8,
      'mode-line-missing',
      'Line 8: expected the coordinate mode line (Direct or Cartesian), found numbers: is the line missing?',
      '0 0 0',
    ),
  ]);
  const blank = withLine(NACL, 8, '');
  expectDiagnostics(blank, [warning(8, 'mode-line-blank', /^Line 8: the coordinate mode line is blank: VASP and ASE read Direct/, '')]);
  assert.equal(parsePoscar(blank).poscar!.coordinateMode, 'Direct');
});

test('element names: unknown symbols are warnings; the density is then unknown', () => {
  const text = withLine(NACL, 6, 'Na Xx');
  expectDiagnostics(text, [
    warning(6, 'unknown-element', "Line 6: 'Xx' is not an element symbol: masses and the density are unknown for it", 'Xx'),
  ]);
  assert.deepEqual(parsePoscar(text).poscar!.species, ['Na', 'Xx']);
});

test('close contacts: each pair once, periodic images counted, capped at 20 plus a summary', () => {
  const cell = 'cell\n1.0\n10 0 0\n0 10 0\n0 0 10\n';
  expectDiagnostics(`${cell}H\n2\nDirect\n0.01 0 0\n0.99 0 0\n`, [
    warning(
      10,
      'close-contact',
      'Line 10: this H atom is 0.200 Å from the H atom on line 9, closer than 0.5 Å (periodic images counted)',
      '0.99 0 0',
    ),
  ]);
  const crowd = `${cell}Ar\n30\nCartesian\n${'5 5 5\n'.repeat(30)}`;
  const { diagnostics } = parsePoscar(crowd);
  assert.equal(diagnostics.length, 21);
  assert.ok(diagnostics.slice(0, 20).every((d) => d.code === 'close-contact'));
  assert.deepEqual(
    diagnostics.map((d) => d.range.line),
    [...diagnostics.map((d) => d.range.line)].sort((a, b) => a - b),
    'sorted by line',
  );
  const more = diagnostics.find((d) => d.code === 'close-contacts-more')!;
  assert.match(more.message, /^Line \d+: … and 415 more pairs of atoms closer than 0\.5 Å$/);
  const thin = parsePoscar('thin\n1.0\n0.4 0 0\n0 5 0\n0 0 5\nHe\n1\nDirect\n0 0 0\n');
  assert.deepEqual(
    thin.diagnostics.map((d) => d.message),
    ['Line 9: this He atom is 0.400 Å from its own periodic image: the cell repeats within 0.5 Å'],
  );
});

test('CONTCAR blocks: broken velocities and lattice velocities are warnings, the structure stays', () => {
  const velocities = `${NACL}\n${'0 0 0\n'.repeat(7)}`;
  expectDiagnostics(velocities, [
    warning(18, 'velocities-count', 'Line 18: 7 velocity lines for 8 atoms: the velocities are ignored', '0 0 0'),
  ]);
  assert.equal(parsePoscar(velocities).poscar!.velocities, undefined);
  const word = `${NACL}\n${'0 0 0\n'.repeat(3)}0 fast 0\n${'0 0 0\n'.repeat(4)}`;
  expectDiagnostics(word, [
    warning(21, 'velocities-bad', "Line 21: an atomic velocity needs three numbers (found 'fast'): the velocities are ignored", 'fast'),
  ]);
  const ended = `${NACL}Lattice velocities and vectors`;
  expectDiagnostics(ended, [
    warning(
      17,
      'lattice-velocities-bad',
      'Line 17: the file ends inside the lattice velocities block (a flag line and 6 rows of three numbers): the block is ignored',
      'Lattice velocities and vectors',
    ),
  ]);
  const lattice = `${NACL}Lattice velocities and vectors\n  1\n0 0 0\n0 0 0\n0 0 0\n0 0\n0 0 0\n0 0 0\n`;
  expectDiagnostics(lattice, [
    warning(
      22,
      'lattice-velocities-bad',
      'Line 22: the lattice velocities block needs three numbers on each of its 6 rows after the flag line (found 2): the block is ignored',
      '0 0',
    ),
  ]);
  assert.equal(parsePoscar(lattice).poscar!.latticeVelocities, undefined);
});

test('every diagnostic: "Line N: " matching its range, a kebab-case code, a range inside the text', () => {
  const dir = join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'poscar');
  const texts = [NACL, ...readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'))];
  for (const text of [...texts, ...mutations(texts, Number(process.env.POSCAR_MUTATIONS ?? 400))]) checkInvariants(text);
});

test('hostile input stays fast: long lines, long numbers, many tokens', async () => {
  const hostile = [
    withLine(NACL, 9, `${'1'.repeat(200_000)}x 0 0`),
    withLine(NACL, 2, `${'1'.repeat(200_000)}.${'2'.repeat(200_000)}e`),
    withLine(NACL, 6, 'Na '.repeat(100_000)),
    withLine(NACL, 7, '9'.repeat(400)),
    withLine(NACL, 7, '99999999 1'),
    `${NACL}\n${'0 0 0 '.repeat(100_000)}\n`,
    withLine(NACL, 9, '-'.repeat(200_000)),
  ];
  for (const text of hostile) {
    // CPU time, measured again (up to three times) when the other test lane inflated it past the bound.
    const { least } = await leastUnder(() => cpuMs(() => checkInvariants(text)), 1000);
    assert.ok(least < 1000, `${least.toFixed(0)} ms`);
  }
});

function checkInvariants(text: string) {
  let result;
  try {
    result = parsePoscar(text);
  } catch (e) {
    assert.fail(`parsePoscar threw ${String(e)} on ${JSON.stringify(text.slice(0, 300))}`);
  }
  const lines = text.split(/\r\n|\r|\n/);
  // The line after the last one may carry "the file ends" errors; a final line break starts no line.
  const lastLine = lines.length - (lines.length > 1 && lines[lines.length - 1] === '' ? 1 : 0);
  const where = JSON.stringify(text.slice(0, 200));
  for (const d of result.diagnostics) {
    assert.ok(d.message.startsWith(`Line ${d.range.line + 1}: `), `${d.message} ${where}`);
    assert.match(d.code, /^[a-z]+(-[a-z]+)*$/);
    assert.ok(['error', 'warning', 'info'].includes(d.severity));
    assert.ok(d.range.line >= 0 && d.range.line <= lastLine, `${d.message} ${where}`);
    assert.ok(
      d.range.start >= 0 && d.range.start <= d.range.end && d.range.end <= (lines[d.range.line] ?? '').length,
      `${JSON.stringify(d)} ${where}`,
    );
  }
  const lineNumbers = result.diagnostics.map((d) => d.range.line);
  assert.deepEqual(
    lineNumbers,
    [...lineNumbers].sort((a, b) => a - b),
    'sorted by line',
  );
  const errors = result.diagnostics.some((d) => d.severity === 'error');
  if (!result.poscar) assert.ok(errors, `no structure without an error: ${where}`);
  if (!errors) assert.ok(result.poscar, `a structure without errors: ${where}`);
  if (result.poscar) {
    for (const site of result.poscar.sites) assert.ok(site.cart.every(Number.isFinite) || errors, `finite positions: ${where}`);
  }
}

/** mulberry32: a seeded PRNG, so a failing mutation is reproduced from the seed. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_TOKENS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '-1e400',
  '1e-400',
  '0',
  '-0',
  'T',
  'F',
  'Selective',
  'Cartesian',
  'Direct',
  'Lattice',
  '99999999999999999999',
  '-5',
  '\u0000',
  '😀',
  '\ud800',
  'D',
  '.',
  '-',
  '+',
  'e5',
  '1e',
  '1D-3',
  '0.5-0.5',
  '!',
  '#',
  'Xx',
  'Fe_pv',
];
const ODD_CHARS = ['\r', '\n', '\t', ' ', '\u2028', '\u00a0', '\ufeff', '-', '.', 'e', 'D', '0', '9', 'S', 'L', 'C', '/', '_', '\ud83d'];

function mutations(texts: string[], n: number): string[] {
  const random = rng(20_240_601);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const edits: ((text: string) => string)[] = [
    (t) => withLine(t, 1 + Math.floor(random() * t.split('\n').length), undefined),
    (t) => withLine(t, 1 + Math.floor(random() * t.split('\n').length), ''),
    (t) => {
      const lines = t.split('\n');
      const i = Math.floor(random() * lines.length);
      lines.splice(i, 0, lines[Math.floor(random() * lines.length)]!);
      return lines.join('\n');
    },
    (t) => {
      const tokens = t.split(/(\s+)/);
      const [i, j] = [Math.floor(random() * tokens.length), Math.floor(random() * tokens.length)];
      [tokens[i], tokens[j]] = [tokens[j]!, tokens[i]!];
      return tokens.join('');
    },
    (t) => {
      const tokens = t.split(/(\s+)/);
      tokens[Math.floor(random() * tokens.length)] = pick(ODD_TOKENS);
      return tokens.join('');
    },
    (t) => {
      const at = Math.floor(random() * t.length);
      return t.slice(0, at) + pick(ODD_CHARS) + t.slice(at + 1);
    },
    (t) => t.slice(0, Math.floor(random() * t.length)),
    () => Array.from({ length: 1 + Math.floor(random() * 200) }, () => String.fromCharCode(Math.floor(random() * 0x3000))).join(''),
  ];
  return Array.from({ length: n }, () => {
    let text = pick(texts);
    for (let k = 0; k < 1 + Math.floor(random() * 3); k++) text = pick(edits)(text);
    return text;
  });
}
