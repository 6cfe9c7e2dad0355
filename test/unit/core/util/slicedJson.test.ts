/**
 * parseJsonSteps against JSON.parse: the same values for every JSON text fast-check makes (with any whitespace
 * between tokens), the same refusals for arbitrary strings and cut-off texts, "__proto__" as an own member, a
 * million levels of nesting without a stack overflow, and yields that come about every `every` characters.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  JsonDepthError,
  JsonSizeError,
  parseJson,
  parseJsonSliced,
  parseJsonSteps,
  JsonSyntaxError,
  JsonSpan,
} from '../../../../src/core/util/slicedJson';

const outcome = (parse: (text: string) => unknown, text: string): { value?: unknown; threw?: boolean } => {
  try {
    return { value: parse(text) };
  } catch (e) {
    assert.ok(e instanceof SyntaxError, `a SyntaxError, not ${String(e)}`);
    return { threw: true };
  }
};

test('every JSON text gives JSON.parse value, whatever the whitespace', () => {
  const space = fc.constantFrom('', ' ', '\n', '\t', '\r\n  ');
  fc.assert(
    fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, '\t'), space, (value, indent, pad) => {
      const text = pad + JSON.stringify(value, null, indent) + pad;
      assert.deepStrictEqual(parseJson(text), JSON.parse(text));
    }),
    { numRuns: 2000, seed: 2026 },
  );
});

test('strings with escapes, control characters, lone surrogates and unicode read as JSON.parse reads them', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (s) => {
      const text = JSON.stringify({ [s]: [s, s.length] });
      assert.deepStrictEqual(parseJson(text), JSON.parse(text));
    }),
    { numRuns: 2000, seed: 7 },
  );
});

test('any text: refused exactly when JSON.parse refuses it, else the same value', () => {
  const pieces = fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"',
    '\\',
    'a',
    '1',
    '-',
    '.',
    'e',
    ' ',
    'true',
    'nul',
    'null',
    '"x"',
    '0',
    '\n',
    '\u0001',
  );
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.array(pieces, { maxLength: 30 }).map((p) => p.join('')),
      ),
      (text) => {
        assert.deepStrictEqual(outcome(parseJson, text), outcome(JSON.parse, text), JSON.stringify(text));
      },
    ),
    { numRuns: 5000, seed: 11 },
  );
});

test('every prefix of a valid text is refused like JSON.parse refuses it', () => {
  const text = JSON.stringify({ model: { vocab: { a: 1, 'b\\n': 2 }, merges: ['a b', ['c', 'd']], n: -1.5e3 }, ok: [true, false, null] });
  for (let i = 0; i <= text.length; i++) {
    const cut = text.slice(0, i);
    assert.deepStrictEqual(outcome(parseJson, cut), outcome(JSON.parse, cut), cut);
  }
});

test('"__proto__" is an own member, as JSON.parse makes it, and sets no prototype', () => {
  const parsed = parseJson('{"__proto__": {"polluted": 1}, "a": 2}') as Record<string, unknown>;
  assert.deepStrictEqual(parsed, JSON.parse('{"__proto__": {"polluted": 1}, "a": 2}'));
  assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.ok(Object.prototype.hasOwnProperty.call(parsed, '__proto__'));
});

test('a million levels of nesting parse without a stack overflow; the error names its position', () => {
  const depth = 1_000_000;
  let value = parseJson('['.repeat(depth) + ']'.repeat(depth)) as unknown[];
  for (let i = 1; i < depth; i++) value = value[0] as unknown[];
  assert.deepStrictEqual(value, []);
  assert.throws(
    () => parseJson('[1, 2,, 3]'),
    (e: unknown) => e instanceof JsonSyntaxError && e.position === 6,
  );
});

test('it yields about every `every` characters, and gives the same value as in one go', () => {
  const text = JSON.stringify({
    vocab: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`t${i}`, i])),
    merges: Array.from({ length: 20_000 }, (_, i) => `t${i} t${i + 1}`),
  });
  const steps = parseJsonSteps(text, 10_000);
  let yields = 0;
  let next = steps.next();
  for (; !next.done; next = steps.next()) yields++;
  assert.deepStrictEqual(next.value, JSON.parse(text));
  assert.ok(
    yields >= Math.floor(text.length / 10_000) - 1 && yields <= text.length / 10_000 + 1,
    `${yields} yields for ${text.length} characters`,
  );
});

test('closing deep nesting yields too: 100,000 levels closed at once are read in slices, not in one step', () => {
  // A tokenizer.json nested 100,000 deep held the editor ~0.9 s in the one step that closed every level.
  const depth = 100_000;
  const text = '['.repeat(depth) + ']'.repeat(depth);
  const steps = parseJsonSteps(text, 10_000);
  let yields = 0;
  for (let next = steps.next(); !next.done; next = steps.next()) yields++;
  assert.ok(yields >= Math.floor(text.length / 10_000) - 1, `${yields} yields for ${text.length} characters`);
});

test('maxDepth: that many levels of containers are read, one more is a JsonDepthError at its opening', () => {
  const nested = (depth: number, inner: string): string => `${'[{"a":'.repeat(depth / 2)}${inner}${'}]'.repeat(depth / 2)}`;
  const refusal = (text: string): unknown => {
    const steps = parseJsonSteps(text, Infinity, { maxDepth: 8 });
    try {
      for (let next = steps.next(); !next.done; next = steps.next());
    } catch (e) {
      return e;
    }
    return undefined;
  };
  assert.equal(refusal(nested(8, '1')), undefined);
  // The ninth container opens after four '[{"a":' (24 characters), or at the ninth '['.
  for (const [deeper, at] of [
    [nested(8, '[]'), 24],
    [nested(8, '{}'), 24],
    [nested(8, '[1]'), 24],
    ['['.repeat(1_000_000), 8],
  ] as const) {
    const error = refusal(deeper);
    assert.ok(error instanceof JsonDepthError, `${deeper.slice(0, 40)}: ${String(error)}`);
    assert.equal(error.position, at);
  }
});

test('parseJsonSliced lets the event loop run between slices, and gives the same value', async () => {
  const text = JSON.stringify(Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `token ${i}` })));
  let turns = 0;
  const tick = (): void => {
    turns++;
    if (!done) setImmediate(tick);
  };
  let done = false;
  setImmediate(tick);
  const value = await parseJsonSliced(text, 4, 10_000);
  done = true;
  assert.deepStrictEqual(value, JSON.parse(text));
  assert.ok(turns >= text.length / 10_000 / 2, `${turns} turns of the event loop for ${text.length} characters`);
  await assert.rejects(parseJsonSliced('[[[[[1]]]]]', 4), JsonDepthError);
});

test('an object with more members than maxObjectMembers is refused where the one too many begins; arrays and other objects are not', () => {
  const run = (text: string): unknown => {
    const steps = parseJsonSteps(text, Infinity, { maxObjectMembers: 3 });
    for (let next = steps.next(); ; next = steps.next()) if (next.done) return next.value;
  };
  assert.deepStrictEqual(run('{"a": {"b": 1, "c": 2, "d": 3}, "e": [1, 2, 3, 4, 5], "f": {}}'), {
    a: { b: 1, c: 2, d: 3 },
    e: [1, 2, 3, 4, 5],
    f: {},
  });
  assert.throws(
    () => run('{"v": {"a": 1, "b": 2, "c": 3, "d": 4}}'),
    (e: unknown) => e instanceof JsonSizeError && e.limit === 3 && e.position === 31,
  );
});

test('skip: a named member is left in the text as a JsonSpan (its place and member count), still held to maxObjectMembers', () => {
  const run = (text: string, maxObjectMembers = Infinity): unknown => {
    const steps = parseJsonSteps(text, 4, {
      maxObjectMembers,
      skip: [
        ['model', 'vocab'],
        ['model', 'merges'],
      ],
    });
    for (let next = steps.next(); ; next = steps.next()) if (next.done) return next.value;
  };
  const text = '{"model": {"vocab": {"a]\\"": 1, "b": [2, {"c": 3}]}, "merges": [ ], "type": "BPE"}, "vocab": {"x": 1}}';
  const value = run(text) as { model: { vocab: JsonSpan; merges: JsonSpan; type: string }; vocab: unknown };
  assert.ok(value.model.vocab instanceof JsonSpan && value.model.merges instanceof JsonSpan);
  assert.equal(text.slice(value.model.vocab.start, value.model.vocab.end), '{"a]\\"": 1, "b": [2, {"c": 3}]}');
  assert.equal(value.model.vocab.members, 2);
  assert.equal(text.slice(value.model.merges.start, value.model.merges.end), '[ ]');
  assert.equal(value.model.merges.members, 0);
  assert.deepEqual([value.model.type, value.vocab], ['BPE', { x: 1 }], 'members elsewhere are built');
  assert.throws(
    () => run(text, 1),
    (e: unknown) => e instanceof JsonSizeError && e.position === text.indexOf('"b"'),
  );
  assert.throws(() => run('{"model": {"vocab": {"a": "1}}'), JsonSyntaxError, 'an unterminated string');
});
