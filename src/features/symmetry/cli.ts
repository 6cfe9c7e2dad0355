/**
 * `node dist/cli.js symmetry [--symprec X] FILE...`: the space group of each POSCAR file by moyo (spglib's
 * successor), one JSON line per file in the order given: {file, number, symbol, crystal_system, bravais,
 * wyckoffs, symprec} with symbol the Hermann–Mauguin symbol as spglib writes it, or {file, error}. Exit code 1
 * when any file had no answer, 2 for a usage error. No vscode: the CLI runs on Node alone.
 */
import { readFileSync, statSync } from 'node:fs';
import { cellOfPoscar } from '../../core/crystallography/cell';
import { DEFAULT_SYMPREC, SymmetryFinder, type SymmetryOutcome } from '../../core/crystallography/symmetry';
import { parsePoscar } from '../../core/poscar';
import { loadMoyoNode } from '../../platform/moyoNode';

export const SYMMETRY_USAGE = `Usage: node dist/cli.js symmetry [--symprec X] FILE...
Finds the space group of each POSCAR/CONTCAR file with moyo (spglib's successor) at the distance tolerance X
in Å (default ${DEFAULT_SYMPREC}) and prints one JSON line per file: {file, number, symbol, crystal_system,
bravais, wyckoffs, symprec}, symbol as spglib writes it ("Fd-3m"), a Wyckoff letter per site in the file's
order; {file, error} when it has none. Exit code 1 when any file had no answer.`;

/** The largest file read, bytes (a POSCAR of the largest structure searched is far smaller). */
const MAX_FILE_BYTES = 16 << 20;

export type SymmetryLine =
  | { file: string; number: number; symbol: string; crystal_system: string; bravais: string; wyckoffs: string[]; symprec: number }
  | { file: string; error: string };

function lineOf(file: string, outcome: SymmetryOutcome): SymmetryLine {
  if (!outcome.ok) return { file, error: outcome.reason };
  const r = outcome.result;
  return {
    file,
    number: r.number,
    symbol: r.symbol,
    crystal_system: r.crystalSystem,
    bravais: r.bravais,
    wyckoffs: r.wyckoffs,
    symprec: r.symprec,
  };
}

function readPoscar(file: string): { text: string } | { error: string } {
  try {
    if (statSync(file).size > MAX_FILE_BYTES) return { error: `The file is larger than ${MAX_FILE_BYTES >> 20} MB.` };
    return { text: readFileSync(file, 'utf8') };
  } catch (error) {
    return { error: `Cannot read it: ${(error as NodeJS.ErrnoException).code ?? String(error)}.` };
  }
}

/** Runs the command; `out` and `err` are the streams' write functions (the tests pass their own). */
export async function symmetryCommand(
  rest: string[],
  out: (s: string) => void = (s) => process.stdout.write(s),
  err: (s: string) => void = (s) => process.stderr.write(s),
): Promise<number> {
  let symprec = DEFAULT_SYMPREC;
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--symprec') {
      const value = rest[++i];
      const x = value === undefined ? NaN : Number(value);
      if (value === undefined || value.trim() === '' || !Number.isFinite(x) || x <= 0) {
        err(`--symprec needs a positive number of Å, not ${value === undefined ? 'nothing' : `"${value}"`}.\n${SYMMETRY_USAGE}\n`);
        return 2;
      }
      symprec = x;
    } else if (arg.startsWith('-')) {
      err(`Unknown option "${arg}".\n${SYMMETRY_USAGE}\n`);
      return 2;
    } else files.push(arg);
  }
  if (files.length === 0) {
    err(`Give at least one file.\n${SYMMETRY_USAGE}\n`);
    return 2;
  }
  const finder = new SymmetryFinder(loadMoyoNode);
  let failed = false;
  for (const file of files) {
    const read = readPoscar(file);
    let line: SymmetryLine;
    if ('error' in read) line = { file, error: read.error };
    else {
      const { poscar, diagnostics } = parsePoscar(read.text);
      const problem = diagnostics.find((d) => d.severity === 'error');
      if (!poscar || problem) line = { file, error: `Not a readable POSCAR: ${problem?.message ?? 'no structure'}` };
      else line = lineOf(file, await finder.find(cellOfPoscar(poscar), symprec));
    }
    if ('error' in line) failed = true;
    out(`${JSON.stringify(line)}\n`);
  }
  return failed ? 1 : 0;
}
