/** The tiktoken family: the rank files OpenAI's encodings read, one table per file however many encodings share it. */
import { runSliced } from '../../util/steps';
import { SLICE_MS } from '../sliced';
import { RankTable, type RankFile } from '../engine/rankTable';
import type { EncodingName } from '../registry';

/** One built rank table: the rank file it was read from and the encodings that read it so far. */
export interface EncodingStats {
  ranks: EncodingName;
  encodings: EncodingName[];
  /** Time to read the rank file and build the table. */
  loadMs: number;
  /** Memory the table holds. */
  tableBytes: number;
  tokens: number;
}

/** A rank file's table, built once however many encodings read it; file: its own pattern and special tokens. */
interface Table {
  file: Omit<RankFile, 'bpe_ranks'>;
  table: RankTable;
  stats: EncodingStats;
}

/** Keyed by rank file (rankFileOf), not by encoding: gpt2 and r50k_base, o200k_base and o200k_harmony share one. */
const tables = new Map<EncodingName, Table>();

/**
 * o200k_harmony's special tokens (gpt-oss's Harmony format), as tiktoken 0.11's openai_public.py defines them: its
 * named tokens and <|reserved_N|> for every other id from 199998 to 201087, plus o200k_base's <|endofprompt|>, which
 * keeps id 200018 beside <|reserved_200018|>.
 */
const HARMONY_NAMED: Readonly<Record<number, string>> = {
  199998: 'startoftext',
  199999: 'endoftext',
  200002: 'return',
  200003: 'constrain',
  200005: 'channel',
  200006: 'start',
  200007: 'end',
  200008: 'message',
  200012: 'call',
};
function harmonySpecialTokens(): Record<string, number> {
  const tokens: Record<string, number> = { '<|endofprompt|>': 200018 };
  for (let id = 199998; id < 201088; id++) tokens[`<|${HARMONY_NAMED[id] ?? `reserved_${id}`}|>`] = id;
  return tokens;
}

/**
 * Encodings whose ranks equal another's (js-tiktoken ships gpt2's and p50k_edit's twice, and has no o200k_harmony):
 * the package carries each rank file once, these read the shipped one, with their own special tokens where they
 * differ, and one table serves them all.
 */
export const SHARED_RANKS: Readonly<Partial<Record<EncodingName, { ranks: EncodingName; specialTokens?: Record<string, number> }>>> = {
  gpt2: { ranks: 'r50k_base' },
  p50k_edit: {
    ranks: 'p50k_base',
    specialTokens: { '<|endoftext|>': 50256, '<|fim_prefix|>': 50281, '<|fim_middle|>': 50282, '<|fim_suffix|>': 50283 },
  },
  o200k_harmony: { ranks: 'o200k_base', specialTokens: harmonySpecialTokens() },
};

/** The rank files the package must carry: one per distinct table. */
export function shippedRankFiles(encodings: readonly EncodingName[]): EncodingName[] {
  return encodings.filter((name) => !SHARED_RANKS[name]);
}

/** Where the rank files come from when not from the Node files (VS Code for the Web: fetched from the extension). */
export interface RankSource {
  /** The text of dist/ranks/<file>.js, as the build wrote it. */
  fetchText(file: EncodingName): Promise<string>;
}

let rankSource: RankSource | undefined;

/** Reads rank files through `source` from now on (the web entry calls this once at activation). */
export function useRankSource(source: RankSource): void {
  rankSource = source;
}

/** The rank file name `name` reads, and the file with its own special tokens where they differ. */
const rankFileOf = (name: EncodingName): EncodingName => SHARED_RANKS[name]?.ranks ?? name;
function withOwnSpecials<F extends Omit<RankFile, 'bpe_ranks'>>(name: EncodingName, file: F): F {
  const specialTokens = SHARED_RANKS[name]?.specialTokens;
  return specialTokens ? { ...file, special_tokens: specialTokens } : file;
}

/** What encoding `name` reads: its rank file with its own special tokens. */
export function readRankFile(name: EncodingName): RankFile {
  return withOwnSpecials(name, readRankModule(rankFileOf(name)));
}

/**
 * The packaged extension carries the rank files next to its bundle (dist/ranks: js-tiktoken's copied by the build,
 * the claude one written by it, esbuild.mjs GENERATED_RANK_FILES); tests and the dev server read js-tiktoken's in
 * node_modules, and the claude one the test build writes beside this file. Node only: fs is required here, not
 * imported, so the browser bundle never evaluates it.
 */
function rankModulePath(fileName: EncodingName): string {
  const fs = require('node:fs') as { existsSync(path: string): boolean };
  const path = require('node:path') as { join(...parts: string[]): string };
  const bundled = path.join(__dirname, 'ranks', `${fileName}.js`);
  return fs.existsSync(bundled) ? bundled : require.resolve(`js-tiktoken/ranks/${fileName}`);
}

function readRankModule(fileName: EncodingName): RankFile {
  const fs = require('node:fs') as { readFileSync(path: string, encoding: 'utf8'): string };
  return parseRankModule(fs.readFileSync(rankModulePath(fileName), 'utf8'));
}

/** The Node files read without blocking (loadEncodingAsync), as the web fetches them. */
const NODE_RANK_SOURCE: RankSource = {
  fetchText: async (fileName) => {
    const fs = require('node:fs/promises') as { readFile(path: string): Promise<NodeBytes> };
    const bytes = await fs.readFile(rankModulePath(fileName));
    // The files are ASCII (base64 and JSON escapes): read as Latin-1 they need no decoding, UTF-8 takes 20 ms a file.
    const latin1 = bytes.toString('latin1');
    return /[\x80-\xff]/.test(latin1) ? bytes.toString('utf8') : latin1;
  },
};

/** A Node Buffer, as far as this module uses one (the core is typed without Node). */
interface NodeBytes {
  toString(encoding: 'latin1' | 'utf8'): string;
}

/**
 * Parses a rank file as the build writes it (`module.exports = {JSON};`) without evaluating it:
 * a web worker may forbid eval, and JSON.parse is the fastest way to read a 1-2 MB literal.
 */
export function parseRankModule(text: string): RankFile {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (!text.slice(0, start).trim().startsWith('module.exports') || end < start) throw new Error('Not a rank file.');
  const file = JSON.parse(text.slice(start, end + 1)) as Partial<RankFile>;
  if (typeof file.pat_str !== 'string' || typeof file.bpe_ranks !== 'string' || typeof file.special_tokens !== 'object') {
    throw new Error('Not a rank file.');
  }
  return file as RankFile;
}

/** A table being built in slices, one per rank file however many callers (and encodings) ask for it meanwhile. */
const building = new Map<EncodingName, Promise<void>>();

/** Reads and builds a rank file's table in slices (a failed read may be retried). */
function buildTableSliced(source: RankSource, fileName: EncodingName): Promise<void> {
  let pending = building.get(fileName);
  if (!pending) {
    pending = (async () => {
      const text = await source.fetchText(fileName);
      const build = (function* () {
        const file = parseRankModule(text);
        yield; // JSON.parse of a 2 MB literal takes a turn of its own
        const bytes = yield* RankTable.decodeSteps(file.bpe_ranks, STEP_TOKENS);
        return { file, table: new RankTable(bytes, undefined, undefined, yield* RankTable.indexSteps(bytes, undefined, STEP_TOKENS)) };
      })();
      const busy = { ms: 0 };
      const value = await runSliced(build, { sliceMs: SLICE_MS, busy });
      if (!tables.has(fileName)) tables.set(fileName, makeTable(fileName, value.file, value.table, busy.ms));
    })();
    building.set(fileName, pending);
    void pending.then(
      () => building.delete(fileName),
      () => building.delete(fileName),
    );
  }
  return pending;
}

/** Tokens decoded or indexed between looks at the clock: a few hundred microseconds. */
const STEP_TOKENS = 2048;

function makeTable(fileName: EncodingName, file: RankFile, table: RankTable, loadMs: number): Table {
  const stats: EncodingStats = { ranks: fileName, encodings: [], loadMs, tableBytes: table.byteSize, tokens: table.size };
  return { file: { pat_str: file.pat_str, special_tokens: file.special_tokens }, table, stats };
}

/** The table of a rank file, built on first use from the file read here (Node) unless loadEncodingAsync built it. */
function loadTable(fileName: EncodingName): Table {
  let built = tables.get(fileName);
  if (!built) {
    if (rankSource) throw new Error(`The ${fileName} ranks are fetched: load them with loadTokenizer first.`);
    const started = performance.now();
    const file = readRankModule(fileName);
    built = makeTable(fileName, file, new RankTable(file.bpe_ranks), performance.now() - started);
    tables.set(fileName, built);
  }
  return built;
}

/** Encoding `name`: its rank file's table (shared) with its own pattern and special tokens. */
export function loadEncoding(name: EncodingName): { file: Omit<RankFile, 'bpe_ranks'>; table: RankTable } {
  const { file, table, stats } = loadTable(rankFileOf(name));
  if (!stats.encodings.includes(name)) stats.encodings.push(name);
  return { file: withOwnSpecials(name, file), table };
}

/** The tables built so far, one per rank file. */
export function getEncodingStats(): EncodingStats[] {
  return [...tables.values()].map(({ stats }) => ({ ...stats, encodings: [...stats.encodings] }));
}

/** Whether encoding `name`'s rank table is built (loadEncodingAsync builds it; the Node files are read on first use anyway). */
export function isEncodingLoaded(name: EncodingName): boolean {
  return tables.has(rankFileOf(name));
}

/**
 * Builds encoding `name`'s table without holding the event loop for more than a slice: the file read (or fetched on
 * the web) in the background, the table decoded in steps; the first count of a window waits for it, not the editor.
 */
export async function loadEncodingAsync(name: EncodingName): Promise<void> {
  const fileName = rankFileOf(name);
  if (!tables.has(fileName)) await buildTableSliced(rankSource ?? NODE_RANK_SOURCE, fileName);
}

/** The tables built so far: a tokenizer.json whose vocabulary begins with one shares it (huggingFace/models.ts). */
export function builtTables(): RankTable[] {
  return [...tables.values()].map((t) => t.table);
}
