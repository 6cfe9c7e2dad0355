/** UTF-8 and code-point helpers that behave like TextEncoder (lone surrogates become U+FFFD), without allocating. */

/** Number of Unicode code points, as Python's len() counts them: an emoji is one, a lone surrogate is one. */
export function countChars(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** UTF-8 length of text as TextEncoder encodes it (a lone surrogate is U+FFFD, three bytes). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** UTF-8 byte length of the code point starting at text[i], and how many UTF-16 units it spans. */
export function codePointAt(text: string, i: number): { bytes: number; units: number } {
  const c = text.charCodeAt(i);
  if (c < 0x80) return ONE;
  if (c < 0x800) return TWO;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return FOUR;
  }
  return THREE;
}
const ONE = { bytes: 1, units: 1 };
const TWO = { bytes: 2, units: 1 };
const THREE = { bytes: 3, units: 1 };
const FOUR = { bytes: 4, units: 2 };

/** A growable scratch buffer for encoding pieces. */
export class ByteBuffer {
  bytes = new Uint8Array(1024);

  /** Encodes text[start, end) as UTF-8 into this.bytes (a lone surrogate as U+FFFD) and returns the byte length. */
  encode(text: string, start = 0, end = text.length): number {
    if (this.bytes.length < (end - start) * 3) this.bytes = new Uint8Array((end - start) * 3 + 16);
    const o = utf8Into(text, start, end, this.bytes, 0, 'fffd');
    return o < 0 ? -o - 1 : o;
  }
}

/**
 * Writes s[start, end) as UTF-8 at out[o…] (room for 3 per unit), a lone surrogate as its own 3 bytes (WTF-8) when
 * `lone` is 'wtf8', else as U+FFFD (TextEncoder's bytes); returns the end, negated (−end − 1) if a lone one was met.
 */
export function utf8Into(s: string, start: number, end: number, out: Uint8Array, o: number, lone: 'wtf8' | 'fffd'): number {
  let sawLone = false;
  for (let i = start; i < end; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) out[o++] = c;
    else if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 0x3f);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < end ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          out[o++] = 0xf0 | (c >> 18);
          out[o++] = 0x80 | ((c >> 12) & 0x3f);
          out[o++] = 0x80 | ((c >> 6) & 0x3f);
          out[o++] = 0x80 | (c & 0x3f);
          i++;
          continue;
        }
        sawLone = true;
        if (lone === 'fffd') c = 0xfffd;
      }
      out[o++] = 0xe0 | (c >> 12);
      out[o++] = 0x80 | ((c >> 6) & 0x3f);
      out[o++] = 0x80 | (c & 0x3f);
    }
  }
  return sawLone ? -o - 1 : o;
}
