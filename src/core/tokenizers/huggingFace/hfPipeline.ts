/**
 * A tokenizer.json's normalizer and pre_tokenizer, as normalize steps and Split steps for SplitPieces.
 * Supported: normalizers NFC, NFD, NFKC, NFKD, Replace, Prepend and Sequence; pre-tokenizers Split
 * (Isolated, Removed, MergedWithPrevious, MergedWithNext), ByteLevel, Metaspace and Sequence.
 * Anything else is refused by name, never silently approximated. A Regex pattern is read by regex/parse.ts, which
 * refuses what it cannot match exactly; our own patterns run on V8, any other on the linear matcher (regexOf).
 */
import {
  literalPattern,
  literalReplaceStep,
  prependStep,
  replaceStep,
  unicodeStep,
  type NormalizeStep,
  type UnicodeForm,
} from '../engine/normalize';
import { checkLimit, TokenizerJsonError } from './modelLimits';
import { translateOnigRegex } from './onigRegex';
import { linearMatcher, type Matcher } from '../engine/regex';
import type { SplitBehavior, SplitStep } from '../engine/pieces';
import { isScannedPattern } from '../engine/scanner';

export { TokenizerJsonError };

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function objectAt(parent: JsonObject, key: string, where: string): JsonObject {
  const value = parent[key];
  if (!isObject(value)) throw new TokenizerJsonError(`${where}.${key} must be an object.`);
  return value;
}

export function stringAt(parent: JsonObject, key: string, where: string): string {
  const value = parent[key];
  if (typeof value !== 'string') throw new TokenizerJsonError(`${where}.${key} must be a string.`);
  return value;
}

function typeOf(node: JsonObject, where: string): string {
  return stringAt(node, 'type', where);
}

/** GPT-2's pattern, which ByteLevel applies when use_regex is true (tokenizers' byte_level.rs). */
export const GPT2_PATTERN = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

const UNICODE_FORMS: readonly string[] = ['NFC', 'NFD', 'NFKC', 'NFKD'];

export function normalizerSteps(node: Json | undefined, where = 'normalizer', depth = 0): NormalizeStep[] {
  if (node === null || node === undefined) return [];
  if (!isObject(node)) throw new TokenizerJsonError(`${where} must be an object or null.`);
  const type = typeOf(node, where);
  if (UNICODE_FORMS.includes(type)) return [unicodeStep(type as UnicodeForm)];
  switch (type) {
    case 'Sequence': {
      const list = node.normalizers;
      if (!Array.isArray(list)) throw new TokenizerJsonError(`${where}.normalizers must be an array.`);
      checkLimit('pipelineDepth', depth + 1, `${where} is a Sequence at depth`);
      checkLimit('pipelineSteps', list.length, `${where}.normalizers has`);
      const steps = list.flatMap((child, i) => normalizerSteps(child, `${where}.normalizers[${i}]`, depth + 1));
      checkLimit('pipelineSteps', steps.length, `${where} has, all Sequences counted,`);
      return steps;
    }
    case 'Replace': {
      const literal = objectAt(node, 'pattern', where).String;
      const content = stringAt(node, 'content', where);
      checkLimit('replaceContent', content.length, `${where}.content has a length of`);
      if (typeof literal === 'string' && literal) return [literalReplaceStep(literal, content)];
      return [replaceStep(patternOf(node, where), content)];
    }
    case 'Prepend': {
      const prepend = stringAt(node, 'prepend', where);
      checkLimit('replaceContent', prepend.length, `${where}.prepend has a length of`);
      return [prependStep(prepend, 'segment', false)];
    }
    default:
      throw new TokenizerJsonError(`the normalizer ${JSON.stringify(type)} is not supported.`);
  }
}

/**
 * A Split or Replace pattern: {"String": literal} (a 'gu' RegExp), or {"Regex": Oniguruma source}, which runs on
 * the linear matcher (regex/matcher.ts): a file's pattern must not be able to freeze the editor.
 */
function patternOf(node: JsonObject, where: string): Matcher {
  return compiledPattern(node, where).regex;
}

function compiledPattern(node: JsonObject, where: string): Pick<SplitStep, 'regex' | 'lookbehind' | 'literal' | 'source'> {
  const pattern = objectAt(node, 'pattern', where);
  if (typeof pattern.String === 'string') {
    if (!pattern.String) throw new TokenizerJsonError(`${where}.pattern.String is empty.`);
    return { regex: literalPattern(pattern.String), lookbehind: false, literal: pattern.String };
  }
  if (typeof pattern.Regex === 'string') {
    try {
      return { ...regexOf(pattern.Regex), source: pattern.Regex };
    } catch (e) {
      throw new TokenizerJsonError(`${where}: ${(e as Error).message}`);
    }
  }
  throw new TokenizerJsonError(`${where}.pattern must hold a String or a Regex.`);
}

/**
 * Our own patterns (GPT-2's, and those scanner.ts knows, where a split falls back on a RegExp: text that a normalizer
 * changes) run on V8, which is faster and, on them, tested; any other runs on the linear matcher.
 */
function regexOf(pattern: string): { regex: Matcher; lookbehind: boolean } {
  if (pattern !== GPT2_PATTERN && !isScannedPattern(pattern)) {
    const { matcher, lookbehind } = linearMatcher(pattern);
    return { regex: matcher, lookbehind };
  }
  const { source, lookbehind } = translateOnigRegex(pattern);
  return { regex: new RegExp(source, 'gu'), lookbehind };
}

/**
 * The Splits without those whose literal pattern cannot occur in the normalized text, as Gemma's Split on " "
 * after its Replace of " " by "▁". Only when every step replaces one unit by another (a Prepend could add the
 * literal, NFKC makes a space of U+00A0) and the literal holds a unit that a step replaces and none brings back.
 */
export function withoutDeadSplits(splits: SplitStep[], steps: readonly NormalizeStep[]): SplitStep[] {
  if (!steps.every((step) => step.unit)) return splits;
  const gone = new Set<number>();
  for (const { unit } of steps) {
    if (unit!.from !== unit!.to) gone.add(unit!.from);
    gone.delete(unit!.to);
  }
  const dead = (literal: string): boolean => Array.from(literal, (c) => c.charCodeAt(0)).some((c) => gone.has(c));
  return splits.filter(({ literal }) => literal === undefined || !dead(literal));
}

export interface PreTokenization {
  /** Steps that belong to the pre-tokenizer but act like normalizers (Metaspace's replacement, prefixes). */
  normalizers: NormalizeStep[];
  splits: SplitStep[];
  /** Whether a ByteLevel step maps bytes to characters (then the vocabulary is byte-level). */
  byteLevel: boolean;
}

const BEHAVIORS: readonly string[] = ['Isolated', 'Removed', 'MergedWithPrevious', 'MergedWithNext'];

export function preTokenization(node: Json | undefined): PreTokenization {
  const out: PreTokenization = { normalizers: [], splits: [], byteLevel: false };
  if (node === null || node === undefined) return out;
  if (!isObject(node)) throw new TokenizerJsonError('pre_tokenizer must be an object or null.');
  const flat: [JsonObject, string][] = [];
  flatten(node, 'pre_tokenizer', flat);
  flat.forEach(([step, where], i) => addStep(out, step, where, i === 0));
  return out;
}

function flatten(node: JsonObject, where: string, out: [JsonObject, string][], depth = 0): void {
  if (typeOf(node, where) !== 'Sequence') {
    out.push([node, where]);
    checkLimit('pipelineSteps', out.length, 'pre_tokenizer has, all Sequences counted,');
    return;
  }
  const list = node.pretokenizers;
  if (!Array.isArray(list)) throw new TokenizerJsonError(`${where}.pretokenizers must be an array.`);
  checkLimit('pipelineDepth', depth + 1, `${where} is a Sequence at depth`);
  list.forEach((child, i) => {
    if (!isObject(child)) throw new TokenizerJsonError(`${where}.pretokenizers[${i}] must be an object.`);
    flatten(child, `${where}.pretokenizers[${i}]`, out, depth + 1);
  });
}

/** A prefix or a replacement acts on each piece the steps before made: exact here only as the first step. */
function requireFirst(first: boolean, what: string): void {
  if (!first) throw new TokenizerJsonError(`${what} after another pre-tokenizer is not supported.`);
}

function addStep(out: PreTokenization, step: JsonObject, where: string, first: boolean): void {
  const type = typeOf(step, where);
  if (type === 'Split') {
    const behavior = stringAt(step, 'behavior', where);
    if (!BEHAVIORS.includes(behavior)) throw new TokenizerJsonError(`the Split behavior ${JSON.stringify(behavior)} is not supported.`);
    if (step.invert === true) throw new TokenizerJsonError('inverted Split patterns are not supported.');
    out.splits.push({ ...compiledPattern(step, where), behavior: behavior as SplitBehavior });
  } else if (type === 'ByteLevel') {
    out.byteLevel = true;
    if (step.add_prefix_space === true) {
      requireFirst(first, 'ByteLevel with add_prefix_space');
      out.normalizers.push(prependStep(' ', 'segment', true));
    }
    if (step.use_regex !== false) {
      out.splits.push({ ...regexOf(GPT2_PATTERN), behavior: 'Isolated', source: GPT2_PATTERN });
    }
  } else if (type === 'Metaspace') {
    requireFirst(first, 'Metaspace');
    metaspace(out, step, where);
  } else throw new TokenizerJsonError(`the pre-tokenizer ${JSON.stringify(type)} is not supported.`);
}

/** Spaces become the replacement, which is prepended as the scheme says and, with split, starts each piece. */
function metaspace(out: PreTokenization, step: JsonObject, where: string): void {
  const replacement = typeof step.replacement === 'string' ? step.replacement : '\u2581';
  if ([...replacement].length !== 1) throw new TokenizerJsonError(`${where}.replacement must be one character.`);
  const scheme = typeof step.prepend_scheme === 'string' ? step.prepend_scheme : step.add_prefix_space === false ? 'never' : 'always';
  if (!['always', 'first', 'never'].includes(scheme))
    throw new TokenizerJsonError(`${where}.prepend_scheme ${JSON.stringify(scheme)} is not supported.`);
  out.normalizers.push(literalReplaceStep(' ', replacement));
  if (scheme !== 'never') out.normalizers.push(prependStep(replacement, scheme === 'first' ? 'text' : 'segment', true));
  if (step.split !== false)
    out.splits.push({ regex: literalPattern(replacement), behavior: 'MergedWithNext', lookbehind: false, literal: replacement });
}
