import { yieldToEventLoop } from '../util/yield';
import { BpeTokenizer, tiktokenModel } from './bpeTokenizer';
import { RankTable, type RankFile } from './rankTable';
import { prepareHuggingFaceSliced, type PreparedHuggingFace } from './huggingFace';
import {
  ENCODING_NAMES,
  modelEntry,
  onModelsChanged,
  resolveTokenizer,
  type EncodingName,
  type ModelEntry,
  type TokenizerInfo,
} from './registry';
import { CharacterTokenizer, WhitespaceTokenizer } from './simpleTokenizers';
import { EstimateTokenizer } from './estimateTokenizer';
import type { EngineOptions, Tokenizer } from './types';

export interface EncodingStats {
  encoding: EncodingName;
  /** Time to read the rank file and build the table. */
  loadMs: number;
  /** Memory the table holds. */
  tableBytes: number;
  tokens: number;
}

interface Encoding {
  file: Omit<RankFile, 'bpe_ranks'>;
  table: RankTable;
  stats: EncodingStats;
}

const encodings = new Map<EncodingName, Encoding>();
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
  return prepareHuggingFaceSliced(text, { bases: [...new Set([...encodings.values()].map((e) => e.table))] });
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
          throw new ModelLoadError(name, source, error instanceof Error ? error.message : String(error));
        },
      );
    preparing.set(entry, pending);
  }
  return pending;
}

/**
 * Encodings whose ranks equal another's (js-tiktoken ships them twice): the package carries each
 * rank file once, and these read the shipped one, with their own special tokens where they differ.
 */
export const SHARED_RANKS: Readonly<Partial<Record<EncodingName, { ranks: EncodingName; specialTokens?: Record<string, number> }>>> = {
  gpt2: { ranks: 'r50k_base' },
  p50k_edit: {
    ranks: 'p50k_base',
    specialTokens: { '<|endoftext|>': 50256, '<|fim_prefix|>': 50281, '<|fim_middle|>': 50282, '<|fim_suffix|>': 50283 },
  },
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
function withOwnSpecials(name: EncodingName, file: RankFile): RankFile {
  const specialTokens = SHARED_RANKS[name]?.specialTokens;
  return specialTokens ? { ...file, special_tokens: specialTokens } : file;
}

/**
 * The packaged extension carries the rank files next to its bundle (dist/ranks: js-tiktoken's copied by the build,
 * the claude one written by it, esbuild.mjs GENERATED_RANK_FILES); tests and the dev server read js-tiktoken's in
 * node_modules, and the claude one the test build writes beside this file. Node only: fs is required here, not
 * imported, so the browser bundle never evaluates it.
 */
export function readRankFile(name: EncodingName): RankFile {
  const fs = require('node:fs') as { existsSync(path: string): boolean };
  const path = require('node:path') as { join(...parts: string[]): string };
  const fileName = rankFileOf(name);
  const bundled = path.join(__dirname, 'ranks', `${fileName}.js`);
  const id = fs.existsSync(bundled) ? bundled : `js-tiktoken/ranks/${fileName}`;
  const loaded = require(id) as RankFile | { default: RankFile };
  delete require.cache[require.resolve(id)]; // the table keeps what it needs; let the 1-2 MB source string go
  return withOwnSpecials(name, 'default' in loaded ? loaded.default : loaded);
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

/** One fetch per encoding, however many callers ask for it before it arrives; a failed one may be retried. */
function fetchRankFile(source: RankSource, name: EncodingName): Promise<RankFile> {
  let pending = fetching.get(name);
  if (!pending) {
    pending = source.fetchText(rankFileOf(name)).then((text) => withOwnSpecials(name, parseRankModule(text)));
    fetching.set(name, pending);
    pending.then(
      () => fetching.delete(name),
      () => fetching.delete(name),
    );
  }
  return pending;
}

function loadEncoding(name: EncodingName, fetched?: RankFile): Encoding {
  let encoding = encodings.get(name);
  if (!encoding) {
    const started = performance.now();
    if (!fetched && rankSource) throw new Error(`The ${name} ranks are fetched: load them with loadTokenizer first.`);
    const file = fetched ?? readRankFile(name);
    const table = new RankTable(file.bpe_ranks);
    const stats = { encoding: name, loadMs: performance.now() - started, tableBytes: table.byteSize, tokens: table.size };
    encoding = { file: { pat_str: file.pat_str, special_tokens: file.special_tokens }, table, stats };
    encodings.set(name, encoding);
  }
  return encoding;
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
  if (kind && !encodings.has(kind)) {
    if (rankSource) loadEncoding(kind, await fetchRankFile(rankSource, kind));
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
  return !kind || encodings.has(kind);
}

export function getEncodingStats(): EncodingStats[] {
  return [...encodings.values()].map((e) => e.stats);
}
