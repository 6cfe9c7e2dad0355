/**
 * One library and one encoding, in a worker thread of its own: bench.ts starts a fresh worker for
 * every cold measurement (fresh caches, nothing shared with other libraries) and terminates it when a
 * run exceeds its time budget, so a quadratic library never hangs the benchmark.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Rng, charBoundary } from './textgen';
import { withHeartbeat } from './heartbeat';

export type Lib = 'tokenlens' | 'gpt-tokenizer' | 'ai-tokenizer' | 'js-tiktoken' | 'tiktoken';

export type Job =
  | { op: 'count'; text: string; warmRuns: number; warmBudgetMs: number }
  | { op: 'countAsync'; text: string }
  | { op: 'incremental'; text: string; edits: number; seed: number };

export type Reply =
  | { type: 'ready'; loadMs: number }
  | { type: 'cold'; ms: number; count: number }
  | { type: 'warm'; ms: number[] }
  | { type: 'async'; totalMs: number; maxGapMs: number; count: number; syncCount: number }
  | {
      type: 'incremental';
      buildMs: number;
      asyncBuildMs: number;
      asyncBuildMaxGapMs: number;
      updateMs: number[];
      flattenMs: number[];
      checks: number;
      mismatches: string[];
      count: number;
    }
  | { type: 'error'; message: string };

type Engine = typeof import('../../src/core/tokenizers/index');

interface Counter {
  count(text: string): number;
}

export function makeCounter(lib: Lib, encoding: string): Counter {
  switch (lib) {
    case 'tokenlens': {
      const engine = require('../../src/core/tokenizers') as Engine;
      return engine.loadTokenizerSync(encoding);
    }
    case 'gpt-tokenizer': {
      const gpt = require(`gpt-tokenizer/encoding/${encoding}`) as typeof import('gpt-tokenizer/encoding/cl100k_base');
      // Special-token text counts as ordinary text (its default throws on it).
      const options = { disallowedSpecial: new Set<string>() };
      return { count: (text) => gpt.countTokens(text, options) };
    }
    case 'ai-tokenizer': {
      // A CommonJS build with an encoding module per name; typed here by hand (its types are for ES modules).
      type AiTokenizer = { count(text: string): number };
      const { Tokenizer } = require('ai-tokenizer') as { Tokenizer: new (encoding: unknown) => AiTokenizer };
      return new Tokenizer(require(`ai-tokenizer/encoding/${encoding}`));
    }
    case 'js-tiktoken': {
      // js-tiktoken is an ES module package with a CommonJS build; typed here by hand.
      type JsTiktoken = { encode(text: string, allowed?: string[] | 'all', disallowed?: string[] | 'all'): number[] };
      const { Tiktoken } = require('js-tiktoken/lite') as { Tiktoken: new (ranks: unknown) => JsTiktoken };
      const ranks = require(`js-tiktoken/ranks/${encoding}`) as { default?: unknown };
      const enc = new Tiktoken(ranks.default ?? ranks);
      return { count: (text) => enc.encode(text, [], []).length };
    }
    case 'tiktoken': {
      const { get_encoding } = require('tiktoken') as typeof import('tiktoken');
      const enc = get_encoding(encoding as import('tiktoken').TiktokenEncoding);
      return { count: (text) => enc.encode_ordinary(text).length };
    }
  }
}

/** Any regex execution flattens its subject string in place. */
const FLATTEN = /^[\s\S]/;

async function run(lib: Lib, encoding: string, job: Job, post: (reply: Reply) => void): Promise<void> {
  const loadStarted = performance.now();
  const counter = makeCounter(lib, encoding);
  post({ type: 'ready', loadMs: performance.now() - loadStarted });

  if (job.op === 'count') {
    let t = performance.now();
    const count = counter.count(job.text);
    const cold = performance.now() - t;
    post({ type: 'cold', ms: cold, count });
    const warm: number[] = [];
    const warmStarted = performance.now();
    while (warm.length < job.warmRuns && (warm.length === 0 || performance.now() - warmStarted < job.warmBudgetMs)) {
      t = performance.now();
      counter.count(job.text);
      warm.push(performance.now() - t);
    }
    post({ type: 'warm', ms: warm });
    return;
  }

  const engine = require('../../src/core/tokenizers') as Engine;
  const tokenizer = engine.loadTokenizerSync(encoding);

  if (job.op === 'countAsync') {
    const { value, totalMs, maxGapMs } = await withHeartbeat(() => engine.countAsync(tokenizer, job.text));
    post({ type: 'async', totalMs, maxGapMs, count: value, syncCount: tokenizer.count(job.text) });
    return;
  }

  // Incremental: build, then single-character edits at random places, each checked against a full count.
  let text = job.text;
  let t = performance.now();
  const index = engine.DocumentIndex.buildSync(tokenizer, text);
  const buildMs = performance.now() - t;
  const asyncBuild = await withHeartbeat(() => engine.DocumentIndex.build(tokenizer, text));
  const rng = new Rng(job.seed);
  const typed = ['e', ' ', '\n', 'x', '.', '(', '1', 'é', '<', '|'];
  const updateMs: number[] = [];
  const flattenMs: number[] = [];
  const mismatches: string[] = [];
  let checks = 0;
  for (let n = 0; n < job.edits; n++) {
    const start = charBoundary(text, rng.int(0, text.length));
    const remove = rng.chance(0.4) && start < text.length;
    const oldEnd = remove ? charBoundary(text, start + 1) : start;
    const inserted = remove ? '' : rng.pick(typed);
    text = text.slice(0, start) + inserted + text.slice(oldEnd);
    // VS Code hands the index a flat string (document.getText()); a concatenation here is a rope that
    // the first regex would flatten (about 1.5 ms for 1 MB). Flatten it untimed, and report that apart.
    t = performance.now();
    FLATTEN.test(text);
    flattenMs.push(performance.now() - t);
    t = performance.now();
    index.update(start, oldEnd, start + inserted.length, text);
    updateMs.push(performance.now() - t);
    if (n % 10 === 9 || n === job.edits - 1) {
      checks++;
      const full = tokenizer.count(text);
      if (full !== index.count) mismatches.push(`after edit ${n} (seed ${job.seed}): index ${index.count}, full count ${full}`);
    }
  }
  post({
    type: 'incremental',
    buildMs,
    asyncBuildMs: asyncBuild.totalMs,
    asyncBuildMaxGapMs: asyncBuild.maxGapMs,
    updateMs,
    flattenMs,
    checks,
    mismatches,
    count: index.count,
  });
}

if (parentPort && workerData) {
  const port = parentPort;
  const { lib, encoding, job } = workerData as { lib: Lib; encoding: string; job: Job };
  run(lib, encoding, job, (reply) => port.postMessage(reply)).catch((error: unknown) => {
    port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies Reply);
  });
}
