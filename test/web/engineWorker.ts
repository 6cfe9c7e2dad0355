/**
 * Runs in a browser Web Worker (built like dist/web/extension.js: platform=browser, es2022): the
 * engine with its ranks fetched as VS Code for the Web reads them, and counting that yields without
 * setImmediate. Texts arrive as UTF-16 code units, so lone surrogates survive the trip.
 */
import { countAsync, getEncodingStats, loadTokenizer, type EncodingStats, type SpecialTokenMode } from '../../src/core/tokenizers/index';
import { useRankSource } from '../../src/core/tokenizers/tiktoken/ranks';

export interface WorkerRequest {
  tokenizer: string;
  /** Tokenizers loaded at the same time as `tokenizer`, before the texts are counted. */
  alsoLoad?: string[];
  specialTokens: SpecialTokenMode;
  texts: number[][];
}

export interface WorkerAnswer {
  results?: { ids: number[]; count: number; sliced: number }[];
  /** The rank tables the worker built. */
  tables?: EncodingStats[];
  error?: string;
  /** What the worker lacks that Node has: proof the engine ran without it. */
  globals: Record<string, string>;
}

useRankSource({
  async fetchText(file) {
    const response = await fetch(`/ranks/${file}.js`);
    if (!response.ok) throw new Error(`/ranks/${file}.js: HTTP ${response.status}`);
    return response.text();
  },
});

const scope = globalThis as unknown as { onmessage: (event: MessageEvent<WorkerRequest>) => void; postMessage(answer: WorkerAnswer): void };
const globals = (): Record<string, string> => ({
  setImmediate: typeof (globalThis as { setImmediate?: unknown }).setImmediate,
  require: typeof (globalThis as { require?: unknown }).require,
  process: typeof (globalThis as { process?: unknown }).process,
  Buffer: typeof (globalThis as { Buffer?: unknown }).Buffer,
  window: typeof (globalThis as { window?: unknown }).window,
});

scope.onmessage = (event) => {
  void answer(event.data).then(
    (results) => scope.postMessage({ results, tables: getEncodingStats(), globals: globals() }),
    (error: unknown) => scope.postMessage({ error: String(error), globals: globals() }),
  );
};

async function answer({ tokenizer, alsoLoad = [], specialTokens, texts }: WorkerRequest): Promise<WorkerAnswer['results']> {
  const load = (name: string) => loadTokenizer(name, { specialTokens });
  const [engine] = await Promise.all([load(tokenizer), ...alsoLoad.map(load)]);
  const results = [];
  for (const units of texts) {
    const text = fromUnits(units);
    // An estimate has no ids to give (NotExactError); its count is the one to compare.
    const ids = engine.info.estimate ? [] : engine.encode(text);
    results.push({ ids, count: engine.count(text), sliced: await countAsync(engine, text) });
  }
  return results;
}

function fromUnits(units: number[]): string {
  let text = '';
  for (let i = 0; i < units.length; i += 8192) text += String.fromCharCode(...units.slice(i, i + 8192));
  return text;
}
