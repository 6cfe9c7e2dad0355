/**
 * The bench's models section: Hugging Face tokenizer.json counting, Token Lens against tokenizers.js
 * (@huggingface/tokenizers, the reference) and @lenml/tokenizers (transformers.js's tokenizers), on the files the
 * @lenml/tokenizer-* packages ship. Each library and model runs in a fresh process (node --expose-gc): load (read,
 * parse, build), memory after load (heap + external after a full collection, the parsed JSON dropped), a cold count
 * of the corpus (fresh caches and JIT), then a warm one. Ratios are between numbers of the same run.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { prepareModelJson } from '../../src/core/tokenizers/huggingFace/models';
import { loadTokenizerSync } from '../../src/core/tokenizers/load';
import { getEncodingStats } from '../../src/core/tokenizers/tiktoken/ranks';
import type { EncodingName } from '../../src/core/tokenizers/registry';

export const MODELS = ['llama3', 'qwen3', 'deepseek_v3', 'gptoss', 'gemma3'];
/** 'tokenlens, base loaded': the model loaded after the built-in encoding its vocabulary begins with (it shares its table). */
export type ModelLib = 'tokenlens' | 'tokenlens, base loaded' | 'tokenizers.js' | '@lenml/tokenizers';
/** The built-in encoding each model's vocabulary begins with, byte for byte (test/unit/core/tokenizers/sharedTables.test.ts). */
export const MODEL_BASES: Readonly<Record<string, EncodingName>> = { llama3: 'cl100k_base', gptoss: 'o200k_base' };

/** The libraries measured on a model. */
export function modelLibs(model: string): ModelLib[] {
  return ['tokenlens', ...(MODEL_BASES[model] ? (['tokenlens, base loaded'] as const) : []), 'tokenizers.js', '@lenml/tokenizers'];
}

export interface ModelTimes {
  loadMs: number;
  memoryMB: number;
  coldMs: number;
  warmMs: number;
  tokens: number;
  /** With the base loaded first: the base encoding's table, MB (held anyway, not in memoryMB). */
  baseMB?: number;
}

type Json = { added_tokens: { special?: boolean }[] };
type Count = (text: string) => number;

/** Reads, parses and builds in a function of its own, so that nothing keeps the parsed file alive after it. */
async function counter(lib: ModelLib, model: string, path: string): Promise<Count> {
  const text = fs.readFileSync(path, 'utf8');
  if (lib === 'tokenlens' || lib === 'tokenlens, base loaded') {
    // As the editor loads a model: in time slices, sharing a loaded built-in encoding's table.
    const tokenizer = (await prepareModelJson(text)).tokenizer();
    return (s) => tokenizer.count(s);
  }
  const json = JSON.parse(text) as Json;
  // Both libraries get the file without its special added tokens: ours counts special-token text as text too.
  const plain = { ...json, added_tokens: json.added_tokens.filter((a) => !a.special) };
  type Encoder = { encode(s: string, o: { add_special_tokens: boolean }): { ids: number[] } | number[] };
  let encoder: Encoder;
  if (lib === 'tokenizers.js') {
    const { Tokenizer } = require('@huggingface/tokenizers') as { Tokenizer: new (j: unknown, c: unknown) => Encoder };
    encoder = new Tokenizer(plain, {});
  } else {
    const { TokenizerLoader } = require('@lenml/tokenizers') as {
      TokenizerLoader: { fromPreTrained(o: { tokenizerJSON: unknown; tokenizerConfig: unknown }): Encoder };
    };
    const config = JSON.parse(fs.readFileSync(require.resolve(`@lenml/tokenizer-${model}/models/tokenizer_config.json`), 'utf8'));
    encoder = TokenizerLoader.fromPreTrained({ tokenizerJSON: plain, tokenizerConfig: config });
  }
  return (s) => {
    const out = encoder.encode(s, { add_special_tokens: false });
    return Array.isArray(out) ? out.length : out.ids.length;
  };
}

async function measure(lib: ModelLib, model: string, corpusPath: string): Promise<ModelTimes> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const corpus = fs.readFileSync(corpusPath, 'utf8');
  const path = require.resolve(`@lenml/tokenizer-${model}/models/tokenizer.json`);
  const base = lib === 'tokenlens, base loaded' ? MODEL_BASES[model]! : undefined;
  if (base) loadTokenizerSync(base);
  gc();
  const before = process.memoryUsage();
  let t = performance.now();
  const count = await counter(lib, model, path);
  const loadMs = performance.now() - t;
  gc();
  const after = process.memoryUsage();
  const memoryMB = (after.heapUsed + after.external - before.heapUsed - before.external) / (1 << 20);
  t = performance.now();
  const tokens = count(corpus);
  const coldMs = performance.now() - t;
  t = performance.now();
  count(corpus);
  const warmMs = performance.now() - t;
  return {
    loadMs,
    memoryMB,
    coldMs,
    warmMs,
    tokens,
    ...(base ? { baseMB: getEncodingStats().find((e) => e.encodings.includes(base))!.tableBytes / (1 << 20) } : {}),
  };
}

/** Fresh processes per library and model; each number is the median of the runs (cold counts vary with the JIT's timing). */
export const MODEL_RUNS = 3;

/** measureModel MODEL_RUNS times, each field the median; the first error is reported. */
export function measureModelRuns(lib: ModelLib, model: string, corpusPath: string): ModelTimes | { error: string } {
  const runs: ModelTimes[] = [];
  for (let i = 0; i < MODEL_RUNS; i++) {
    const r = measureModel(lib, model, corpusPath);
    if ('error' in r) return r;
    runs.push(r);
  }
  const mid = (pick: (t: ModelTimes) => number) => runs.map(pick).sort((a, b) => a - b)[runs.length >> 1]!;
  return {
    ...runs[0]!,
    loadMs: mid((t) => t.loadMs),
    memoryMB: mid((t) => t.memoryMB),
    coldMs: mid((t) => t.coldMs),
    warmMs: mid((t) => t.warmMs),
  };
}

/** One library on one model in a fresh process; an error (a library that does not load the file) is reported, not thrown. */
export function measureModel(lib: ModelLib, model: string, corpusPath: string): ModelTimes | { error: string } {
  const run = spawnSync(process.execPath, ['--expose-gc', __filename, '--one', lib, model, corpusPath], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    timeout: 300_000,
  });
  if (run.status !== 0) return { error: (run.stderr || run.error?.message || `exit ${run.status}`).trim().split('\n').at(-1)! };
  return JSON.parse(run.stdout) as ModelTimes;
}

if (require.main === module && process.argv[2] === '--one') {
  const [lib, model, corpusPath] = process.argv.slice(3) as [ModelLib, string, string];
  void measure(lib, model, corpusPath).then((times) => process.stdout.write(JSON.stringify(times)));
}
