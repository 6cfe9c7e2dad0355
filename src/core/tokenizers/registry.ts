import { ESTIMATES, type Estimate, type EstimateBase } from './estimate/estimates';

/**
 * The one place that knows tokenizer names: the service's list (spec 4.1) and what each resolves to.
 * An encoding is a rank file the engine reads: the tiktoken ones, and the ones only an estimate counts with.
 */
export type EncodingName = 'cl100k_base' | 'o200k_base' | 'o200k_harmony' | 'p50k_base' | 'p50k_edit' | 'r50k_base' | 'gpt2' | EstimateBase;
/** 'huggingface': built from a tokenizer.json (huggingFace.ts): a model registered at run time (registerModel), never a built-in. */
export type TokenizerKind = EncodingName | 'character' | 'whitespace' | 'huggingface';

export interface TokenizerInfo {
  /** The name as the user and the service spell it. */
  readonly name: string;
  /** What it resolves to: a BPE encoding, or one of the two comparison tokenizers. */
  readonly kind: TokenizerKind;
  readonly description: string;
  /** A registered model's family ("Llama 3"), context window in tokens, and where its tokenizer.json comes from (a path, a repository id). */
  readonly family?: string;
  readonly contextWindow?: number;
  readonly source?: string;
  /** Set for a closed model's estimate (estimates.ts): the count is a scaled base count, never exact; kind is the base. */
  readonly estimate?: Estimate;
}

export const TOKENIZERS: readonly TokenizerInfo[] = [
  { name: 'cl100k_base', kind: 'cl100k_base', description: 'BPE encoding (GPT-4, GPT-3.5 family)' },
  { name: 'o200k_base', kind: 'o200k_base', description: 'BPE encoding (GPT-4o family)' },
  {
    name: 'o200k_harmony',
    kind: 'o200k_harmony',
    description: "BPE encoding (gpt-oss): o200k_base with the Harmony format's special tokens",
  },
  { name: 'p50k_base', kind: 'p50k_base', description: 'BPE encoding (Codex, text-davinci-002/003)' },
  { name: 'p50k_edit', kind: 'p50k_edit', description: 'BPE encoding (edit models)' },
  { name: 'r50k_base', kind: 'r50k_base', description: 'BPE encoding (GPT-3)' },
  { name: 'gpt2', kind: 'gpt2', description: 'BPE encoding (GPT-2)' },
  { name: 'model-4', kind: 'cl100k_base', description: 'alias of cl100k_base' },
  // The service's specification (4.1) lists model-4o under cl100k_base; o200k_base is "model-4o (o200k)".
  {
    name: 'model-4o',
    kind: 'cl100k_base',
    description: 'alias of cl100k_base, as the service\'s specification defines it (for o200k_base choose "model-4o (o200k)")',
  },
  { name: 'model-3.5-turbo', kind: 'cl100k_base', description: 'alias of cl100k_base' },
  { name: 'model-4o (o200k)', kind: 'o200k_base', description: "alias of o200k_base, the service's name for it" },
  { name: 'model-2', kind: 'gpt2', description: 'alias of gpt2' },
  { name: 'character', kind: 'character', description: 'one token per Unicode character' },
  {
    name: 'whitespace',
    kind: 'whitespace',
    description: 'one token per word and per punctuation mark or symbol; whitespace separates and is not counted',
  },
];

/** The built-in names (what the service and the manifest list); with the registered models: tokenizerNames(). */
export const TOKENIZER_NAMES: readonly string[] = TOKENIZERS.map((t) => t.name);

export const DEFAULT_TOKENIZER = 'cl100k_base';

/** The distinct encodings a user can choose, in list order: what "the other encodings" means in comparisons. */
export const ENCODING_NAMES: readonly EncodingName[] = [
  'cl100k_base',
  'o200k_base',
  'o200k_harmony',
  'p50k_base',
  'p50k_edit',
  'r50k_base',
  'gpt2',
];

/** Every encoding the engine reads: ENCODING_NAMES, then the vocabularies only estimates count with (claude). */
export const ALL_ENCODINGS: readonly EncodingName[] = [...new Set([...ENCODING_NAMES, ...ESTIMATES.map((e) => e.estimate.base)])];

export class UnknownTokenizerError extends Error {
  constructor(readonly requested: string) {
    super(`Unknown tokenizer "${requested}". Valid tokenizers: ${tokenizerNames().join(', ')}.`);
    this.name = 'UnknownTokenizerError';
  }
}

const byName = new Map(TOKENIZERS.map((t) => [t.name, t]));

/** The closed models' estimates: choosable everywhere a count is shown, never in TOKENIZERS (the service's list). */
export const ESTIMATE_TOKENIZERS: readonly TokenizerInfo[] = ESTIMATES.map((e) => ({
  name: e.name,
  kind: e.estimate.base,
  description: e.description,
  family: e.family,
  contextWindow: e.contextWindow,
  estimate: e.estimate,
}));
const estimatesByName = new Map(ESTIMATE_TOKENIZERS.map((t) => [t.name, t]));

/**
 * A model tokenizer registered at run time: what the lists show, and a loader that yields its
 * tokenizer.json text. The core never reads files or the network; the editor side injects `load`.
 */
export interface ModelTokenizer {
  readonly name: string;
  readonly description: string;
  readonly family?: string;
  readonly contextWindow?: number;
  /** Where the tokenizer.json comes from, as messages name it (a file path, a repository id). */
  readonly source: string;
  load(): Promise<string>;
  /**
   * Told (once per registration) that its tokenizer.json could not be read or built, with the reason a
   * ModelLoadError gives: the editor side drops a cached model that fails from the lists, saying why.
   */
  onLoadFailed?(reason: string): void;
}

/** One registration: a new one under the same name is a new entry, so nothing loaded from the old one is reused. */
export interface ModelEntry {
  readonly info: TokenizerInfo;
  readonly load: () => Promise<string>;
  readonly onLoadFailed?: (reason: string) => void;
}

const models = new Map<string, ModelEntry>();
const listeners = new Set<(name: string) => void>();

/**
 * Adds (or replaces) a model tokenizer under its name; returns what removes it again. A built-in
 * name cannot be taken. Listeners hear of every change (the loaded-tokenizer cache drops the name).
 */
export function registerModel(model: ModelTokenizer): () => void {
  const name = model.name.trim();
  if (!name) throw new Error('A model tokenizer needs a name.');
  if (byName.has(name) || estimatesByName.has(name)) throw new Error(`"${name}" is the name of a built-in tokenizer.`);
  const info: TokenizerInfo = {
    name,
    kind: 'huggingface',
    description: model.description,
    ...(model.family ? { family: model.family } : {}),
    ...(model.contextWindow ? { contextWindow: model.contextWindow } : {}),
    source: model.source,
  };
  const onLoadFailed = model.onLoadFailed?.bind(model);
  const entry: ModelEntry = { info, load: () => model.load(), ...(onLoadFailed ? { onLoadFailed } : {}) };
  models.set(name, entry);
  changed(name);
  return () => {
    if (models.get(name) !== entry) return;
    models.delete(name);
    changed(name);
  };
}

function changed(name: string): void {
  for (const listener of [...listeners]) listener(name);
}

/** Calls `listener(name)` whenever a model is registered, replaced or removed; returns what stops it. */
export function onModelsChanged(listener: (name: string) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The registered models, in the order they were registered. */
export function modelTokenizers(): TokenizerInfo[] {
  return [...models.values()].map((m) => m.info);
}

/** The registration behind a model name (huggingFace/models.ts reads it), if any. */
export function modelEntry(name: string): ModelEntry | undefined {
  return models.get(name);
}

/** Every tokenizer a user can choose now: the built-in ones, the estimates, then the registered models. */
export function allTokenizers(): TokenizerInfo[] {
  return [...TOKENIZERS, ...ESTIMATE_TOKENIZERS, ...modelTokenizers()];
}

/** Every name a user can choose now, for lists and messages. */
export function tokenizerNames(): string[] {
  return allTokenizers().map((t) => t.name);
}

/** The names of the tokenizers that show tokens (every one but the estimates): what the inspector lists. */
export function exactTokenizerNames(): string[] {
  return allTokenizers()
    .filter((t) => !t.estimate)
    .map((t) => t.name);
}

/** The estimate a name stands for, if it is one. */
export function estimateOf(name: string): Estimate | undefined {
  return findTokenizer(name)?.estimate;
}

export function findTokenizer(name: string): TokenizerInfo | undefined {
  return byName.get(name) ?? estimatesByName.get(name) ?? models.get(name)?.info;
}

/** Resolves a name exactly as listed (case and spaces matter, as they do for the service). */
export function resolveTokenizer(name: string | undefined): TokenizerInfo {
  const info = findTokenizer(name ?? DEFAULT_TOKENIZER);
  if (!info) throw new UnknownTokenizerError(String(name));
  return info;
}
