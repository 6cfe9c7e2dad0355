/**
 * What the structure readers' tests ask of a diagnostic: the codes of a file, and the one diagnostic with a code,
 * checked to say which line it is on (its message starts `Line N: `) and, for the line-oriented readers, to sit at
 * line:start-end. One definition for the XYZ, XDATCAR, OUTCAR and vasprun.xml tests.
 */
import assert from 'node:assert/strict';
import type { StructureDiagnostic as Diagnostic, StructureFile } from '../../src/core/structures/types';

export const codes = (file: StructureFile): string[] => file.diagnostics.map((d) => d.code);

/** Line `line` (0-based) of a text, whatever its line ends. */
export const lineOf = (text: string, line: number): string => text.split(/\r\n|\r|\n/)[line] ?? '';

/** The text a range covers. */
export const covered = (text: string, r: { line: number; start: number; end: number }): string =>
  lineOf(text, r.line).slice(r.start, r.end);

function theOne(file: StructureFile, code: string): Diagnostic {
  const found = file.diagnostics.filter((d) => d.code === code);
  assert.equal(found.length, 1, `one ${code} in ${JSON.stringify(file.diagnostics, null, 1)}`);
  const d = found[0]!;
  assert.ok(d.message.startsWith(`Line ${d.range.line + 1}: `), d.message);
  return d;
}

/** The one diagnostic with this code, checked to sit at line:start-end (start and end when given) and to say which line. */
export function diagnostic(file: StructureFile, code: string, line: number, start?: number, end?: number): Diagnostic {
  const d = theOne(file, code);
  assert.equal(d.range.line, line, `${code} line`);
  if (start !== undefined) assert.equal(d.range.start, start, `${code} start`);
  if (end !== undefined) assert.equal(d.range.end, end, `${code} end`);
  return d;
}

/** The one diagnostic with this code in what `read` makes of `text`, with the text it covers and its whole line. */
export function onlyDiagnostic(read: (text: string) => StructureFile, text: string, code: string) {
  const file = read(text);
  const d = theOne(file, code);
  return { file, d, token: covered(text, d.range), line: lineOf(text, d.range.line) };
}
