/**
 * The linear matcher (src/core/tokenizers/regex/) against V8's RegExp on real Split patterns: a global scan of the
 * shared 1 MiB corpus (or FILE), best of ten taking turns after a warm-up, and the same matches asserted.
 * `npm run -s build:tests && node out/test/bench/regexBench.js [FILE]`.
 */
import assert from 'node:assert/strict';
import { GPT2_PATTERN } from '../../src/core/tokenizers/hfPipeline';
import { translateOnigRegex } from '../../src/core/tokenizers/onigRegex';
import { linearMatcher, type Matcher } from '../../src/core/tokenizers/regex';
import { DEEPSEEK_SPLITS, SCANNED_PATTERNS } from '../../src/core/tokenizers/scanner';
import { CORPUS_PATH, readCorpus } from './textgen';

const file = process.argv[2] ?? CORPUS_PATH;
const text = readCorpus(file);
if (text === undefined) throw new Error(`no corpus at ${file}`);

function scan(matcher: Matcher): number[] {
  const ends: number[] = [];
  matcher.lastIndex = 0;
  for (let m = matcher.exec(text!); m; m = matcher.exec(text!)) {
    ends.push(m.index + m[0].length);
    if (!m[0].length) matcher.lastIndex = m.index + 1;
  }
  return ends;
}

/** Best of ten scans each, V8 and the linear matcher taking turns (the machine's load changes from second to second). */
function race(a: Matcher, b: Matcher): { ms: [number, number]; ends: [number[], number[]] } {
  const ms: [number, number] = [Infinity, Infinity];
  const ends: [number[], number[]] = [scan(a), scan(b)];
  for (let k = 0; k < 10; k++)
    [a, b].forEach((matcher, i) => {
      const started = performance.now();
      ends[i] = scan(matcher);
      ms[i] = Math.min(ms[i]!, performance.now() - started);
    });
  return { ms, ends };
}

const PATTERNS: [string, string][] = [
  ['GPT-2 (ByteLevel)', GPT2_PATTERN],
  ['cl100k (Llama 3, as tokenizer.json writes it)', SCANNED_PATTERNS.find((p) => p.kind === 'cl100k')!.pattern],
  ["DeepSeek V3's third split", DEEPSEEK_SPLITS[2]!],
];

const mb = text.length / 1048576;
console.log(`${file}: ${text.length.toLocaleString('en-US')} characters`);
for (const [name, pattern] of PATTERNS) {
  const {
    ms: [v8, linear],
    ends,
  } = race(new RegExp(translateOnigRegex(pattern).source, 'gu'), linearMatcher(pattern).matcher);
  assert.deepEqual(ends[1], ends[0], `${name}: the same matches`);
  const rate = (ms: number): string => `${(mb / (ms / 1000)).toFixed(1)} MB/s`;
  console.log(
    `${name}: V8 ${v8.toFixed(0)} ms (${rate(v8)}), linear matcher ${linear.toFixed(0)} ms (${rate(linear)}), ` +
      `${(linear / v8).toFixed(1)}× V8's time, ${ends[0].length.toLocaleString('en-US')} matches each`,
  );
}
