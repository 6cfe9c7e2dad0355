/** parsePoscar: VASP's POSCAR/CONTCAR format read as pymatgen and ASE read it; never throws. */
import { readHeader } from './header';
import { Report } from './report';
import { readSites } from './sites';
import { closeContacts } from './structure';
import { readTail } from './tail';
import { SourceText } from './text';
import type { LineSpan, ParseResult, Poscar, SourceRange } from './types';
import { ENGLISH, type Locale } from '../util/locale';

/** Å: atoms closer than this are reported. */
export const CONTACT_DISTANCE = 0.5;
const CONTACT_WARNINGS = 20;
// Beyond this many close pairs the summary says "at least": counting them all could take quadratic time.
const CONTACT_COUNT_LIMIT = 10_000;

/** The lines of each species group, cut short where the coordinate lines stop. */
function groupSpans(counts: number[], first: number, next: number): LineSpan[] {
  let line = first;
  return counts.map((n) => {
    const span = { first: line, last: Math.min(line + n, next) - 1 };
    line += n;
    return span;
  });
}

function reportContacts(poscar: Poscar, ranges: SourceRange[], report: Report): void {
  const limit = CONTACT_WARNINGS + CONTACT_COUNT_LIMIT;
  const contacts = closeContacts(poscar, CONTACT_DISTANCE, limit);
  for (const { i, j, distance } of contacts.slice(0, CONTACT_WARNINGS)) {
    const [a, b] = [poscar.sites[i]!, poscar.sites[j]!];
    const d = `${distance.toFixed(3)} Å`;
    report.warning(
      'close-contact',
      ranges[j]!,
      i === j
        ? `this ${b.species} atom is ${d} from its own periodic image: the cell repeats within ${CONTACT_DISTANCE} Å`
        : `this ${b.species} atom is ${d} from the ${a.species} atom on line ${a.line + 1}, closer than ${CONTACT_DISTANCE} Å (periodic images counted)`,
    );
  }
  const rest = contacts.length - CONTACT_WARNINGS;
  if (rest > 0) {
    report.warning(
      'close-contacts-more',
      ranges[contacts[CONTACT_WARNINGS]!.j]!,
      `… and ${contacts.length === limit ? 'at least ' : ''}${rest} more ${rest === 1 ? 'pair' : 'pairs'} of atoms closer than ${CONTACT_DISTANCE} Å`,
    );
  }
}

export function parsePoscar(text: string, locale: Locale = ENGLISH): ParseResult {
  const report = new Report(locale);
  if (!/\S/.test(text)) {
    report.error(
      'empty-file',
      { line: 0, start: 0, end: 0 },
      'the file is empty: a POSCAR holds a comment line, the scale factor, three lattice vectors, the counts and the coordinates',
    );
    return { diagnostics: report.sorted() };
  }
  const src = new SourceText(text);
  report.within(src.lines);
  const header = readHeader(src, report);
  if (!header) return { diagnostics: report.sorted() };
  const read = readSites(src, header, report);
  const atoms = header.counts.reduce((sum, n) => sum + n, 0);
  const { lines: tailLines, ...tail } = read.complete ? readTail(src, read.next, atoms, report) : { lines: {} };
  const { countsRange, cartesianScale, lines, ...structure } = header; // the first two are for reading only
  const first = lines.mode + 1;
  const poscar: Poscar = {
    ...structure,
    sites: read.sites,
    ...tail,
    lines: {
      ...lines,
      sitesBySpecies: groupSpans(header.counts, first, read.next),
      sites: { first, last: read.next - 1 },
      ...tailLines,
    },
  };
  reportContacts(poscar, read.ranges, report);
  return { poscar, diagnostics: report.sorted() };
}
