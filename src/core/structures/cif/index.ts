/**
 * CIF (Crystallographic Information File) for the structure model: `readCif` reads every data block with a
 * cell and fractional atom sites into a frame, sites expanded by the block's symmetry operations
 * (read.ts says every convention and its source); `writeCif` writes one frame as a P1 CIF.
 *
 * Pure: no vscode, no Node. Total: readCif never throws, whatever the text.
 */
import { Report } from '../../poscar/report';
import type { StructureFile, StructureFrame } from '../types';
import { readBlocks } from './blocks';
import { lex } from './lexer';
import { readBlock, type CifOptions } from './read';

export { findSetting, spaceGroupsFromMoyo, type MoyoLike, type SpaceGroupSetting, type SpaceGroupTable } from './spaceGroups';
export type { CifOptions } from './read';
export { cellFromParameters, cifNumber, MAX_ATOMS, MAX_GENERATED, MAX_OPERATIONS, SITE_TOLERANCE } from './read';
export { parseSymOp, type SymOp } from './symops';
export { siteElement } from './symbols';
export { writeCif } from './write';

const splitLines = (text: string): string[] => text.split(/\r\n|\r|\n/);

export function readCif(text: string, options: CifOptions = {}): StructureFile {
  const lines = splitLines(typeof text === 'string' ? text : '');
  const report = new Report(options.locale).within(lines);
  const frames: StructureFrame[] = [];
  const outline: StructureFile['outline'] = [];
  try {
    const { tokens } = lex(lines, report);
    const blocks = readBlocks(tokens, report);
    const budget = { atoms: 0, generated: 0 };
    for (const block of blocks) {
      const { frame, outline: entry } = readBlock(block, report, budget, options);
      outline.push(entry);
      if (frame) frames.push(frame);
    }
  } catch (error) {
    // Not expected: every step is total. Should one throw, the file still gets an answer, not an exception.
    report.error(
      'internal-error',
      { line: 0, start: 0, end: 0 },
      `the CIF reader failed (${String((error as Error)?.message ?? error)}); please report this file`,
    );
  }
  return { format: 'cif', frames, diagnostics: report.sorted(), outline };
}
