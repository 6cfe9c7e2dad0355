/** The one place that knows tokenizer names: the service's list (spec 4.1) and what each resolves to. */
export type EncodingName = 'cl100k_base' | 'o200k_base' | 'p50k_base' | 'p50k_edit' | 'r50k_base' | 'gpt2';
/** 'huggingface': built from a tokenizer.json (huggingFace.ts), never listed here. */
export type TokenizerKind = EncodingName | 'character' | 'whitespace' | 'huggingface';

export interface TokenizerInfo {
  /** The name as the user and the service spell it. */
  readonly name: string;
  /** What it resolves to: a BPE encoding, or one of the two comparison tokenizers. */
  readonly kind: TokenizerKind;
  readonly description: string;
}

export const TOKENIZERS: readonly TokenizerInfo[] = [
  { name: 'cl100k_base', kind: 'cl100k_base', description: 'BPE encoding (GPT-4, GPT-3.5 family)' },
  { name: 'o200k_base', kind: 'o200k_base', description: 'BPE encoding (GPT-4o family)' },
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

export const TOKENIZER_NAMES: readonly string[] = TOKENIZERS.map((t) => t.name);

export const DEFAULT_TOKENIZER = 'cl100k_base';

/** The distinct encodings, in list order: what "the other encodings" means in comparisons. */
export const ENCODING_NAMES: readonly EncodingName[] = ['cl100k_base', 'o200k_base', 'p50k_base', 'p50k_edit', 'r50k_base', 'gpt2'];

export class UnknownTokenizerError extends Error {
  constructor(readonly requested: string) {
    super(`Unknown tokenizer "${requested}". Valid tokenizers: ${TOKENIZER_NAMES.join(', ')}.`);
    this.name = 'UnknownTokenizerError';
  }
}

const byName = new Map(TOKENIZERS.map((t) => [t.name, t]));

export function findTokenizer(name: string): TokenizerInfo | undefined {
  return byName.get(name);
}

/** Resolves a name exactly as listed (case and spaces matter, as they do for the service). */
export function resolveTokenizer(name: string | undefined): TokenizerInfo {
  const info = byName.get(name ?? DEFAULT_TOKENIZER);
  if (!info) throw new UnknownTokenizerError(String(name));
  return info;
}
