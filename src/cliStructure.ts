/**
 * `node dist/cli.js structure [--frames first|last|all] [FILE...]`: every structure format the editor
 * reads, for scripts and CI. One JSON line per file, in the order given (core/structures/report.ts); the
 * format comes from the file name, then the content. Exit code 1 when a file has errors, 2 when a file
 * cannot be read or the arguments are wrong (nothing is printed then).
 */
import { closeSync, createReadStream, openSync, readFileSync, readSync } from 'node:fs';
import { readStructure } from './core/structures/formats';
import { detectFormat, formatOfName, SNIFF_CHARS } from './core/structures/languages';
import { VasprunReader } from './core/structures/vasprun/index';
import { FRAME_SELECTIONS, hasErrors, structureReport, type FrameSelection, type StructureReport } from './core/structures/report';
import type { StructureFile } from './core/structures/types';

export const STRUCTURE_USAGE = `Usage: node dist/cli.js structure [--frames first|last|all] [FILE...]
Reads structure files (POSCAR/CONTCAR, CIF, XYZ/extended XYZ, XDATCAR, OUTCAR, vasprun.xml; the format from
the file name, then the content; standard input without FILE or for -) and prints one JSON object per file,
one per line: {file, format, frames, diagnostics}. Each frame has natoms, formula (reduced, Hill order),
lattice {a, b, c, alpha, beta, gamma, volume} in Å, degrees and Å³ (null for a molecule) and energy in eV
where the file gives one; --frames keeps the first, the last or all of them (default all). Diagnostics are
as the poscar command prints them. Exit code 1 when any file has errors.`;

class StructureUsageError extends Error {}

interface StructureArgs {
  frames: FrameSelection;
  files: string[];
}

function parseArgs(rest: string[]): StructureArgs {
  const args: StructureArgs = { frames: 'all', files: [] };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--frames') {
      const value = rest[++i];
      if (!FRAME_SELECTIONS.includes(value as FrameSelection))
        throw new StructureUsageError(`--frames is "first", "last" or "all"${value === undefined ? '' : `, not "${value}"`}.`);
      args.frames = value as FrameSelection;
    } else if (arg.startsWith('--frames=')) {
      return parseArgs([...rest.slice(0, i), '--frames', arg.slice('--frames='.length), ...rest.slice(i + 1)]);
    } else if (arg.startsWith('-') && arg !== '-') throw new StructureUsageError(`Unknown option "${arg}".`);
    else args.files.push(arg);
  }
  if (args.files.length === 0) args.files.push('-');
  return args;
}

const cannotRead = (file: string, error: unknown): StructureUsageError =>
  new StructureUsageError(
    `Cannot read ${file === '-' ? 'standard input' : file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
  );

/** The first characters of a file, for the format its content says. */
function head(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(SNIFF_CHARS);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, SNIFF_CHARS, 0));
  } catch (error) {
    throw cannotRead(file, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** vasprun.xml (50–500 MB) streams through its reader in slices: the text is never held whole. */
async function streamVasprun(file: string): Promise<StructureFile> {
  const reader = new VasprunReader();
  try {
    for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) reader.push(chunk as string);
  } catch (error) {
    throw cannotRead(file, error);
  }
  return reader.finish();
}

/** One file's shared model: standard input and every other format read whole. */
async function readFile(file: string): Promise<StructureFile> {
  if (file !== '-' && detectFormat(file, head(file)).id === 'vasprun') return streamVasprun(file);
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw cannotRead(file, error);
  }
  return readStructureText(file, text);
}

/** The shared model of one file's text, in the format its name or content says. */
export function readStructureText(file: string, text: string): StructureFile {
  const language = detectFormat(file === '-' ? '' : file, text);
  const read = readStructure(language.id, text);
  if (read) return read;
  const why = language.kind === 'structure' ? `Token Lens has no ${language.label} reader yet` : `${language.label} holds no structure`;
  return {
    format: language.id,
    frames: [],
    outline: [],
    diagnostics: [
      {
        severity: 'error',
        code: 'not-a-structure',
        range: { line: 0, start: 0, end: 0 },
        message: `Line 1: this file is ${language.label} (by its ${formatOfName(file) ? 'name' : 'content'}), and ${why}`,
      },
    ],
  };
}

/** The command: a usage problem or an unreadable file prints its message and the usage on stderr and gives 2. */
export async function structureCommand(rest: string[]): Promise<number> {
  try {
    return await run(rest);
  } catch (error) {
    if (!(error instanceof StructureUsageError)) throw error;
    process.stderr.write(`${error.message}\n${STRUCTURE_USAGE}\n`);
    return 2;
  }
}

async function run(rest: string[]): Promise<number> {
  const args = parseArgs(rest);
  // Every file is read before anything is printed: an unreadable one prints nothing but the message.
  const reports: StructureReport[] = [];
  for (const file of args.files) reports.push(structureReport(file, await readFile(file), args.frames));
  for (const report of reports) process.stdout.write(`${JSON.stringify(report)}\n`);
  return reports.some(hasErrors) ? 1 : 0;
}
