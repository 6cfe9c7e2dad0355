/**
 * The one registration of a materials format: its language (languages.ts), how a text is parsed, the
 * problems of a parse, and for a structure format the shared model (types.ts) every editor feature,
 * view, conversion, run and the CLI read, and a writer when there is one. Adding a format is its reader,
 * one entry here, one in languages.ts and its tests (CONTRIBUTING, "Adding a structure format"). Pure.
 */
import { parseDiffraction, type DiffractionData } from '../diffraction/parse';
import { parsePoscar } from '../poscar/parse';
import type { ParseResult } from '../poscar/types';
import { FORMAT_LANGUAGES, type FormatLanguage } from './languages';
import { frameToPoscarText, poscarStructureFile } from './poscar';
import { readCif, writeCif } from './cif/index';
import { readOutcar } from './outcar/index';
import { readXdatcar } from './xdatcar/index';
import { readXyz, writeExtxyz } from './xyz/index';
import { readVasprun } from './vasprun/index';
import type { StructureDiagnostic, StructureFile, StructureFrame } from './types';
import { ENGLISH, type Locale } from '../util/locale';

export interface FormatEntry<T = unknown> {
  language: FormatLanguage;
  /** Total (never throws) and near-linear: run once per document version. Problems are worded in `locale` (English by default). */
  parse(text: string, locale?: Locale): T;
  /** The problems of a parse, each on its line. */
  diagnostics(parsed: T): StructureDiagnostic[];
  /** Problem codes not shown while the document is empty (a new file is not yet wrong). */
  quietWhenEmpty: readonly string[];
  /** Structure formats: the shared model of a parse. */
  structure?(parsed: T, locale?: Locale): StructureFile;
  /** Writes frames as this format's text (a one-frame format writes the first). */
  write?(frames: readonly StructureFrame[]): string;
  /** Whether one file can hold several frames (so a conversion asks which). */
  writesFrames?: boolean;
}

const language = (id: string): FormatLanguage => FORMAT_LANGUAGES.find((f) => f.id === id)!;

/** A reader that already returns the shared model. */
export function structureEntry(
  id: string,
  read: (text: string, locale?: Locale) => StructureFile,
  extra: Partial<FormatEntry<StructureFile>> = {},
): FormatEntry<StructureFile> {
  return { language: language(id), parse: read, diagnostics: (f) => f.diagnostics, quietWhenEmpty: [], structure: (f) => f, ...extra };
}

export const POSCAR_FORMAT: FormatEntry<ParseResult> = {
  language: language('poscar'),
  parse: parsePoscar,
  diagnostics: (r) => r.diagnostics,
  quietWhenEmpty: ['empty-file'],
  structure: poscarStructureFile,
  write: (frames) => frameToPoscarText(frames[0]!),
};

export const DIFFRACTION_FORMAT: FormatEntry<DiffractionData> = {
  language: language('diffraction'),
  parse: parseDiffraction,
  diagnostics: (d) => d.diagnostics.map(({ line, start, end, ...rest }) => ({ ...rest, range: { line, start, end } })),
  quietWhenEmpty: ['no-data'],
};

/** Every registered format, in languages.ts's order. */
export const FORMATS: readonly FormatEntry[] = [
  POSCAR_FORMAT as FormatEntry,
  structureEntry('cif', (text, locale) => readCif(text, locale ? { locale } : {}), {
    write: (frames) => writeCif(frames[0]!),
  }) as FormatEntry,
  structureEntry('xyz', readXyz, { write: (frames) => writeExtxyz([...frames]), writesFrames: true }) as FormatEntry,
  structureEntry('xdatcar', readXdatcar) as FormatEntry,
  structureEntry('outcar', readOutcar) as FormatEntry,
  // Files of 50–500 MB are read in slices through VasprunReader (push/finish) where they stream.
  structureEntry('vasprun', readVasprun) as FormatEntry,
  DIFFRACTION_FORMAT as FormatEntry,
].sort((a, b) => FORMAT_LANGUAGES.indexOf(a.language) - FORMAT_LANGUAGES.indexOf(b.language));

/** The structure formats (those with the shared model). */
export const STRUCTURE_FORMATS: readonly FormatEntry[] = FORMATS.filter((f) => f.structure);

/** The formats a structure can be converted to. */
export const WRITABLE_FORMATS: readonly FormatEntry[] = FORMATS.filter((f) => f.write);

export function formatEntry(idOrLanguage: string): FormatEntry | undefined {
  return FORMATS.find((f) => f.language.id === idOrLanguage || f.language.languageId === idOrLanguage);
}

/** The shared model of a text in a registered structure format; undefined for a data format or an unknown id. */
export function readStructure(format: string, text: string, locale: Locale = ENGLISH): StructureFile | undefined {
  const entry = formatEntry(format);
  return entry?.structure?.(entry.parse(text, locale), locale);
}

export const errorsOf = (file: Pick<StructureFile, 'diagnostics'>): StructureDiagnostic[] =>
  file.diagnostics.filter((d) => d.severity === 'error');
