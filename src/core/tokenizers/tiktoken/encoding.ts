/** The tiktoken family's tokenizers: an encoding's shared rank table, its pattern and its special tokens. */
import { BpeTokenizer, type BpeModel } from '../engine/bpeTokenizer';
import { PatternPieces } from '../engine/pieces';
import type { RankFile } from '../engine/rankTable';
import type { EncodingName, TokenizerInfo } from '../registry';
import type { SpecialTokenMode, Tokenizer } from '../types';
import { loadEncoding } from './ranks';

const NO_SPECIALS: ReadonlyMap<string, number> = new Map();

/** A tiktoken encoding as a BpeModel: its pattern, and its special tokens in 'special' mode. */
function tiktokenModel(file: Omit<RankFile, 'bpe_ranks'>, mode: SpecialTokenMode): BpeModel {
  return {
    pieces: new PatternPieces(file.pat_str),
    specials: mode === 'special' ? new Map(Object.entries(file.special_tokens)) : NO_SPECIALS,
    wholePieces: true,
  };
}

/** A tokenizer for encoding `name` (its table shared), listed as `info`. */
export function encodingTokenizer(info: TokenizerInfo, name: EncodingName, mode: SpecialTokenMode): Tokenizer {
  const encoding = loadEncoding(name);
  return new BpeTokenizer(info, { specialTokens: mode }, encoding.table, tiktokenModel(encoding.file, mode));
}
