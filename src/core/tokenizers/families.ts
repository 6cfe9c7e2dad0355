/**
 * The table of tokenizer families: the one place that tells them apart. Each row says which listed tokenizers are
 * its own (registry.ts resolves a name to a TokenizerInfo; exactly one row owns each), whether what they read is in
 * memory, how to read it without blocking, and how to build the tokenizer. load.ts only walks this table; a family's
 * code is in its folder, on the shared engine (engine/). CONTRIBUTING "Adding a tokenizer family".
 */
import { estimateTokenizer } from './estimate/estimateTokenizer';
import { isModelLoaded, loadModel, modelTokenizer } from './huggingFace/models';
import { ALL_ENCODINGS, type EncodingName, type TokenizerInfo } from './registry';
import { simpleTokenizer } from './simple/simpleTokenizers';
import { encodingTokenizer } from './tiktoken/encoding';
import { isEncodingLoaded, loadEncodingAsync } from './tiktoken/ranks';
import type { EngineOptions, LoadSync, Tokenizer } from './types';

export interface TokenizerFamily {
  /** Its folder under src/core/tokenizers/. */
  readonly folder: string;
  /** What the family is, in words. */
  readonly label: string;
  /** Whether a listed tokenizer is one of this family's. */
  owns(info: TokenizerInfo): boolean;
  /** Whether what it reads (a rank file, a tokenizer.json) is in memory, so create needs no load first. */
  isLoaded(info: TokenizerInfo): boolean;
  /** Reads it without blocking the event loop (loadTokenizer awaits this when isLoaded is false). */
  load(info: TokenizerInfo): Promise<void>;
  /** The tokenizer (loadTokenizerSync caches it per name and special-token mode). */
  create(info: TokenizerInfo, options: EngineOptions, loadSync: LoadSync): Tokenizer;
}

const isEncoding = (kind: string): kind is EncodingName => (ALL_ENCODINGS as readonly string[]).includes(kind);
const ready = (): boolean => true;
const nothingToRead = (): Promise<void> => Promise.resolve();
/** An estimate's and an encoding's rank file: the encoding itself, or the estimate's base. */
const encodingOf = (info: TokenizerInfo): EncodingName => (info.estimate?.base ?? info.kind) as EncodingName;

export const FAMILIES: readonly TokenizerFamily[] = [
  {
    folder: 'tiktoken',
    label: "OpenAI's BPE encodings (tiktoken rank files) and their aliases",
    owns: (info) => !info.estimate && isEncoding(info.kind),
    isLoaded: (info) => isEncodingLoaded(encodingOf(info)),
    load: (info) => loadEncodingAsync(encodingOf(info)),
    create: (info, options) => encodingTokenizer(info, encodingOf(info), options.specialTokens ?? 'text'),
  },
  {
    folder: 'huggingFace',
    label: "open models' tokenizer.json, registered at run time (registerModel)",
    owns: (info) => info.kind === 'huggingface',
    isLoaded: isModelLoaded,
    load: loadModel,
    create: (info, options) => modelTokenizer(info, options.specialTokens ?? 'text'),
  },
  {
    folder: 'estimate',
    label: "closed models' estimates: an open vocabulary's count scaled, never shown as exact",
    owns: (info) => info.estimate !== undefined,
    isLoaded: (info) => isEncodingLoaded(encodingOf(info)),
    load: (info) => loadEncodingAsync(encodingOf(info)),
    create: (info, options, loadSync) => estimateTokenizer(info, info.estimate!, options, loadSync),
  },
  {
    folder: 'simple',
    label: 'the comparison tokenizers: one token per character, or per word and punctuation mark',
    owns: (info) => info.kind === 'character' || info.kind === 'whitespace',
    isLoaded: ready,
    load: nothingToRead,
    create: simpleTokenizer,
  },
];

/** The family a listed tokenizer belongs to. */
export function familyOf(info: TokenizerInfo): TokenizerFamily {
  const family = FAMILIES.find((f) => f.owns(info));
  if (!family) throw new Error(`No tokenizer family owns "${info.name}" (kind ${info.kind}).`);
  return family;
}
