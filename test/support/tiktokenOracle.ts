/**
 * The reference the differential tests compare token ids with: OpenAI's tiktoken (the `tiktoken` package, the
 * WASM build of the Rust reference). The package has no o200k_harmony (tiktoken 0.11 added it), so that one is
 * tiktoken's core built as openai_public.py builds it: o200k_base's ranks and pattern with gpt-tokenizer's
 * o200k_harmony special tokens, a list written apart from Token Lens's.
 */
import { get_encoding, Tiktoken, type TiktokenEncoding } from 'tiktoken';
import { O200KHarmony } from 'gpt-tokenizer/encodingParams/o200k_harmony';
import type { EncodingName } from '../../src/core/tokenizers/registry';

/** gpt-tokenizer's o200k_harmony special tokens (its encodingParams, given no ranks: only the list is read). */
export function gptTokenizerHarmonySpecials(): Record<string, number> {
  return Object.fromEntries(O200KHarmony([]).specialTokensEncoder);
}

/** tiktoken for `name`; free() it when done. */
export function tiktokenOracle(name: EncodingName): Tiktoken {
  if (name !== 'o200k_harmony') return get_encoding(name as TiktokenEncoding);
  const base = require('tiktoken/encoders/o200k_base.json') as { bpe_ranks: string; pat_str: string };
  return new Tiktoken(base.bpe_ranks, gptTokenizerHarmonySpecials(), base.pat_str);
}
