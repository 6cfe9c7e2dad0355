/**
 * tokenizer.json files whose Split or Replace patterns make a backtracking RegExp run for seconds or ever, or cost
 * the linear matcher (or, written out, would cost it) thousands of steps a character, each with a text of N characters that provokes it: the hostile
 * inputs of core/tokenizers/engine/regex/hostile.test.ts (counts) and core/inspector/hostile.test.ts (the inspector's and the API's spans).
 */
import { Rng } from '../bench/textgen';

export const N = 100_000;

/** A byte-fallback BPE with no merges: every ASCII character is one token, whatever the pieces. */
export function tokenizerJson(step: { split?: string; replace?: string }): string {
  const vocab: Record<string, number> = { '<unk>': 0 };
  for (let b = 0; b < 256; b++) vocab[`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`] = 1 + b;
  return JSON.stringify({
    added_tokens: [],
    normalizer: step.replace ? { type: 'Replace', pattern: { Regex: step.replace }, content: 'x' } : null,
    pre_tokenizer: step.split ? { type: 'Split', pattern: { Regex: step.split }, behavior: 'Isolated', invert: false } : null,
    model: { type: 'BPE', vocab, merges: [], unk_token: '<unk>', byte_fallback: true },
  });
}

const PROSE = 'The quick brown fox jumps over the lazy dog. ';
const run = (c: string): string => c.repeat(N);
const prose = (): string => PROSE.repeat(Math.ceil(N / PROSE.length)).slice(0, N);

export const CASES: [string, { split?: string; replace?: string }, string][] = [
  ['nested quantifiers', { split: '(a+)+b' }, run('a')],
  ['nested quantifiers over any character, on prose', { split: '(.+)+#' }, prose()],
  ['overlapping alternation under a star', { split: '(a|aa)*c' }, run('a')],
  ['the same alternative twice under a star', { split: '(?:a|a)*b' }, run('a')],
  ['adjacent overlapping stars', { split: '[ ]*[ ]*[ ]*[ ]*#' }, run(' ')],
  ['a*b scanned globally (quadratic on V8)', { split: 'a*b' }, run('a')],
  ['a loop whose body can match empty', { split: '(x*y*)*z' }, run('x')],
  ['a lookahead inside a loop', { split: '(?:a(?=a*c))+|a' }, run('a')],
  ['a negative lookahead inside a loop', { split: '(?:(?!a*c)a)+c' }, run('a')],
  ['a lookbehind before a star', { split: '(?<=a)a*b' }, run('a')],
  ['nested counted repeats', { split: '(a{1,10}){1,10}b' }, run('a')],
  ['a Replace normalizer', { replace: '(a|aa)*c' }, run('a')],
  // Linear, but thousands of steps a character written out: seconds in one exec, which a sliced count must not spend
  // at once. A counted repeat of one character or set is one RUN step (matcher.ts), cheap; one of a group is not.
  ['a long counted repeat of a group', { split: '(?:ab){500}c|b|a' }, 'ab'.repeat(N / 2)],
  ['nine alternatives of a long counted repeat', { split: alternatives('a', 1000, 9) }, run('a')],
  ['a lookahead of a long counted repeat inside a loop', { split: '(?:a(?=a{1000}b))+|a' }, run('a')],
  ['alternatives of long counted repeats in a Replace normalizer', { replace: alternatives('a', 1000, 3) }, run('a')],
  ...generated(new Rng(27)),
];

/** `x{n}b|x{n}c|…`, k alternatives that each read n characters before failing on a run of a. */
function alternatives(atom: string, n: number, k: number): string {
  return Array.from({ length: k }, (_, i) => `${atom}{${n}}${String.fromCharCode(0x62 + i)}`).join('|');
}

/**
 * A class of patterns that would cost the linear matcher up to about 1,200 steps a character on a run of a, written out: alternations of
 * long counted repeats, lookarounds of long counted repeats inside loops, nested counted repeats.
 */
function generated(rng: Rng): [string, { split?: string; replace?: string }, string][] {
  const atom = (): string => rng.pick(['a', '[a-c]', '\\p{L}', '.', '[^b]']);
  const long = (): number => rng.int(200, 600);
  const out: [string, { split?: string; replace?: string }, string][] = [];
  for (let k = 0; k < 2; k++) {
    const n = long();
    out.push([
      'generated: alternation of long counted repeats',
      { split: alternatives(atom(), n, Math.max(2, Math.floor(1200 / n))) },
      run('a'),
    ]);
  }
  const looks = [
    (x: string, n: number) => `(?:a(?=${x}{${n}}b))+|a`,
    (x: string, n: number) => `(?:(?!${x}{${n}}b)a)+c|a`,
    (x: string, n: number) => `(?:a(?<=${x}{${n}}))+b|a`,
    (x: string, n: number) => `a(?=(?:${x}{${n}}|a{${n}}b)c)|a`,
  ];
  for (const look of looks)
    out.push(['generated: a lookaround of a long counted repeat in a loop', { split: look(atom(), long()) }, run('a')]);
  for (let k = 0; k < 2; k++) {
    const inner = rng.int(100, 300);
    const outer = rng.int(2, Math.floor(1200 / inner));
    out.push(['generated: nested counted repeats', { split: `(?:(?:${atom()}{${inner}}){1,${outer}}b)|a` }, run('a')]);
  }
  return out;
}
