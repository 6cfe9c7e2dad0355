/**
 * The linear matcher (src/core/tokenizers/regex/) against V8's RegExp on real Split patterns: a global scan of the
 * shared 1 MiB corpus (or FILE), best of five after a warm-up, and the same matches asserted.
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

function best(matcher: Matcher): { ms: number; ends: number[] } {
  let ends = scan(matcher);
  let ms = Infinity;
  for (let k = 0; k < 5; k++) {
    const started = performance.now();
    ends = scan(matcher);
    ms = Math.min(ms, performance.now() - started);
  }
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
  const v8 = best(new RegExp(translateOnigRegex(pattern).source, 'gu'));
  const linear = best(linearMatcher(pattern).matcher);
  assert.deepEqual(linear.ends, v8.ends, `${name}: the same matches`);
  const rate = (ms: number): string => `${(mb / (ms / 1000)).toFixed(1)} MB/s`;
  console.log(
    `${name}: V8 ${v8.ms.toFixed(0)} ms (${rate(v8.ms)}), linear matcher ${linear.ms.toFixed(0)} ms (${rate(linear.ms)}), ` +
      `${(linear.ms / v8.ms).toFixed(1)}× V8's time, ${v8.ends.length.toLocaleString('en-US')} matches each`,
  );
}
