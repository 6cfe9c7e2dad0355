/**
 * The tests' own reading of a text for a key, written apart from src/core/service/redact.ts: every piece
 * of the key of `piece` characters, forwards and reversed, as it is, percent-encoded, hex, base32 or
 * base64/base64url at any alignment, looked for in the text read with separators skipped, forwards and
 * backwards. An encoded piece is looked for by the characters that depend on the piece alone: those that
 * come out the same whatever bytes surround it.
 */
const SEPARATOR = /[\s\p{Cc}\p{Cf}\p{Z}\p{Default_Ignorable_Code_Point}]/gu;

const reversed = (text: string): string => Array.from(text).reverse().join('');
const latin1 = (bytes: Buffer): string => bytes.toString('latin1');

export function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...bytes].map((b) => b.toString(2).padStart(8, '0')).join('');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out + '='.repeat((8 - (out.length % 8)) % 8);
}

const ENCODERS: Record<string, (bytes: Buffer) => string> = {
  hex: (b) => b.toString('hex'),
  base32: (b) => base32(b).toLowerCase(),
  base64: (b) => b.toString('base64'),
};

/** The encoded characters of `piece` after `before` bytes of anything: the run that two different surroundings agree on. */
function core(encode: (bytes: Buffer) => string, piece: Buffer, before: number): string {
  const around = (fill: number) => encode(Buffer.concat([Buffer.alloc(before, fill), piece, Buffer.alloc(8, fill)]));
  const [a, b] = [around(0x00), around(0xff)];
  let start = 0;
  while (start < a.length && a[start] !== b[start]) start++;
  let end = start;
  while (end < a.length && a[end] === b[end]) end++;
  return a.slice(start, end);
}

/** How the text reads with separators skipped, and percent-escapes decoded to the bytes they stand for. */
function views(text: string): { plain: string[]; lower: string[]; std64: string[]; bytes: string } {
  const plain = text.replace(SEPARATOR, '');
  const both = [plain, reversed(plain)];
  // A decoded ASCII separator (%20, %0A) is skipped too.
  const decoded = plain.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const bytes = [...decoded].filter((c) => c.charCodeAt(0) > 0x20 && c !== '\u007f').join('');
  return {
    plain: both,
    lower: both.map((t) => t.toLowerCase()),
    std64: both.map((t) => t.replace(/-/g, '+').replace(/_/g, '/')),
    bytes,
  };
}

/** The first piece of `key` of `piece` characters (in any of the forms) that `text` holds, described; undefined if none. */
export function keyLeak(text: string, key: string, piece: number): string | undefined {
  const v = views(text);
  const chars = Array.from(key);
  for (let i = 0; i + piece <= chars.length; i++) {
    for (const p of [chars.slice(i, i + piece).join(''), reversed(chars.slice(i, i + piece).join(''))]) {
      const bytes = Buffer.from(p);
      if (v.plain[0]!.includes(p)) return `"${p}" as it is`;
      if (v.bytes.includes(latin1(bytes))) return `"${p}" percent-encoded`;
      for (const [name, encode] of Object.entries(ENCODERS)) {
        const seen = name === 'base64' ? v.std64 : name === 'hex' || name === 'base32' ? v.lower : v.plain;
        for (let before = 0; before < 5; before++) {
          const form = core(encode, bytes, before);
          if (seen.some((t) => t.includes(form))) return `"${p}" as ${name} "${form}"`;
        }
      }
    }
  }
  return undefined;
}
