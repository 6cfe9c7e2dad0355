/**
 * Images in a service answer: base64 fields, data: URLs, SVG text, or a whole image answer. An image
 * is taken only when its base64 is valid and its first bytes are what the format says (the declared
 * type is not trusted); it becomes a data: URL the page shows in an <img>.
 */

/** Larger images are left where they are (under Other fields) rather than shown. */
const MAX_IMAGE_CHARS = 20_000_000;
const MIN_IMAGE_CHARS = 32;

type Bytes = ArrayLike<number>;

const starts = (bytes: Bytes, prefix: readonly number[], at = 0): boolean => prefix.every((b, i) => bytes[at + i] === b);
const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const SPACE = /\s/;

function skipSpace(text: string, at: number): number {
  while (at < text.length && SPACE.test(text[at]!)) at++;
  return at;
}

/** After `open` at `at`, the index past its `close` and the space after it; -1 when it is not there or not closed. */
function skipMarkup(text: string, at: number, open: string, close: string): number {
  if (text.slice(at, at + open.length).toLowerCase() !== open.toLowerCase()) return at;
  const end = text.indexOf(close, at + open.length);
  return end < 0 ? -1 : skipSpace(text, end + close.length);
}

/**
 * Whether the text is SVG markup: an <svg> element after an optional XML declaration, comments and a doctype. A scan,
 * not a regex: one with a repeated lazy comment group took exponential time on a run of empty comments.
 */
function isSvg(text: string): boolean {
  let at = skipMarkup(text, skipSpace(text, 0), '<?xml', '>');
  while (at >= 0) {
    const next = skipMarkup(text, at, '<!--', '-->');
    if (next === at) break;
    at = next;
  }
  at = at < 0 ? at : skipMarkup(text, at, '<!DOCTYPE', '>');
  return at >= 0 && /^<svg[\s>]/i.test(text.slice(at, at + 5));
}

/** The image type of these first bytes, or undefined. */
function sniff(bytes: Bytes): string | undefined {
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(bytes, ascii('GIF8'))) return 'image/gif';
  if (starts(bytes, ascii('RIFF')) && starts(bytes, ascii('WEBP'), 8)) return 'image/webp';
  const head = String.fromCharCode(...Array.from({ length: Math.min(bytes.length, 1024) }, (_, i) => bytes[i]!));
  return isSvg(head) ? 'image/svg+xml' : undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard base64 of the text, whitespace dropped and the URL-safe alphabet mapped back; or undefined. */
function cleanBase64(text: string): string | undefined {
  const clean = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  const padded = clean + '='.repeat((4 - (clean.length % 4)) % 4);
  return padded.length % 4 === 0 && BASE64.test(padded) && !/=[^=]/.test(padded) ? padded : undefined;
}

function decodePrefix(base64: string, chars = 1368): number[] {
  return ascii(atob(base64.slice(0, chars)));
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A data: URL, a base64 string or SVG markup that holds an image → its data: URL. */
export function imageFromString(value: string): string | undefined {
  if (value.length < MIN_IMAGE_CHARS || value.length > MAX_IMAGE_CHARS) return undefined;
  if (isSvg(value.slice(0, 1024))) return `data:image/svg+xml;base64,${toBase64(new TextEncoder().encode(value))}`;
  const data = /^data:image\/[\w.+-]+(;[\w=.+-]+)*;base64,/i.exec(value);
  const base64 = cleanBase64(data ? value.slice(data[0].length) : value);
  if (!base64) return undefined;
  const mime = sniff(decodePrefix(base64));
  return mime ? `data:${mime};base64,${base64}` : undefined;
}

export function imageFromBytes(bytes: Uint8Array): string | undefined {
  if (bytes.length > (MAX_IMAGE_CHARS / 4) * 3) return undefined;
  const mime = sniff(bytes.subarray(0, 1024));
  return mime ? `data:${mime};base64,${toBase64(bytes)}` : undefined;
}
