/**
 * The languages of the materials side, as data only: which files each format claims (by name, then by
 * content) and whether it holds structures or other data. The activation code reads this list without
 * loading a single reader (materialsLoader.ts); formats.ts attaches the readers; package.json must agree
 * (test/unit/core/structures/formats.test.ts). Pure.
 */

export type FormatKind = 'structure' | 'data';

export interface FormatLanguage {
  /** The registration's id, StructureFile.format: 'poscar', 'cif', … */
  id: string;
  /** The VS Code language id. */
  languageId: string;
  kind: FormatKind;
  /** How the user reads the format's name: 'POSCAR', 'CIF', 'Extended XYZ'. */
  label: string;
  /** Exact file names (package.json `filenames`). */
  filenames: readonly string[];
  /** Globs on the file name: `*` and `?` only (package.json `filenamePatterns`). */
  filenamePatterns: readonly string[];
  /** With the dot, matched without regard to case (package.json `extensions`). */
  extensions: readonly string[];
  /** Whether the first few kilobytes of a file look like this format (for a file whose name says nothing). */
  sniff?(head: string): boolean;
}

const lines = (head: string, n: number): string[] => head.split(/\r?\n/, n);
const FLOAT = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][-+]?\d+)?`;
const XYZ_ATOM = new RegExp(String.raw`^\s*[A-Z][a-z]?\w*\s+${FLOAT}\s+${FLOAT}\s+${FLOAT}`);

export const FORMAT_LANGUAGES: readonly FormatLanguage[] = [
  {
    id: 'poscar',
    languageId: 'poscar',
    kind: 'structure',
    label: 'POSCAR',
    filenames: ['POSCAR', 'CONTCAR'],
    filenamePatterns: ['*POSCAR*', '*CONTCAR*'],
    extensions: ['.poscar', '.vasp'],
  },
  {
    id: 'cif',
    languageId: 'cif',
    kind: 'structure',
    label: 'CIF',
    filenames: [],
    filenamePatterns: [],
    extensions: ['.cif', '.mcif'],
    sniff: (head) => /^data_\S/m.test(head) && /^\s*(_cell_length_a|loop_|_atom_site_)/m.test(head),
  },
  {
    id: 'xyz',
    languageId: 'xyz',
    kind: 'structure',
    label: 'Extended XYZ',
    filenames: [],
    filenamePatterns: [],
    extensions: ['.xyz', '.extxyz'],
    sniff: (head) => {
      const [count, , atom] = lines(head, 3);
      return /^\s*\d+\s*$/.test(count ?? '') && XYZ_ATOM.test(atom ?? '');
    },
  },
  {
    id: 'xdatcar',
    languageId: 'xdatcar',
    kind: 'structure',
    label: 'XDATCAR',
    filenames: [],
    filenamePatterns: ['XDATCAR*'],
    extensions: ['.xdatcar'],
    sniff: (head) => lines(head, 12).some((l) => /^\s*Direct configuration=\s*\d+/.test(l)),
  },
  {
    id: 'outcar',
    languageId: 'outcar',
    kind: 'structure',
    label: 'OUTCAR',
    filenames: [],
    filenamePatterns: ['OUTCAR*'],
    extensions: [],
    sniff: (head) => /^\s*vasp\.\d/.test(head) || (/\bPOTCAR:/.test(head) && /\bvasp\./.test(head)),
  },
  {
    id: 'vasprun',
    languageId: 'vasprun',
    kind: 'structure',
    label: 'vasprun.xml',
    filenames: [],
    filenamePatterns: ['vasprun*.xml'],
    extensions: [],
    sniff: (head) => /^\s*(<\?xml[^>]*>\s*)?<modeling>/.test(head),
  },
  {
    id: 'diffraction',
    languageId: 'diffraction',
    kind: 'data',
    label: 'Diffraction data',
    filenames: [],
    filenamePatterns: [],
    extensions: ['.xy', '.xrd'],
  },
];

/**
 * The languages whose files the structure commands take: their menus show for these (package.json's `when`:
 * `editorLangId in tokenLens.structureLanguages`, a context set from this list), so a new format is its row here.
 */
export const STRUCTURE_LANGUAGE_IDS: readonly string[] = FORMAT_LANGUAGES.filter((f) => f.kind === 'structure').map((f) => f.languageId);

/** Every language that starts the materials side when a document of it is open. */
export const MATERIALS_LANGUAGES: ReadonlySet<string> = new Set(FORMAT_LANGUAGES.map((f) => f.languageId));

/** A glob of `*` and `?` as a whole-name pattern. */
function globRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

const PATTERNS = new Map(FORMAT_LANGUAGES.flatMap((f) => f.filenamePatterns.map((g) => [g, globRegExp(g)] as const)));

/** The file name of a path or URI path ('/a/b/OUTCAR.gz' → 'OUTCAR.gz'). */
export function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/**
 * The format a file name claims, as VS Code decides a language: an exact name first, then a pattern,
 * then the extension; undefined when the name says nothing.
 */
export function formatOfName(path: string): FormatLanguage | undefined {
  const name = baseName(path);
  const lower = name.toLowerCase();
  return (
    FORMAT_LANGUAGES.find((f) => f.filenames.includes(name)) ??
    FORMAT_LANGUAGES.find((f) => f.filenamePatterns.some((g) => PATTERNS.get(g)!.test(name))) ??
    FORMAT_LANGUAGES.find((f) => f.extensions.some((e) => lower.endsWith(e)))
  );
}

/** How many characters of a file the content sniffing reads. */
export const SNIFF_CHARS = 4096;

/** The structure format a file's first characters look like; undefined when none claims them. */
export function formatOfContent(head: string): FormatLanguage | undefined {
  const text = head.slice(0, SNIFF_CHARS);
  return FORMAT_LANGUAGES.find((f) => f.sniff?.(text));
}

/** The format of a file: by its name, then by its content; POSCAR when neither says. */
export function detectFormat(path: string, head: string): FormatLanguage {
  return formatOfName(path) ?? formatOfContent(head) ?? FORMAT_LANGUAGES[0]!;
}

export function formatLanguage(id: string): FormatLanguage | undefined {
  return FORMAT_LANGUAGES.find((f) => f.id === id || f.languageId === id);
}
