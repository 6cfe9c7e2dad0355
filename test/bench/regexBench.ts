/**
 * The linear matcher (src/core/tokenizers/engine/regex/) against V8's RegExp on real Split patterns: a global scan of the
 * shared 1 MiB corpus (or FILE), best of ten taking turns after a warm-up, and the same matches asserted.
 * `npm run -s build:tests && node out/test/bench/regexBench.js [FILE]`.
 */
import assert from 'node:assert/strict';
import { GPT2_PATTERN } from '../../src/core/tokenizers/huggingFace/hfPipeline';
import { translateOnigRegex } from '../../src/core/tokenizers/huggingFace/onigRegex';
import { linearMatcher, UNFINISHED, withWorkBudget, type Matcher } from '../../src/core/tokenizers/engine/regex';
import { DEEPSEEK_SPLITS, SCANNED_PATTERNS } from '../../src/core/tokenizers/engine/scanner';
import { CORPUS_PATH, readCorpus } from './textgen';

const file = process.argv[2] ?? CORPUS_PATH;
const text = readCorpus(file);
if (text === undefined) throw new Error(`no corpus at ${file}`);

function scan(matcher: Matcher): number[] {
  const ends: number[] = [];
  matcher.lastIndex = 0;
  for (let m = matcher.exec(text!); m; m = matcher.exec(text!)) {
    if (m === UNFINISHED) throw new Error('no budget, yet unfinished');
    ends.push(m.index + m[0].length);
    if (!m[0].length) matcher.lastIndex = m.index + 1;
  }
  return ends;
}

/** The same scan as a sliced count runs it: in calls of at most SCAN_MS of matcher work (withWorkBudget), each going on where the last stopped. */
function scanBudgeted(matcher: Matcher): number[] {
  const ends: number[] = [];
  matcher.lastIndex = 0;
  for (let done = false; !done;) {
    withWorkBudget(
      Infinity,
      () => {
        for (let m = matcher.exec(text!); m !== UNFINISHED; m = matcher.exec(text!)) {
          if (!m) {
            done = true;
            return;
          }
          ends.push(m.index + m[0].length);
          if (!m[0].length) matcher.lastIndex = m.index + 1;
        }
      },
      SCAN_MS,
    );
  }
  return ends;
}

const SCAN_MS = 4;

/** Best of ten scans each, V8, the linear matcher and the linear matcher on a budget taking turns (the machine's load changes from second to second). */
function race(a: Matcher, b: Matcher): { ms: [number, number, number]; ends: number[][] } {
  const ms: [number, number, number] = [Infinity, Infinity, Infinity];
  const runs: [Matcher, (m: Matcher) => number[]][] = [
    [a, scan],
    [b, scan],
    [b, scanBudgeted],
  ];
  const ends = runs.map(([matcher, how]) => how(matcher));
  for (let k = 0; k < 10; k++)
    runs.forEach(([matcher, how], i) => {
      const started = performance.now();
      ends[i] = how(matcher);
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
    ms: [v8, linear, budgeted],
    ends,
  } = race(new RegExp(translateOnigRegex(pattern).source, 'gu'), linearMatcher(pattern).matcher);
  assert.deepEqual(ends[1], ends[0], `${name}: the same matches`);
  assert.deepEqual(ends[2], ends[0], `${name}: the same matches on a budget`);
  const rate = (ms: number): string => `${(mb / (ms / 1000)).toFixed(1)} MB/s`;
  console.log(
    `${name}: V8 ${v8.toFixed(0)} ms (${rate(v8)}), linear matcher ${linear.toFixed(0)} ms (${rate(linear)}), ` +
      `${(linear / v8).toFixed(1)}× V8's time; on a ${SCAN_MS} ms budget ${budgeted.toFixed(0)} ms (${rate(budgeted)}); ` +
      `${ends[0]!.length.toLocaleString('en-US')} matches each`,
  );
}
