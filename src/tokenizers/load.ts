import * as fs from 'node:fs';
import * as path from 'node:path';
import { BpeTokenizer } from './bpeTokenizer';
import { RankTable, type RankFile } from './rankTable';
import { resolveTokenizer, type EncodingName } from './registry';
import { CharacterTokenizer, WhitespaceTokenizer } from './simpleTokenizers';
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

/**
 * The packaged extension carries the rank files next to its bundle (dist/ranks, copied by the build);
 * tests and the dev server read them from js-tiktoken in node_modules.
 */
export function readRankFile(name: EncodingName): RankFile {
  const shared = SHARED_RANKS[name];
  const fileName = shared?.ranks ?? name;
  const bundled = path.join(__dirname, 'ranks', `${fileName}.js`);
  const id = fs.existsSync(bundled) ? bundled : `js-tiktoken/ranks/${fileName}`;
  const loaded = require(id) as RankFile | { default: RankFile };
  delete require.cache[require.resolve(id)]; // the table keeps what it needs; let the 1-2 MB source string go
  const file = 'default' in loaded ? loaded.default : loaded;
  return shared?.specialTokens ? { ...file, special_tokens: shared.specialTokens } : file;
}

function loadEncoding(name: EncodingName): Encoding {
  let encoding = encodings.get(name);
  if (!encoding) {
    const started = performance.now();
    const file = readRankFile(name);
    const table = new RankTable(file.bpe_ranks);
    const stats = { encoding: name, loadMs: performance.now() - started, tableBytes: table.byteSize, tokens: table.size };
    encoding = { file: { pat_str: file.pat_str, special_tokens: file.special_tokens }, table, stats };
    encodings.set(name, encoding);
  }
  return encoding;
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
    else {
      const encoding = loadEncoding(info.kind);
      tokenizer = new BpeTokenizer(info, { specialTokens: mode }, encoding.table, encoding.file);
    }
    tokenizers.set(key, tokenizer);
  }
  return tokenizer;
}

/** As loadTokenizerSync, but lets the event loop run first, so a first load never stacks on other work. */
export async function loadTokenizer(name: string, options: EngineOptions = {}): Promise<Tokenizer> {
  const info = resolveTokenizer(name);
  if (info.kind !== 'character' && info.kind !== 'whitespace' && !encodings.has(info.kind)) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  return loadTokenizerSync(name, options);
}

export function isLoaded(name: string): boolean {
  const info = resolveTokenizer(name);
  return info.kind === 'character' || info.kind === 'whitespace' || encodings.has(info.kind);
}

export function getEncodingStats(): EncodingStats[] {
  return [...encodings.values()].map((e) => e.stats);
}
