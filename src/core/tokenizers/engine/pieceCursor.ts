/**
 * A long piece's token spans given a part at a time: the inspector's chunks and the API's sliced tokenize may end
 * inside a piece of a million letters, between two of its tokens, and go on from there with the cursor (a piece's
 * spans in one go would hold the event loop for as long as the piece is long). Pure: no `vscode`.
 */
import { codePointAt } from './utf8';
import type { PieceResume, TokenSpan } from '../types';

/** A piece's tokens and the UTF-8 length of each (id -1: text no token holds). */
export interface TokenParts {
  ids: ArrayLike<number>;
  lengths: ArrayLike<number>;
  /** The lengths' sum. */
  bytes: number;
}

/** A token's bytes, given its id and the text it covers (text[start, end)). */
export type TokenBytes = (id: number, text: string, start: number, end: number) => Uint8Array;

export class PieceCursor implements PieceResume {
  private token = 0;
  /** Offset in the piece of the character holding byte `charByte`. */
  private char = 0;
  private charByte = 0;
  private byte = 0;
  /** The text offset after the last span given, when it ended where a character ends (a point to stop); else -1. */
  end = -1;

  constructor(
    readonly text: string,
    private readonly piece: string,
    private readonly pieceStart: number,
    /** Where the piece ends in the text: the walk's next restart point. */
    readonly pieceEnd: number,
    private readonly parts: TokenParts,
  ) {}

  /** A cursor at the same place that moves on its own (a resume stays valid for a walk that is tried again). */
  copy(): PieceCursor {
    return Object.assign(new PieceCursor(this.text, this.piece, this.pieceStart, this.pieceEnd, this.parts), this);
  }

  get done(): boolean {
    return this.token >= this.parts.ids.length;
  }

  /** Gives the spans of up to `n` more tokens, each with the whole characters it touches; true if the last ends cleanly. */
  push(out: TokenSpan[], n: number, bytesOf: TokenBytes): boolean {
    const { piece, pieceStart, parts } = this;
    let cp = codePointAt(piece, this.char);
    let clean = false;
    for (const last = Math.min(parts.ids.length, this.token + n); this.token < last; this.token++) {
      const id = parts.ids[this.token]!;
      const tokenEnd = this.byte + parts.lengths[this.token]!;
      while (this.charByte + cp.bytes <= this.byte) {
        this.charByte += cp.bytes;
        this.char += cp.units;
        cp = codePointAt(piece, this.char);
      }
      const start = this.char;
      const startsClean = this.charByte === this.byte;
      let endChar = this.char;
      let endByte = this.charByte;
      let endCp = cp;
      while (endByte + endCp.bytes < tokenEnd) {
        endByte += endCp.bytes;
        endChar += endCp.units;
        endCp = codePointAt(piece, endChar);
      }
      clean = endByte + endCp.bytes === tokenEnd;
      this.byte = tokenEnd;
      const end = pieceStart + endChar + endCp.units;
      this.end = clean ? end : -1;
      if (id < 0) continue; // text no token holds
      out.push({
        id,
        bytes: bytesOf(id, this.text, pieceStart + start, end),
        start: pieceStart + start,
        end,
        partial: !startsClean || !clean,
      });
    }
    return clean;
  }
}
