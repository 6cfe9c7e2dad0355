/**
 * Redaction of the key as a class: a key a service echoes split by separators, reversed, percent-encoded,
 * hex, base32 or base64, in pieces, and in combinations of these, embedded in random answers, never leaves
 * a piece of the minimum length that keyLeaks.ts (the tests' own reading) can find; ordinary text is left
 * as it was; time stays linear.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { isSeparator, minimumPiece, redact, redactBytes, redactJson, uniqueNames } from '../../../../src/core/service/redact';
import { base32, keyLeak } from '../../../support/keyLeaks';
import { linearRatio } from '../../../support/linearity';

const ALPHABET = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/="\\:'];
const keys = fc.string({ minLength: 8, maxLength: 48, unit: fc.oneof(fc.constantFrom(...ALPHABET), fc.constantFrom('é', '€', 'ß')) });
const SEPARATORS = [
  '\n',
  '\r\n',
  ' ',
  '\t',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '\u0000',
  '\u001b',
  '\u3000',
  '\u{e0020}',
  '\u034f',
];

const reversed = (text: string): string => Array.from(text).reverse().join('');

type Encoding = (piece: string, before: Buffer) => string;
const bytesOf = (piece: string, before: Buffer): Buffer => Buffer.concat([before, Buffer.from(piece)]);
const ENCODINGS: Record<string, Encoding> = {
  raw: (p) => p,
  hex: (p, b) => bytesOf(p, b).toString('hex'),
  HEX: (p, b) => bytesOf(p, b).toString('hex').toUpperCase(),
  mixedHex: (p, b) => [...bytesOf(p, b).toString('hex')].map((c, i) => (i % 3 ? c : c.toUpperCase())).join(''),
  base32: (p, b) => base32(bytesOf(p, b)),
  base32lower: (p, b) => base32(bytesOf(p, b)).toLowerCase(),
  base64: (p, b) => bytesOf(p, b).toString('base64'),
  base64url: (p, b) => bytesOf(p, b).toString('base64url'),
  percent: (p) => encodeURIComponent(p),
  percentAll: (p) => [...Buffer.from(p)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
};

/** One echo of the key: a piece of it (or all), maybe reversed, encoded, maybe reversed again, with separators inserted. */
const echo = (key: string) =>
  fc
    .record({
      from: fc.nat(),
      length: fc.nat(),
      reverseBefore: fc.boolean(),
      encoding: fc.constantFrom(...Object.keys(ENCODINGS)),
      before: fc.uint8Array({ maxLength: 4 }),
      reverseAfter: fc.boolean(),
      separators: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SEPARATORS)), { maxLength: 12 }),
    })
    .map((e) => {
      const chars = Array.from(key);
      const m = minimumPiece(key);
      const length = m + (e.length % (chars.length - m + 1));
      const from = e.from % (chars.length - length + 1);
      let piece = chars.slice(from, from + length).join('');
      if (e.reverseBefore) piece = reversed(piece);
      let text = ENCODINGS[e.encoding]!(piece, Buffer.from(e.before));
      if (e.reverseAfter) text = reversed(text);
      const units = Array.from(text);
      for (const [at, separator] of e.separators) units.splice(at % (units.length + 1), 0, separator);
      return units.join('');
    });

/** A random answer with echoes of the key in it. */
const answers = keys.chain((key) =>
  fc.tuple(
    fc.constant(key),
    fc.array(fc.tuple(fc.string({ maxLength: 30 }), echo(key)), { minLength: 1, maxLength: 3 }).map((parts) => parts.flat().join('')),
  ),
);

test('no piece of the key of the minimum length survives any echo: separated, reversed, encoded, in pieces (property)', () => {
  fc.assert(
    fc.property(answers, ([key, answer]) => {
      const shown = redact(answer, key);
      const leak = keyLeak(shown, key, minimumPiece(key));
      assert.equal(leak, undefined, `${leak} left in ${JSON.stringify(shown)} (key ${JSON.stringify(key)})`);
    }),
    { seed: 41, numRuns: 1000 },
  );
});

test('the reliability pass’s findings: 35 characters split by a newline or a zero-width space, hex, reversed', () => {
  const key = 'tl-9f8A7b6C5d4E3f2G1h0IjKlMnOpQrSt5';
  assert.equal(key.length, 35);
  const echoes = [
    `${key.slice(0, 12)}\n${key.slice(12)}`,
    [...key].join('\u200b'),
    Buffer.from(key).toString('hex'),
    Buffer.from(key).toString('hex').toUpperCase(),
    reversed(key),
  ];
  for (const e of echoes) {
    const shown = redact(`invalid key: ${e} (check it)`, key);
    assert.equal(shown, 'invalid key: *** (check it)', JSON.stringify(e));
  }
});

test('JSON answers: every string and every key of any depth is redacted, numbers and the rest stay', async () => {
  const key = 'tl-9f8A7b6C5d4E3f2G1h0IjKlMnOpQrSt5';
  const leaf = { [`k ${key}`]: [`v ${[...key].join(' ')}`, 1.5, true, null] };
  let deep: unknown = leaf;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  await redactJson(deep, key);
  assert.equal(JSON.stringify(leaf), '{"k ***":["v ***",1.5,true,null]}');
  assert.equal(await redactJson(`x ${key}`, key), 'x ***');
});

test('JSON answers: keys that become the same name once redacted keep every value, under distinct names', async () => {
  const key = 'tl-9f8A7b6C5d4E3f2G1h0IjKlMnOpQrSt5';
  const hex = Buffer.from(key).toString('hex');
  // Two keys differing only in the secret's form, a key already reading "***", and one that is "__proto__".
  const answer = JSON.parse(
    JSON.stringify({ [`k ${key}`]: 1, 'k ***': 2, [`k ${hex}`]: 3, 'k *** (2)': 4, plain: 5 }).replace('"plain"', '"__proto__"'),
  ) as Record<string, unknown>;
  const value = (await redactJson(answer, key)) as Record<string, unknown>;
  assert.equal(value, answer, 'in place');
  assert.deepEqual(Object.keys(value), ['k *** (3)', 'k ***', 'k *** (4)', 'k *** (2)', '__proto__']);
  assert.deepEqual(Object.values(value), [1, 2, 3, 4, 5]);
  assert.equal(Object.getPrototypeOf(value), Object.prototype, '"__proto__" stays a key and sets no prototype');
  assert.ok(!JSON.stringify(value).includes(key) && !JSON.stringify(value).includes(hex));
  // Alone, a redacted key takes its redacted name; a suffix the redaction would change is skipped.
  assert.deepEqual(
    uniqueNames(['a KEY', 'b'], ['a ***', 'b'], () => true),
    ['a ***', 'b'],
  );
  assert.deepEqual(
    uniqueNames(['a KEY', 'a ***'], ['a ***', 'a ***'], (name) => name !== 'a *** (2)'),
    ['a *** (3)', 'a ***'],
  );
});

test('bytes: the key in a binary answer, as UTF-8 or percent-encoded, is replaced; the other bytes stay', () => {
  const key = 'tl-é€-9f8A7b6C5d4E3f2G1h0IjKl';
  const body = Buffer.concat([Buffer.from([0, 1, 2, 255]), Buffer.from(key), Buffer.from([254, 0])]);
  assert.deepEqual(
    Buffer.from(redactBytes(body, key)),
    Buffer.concat([Buffer.from([0, 1, 2, 255]), Buffer.from('***'), Buffer.from([254, 0])]),
  );
  assert.equal(Buffer.from(redactBytes(Buffer.from(encodeURIComponent(key)), key)).toString(), '***');
});

const FIXTURES = join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'results');
const PROSE = [
  'The structure relaxed in 42 steps: energy -3.45120 eV/atom, the largest force 0.049 eV/Å, stress 0.12 GPa.',
  'Traceback (most recent call last): File "/app/main.py", line 42, in relax — ValueError: fmax must be positive',
  'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 9f86d081884c7d659a2feaa0c55ad015',
  'Please retry after 2026-11-27T06:00:00Z; request id 0f9c2b7e-41d3-4c7a-9a58-3e1f6b0d2c44, 100 requests/minute.',
];
/** Keys as services issue them: a prefix and random characters (no bias: fast-check's would favour "aaaa…"). */
const realKeys = fc.tuple(
  fc.constantFrom('', 'sk-', 'tl_', 'key-'),
  fc.noBias(fc.string({ minLength: 20, maxLength: 64, unit: fc.constantFrom(...ALPHABET.slice(0, 62)) })),
);

test('ordinary words, numbers, hashes and result files are left exactly as they were (property)', () => {
  const files = readdirSync(FIXTURES).map((name) => readFileSync(join(FIXTURES, name)));
  fc.assert(
    fc.property(realKeys, fc.array(fc.double({ noNaN: true }), { maxLength: 50 }), ([prefix, body], numbers) => {
      const key = prefix + body;
      for (const text of [...PROSE, numbers.join(', '), JSON.stringify(numbers)]) assert.equal(redact(text, key), text);
      for (const file of files) assert.ok(Buffer.from(redactBytes(file, key)).equals(file));
    }),
    { seed: 5, numRuns: 60 },
  );
});

test('the separator table agrees with the class it stands for, at every code point', () => {
  const separator = /[\s\p{Cc}\p{Cf}\p{Z}\p{Default_Ignorable_Code_Point}]/u;
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (isSeparator(cp) !== separator.test(String.fromCodePoint(cp))) assert.fail(`U+${cp.toString(16)}`);
  }
});

test('time is linear in the text, even where the text almost matches the key all along', async () => {
  const key = `${'a'.repeat(40)}b`;
  for (const unit of ['a', 'YWFh', '6161', 'a\u200b']) {
    const [small, large] = [unit.repeat(500_000 / unit.length), unit.repeat(4_000_000 / unit.length)];
    // Linear is 8×, quadratic 64×.
    const { ratio, message } = await linearRatio({
      what: `${JSON.stringify(unit)}: 8× the text`,
      run: (text: string) => redact(text, key),
      small,
      large,
      limit: 24,
    });
    assert.ok(ratio < 24, message);
  }
});
