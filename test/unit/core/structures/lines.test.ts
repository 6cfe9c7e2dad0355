/**
 * The trajectory readers' in-place reading agrees with the scan it replaces on the hot path: TextLines with
 * SourceText (lines, count, tokens, blank lines, for \n, \r\n and \r), Fields' own number reading with
 * parseNumber (Number(), the double every reader gave before), Fields.scanReading, Fields.triple and
 * Fields.lone with scan + number, and clearlyRegular with readCell (it accepts only cells readCell reads
 * without a problem or warning, to the same numbers). Seeded fast-check over the characters that matter.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { clearlyRegular, readCell } from '../../../../src/core/poscar/header';
import { parseNumber } from '../../../../src/core/poscar/numbers';
import { Report } from '../../../../src/core/poscar/report';
import { SourceText } from '../../../../src/core/poscar/text';
import { Fields } from '../../../../src/core/structures/fields';
import { TextLines } from '../../../../src/core/structures/lines';

const SEED = 20261128;

test('TextLines reads the lines SourceText splits: same count, text, tokens and blank lines', () => {
  const text = fc.string({ unit: fc.constantFrom('a', '1', ' ', '\t', '\n', '\r', '\r\n', '\u00a0', '='), maxLength: 40 });
  fc.assert(
    fc.property(text, (t) => {
      const [ours, theirs] = [new TextLines(t), new SourceText(t)];
      assert.equal(ours.count, theirs.count);
      assert.deepEqual(ours.lines, theirs.lines);
      for (let k = 0; k <= theirs.count + 1; k++) {
        assert.equal(ours.line(k), k < theirs.count ? theirs.lines[k] : '');
        assert.deepEqual(ours.tokens(k), theirs.tokens(k));
        assert.equal(ours.isBlank(k), theirs.isBlank(k));
        assert.equal(ours.same(k, 0), k < theirs.count && theirs.lines[k] === theirs.lines[0]);
        const upTo = (s: string | undefined) => s?.split('=', 1)[0];
        assert.equal(ours.same(k, 0, 61), k < theirs.count && upTo(theirs.lines[k]) === upTo(theirs.lines[0]));
      }
    }),
    { seed: SEED, numRuns: 3000 },
  );
});

/** Numerals as files write them and as they should not: signs, '.5', '5.', exponents (E, D), too many digits, nan and inf. */
const numeral = (() => {
  const digits = (max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: max });
  const exponent = fc.tuple(fc.constantFrom(...'eEdD'), fc.constantFrom('', '+', '-'), digits(4)).map((parts) => parts.join(''));
  const written = fc
    .tuple(fc.constantFrom('', '+', '-'), digits(18), fc.constantFrom('', '.'), digits(18), fc.option(exponent, { nil: '' }))
    .map((parts) => parts.join(''));
  const odd = fc.constantFrom(
    'nan',
    'NaN',
    'inf',
    '-inf',
    'Infinity',
    '+Infinity',
    '1e',
    '1e+',
    '.',
    '-.',
    '+-1',
    '1e400',
    '1e-400',
    '0x10',
    '1_0',
  );
  return fc
    .oneof(
      written,
      fc.double().map(String),
      fc.tuple(fc.double(), fc.nat(16)).map(([x, digits]) => x.toExponential(digits)),
      odd,
    )
    .filter((t) => t !== '');
})();

test('Fields reads a number as parseNumber does, the double Number() gives: exponents, signs, .5 and 5. included', () => {
  const fields = new Fields();
  fc.assert(
    fc.property(numeral, (t) => {
      const expected = parseNumber(t);
      if (expected !== undefined) assert.ok(Object.is(expected, Number(t.replace(/[dD]/, 'e'))), t);
      assert.ok(Object.is(fields.scan(t).number(0), expected), `${t}: ${fields.number(0)}, not ${expected}`);
    }),
    { seed: SEED, numRuns: 50_000 },
  );
  // Read in one pass, without parseNumber, when a file writes them so.
  const line = '  1.5E-3 -2.5d+2 .5 5. +7 -0.0 1e-22 4.2e+22 0.28023699 ';
  assert.ok(fields.scanReading(line, 0, line.length, new Uint8Array(9).fill(1)));
  assert.deepEqual([...fields.values.subarray(0, 9)], [1.5e-3, -250, 0.5, 5, 7, -0, 1e-22, 4.2e22, 0.28023699]);
});

test('Fields.scanReading takes a line only as scan + number read it, to the same doubles, fields and columns', () => {
  const line = fc.array(fc.tuple(fc.constantFrom(' ', '  ', '\t', '\u00a0', ''), fc.oneof(numeral, fc.constantFrom('Fe', 'x', '#'))), {
    maxLength: 6,
  });
  const fields = new Fields();
  fc.assert(
    fc.property(line, fc.array(fc.boolean(), { maxLength: 7 }), (parts, wanted) => {
      const text = `#${parts.map(([space, f]) => space + f).join('')}#`; // read between the two marks
      const numbers = Uint8Array.from(wanted, (w) => (w ? 1 : 0));
      const scanned = new Fields().scan(text.slice(1, -1));
      if (!fields.scanReading(text, 1, text.length - 1, numbers)) return; // the reader scans the line and reads it field by field
      assert.equal(fields.count, scanned.count);
      for (let k = 0; k < scanned.count; k++) {
        assert.deepEqual(fields.range(0, k), scanned.range(0, k));
        if (numbers[k] === 1) assert.ok(Object.is(fields.values[k], scanned.number(k)), scanned.text(k));
      }
    }),
    { seed: SEED, numRuns: 10_000 },
  );
});

test('Fields.triple and Fields.lone take a line only as scan + number read it, to the same doubles', () => {
  const field = fc.string({ unit: fc.constantFrom('0', '1', '7', '9', '.', '-', '+', 'e', 'D', 'x'), maxLength: 19 });
  const line = fc.array(fc.tuple(fc.constantFrom(' ', '  ', '\t', '\u00a0', ''), field), { maxLength: 5 });
  const fields = new Fields();
  const out = new Float64Array(4);
  fc.assert(
    fc.property(line, (parts) => {
      const text = `#${parts.map(([space, f]) => space + f).join('')}#`; // read between the two marks
      const [start, end] = [1, text.length - 1];
      const scanned = new Fields().scan(text.slice(start, end));
      const numbers = Array.from({ length: scanned.count }, (_, k) => scanned.number(k));
      if (fields.triple(text, start, end, out, 1)) {
        assert.ok(scanned.count >= 3);
        assert.deepEqual([...out.subarray(1)], numbers.slice(0, 3));
      }
      if (fields.lone(text, start, end, out, 0)) assert.deepEqual([out[0]], numbers);
    }),
    { seed: SEED, numRuns: 5000 },
  );
  // A line VASP writes is taken (the fast path is the common one).
  assert.ok(fields.triple('  0.86170179  0.43685065 -0.39103152 Fe', 0, 39, out, 0));
  assert.deepEqual([...out.subarray(0, 3)], [0.86170179, 0.43685065, -0.39103152]);
});

test('clearlyRegular accepts only cells readCell reads without a problem or warning, to the same numbers', () => {
  // Near every limit: thin, flat, left-handed, huge and tiny cells, and ordinary ones.
  const entry = fc.oneof(
    fc.double({ min: -12, max: 12, noNaN: true }),
    fc.constantFrom(0, 1e-3, -1e-3, 9.9e5, 1e6, 1.01e6, 0.0101, 0.0099, 0.01),
  );
  fc.assert(
    fc.property(fc.array(entry, { minLength: 9, maxLength: 9 }), (values) => {
      const m = Float64Array.from(values);
      if (!clearlyRegular(m)) return;
      const write = (v: number) => (Object.is(v, -0) ? '-0' : String(v));
      const rows = [0, 3, 6].map((k) =>
        values
          .slice(k, k + 3)
          .map(write)
          .join(' '),
      );
      const report = new Report();
      const { cell } = readCell(new SourceText(`cell\n1.0\n${rows.join('\n')}\n`), report);
      assert.deepEqual(report.diagnostics, []);
      assert.deepEqual(cell?.lattice.flat(), values);
    }),
    { seed: SEED, numRuns: 20_000 },
  );
  assert.ok(clearlyRegular(Float64Array.of(4, 0, 0, 0, 4, 0, 0, 0, 4)));
  assert.ok(!clearlyRegular(Float64Array.of(0, 4, 0, 4, 0, 0, 0, 0, 4)), 'left-handed');
  assert.ok(!clearlyRegular(Float64Array.of(4, 0, 0, 0, 4, 0, 0, 0, 0.0101)), 'near the thickness limit');
});
