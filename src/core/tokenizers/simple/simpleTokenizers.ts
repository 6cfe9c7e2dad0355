import { TokenizerBase } from '../engine/base';
import { WHITE_SPACE } from '../engine/pattern';
import type { TokenizerInfo } from '../registry';
import type { EngineOptions, Tokenizer, TokenSpan } from '../types';
import { codePointAt, countChars } from '../engine/utf8';

const encoder = new TextEncoder();

/** Scans with a pattern whose successive matches cover the text; each piece counted by `countPiece`. */
abstract class PatternTokenizer extends TokenizerBase {
  readonly lookbehind = 0;
  protected abstract readonly pattern: RegExp;
  protected abstract countPiece(piece: string): number;

  scan(text: string, from: number, emit: (end: number, count: number) => boolean): void {
    const pattern = this.pattern;
    pattern.lastIndex = from;
    let match: RegExpExecArray | null;
    while ((match = pattern.exec(text)) !== null) {
      if (!emit(match.index + match[0].length, this.countPiece(match[0]))) return;
    }
  }
}

/** One token per Unicode code point; the id is the code point. Scanned by lines for the incremental index. */
export class CharacterTokenizer extends PatternTokenizer {
  protected readonly pattern = /[^\n]*\n|[^\n]+/g;

  protected countPiece(piece: string): number {
    return countChars(piece);
  }

  override count(text: string): number {
    return countChars(text);
  }

  /** Every character is a piece of its own here: a restart may come after any of them. */
  spansFrom(text: string, from: number, out: TokenSpan[], stop: (end: number) => boolean): number {
    for (let i = from; i < text.length;) {
      const units = codePointAt(text, i).units;
      const char = text.slice(i, i + units);
      out.push({ id: char.codePointAt(0)!, bytes: encoder.encode(char), start: i, end: i + units, partial: false });
      i += units;
      if (stop(i)) return i;
    }
    return text.length;
  }
}

/**
 * Words (letters, digits, marks, underscore) and single punctuation or symbol characters; whitespace
 * separates and is not a token, like Python's re.findall(r"\w+|[^\w\s]"). Ids number the distinct
 * token texts in order of first appearance.
 */
export class WhitespaceTokenizer extends PatternTokenizer {
  readonly wholeTextIds = true;
  protected readonly pattern = new RegExp(`[${WHITE_SPACE}]+|[\\p{L}\\p{N}\\p{M}_]+|[^${WHITE_SPACE}\\p{L}\\p{N}\\p{M}_]`, 'gu');
  private static readonly space = new RegExp(`^[${WHITE_SPACE}]`, 'u');

  protected countPiece(piece: string): number {
    return WhitespaceTokenizer.space.test(piece) ? 0 : 1;
  }

  /** Ids number the words from the text's start, so the scan always starts there; spans begin at `from`. */
  spansFrom(text: string, from: number, out: TokenSpan[], stop: (end: number) => boolean): number {
    const vocabulary = new Map<string, number>();
    let start = 0;
    let stoppedAt = text.length;
    this.scan(text, 0, (end, count) => {
      if (count) {
        const word = text.slice(start, end);
        let id = vocabulary.get(word);
        if (id === undefined) vocabulary.set(word, (id = vocabulary.size));
        if (start >= from) out.push({ id, bytes: encoder.encode(word), start, end, partial: false });
      }
      start = end;
      if (end > from && stop(end)) stoppedAt = end;
      return stoppedAt === text.length;
    });
    return stoppedAt;
  }
}

/** The comparison tokenizer `info` names: 'character' or 'whitespace'. */
export function simpleTokenizer(info: TokenizerInfo, options: EngineOptions): Tokenizer {
  return info.kind === 'character' ? new CharacterTokenizer(info, options) : new WhitespaceTokenizer(info, options);
}
