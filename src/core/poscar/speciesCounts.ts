/** The element names line(s) and the counts line(s), or VASP 4 counts alone with names from the comment. */
import { beforeComment, need, startsWithWord, type Context } from './context';
import { parseInteger } from './numbers';
import { plural, quote } from './report';
import { isElement, namesFromComment, placeholder, speciesSymbol } from './species';
import { at, span, type SourceText, type Token } from './text';
import type { Poscar, SourceRange } from './types';

// pymatgen reads at most this many lines of wrapped element names.
const MAX_SPECIES_LINES = 10;

/**
 * How many lines the element names take. VASP wraps a long list of groups over several lines and then
 * the counts over as many; a run of word lines is that only when as many all-integer lines with as
 * many numbers follow (else the run is one names line and whatever broken lines came after it).
 */
function speciesLineCount(src: SourceText, line: number): number {
  let k = 0;
  while (k < MAX_SPECIES_LINES && startsWithWord(src, line + k)) k++;
  if (k < 2) return 1;
  let names = 0;
  let counts = 0;
  for (let i = 0; i < k; i++) {
    const countTokens = beforeComment(src.tokens(line + k + i));
    if (countTokens.length === 0 || countTokens.some((t) => parseInteger(t.text) === undefined)) return 1;
    names += beforeComment(src.tokens(line + i)).length;
    counts += countTokens.length;
  }
  return names === counts ? k : 1;
}

interface Counts {
  counts: number[];
  tokens: { line: number; token: Token }[];
  range: SourceRange;
}

function readCounts(ctx: Context, lines: number[]): Counts | undefined {
  const found: Counts['tokens'] = [];
  for (const line of lines) {
    if (!need(ctx, line, 'the atom counts')) return undefined;
    for (const token of beforeComment(ctx.src.tokens(line))) found.push({ line, token });
  }
  const first = lines[0]!;
  const range = span(
    first,
    found.filter((f) => f.line === first).map((f) => f.token),
  );
  if (found.length === 0) {
    ctx.report.error('counts-not-integer', span(first, ctx.src.tokens(first)), 'the counts line holds no numbers, only a comment');
    return undefined;
  }
  const counts = found.map(({ line, token }) => {
    const n = parseInteger(token.text);
    const message = `the counts line must hold positive whole numbers, one per species (found ${quote(token.text)})`;
    if (n === undefined) ctx.report.error('counts-not-integer', at(line, token), message);
    else if (n < 0) ctx.report.error('counts-negative', at(line, token), message);
    return n ?? -1;
  });
  return counts.every((n) => n >= 0) ? { counts, tokens: found, range } : undefined;
}

interface Names {
  species: string[];
  speciesRaw: string[];
  speciesSource: Poscar['speciesSource'];
}

function namesFromLines(ctx: Context, lines: number[]): Names {
  const speciesRaw: string[] = [];
  const species: string[] = [];
  for (const line of lines) {
    for (const token of beforeComment(ctx.src.tokens(line))) {
      const symbol = speciesSymbol(token.text);
      if (!isElement(symbol)) {
        ctx.report.warning(
          'unknown-element',
          at(line, token),
          `${quote(token.text)} is not an element symbol: masses and the density are unknown for it`,
        );
      }
      speciesRaw.push(token.text);
      species.push(symbol);
    }
  }
  return { species, speciesRaw, speciesSource: 'species-line' };
}

/**
 * VASP 4 names from the labels after the coordinates, as pymatgen reads them: the token after the three
 * numbers (after the flags too, under Selective dynamics) of every site, one element per species group.
 * Undefined unless every site has one and each group's agree.
 */
function namesFromLabels(src: SourceText, counts: Counts): string[] | undefined {
  const afterCounts = counts.range.line + 1;
  const selective = /^[sS]/.test(src.tokens(afterCounts)[0]?.text ?? '');
  const index = selective ? 6 : 3;
  let line = afterCounts + (selective ? 2 : 1);
  const names: string[] = [];
  for (const n of counts.counts) {
    let name: string | undefined;
    for (let k = 0; k < n; k++, line++) {
      const label = src.tokens(line)[index]?.text;
      const symbol = label === undefined ? undefined : speciesSymbol(label);
      if (symbol === undefined || !isElement(symbol) || (name !== undefined && symbol !== name)) return undefined;
      name = symbol;
    }
    if (name === undefined) return undefined;
    names.push(name);
  }
  return names;
}

function namesForVasp4(ctx: Context, comment: string, counts: Counts): Names {
  const fromLabels = namesFromLabels(ctx.src, counts);
  if (fromLabels) {
    ctx.report.warning(
      'no-species-line',
      counts.range,
      `no element names line (VASP 4 format): the names are taken from the labels after the coordinates (${fromLabels.join(' ')}); add them above the counts to be sure`,
    );
    return { species: fromLabels, speciesRaw: fromLabels, speciesSource: 'site-labels' };
  }
  const fromComment = namesFromComment(comment.split(/\s+/).filter(Boolean), counts.counts.length);
  if (fromComment) {
    ctx.report.warning(
      'no-species-line',
      counts.range,
      `no element names line (VASP 4 format): the names are taken from the comment line (${fromComment.join(' ')}); add them above the counts to be sure`,
    );
    return { species: fromComment, speciesRaw: fromComment, speciesSource: 'comment' };
  }
  const placeholders = counts.counts.map((_, g) => placeholder(g));
  ctx.report.warning(
    'no-species-line',
    counts.range,
    `no element names line (VASP 4 format) and the comment line does not list them: the elements are unknown (shown as ${placeholders.join(', ')}); add their symbols above the counts`,
  );
  return { species: placeholders, speciesRaw: placeholders, speciesSource: 'unknown' };
}

/** Names and counts with one name per count; a mismatch is reported and patched so the sites can be read. */
function matchNames(ctx: Context, names: Names, counts: Counts): Names {
  const { species, speciesRaw } = names;
  if (species.length !== counts.counts.length) {
    ctx.report.error(
      'species-counts-mismatch',
      counts.range,
      `${plural(counts.counts.length, 'count')} for ${plural(species.length, 'element name')} (${speciesRaw.join(' ')}): give one count per species`,
    );
  }
  counts.tokens.forEach(({ line, token }, g) => {
    if (counts.counts[g] === 0) {
      ctx.report.warning(
        'count-zero',
        at(line, token),
        `0 atoms of ${species[g] ?? 'this species'}: VASP stops on a species without atoms; remove it from the names, the counts and the POTCAR`,
      );
    }
  });
  const pick = (list: string[], g: number): string => list[g] ?? placeholder(g);
  return {
    ...names,
    species: counts.counts.map((_, g) => pick(species, g)),
    speciesRaw: counts.counts.map((_, g) => pick(speciesRaw, g)),
  };
}

/** From `line` on: `next` is the line after the counts, `species` the first names line (none in VASP 4). */
export function readSpeciesAndCounts(
  ctx: Context,
  line: number,
  comment: string,
): { names: Names; counts: Counts; next: number; species?: number } | undefined {
  if (!need(ctx, line, 'the element names and atom counts')) return undefined;
  if (!startsWithWord(ctx.src, line)) {
    const counts = readCounts(ctx, [line]);
    return counts && { names: matchNames(ctx, namesForVasp4(ctx, comment, counts), counts), counts, next: line + 1 };
  }
  const k = speciesLineCount(ctx.src, line);
  const range = (from: number): number[] => Array.from({ length: k }, (_, i) => from + i);
  const names = namesFromLines(ctx, range(line));
  const counts = readCounts(ctx, range(line + k));
  return counts && { names: matchNames(ctx, names, counts), counts, next: line + 2 * k, species: line };
}
