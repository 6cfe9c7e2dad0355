/** The coordinate lines: three numbers, three selective-dynamics flags when switched on, then a label. */
import type { Header } from './header';
import { parseNumber, splitRunTogether } from './numbers';
import { plural, quote, type Report } from './report';
import { fracToCart } from './structure';
import { at, isSpace, span, type SourceText, type Token } from './text';
import type { Mat3, Site, SourceRange, Vec3 } from './types';
import { dot, reciprocal } from './vec';

export interface SitesRead {
  sites: Site[];
  /** The range of each site's three numbers, parallel to `sites`. */
  ranges: SourceRange[];
  /** The line after the last coordinate line read. */
  next: number;
  /** Whether as many coordinate lines as the counts say were there (some may still be bad). */
  complete: boolean;
}

/** A position this many cells away (or more) is a typo, and wrapping it into the cell would lose all precision. */
export const MAX_FRACTIONAL = 1e6;

// Fortran logicals as VASP reads them: T, F, .TRUE., .false., t, f.
const FLAG = /^\.?(?:t|f|true|false)\.?$/i;

interface Coordinates {
  values: Vec3;
  /** Tokens consumed. */
  used: number;
}

/** The first three numbers as written, or read from numbers run together ('0.25-0.125'). */
function plainOrSplit(tokens: Token[]): (Coordinates & { split: boolean }) | undefined {
  const values: number[] = [];
  let used = 0;
  let split = false;
  for (const token of tokens) {
    if (values.length === 3) break;
    used++;
    const whole = parseNumber(token.text);
    if (whole !== undefined) {
      values.push(whole);
      continue;
    }
    const parts = splitRunTogether(token.text)?.map(parseNumber);
    if (!parts || values.length + parts.length > 3 || parts.includes(undefined)) return undefined;
    values.push(...(parts as number[]));
    split = true;
  }
  return values.length === 3 ? { values: values as Vec3, used, split } : undefined;
}

function readCoordinates(line: number, tokens: Token[], report: Report): Coordinates | undefined {
  const read = plainOrSplit(tokens);
  if (read?.split) {
    const joined = tokens
      .slice(0, read.used)
      .map((t) => t.text)
      .join(' ');
    report.warning(
      'coordinates-run-together',
      span(line, tokens.slice(0, read.used)),
      `numbers run together (${quote(joined)}), read as ${read.values.join(', ')}: widen the columns to be safe`,
    );
  }
  if (read) return read;
  const bad = tokens.slice(0, 3).find((t) => parseNumber(t.text) === undefined);
  if (bad) report.error('coordinates-not-number', at(line, bad), `a coordinate line needs three numbers (found ${quote(bad.text)})`);
  else report.error('coordinates-too-few', span(line, tokens), `a coordinate line needs three numbers (found ${tokens.length})`);
  return undefined;
}

/** Three flags after the numbers, or undefined after reporting what is there instead. */
function readFlags(line: number, tokens: Token[], from: number, report: Report): [boolean, boolean, boolean] | undefined {
  const flags = tokens.slice(from, from + 3);
  const bad = flags.find((t) => !FLAG.test(t.text));
  if (!bad && flags.length === 3) return flags.map((t) => /^\.?t/i.test(t.text)) as [boolean, boolean, boolean];
  const found = bad ? quote(bad.text) : flags.length === 0 ? 'none' : `only ${flags.length}`;
  report.error(
    'selective-flags',
    bad ? at(line, bad) : span(line, flags.length ? flags : tokens.slice(from - 1)),
    `under Selective dynamics each coordinate line needs three T or F flags after the numbers (found ${found})`,
  );
  return undefined;
}

interface SiteContext {
  src: SourceText;
  header: Header;
  report: Report;
  /** The reciprocal rows of the lattice, computed once for all Cartesian sites. */
  inverse: Mat3;
}

type SiteRead = { site: Site; range: SourceRange } | undefined;

function readSite(ctx: SiteContext, line: number, tokens: Token[], group: number): SiteRead {
  const coordinates = readCoordinates(line, tokens, ctx.report);
  if (!coordinates) return undefined;
  let used = coordinates.used;
  const range = { line, start: tokens[0]!.start, end: tokens[used - 1]!.end };
  const flags = ctx.header.selectiveDynamics ? readFlags(line, tokens, used, ctx.report) : undefined;
  if (flags) used += 3;
  const read = placeSite(ctx, coordinates.values, range, group, tokens[used - 1]!.end);
  // A site whose flags are unreadable (an error) is kept free to move, as without selective dynamics.
  if (read && ctx.header.selectiveDynamics) read.site.flags = flags ?? [true, true, true];
  return read;
}

/**
 * The common line, read without tokenizing it: three plain numbers first (no selective dynamics, nothing
 * run together). Anything else is undefined, and the full reader above takes the line.
 */
function readPlainSite(ctx: SiteContext, line: number, group: number): SiteRead | null {
  const text = ctx.src.lines[line]!;
  const values: number[] = [];
  let i = 0;
  let start = -1;
  while (values.length < 3) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    const from = i;
    while (i < text.length && !isSpace(text.charCodeAt(i))) i++;
    const value = i > from ? parseNumber(text.slice(from, i)) : undefined;
    if (value === undefined) return null;
    if (start < 0) start = from;
    values.push(value);
  }
  return placeSite(ctx, values as Vec3, { line, start, end: i }, group, i);
}

/** The site at these coordinates (in the file's mode), or undefined after reporting a position out of reach. */
function placeSite(
  { src, header, report, inverse }: SiteContext,
  values: Vec3,
  range: SourceRange,
  group: number,
  labelFrom: number,
): SiteRead {
  const { lattice, cartesianScale: s } = header;
  const cart: Vec3 =
    header.coordinateMode === 'Cartesian' ? [values[0] * s[0], values[1] * s[1], values[2] * s[2]] : fracToCart(lattice, values);
  const frac: Vec3 = header.coordinateMode === 'Cartesian' ? [dot(cart, inverse[0]), dot(cart, inverse[1]), dot(cart, inverse[2])] : values;
  if (!frac.every((f) => Math.abs(f) <= MAX_FRACTIONAL) || !cart.every(Number.isFinite)) {
    report.error(
      'coordinates-too-large',
      range,
      `this position lies more than ${MAX_FRACTIONAL.toExponential(0)} cells away from the cell (or overflows): no structure can be computed from it; check the coordinates and the coordinate mode`,
    );
    return undefined;
  }
  const label = src.lines[range.line]!.slice(labelFrom).trim();
  return { site: { species: header.species[group]!, speciesIndex: group, frac, cart, label, line: range.line }, range };
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** As many coordinate lines as the counts say; a blank line or the end of the file stops early. */
export function readSites(src: SourceText, header: Header, report: Report): SitesRead {
  const total = header.counts.reduce((sum, n) => sum + n, 0);
  const first = header.lines.mode + 1;
  const sites: Site[] = [];
  const ranges: SourceRange[] = [];
  let line = first;
  let group = 0;
  let left = header.counts[0] ?? 0;
  const ctx: SiteContext = { src, header, report, inverse: reciprocal(header.lattice) };
  for (; line - first < total; line++) {
    if (!src.has(line) || isBlank(src.lines[line]!)) break;
    while (left === 0) left = header.counts[++group]!;
    left--;
    const plain = header.selectiveDynamics ? null : readPlainSite(ctx, line, group);
    const read = plain === null ? readSite(ctx, line, src.tokens(line), group) : plain;
    if (read) {
      sites.push(read.site);
      ranges.push(read.range);
    }
  }
  const found = line - first;
  if (found < total) {
    const where = src.has(line) ? `before the blank line ${line + 1}` : 'before the file ends';
    report.error(
      'too-few-sites',
      header.countsRange,
      `the counts add up to ${plural(total, 'atom')}, but ${found === 0 ? 'no coordinate lines follow' : `only ${plural(found, 'coordinate line')} ${found === 1 ? 'follows' : 'follow'}`} ${where}`,
    );
  }
  return { sites, ranges, next: line, complete: found === total };
}
