/**
 * Exact token counts for open models from their Hugging Face tokenizer.json, on the same engine as
 * the tiktoken encodings (BpeTokenizer, bpe.ts, RankTable): no second BPE implementation.
 *
 * Byte-level BPE (Llama 3, Qwen 2.5/3, DeepSeek V3, gpt-oss, Phi-4): vocabulary strings are mapped
 * back from GPT-2's byte-to-character alphabet to bytes, so text is merged as UTF-8 bytes, as
 * tiktoken does. SentencePiece-style BPE (Gemma, Llama 2, Mistral): merges start from characters, and
 * a character outside the vocabulary becomes its <0xXX> byte tokens. In both, a merge's priority is
 * its index in model.merges and belongs to the pair of ids (tokenizers' bpe/word.rs), not to the merged
 * token as in tiktoken: the merge loop works on ids (pairMerges.ts, bpe.ts mergeIds).
 *
 * Added tokens: in 'text' mode the special ones are ordinary text, as the built-in encodings treat
 * their special tokens (tokenizers' encode_special_tokens); the others are always one token, as in
 * every Hugging Face tokenizer. In 'special' mode all are.
 */
import { BpeTokenizer, type BpeModel } from '../engine/bpeTokenizer';
import {
  isObject,
  normalizerSteps,
  objectAt,
  preTokenization,
  TokenizerJsonError,
  withoutDeadSplits,
  type Json,
  type JsonObject,
} from './hfPipeline';
import { checkLimit } from './modelLimits';
import { parseTokenizerJsonSteps, readMerges, readVocab, STEP } from './modelTables';
import { MAX_CROSSING, type Vocab } from './vocab';
import { normalizeAll, type NormalizeStep } from '../engine/normalize';
import { SplitPieces, type SplitStep } from '../engine/pieces';
import { InitialSymbols } from '../engine/pairMerges';
import { RankTable, type TokenBytes } from '../engine/rankTable';
import type { TokenizerInfo } from '../registry';
import { SLICE_MS } from '../sliced';
import type { SpecialTokenMode, Tokenizer } from '../types';
import { runSliced, runToEnd } from '../../util/steps';

export { TokenizerJsonError } from './hfPipeline';

/** Larger than any published tokenizer.json (Gemma 3's is 33 MB), small enough to refuse a runaway file at once. */
export const MAX_TOKENIZER_JSON_CHARS = 128 * 1024 * 1024;

export interface HuggingFaceOptions {
  /** How the tokenizer is listed; default "tokenizer.json". */
  name?: string;
  description?: string;
  specialTokens?: SpecialTokenMode;
  /** What the registry lists for it (family, context window, source), kept on the tokenizer's info. */
  info?: Partial<Omit<TokenizerInfo, 'kind'>>;
}

/** Reads tokenizer.json text; every problem is a TokenizerJsonError that says what and where. */
export function parseTokenizerJson(text: string, maxChars = MAX_TOKENIZER_JSON_CHARS): JsonObject {
  return runToEnd(tokenizerJsonSteps(text, maxChars, false));
}

/**
 * parseTokenizerJson in resumable steps, so that a 30 MB file is read in time slices too; `inPlace`: model.vocab
 * and model.merges are left in the text (JsonSpans) for modelTables.ts to read without building them.
 */
function* tokenizerJsonSteps(text: string, maxChars = MAX_TOKENIZER_JSON_CHARS, inPlace = true): Generator<void, JsonObject> {
  if (typeof text !== 'string') throw new TokenizerJsonError('expected the text of the file.');
  if (text.length > maxChars) throw new TokenizerJsonError(`the file has ${text.length} characters, more than the ${maxChars} allowed.`);
  const parsed = yield* parseTokenizerJsonSteps(text, inPlace);
  if (!isObject(parsed)) throw new TokenizerJsonError('the top level must be an object.');
  return parsed;
}

/** A tokenizer.json's text read and built in resumable steps. */
function* textSteps(text: string, bases: readonly RankTable[] = []): Generator<void, PreparedHuggingFace> {
  return yield* prepareSteps(yield* tokenizerJsonSteps(text), bases, text);
}

/** A tokenizer usable wherever a built-in one is, from tokenizer.json text or its parsed object. */
export function loadHuggingFaceTokenizer(source: string | JsonObject, options: HuggingFaceOptions = {}): Tokenizer {
  return runToEnd(typeof source === 'string' ? textSteps(source) : prepareSteps(source)).tokenizer(options);
}

/**
 * As loadHuggingFaceTokenizer, but reads and builds in slices of about `sliceMs`, yielding to the event loop
 * between them (the JSON too, with slicedJson.ts), and returns a model that makes
 * a tokenizer for each special-token mode from the same tables.
 */
export async function prepareHuggingFaceSliced(
  text: string,
  { sliceMs = SLICE_MS, bases = [] }: { sliceMs?: number; bases?: readonly RankTable[] } = {},
): Promise<PreparedHuggingFace> {
  return runSliced(textSteps(text, bases), { sliceMs });
}

/** A tokenizer.json read and checked once: its tables are shared by the tokenizers of both special-token modes. */
export interface PreparedHuggingFace {
  tokenizer(options?: HuggingFaceOptions): Tokenizer;
}

/**
 * Reads the model in resumable steps (each loop yields every few thousand entries); returns the prepared model.
 * `text`: the file, where model.vocab and model.merges are when the parse left them there.
 */
function* prepareSteps(json: JsonObject, bases: readonly RankTable[] = [], text = ''): Generator<void, PreparedHuggingFace> {
  if (!isObject(json)) throw new TokenizerJsonError('the top level must be an object.');
  const model = objectAt(json, 'model', 'tokenizer.json');
  checkModel(model);
  const normalizers = normalizerSteps(json.normalizer);
  const pre = preTokenization(json.pre_tokenizer);
  const vocab = yield* readVocab(model.vocab, text, pre.byteLevel, !pre.byteLevel && model.byte_fallback === true);
  const table = yield* buildTable(model, vocab, text, bases);
  const steps = [...normalizers, ...pre.normalizers];
  checkGrowth(steps);
  const splits = pre.byteLevel ? pre.splits : [...withoutDeadSplits(pre.splits, steps), ...safeCuts(vocab.crossing)];
  const unknown = unknownToken(model, vocab);
  const wholePieces = model.ignore_merges === true;
  const added = addedTokens(json.added_tokens, (content: string) => normalizeAll(steps, content, false, false).text);
  const prepared: PreparedHuggingFace = {
    tokenizer(options: HuggingFaceOptions = {}): Tokenizer {
      const mode = options.specialTokens ?? 'text';
      const info: TokenizerInfo = {
        name: options.name ?? 'tokenizer.json',
        kind: 'huggingface',
        description: options.description ?? 'Hugging Face BPE tokenizer (tokenizer.json)',
        ...options.info,
      };
      const bpe: BpeModel = {
        pieces: new SplitPieces(steps, splits),
        specials: new Map(added.filter((t) => !t.special || mode === 'special').map((t) => [t.content, t.id])),
        wholePieces,
        unknown,
      };
      return new BpeTokenizer(info, { specialTokens: mode }, table, bpe);
    },
  };
  yield* trialCounts(prepared, [PROBE, ...splits.map((split) => split.literal ?? ''), ...added.map((t) => t.content)].join(PROBE_GAP));
  return prepared;
}

/** Text that reaches each kind of step: letters of several scripts, digits, marks, compatibility forms, spaces, lines, an emoji, a lone surrogate. */
const PROBE = "Hello, wORLD's 12345 naïve cafe\u0301 ﬁ ＡＢＣ ①  東京 한국어 ▁x\t\r\n\n  😀 \u00a0\ud800 end.";
/** Between the added tokens and split literals of the probe, so that each also starts and ends a segment. */
const PROBE_GAP = ' a1 ';

/**
 * Counts `text` with the tokenizer of each special-token mode, in steps, as a check at load: whatever a count can
 * throw, it throws here (a TokenizerJsonError), so a model that loads counts.
 */
function* trialCounts(prepared: PreparedHuggingFace, text: string): Generator<void, void> {
  for (const specialTokens of ['text', 'special'] as const) {
    try {
      const tokenizer = prepared.tokenizer({ specialTokens });
      for (let pos = 0; pos < text.length; yield) {
        let pieces = 0;
        const heavy = tokenizer.scanUntilHeavy(text, pos, (end) => {
          pos = end;
          return ++pieces < STEP;
        });
        if (typeof heavy === 'string') yield* tokenizer.prepare(heavy);
      }
    } catch (error) {
      if (error instanceof TokenizerJsonError) throw error;
      throw new TokenizerJsonError(
        `counting a sample text (${specialTokens} mode) failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

const SPACE_MARK = '\u2581';

/**
 * A SentencePiece-style model often merges a whole line as one word (Gemma's pre-tokenizer splits on
 * spaces after they became ▁, so never). Merges cannot cross a place that no token spans, so cutting
 * there changes nothing but lets the piece cache work: cut before each run of ▁ that follows another
 * character, unless a token holding "x▁" (Gemma has one, ">▁</") occurs across the cut. `crossing`: the tokens with a ▁
 * after another character, and where (vocab.ts; undefined when there are more than MAX_CROSSING).
 */
function safeCuts(crossing: readonly [token: string, at: number][] | undefined): SplitStep[] {
  if (!crossing || crossing.length > MAX_CROSSING) return [];
  // Each run start is asked: first whether the unit before it can be a crossing token's (Gemma's one: ">").
  const before = new Set(crossing.map(([token, i]) => token.charCodeAt(i - 1)));
  const keep = (norm: string, at: number, a: number, b: number): boolean =>
    before.has(norm.charCodeAt(at - 1)) &&
    crossing.some(([token, i]) => at - i >= a && at - i + token.length <= b && norm.startsWith(token, at - i));
  return [
    { regex: new RegExp(`${SPACE_MARK}+`, 'gu'), behavior: 'MergedWithNext', lookbehind: false, keep, unitRun: SPACE_MARK.charCodeAt(0) },
  ];
}

/** The normalizers together may lengthen a text this many times at most (each step's growth multiplies). */
function checkGrowth(steps: readonly NormalizeStep[]): void {
  const growth = steps.reduce((product, step) => product * (step.growth ?? 1), 1);
  checkLimit('growth', growth, 'the normalizers together can lengthen a text');
}

function checkModel(model: JsonObject): void {
  if (model.type !== 'BPE' && !(model.type === undefined && 'merges' in model)) {
    throw new TokenizerJsonError(`model.type ${JSON.stringify(model.type)} is not supported: only BPE models are.`);
  }
  if (typeof model.dropout === 'number' && model.dropout > 0)
    throw new TokenizerJsonError('BPE dropout makes counts random: not supported.');
  for (const key of ['continuing_subword_prefix', 'end_of_word_suffix']) {
    const value = model[key];
    if (value !== undefined && value !== null && value !== '') throw new TokenizerJsonError(`model.${key} is not supported.`);
  }
}

function unknownToken(model: JsonObject, vocab: Vocab): BpeModel['unknown'] {
  if (typeof model.unk_token !== 'string') return undefined;
  const id = vocab.idOf(model.unk_token);
  if (id < 0) throw new TokenizerJsonError(`model.unk_token ${JSON.stringify(model.unk_token)} is not in model.vocab.`);
  return { id, fuse: model.fuse_unk === true };
}

/** The engine's table of the model's tokens, merges and initial symbols, sharing a loaded built-in encoding's when it can. */
function* buildTable(model: JsonObject, vocab: Vocab, text: string, bases: readonly RankTable[]): Generator<void, RankTable> {
  const byteIds = vocab.byteLevel ? vocab.singleBytes() : undefined;
  const tokens = vocab.tokens();
  yield;
  const pairs = yield* readMerges(model.merges, text, vocab);
  yield;
  const initial = new InitialSymbols(vocab.short, byteIds, vocab.byteFallback);
  yield;
  const byteFallback = vocab.byteFallback;
  const symbols = { charLevel: !vocab.byteLevel, pairs, initial, ...(byteFallback ? { byteFallback } : {}) };
  const base = vocab.byteLevel ? yield* sharedBase(tokens, bases) : undefined;
  return base ? new RankTable(vocab.tokens(base.size), symbols, base) : new RankTable(tokens, symbols);
}

/**
 * The first of `bases` (built-in encodings already loaded) whose every token is this vocabulary's token of the same
 * id: Llama 3 begins with cl100k_base and gpt-oss with o200k_base, byte for byte. Their table then holds only the rest.
 */
function* sharedBase(tokens: TokenBytes, bases: readonly RankTable[]): Generator<void, RankTable | undefined> {
  for (const base of bases) {
    if (base.pairs || base.sharedBase || base.size > tokens.start.length) continue;
    let id = 0;
    for (; id < base.size; id++) {
      if (id % (STEP * 16) === 0) yield;
      const want = base.bytesOf(id);
      const n = tokens.length[id]!;
      if (!want || want.length !== n) break;
      const s = tokens.start[id]!;
      let i = 0;
      while (i < n && tokens.data[s + i] === want[i]) i++;
      if (i < n) break;
    }
    if (id === base.size) return base;
  }
  return undefined;
}

interface AddedToken {
  id: number;
  content: string;
  special: boolean;
}

/**
 * The added tokens, checked for both special-token modes at load (so a model that loads counts in either):
 * lstrip, rstrip and single_word are refused rather than ignored, and so is a normalized token that normalizing changes.
 */
function addedTokens(raw: Json | undefined, normalize: (s: string) => string): AddedToken[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new TokenizerJsonError('added_tokens must be an array.');
  checkLimit('addedTokens', raw.length, 'added_tokens has');
  const out: AddedToken[] = [];
  let chars = 0;
  raw.forEach((entry, i) => {
    const token = addedToken(entry, i);
    if (!token) return;
    checkLimit('addedTokenLength', token.content.length, `added_tokens[${i}] has a length of`);
    checkLimit('addedTokenChars', (chars += token.content.length), 'added_tokens have, all together,');
    for (const flag of ['lstrip', 'rstrip', 'single_word']) {
      if (isObject(entry) && entry[flag] === true) {
        throw new TokenizerJsonError(`added_tokens[${i}] (${JSON.stringify(token.content)}) uses ${flag}, which is not supported.`);
      }
    }
    if (isObject(entry) && entry.normalized === true && normalize(token.content) !== token.content) {
      throw new TokenizerJsonError(`added_tokens[${i}] is matched after normalization, which changes it: not supported.`);
    }
    out.push(token);
  });
  return out;
}

function addedToken(entry: Json, i: number): AddedToken | undefined {
  if (
    !isObject(entry) ||
    typeof entry.content !== 'string' ||
    typeof entry.id !== 'number' ||
    !Number.isInteger(entry.id) ||
    entry.id < 0
  ) {
    throw new TokenizerJsonError(`added_tokens[${i}] must have a string content and a non-negative integer id.`);
  }
  if (!entry.content) return undefined;
  return { id: entry.id, content: entry.content, special: entry.special === true };
}
