/** The token engine: exact tiktoken encodings, Hugging Face tokenizer.json BPE models and the comparison tokenizers, with no dependency on VS Code. */
export * from './registry';
export type { EngineOptions, SpecialTokenMode, TokenizeResult, Tokenizer, TokenSpan } from './types';
export { countChars } from './engine/utf8';
export { ESTIMATES, scaleCount, shownCount, approx, type Estimate, type EstimateEntry } from './estimate/estimates';
export { EstimateTokenizer, NotExactError } from './estimate/estimateTokenizer';
export { loadTokenizer, loadTokenizerSync, isLoaded } from './load';
export { getEncodingStats, type EncodingStats } from './tiktoken/ranks';
export { ModelLoadError, provideModel, prepareModelJson } from './huggingFace/models';
export { countAsync, tokenizeAsync, CancelledError, SLICE_MS } from './sliced';
export { DocumentIndex, mergeChanges, type TextChange, type EditEnvelope } from './documentIndex';
export {
  loadHuggingFaceTokenizer,
  prepareHuggingFaceSliced,
  type PreparedHuggingFace,
  parseTokenizerJson,
  TokenizerJsonError,
  MAX_TOKENIZER_JSON_CHARS,
  type HuggingFaceOptions,
} from './huggingFace/huggingFace';
