import { yieldToEventLoop } from '../../util/yield';
import { BpeTokenizer, tiktokenModel } from '../engine/bpeTokenizer';
import { RankTable, type RankFile } from '../engine/rankTable';
import { prepareHuggingFaceSliced, type PreparedHuggingFace } from '../huggingFace/huggingFace';
import {
  ENCODING_NAMES,
  modelEntry,
  onModelsChanged,
  resolveTokenizer,
  type EncodingName,
  type ModelEntry,
  type TokenizerInfo,
} from '../registry';
import { CharacterTokenizer, WhitespaceTokenizer } from '../simple/simpleTokenizers';
import { EstimateTokenizer } from '../estimate/estimateTokenizer';
import type { EngineOptions, Tokenizer } from '../types';

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
const tokenizers = new Map<string, Tokenizer>();

/** A registered model's tokenizer.json could not be read or used; the message names the model and where its file is. */
export class ModelLoadError extends Error {
  constructor(
    readonly model: string,
    readonly source: string,
    readonly reason: string,
  ) {
    super(`Could not load the tokenizer "${model}" from ${source}: ${reason}`);
    this.name = 'ModelLoadError';
  }
}

/** One read and build per registration, shared by every caller; a failure stays until the model is registered again. */
const preparing = new WeakMap<ModelEntry, Promise<PreparedHuggingFace>>();
const prepared = new WeakMap<ModelEntry, PreparedHuggingFace>();

// A model registered again (another file) or removed: its tokenizers were built from the old one.
onModelsChanged((name) => {
  for (const key of [...tokenizers.keys()]) if (key.startsWith(`${name}\0`)) tokenizers.delete(key);
});

/**
 * Hands a registered model the tokenizer.json already built from the same file (Add Model Tokenizer builds
 * it to check it before saving), so the first count does not read and build it a second time.
 */
export function provideModel(name: string, model: PreparedHuggingFace): void {
  const entry = modelEntry(name);
  if (!entry || prepared.has(entry)) return;
  prepared.set(entry, model);
  preparing.set(entry, Promise.resolve(model));
}

/** prepareHuggingFaceSliced, sharing the table of a built-in encoding loaded so far that the vocabulary begins with. */
export function prepareModelJson(text: string): Promise<PreparedHuggingFace> {
  return prepareHuggingFaceSliced(text, { bases: [...tables.values()].map((t) => t.table) });
}

function prepareModel(entry: ModelEntry): Promise<PreparedHuggingFace> {
  let pending = preparing.get(entry);
  if (!pending) {
    const { name, source = name } = entry.info;
    pending = entry
      .load()
      .then(prepareModelJson)
      .then(
        (model) => {
          prepared.set(entry, model);
          return model;
        },
        (error: unknown) => {
          const failure = new ModelLoadError(name, source, error instanceof Error ? error.message : String(error));
          try {
            entry.onLoadFailed?.(failure.reason);
          } catch {
            // the listener's own failure must not hide this one
          }
          throw failure;
        },
      );
    preparing.set(entry, pending);
  }
  return pending;
}

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
function readRankModule(fileName: EncodingName): RankFile {
  const fs = require('node:fs') as { existsSync(path: string): boolean };
  const path = require('node:path') as { join(...parts: string[]): string };
  const bundled = path.join(__dirname, 'ranks', `${fileName}.js`);
  const id = fs.existsSync(bundled) ? bundled : `js-tiktoken/ranks/${fileName}`;
  const loaded = require(id) as RankFile | { default: RankFile };
  delete require.cache[require.resolve(id)]; // the table keeps what it needs; let the 1-2 MB source string go
  return 'default' in loaded ? loaded.default : loaded;
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

const fetching = new Map<EncodingName, Promise<RankFile>>();

/** One fetch per rank file, however many callers (and encodings) ask for it before it arrives; a failed one may be retried. */
function fetchRankFile(source: RankSource, fileName: EncodingName): Promise<RankFile> {
  let pending = fetching.get(fileName);
  if (!pending) {
    pending = source.fetchText(fileName).then(parseRankModule);
    fetching.set(fileName, pending);
    pending.then(
      () => fetching.delete(fileName),
      () => fetching.delete(fileName),
    );
  }
  return pending;
}

/** The table of a rank file, built on first use from `fetched` (the web) or the file read here (Node). */
function loadTable(fileName: EncodingName, fetched?: RankFile): Table {
  let built = tables.get(fileName);
  if (!built) {
    const started = performance.now();
    if (!fetched && rankSource) throw new Error(`The ${fileName} ranks are fetched: load them with loadTokenizer first.`);
    const file = fetched ?? readRankModule(fileName);
    const table = new RankTable(file.bpe_ranks);
    const stats: EncodingStats = {
      ranks: fileName,
      encodings: [],
      loadMs: performance.now() - started,
      tableBytes: table.byteSize,
      tokens: table.size,
    };
    built = { file: { pat_str: file.pat_str, special_tokens: file.special_tokens }, table, stats };
    tables.set(fileName, built);
  }
  return built;
}

/** Encoding `name`: its rank file's table (shared) with its own pattern and special tokens. */
function loadEncoding(name: EncodingName): { file: Omit<RankFile, 'bpe_ranks'>; table: RankTable } {
  const { file, table, stats } = loadTable(rankFileOf(name));
  if (!stats.encodings.includes(name)) stats.encodings.push(name);
  return { file: withOwnSpecials(name, file), table };
}

/** The tiktoken encoding a listed tokenizer reads, if any (the listed names never resolve to a tokenizer.json). */
function encodingOf(info: TokenizerInfo): EncodingName | undefined {
  return info.kind === 'character' || info.kind === 'whitespace' || info.kind === 'huggingface' ? undefined : info.kind;
}

/** Returns the tokenizer for a listed name (aliases included), loading only the encoding it needs. Throws UnknownTokenizerError. */
export function loadTokenizerSync(name: string, options: EngineOptions = {}): Tokenizer {
  const info = resolveTokenizer(name);
  const mode = options.specialTokens ?? 'text';
  const key = `${info.name}\0${mode}`;
  let tokenizer = tokenizers.get(key);
  if (!tokenizer) {
    if (info.kind === 'character') tokenizer = new CharacterTokenizer(info, options);
    else if (info.kind === 'whitespace') tokenizer = new WhitespaceTokenizer(info, options);
    else if (info.kind === 'huggingface') tokenizer = modelTokenizer(info, mode);
    else if (info.estimate) tokenizer = new EstimateTokenizer(info, estimateBase(info, info.estimate.base, options));
    else tokenizer = bpeTokenizer(info, encodingOf(info)!, mode);
    tokenizers.set(key, tokenizer);
  }
  return tokenizer;
}

/**
 * What an estimate counts with: a built-in encoding's own tokenizer (its piece cache shared with counts in that
 * encoding), or for a vocabulary no tokenizer name stands for (claude) one built from its encoding.
 */
function estimateBase(info: TokenizerInfo, base: EncodingName, options: EngineOptions): Tokenizer {
  return ENCODING_NAMES.includes(base) ? loadTokenizerSync(base, options) : bpeTokenizer(info, base, options.specialTokens ?? 'text');
}

function bpeTokenizer(info: TokenizerInfo, name: EncodingName, mode: 'text' | 'special'): Tokenizer {
  const encoding = loadEncoding(name);
  return new BpeTokenizer(info, { specialTokens: mode }, encoding.table, tiktokenModel(encoding.file, mode));
}

/** A registered model's tokenizer, once its tokenizer.json is read (loadTokenizer reads it). */
function modelTokenizer(info: TokenizerInfo, mode: 'text' | 'special'): Tokenizer {
  const entry = modelEntry(info.name);
  const model = entry && prepared.get(entry);
  if (!model) throw new Error(`The tokenizer "${info.name}" is read from ${info.source ?? 'its file'}: load it with loadTokenizer first.`);
  const { name, description, ...rest } = entry.info;
  return model.tokenizer({ name, description, specialTokens: mode, info: rest });
}

/**
 * As loadTokenizerSync, but lets the event loop run first, so a first load never stacks on other work.
 * A registered model's tokenizer.json is read and built here, in slices (ModelLoadError when it cannot be).
 */
export async function loadTokenizer(name: string, options: EngineOptions = {}): Promise<Tokenizer> {
  const info = resolveTokenizer(name);
  if (info.kind === 'huggingface') {
    const entry = modelEntry(info.name);
    if (entry && !prepared.has(entry)) await prepareModel(entry);
    return loadTokenizerSync(name, options);
  }
  const kind = encodingOf(info);
  const fileName = kind && rankFileOf(kind);
  if (fileName && !tables.has(fileName)) {
    if (rankSource) loadTable(fileName, await fetchRankFile(rankSource, fileName));
    else await yieldToEventLoop();
  }
  return loadTokenizerSync(name, options);
}

export function isLoaded(name: string): boolean {
  const info = resolveTokenizer(name);
  if (info.kind === 'huggingface') {
    const entry = modelEntry(info.name);
    return entry !== undefined && prepared.has(entry);
  }
  const kind = encodingOf(info);
  return !kind || tables.has(rankFileOf(kind));
}

/** The tables built so far, one per rank file. */
export function getEncodingStats(): EncodingStats[] {
  return [...tables.values()].map(({ stats }) => ({ ...stats, encodings: [...stats.encodings] }));
}
