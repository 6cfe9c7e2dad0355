import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorsOf, parseDiffraction, toXrdData } from '../../../../src/core/diffraction/parse';
import { MALFORMED_DIFFRACTION } from '../../../support/diffractionCases';

test('points: spaces, tabs, commas; comments, blank lines and a header of words are skipped', () => {
  const data = parseDiffraction('# Cu Ka\n2theta intensity\n\n28.44 100\n47.30\t55\n56.12, 30\r\n! end\n69.1;1.2e1\n');
  assert.deepEqual(
    data.points.map((p) => [p.angle, p.intensity, p.line]),
    [
      [28.44, 100, 3],
      [47.3, 55, 4],
      [56.12, 30, 5],
      [69.1, 12, 7],
    ],
  );
  assert.deepEqual(data.diagnostics, []);
  assert.equal(toXrdData(data.points), '28.44 100\n47.3 55\n56.12 30\n69.1 12');
});

test('a line that is not two numbers is an error on the offending token', () => {
  const data = parseDiffraction('28.44 100\n30.0 abc\n31\n32 1 2\n');
  assert.deepEqual(
    errorsOf(data).map((d) => [d.code, d.line, d.start, d.end]),
    [
      ['not-two-numbers', 1, 5, 8],
      ['not-two-numbers', 2, 0, 2],
      ['not-two-numbers', 3, 0, 6],
    ],
  );
  assert.match(errorsOf(data)[0]!.message, /Line 2: expected two numbers.*'abc', not a number/);
  assert.match(errorsOf(data)[2]!.message, /3 values/);
});

test('an angle outside 0-180 and a negative intensity are errors; a decreasing angle is a warning', () => {
  const data = parseDiffraction('10 5\n190 5\n20 -3\n15 1\n0 2\nNaN 3\n');
  const codes = data.diagnostics.map((d) => [d.severity, d.code, d.line]);
  assert.deepEqual(codes, [
    ['error', 'angle-range', 1],
    ['error', 'negative-intensity', 2],
    ['warning', 'not-increasing', 3],
    ['error', 'angle-range', 4],
    ['error', 'not-two-numbers', 5],
  ]);
  assert.equal(data.diagnostics[1]!.start, 3);
});

test('an empty file or only comments: no data', () => {
  assert.deepEqual(
    parseDiffraction('').diagnostics.map((d) => d.code),
    ['no-data'],
  );
  assert.deepEqual(
    parseDiffraction('# nothing\n\n').diagnostics.map((d) => d.code),
    ['no-data'],
  );
  // Words after data are not a header.
  assert.deepEqual(
    parseDiffraction('10 1\nangle intensity\n').diagnostics.map((d) => d.code),
    ['not-two-numbers'],
  );
});

test('the shared malformed cases: each error on its line', () => {
  for (const { name, text, errorLines } of MALFORMED_DIFFRACTION)
    assert.deepEqual(
      errorsOf(parseDiffraction(text)).map((d) => d.line + 1),
      errorLines,
      name,
    );
});
