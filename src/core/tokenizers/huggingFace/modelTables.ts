/**
 * model.vocab and model.merges into the engine's tables (vocab.ts Vocab, pairMerges.ts PairMerges), in resumable
 * steps. From the text (a JsonSpan, which parseJsonSteps left unbuilt): the plain forms published files use are read
 * in place, with no object, array or string per token or merge; anything else in them (a fractional id, an
 * unexpected character) sends the span to the JSON parser and then to the reader of parsed objects, so that a file
 * gives the same tables or the same refusal either way.
 */
import { PairMerges } from '../engine/pairMerges';
import { isObject, type Json } from './hfPipeline';
import { checkLimit, MODEL_LIMITS, ModelLimitError, TokenizerJsonError } from './modelLimits';
import { MAX_ID, Vocab } from './vocab';
import { JsonSizeError, JsonSpan, JsonSyntaxError, parseJsonSteps } from '../../util/slicedJson';

/** How many entries a loop handles between two checks of the slice's time. */
export const STEP = 1024;

/** The members parseTokenizerJsonSteps leaves in the text when asked to (`inPlace`), for readVocab and readMerges. */
const IN_PLACE = [
  ['model', 'vocab'],
  ['model', 'merges'],
];

/**
 * JSON text read in steps as tokenizer.json is read: every problem a TokenizerJsonError, an object over the
 * vocabulary's limit a ModelLimitError. `offset`: where the text begins in the file (for the positions in messages).
 */
export function* parseTokenizerJsonSteps(text: string, inPlace: boolean, offset = 0): Generator<void, unknown> {
  try {
    const skip = inPlace ? IN_PLACE : [];
    return yield* parseJsonSteps(text, undefined, { maxObjectMembers: MODEL_LIMITS.vocabulary.max, skip });
  } catch (e) {
    if (e instanceof JsonSizeError)
      throw new ModelLimitError('vocabulary', undefined, `an object (model.vocab?) at position ${e.position + offset} has`);
    if (e instanceof JsonSyntaxError) throw new TokenizerJsonError(`not valid JSON (${e.what} at position ${e.position + offset}).`);
    throw new TokenizerJsonError(`not valid JSON (${(e as Error).message}).`);
  }
}

/** A span's value parsed, for what the in-place readers leave to the parser. */
function* parsed(text: string, span: JsonSpan): Generator<void, Json> {
  return (yield* parseTokenizerJsonSteps(text.slice(span.start, span.end), false, span.start)) as Json;
}

function space(text: string, p: number): number {
  for (let c = text.charCodeAt(p); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++p));
  return p;
}

/** The closing quote of the string opened at p (-1: none). */
function closingQuote(text: string, p: number): number {
  for (let q = text.indexOf('"', p + 1); q >= 0; q = text.indexOf('"', q + 1)) {
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return -1;
}

/** Whether text[a, b) is a string's content as it is: no escape, no control character (which JSON refuses). */
function plain(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x5c) return false;
  }
  return true;
}

/** The value of the string text[open, close] with its escapes, or undefined if JSON refuses it. */
function unescaped(text: string, open: number, close: number): string | undefined {
  try {
    return JSON.parse(text.slice(open, close + 1)) as string;
  } catch {
    return undefined;
  }
}

/** model.vocab, from its place in the text or parsed: each id a non-negative integer below 2^24, given once. */
export function* readVocab(
  raw: Json | JsonSpan | undefined,
  text: string,
  byteLevel: boolean,
  byteFallback: boolean,
): Generator<void, Vocab> {
  const fresh = (capacity?: number) => new Vocab(byteLevel, byteFallback ? new Int32Array(256).fill(-1) : undefined, capacity);
  let vocab = fresh(raw instanceof JsonSpan ? raw.members : undefined);
  if (raw instanceof JsonSpan) {
    if (yield* vocabInPlace(text, raw, vocab)) return nonEmpty(vocab);
    vocab = fresh();
    raw = yield* parsed(text, raw);
  }
  if (!isObject(raw)) throw new TokenizerJsonError('model.vocab must be an object.');
  let n = 0;
  for (const token in raw) {
    if (++n % STEP === 0) yield;
    const id = raw[token];
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= MAX_ID) {
      throw new TokenizerJsonError(`model.vocab[${JSON.stringify(token)}] must be an id from 0 to ${MAX_ID - 1}.`);
    }
    vocab.add(token, 0, token.length, id);
  }
  return nonEmpty(vocab);
}

function nonEmpty(vocab: Vocab): Vocab {
  if (!vocab.size) throw new TokenizerJsonError('model.vocab is empty.');
  return vocab;
}

/** Reads {"token": id, …} in place; false at anything but plain members with ids of digits (the parser then reads it). */
function* vocabInPlace(text: string, span: JsonSpan, vocab: Vocab): Generator<void, boolean> {
  if (text.charCodeAt(span.start) !== 0x7b) return false;
  let p = space(text, span.start + 1);
  if (text.charCodeAt(p) === 0x7d) return p + 1 === span.end;
  for (let n = 1; ; n++) {
    if (n % STEP === 0) yield;
    const open = p;
    const close = text.charCodeAt(open) === 0x22 ? closingQuote(text, open) : -1;
    if (close < 0) return false;
    p = space(text, close + 1);
    if (text.charCodeAt(p) !== 0x3a) return false;
    const idStart = space(text, p + 1);
    let id = 0;
    p = idStart;
    for (let d = text.charCodeAt(p) - 0x30; d >= 0 && d <= 9 && id < MAX_ID; d = text.charCodeAt(++p) - 0x30) id = id * 10 + d;
    if (!plainId(text, idStart, p, id)) return false;
    p = space(text, p);
    if (plain(text, open + 1, close)) vocab.add(text, open + 1, close, id);
    else {
      const key = unescaped(text, open, close);
      if (key === undefined) return false;
      vocab.add(key, 0, key.length, id);
    }
    const c = text.charCodeAt(p);
    if (c === 0x7d) return p + 1 === span.end;
    if (c !== 0x2c) return false;
    p = space(text, p + 1);
  }
}

/** Whether text[start, end), read as `id`, is an id in JSON digits alone (no sign, fraction, exponent or leading zero) below MAX_ID. */
function plainId(text: string, start: number, end: number, id: number): boolean {
  const after = text.charCodeAt(end);
  if (end === start || id >= MAX_ID || (text.charCodeAt(start) === 0x30 && end - start > 1)) return false;
  return after !== 0x2e && after !== 0x65 && after !== 0x45 && !(after >= 0x30 && after <= 0x39);
}

/** model.merges into a table by pair of ids; a repeated pair keeps its last index, as tokenizers' map does. */
export function* readMerges(raw: Json | JsonSpan | undefined, text: string, vocab: Vocab): Generator<void, PairMerges> {
  if (raw instanceof JsonSpan) {
    checkLimit('merges', raw.members, 'model.merges has');
    const merges = new Merges(vocab, raw.members);
    if (yield* mergesInPlace(text, raw, merges)) return merges.pairs;
    raw = yield* parsed(text, raw);
  }
  if (!Array.isArray(raw)) throw new TokenizerJsonError('model.merges must be an array.');
  checkLimit('merges', raw.length, 'model.merges has');
  const merges = new Merges(vocab, raw.length);
  for (let i = 0; i < raw.length; i++) {
    if (i % STEP === STEP - 1) yield;
    const [a, b] = mergePair(raw[i]!, i);
    merges.add(i, a, 0, a.length, b, 0, b.length);
  }
  return merges.pairs;
}

/** "a b" strings or [a, b] pairs, as tokenizers reads both. */
function mergePair(entry: Json, index: number): [string, string] {
  if (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && typeof entry[1] === 'string')
    return [entry[0], entry[1]];
  if (typeof entry === 'string') {
    const space = entry.indexOf(' ', 1);
    if (space > 0 && entry.indexOf(' ', space + 1) < 0) return [entry.slice(0, space), entry.slice(space + 1)];
  }
  throw new TokenizerJsonError(`model.merges[${index}] must be "a b" or ["a", "b"].`);
}

/**
 * Reads ["a b", …] or [["a", "b"], …] in place; false at anything else (the parser then reads it). A string with
 * escapes is read by JSON.parse, alone.
 */
function* mergesInPlace(text: string, span: JsonSpan, merges: Merges): Generator<void, boolean> {
  if (text.charCodeAt(span.start) !== 0x5b) return false;
  let p = space(text, span.start + 1);
  if (text.charCodeAt(p) === 0x5d) return p + 1 === span.end;
  for (let i = 0; ; i++) {
    if (i % STEP === STEP - 1) yield;
    p = text.charCodeAt(p) === 0x5b ? pairInPlace(text, p, i, merges) : joinedInPlace(text, p, i, merges);
    if (p < 0) return false;
    p = space(text, p);
    const c = text.charCodeAt(p);
    if (c === 0x5d) return p + 1 === span.end;
    if (c !== 0x2c) return false;
    p = space(text, p + 1);
  }
}

/** Merge i written "a b" at p: added, and the position after it; -1 if it is not that. */
function joinedInPlace(text: string, p: number, i: number, merges: Merges): number {
  const close = text.charCodeAt(p) === 0x22 ? closingQuote(text, p) : -1;
  if (close < 0) return -1;
  if (plain(text, p + 1, close)) {
    const cut = text.indexOf(' ', p + 2);
    if (cut < 0 || cut >= close || text.indexOf(' ', cut + 1) < close) return -1;
    merges.add(i, text, p + 1, cut, text, cut + 1, close);
  } else {
    const merge = unescaped(text, p, close);
    const cut = merge?.indexOf(' ', 1) ?? -1;
    if (merge === undefined || cut < 0 || merge.indexOf(' ', cut + 1) >= 0) return -1;
    merges.add(i, merge, 0, cut, merge, cut + 1, merge.length);
  }
  return close + 1;
}

/** Merge i written ["a", "b"] at p: added, and the position after it; -1 if it is not that. */
function pairInPlace(text: string, p: number, i: number, merges: Merges): number {
  const a = space(text, p + 1);
  const aEnd = text.charCodeAt(a) === 0x22 ? closingQuote(text, a) : -1;
  if (aEnd < 0) return -1;
  p = space(text, aEnd + 1);
  if (text.charCodeAt(p) !== 0x2c) return -1;
  const b = space(text, p + 1);
  const bEnd = text.charCodeAt(b) === 0x22 ? closingQuote(text, b) : -1;
  if (bEnd < 0) return -1;
  p = space(text, bEnd + 1);
  if (text.charCodeAt(p) !== 0x5d) return -1;
  const left = plain(text, a + 1, aEnd) ? text : unescaped(text, a, aEnd);
  const right = plain(text, b + 1, bEnd) ? text : unescaped(text, b, bEnd);
  if (left === undefined || right === undefined) return -1;
  const [a0, a1] = left === text ? [a + 1, aEnd] : [0, left.length];
  const [b0, b1] = right === text ? [b + 1, bEnd] : [0, right.length];
  merges.add(i, left, a0, a1, right, b0, b1);
  return p + 1;
}

/** The merges table being filled: each pair's ids and the merged token's id, found by their key bytes. */
class Merges {
  readonly pairs: PairMerges;
  private scratch = new Uint8Array(256);

  constructor(
    private readonly vocab: Vocab,
    count: number,
  ) {
    this.pairs = new PairMerges(count);
  }

  /** Adds merge i of a = sa[a0, a1) and b = sb[b0, b1). */
  add(i: number, sa: string, a0: number, a1: number, sb: string, b0: number, b1: number): void {
    const room = 6 * (a1 - a0 + b1 - b0);
    if (this.scratch.length < room) this.scratch = new Uint8Array(room);
    const vocab = this.vocab;
    const bytes = this.scratch;
    const la = vocab.keyInto(sa, a0, a1, bytes, 0);
    const lb = la < 0 ? -1 : vocab.keyInto(sb, b0, b1, bytes, la);
    if (lb < 0) return this.addByString(i, sa.slice(a0, a1), sb.slice(b0, b1));
    const left = vocab.idAt(bytes, 0, la);
    const right = vocab.idAt(bytes, la, lb);
    if (left < 0 || right < 0) throw new TokenizerJsonError(`model.merges[${i}] uses a token that is not in model.vocab.`);
    // A high surrogate at a's end and a low one at b's start make one character: a + b's bytes are not a's then b's.
    const joined = a1 > a0 && b1 > b0 && isHigh(sa.charCodeAt(a1 - 1)) && isLow(sb.charCodeAt(b0));
    const result = joined ? vocab.idOf(sa.slice(a0, a1) + sb.slice(b0, b1)) : vocab.idAt(bytes, 0, lb);
    if (result < 0) this.noResult(i, sa.slice(a0, a1) + sb.slice(b0, b1));
    this.pairs.set(left, right, i, result);
  }

  /** A byte-level merge naming a string outside the byte alphabet: in model.vocab or not, the model cannot use it. */
  private addByString(i: number, a: string, b: string): never {
    const vocab = this.vocab;
    if (vocab.idOf(a) < 0 || vocab.idOf(b) < 0) throw new TokenizerJsonError(`model.merges[${i}] uses a token that is not in model.vocab.`);
    if (vocab.idOf(a + b) < 0) this.noResult(i, a + b);
    throw new TokenizerJsonError(`model.merges[${i}] merges tokens that the model cannot produce from text.`);
  }

  private noResult(i: number, merged: string): never {
    throw new TokenizerJsonError(`model.merges[${i}] makes ${JSON.stringify(merged)}, which is not in model.vocab.`);
  }
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
