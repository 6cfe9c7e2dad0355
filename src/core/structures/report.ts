/**
 * The `structure` command's report of one file (node dist/cli.js structure): its format, its frames
 * (atoms, reduced Hill formula, cell, energy) and its problems as the `poscar` command prints them. Pure.
 */
import { hillFormula, frameLattice, type FrameLattice } from './summary';
import type { StructureDiagnostic, StructureFile, StructureFrame } from './types';

export type FrameSelection = 'first' | 'last' | 'all';
export const FRAME_SELECTIONS: readonly FrameSelection[] = ['first', 'last', 'all'];

export interface FrameReport {
  natoms: number;
  formula: string;
  lattice: FrameLattice | null;
  /** eV, when the file gives one. */
  energy?: number;
}

export interface DiagnosticReport {
  /** 1-based */
  line: number;
  column: number;
  /** 1-based, exclusive */
  endColumn: number;
  severity: StructureDiagnostic['severity'];
  message: string;
  code: string;
}

export interface StructureReport {
  file: string;
  format: string;
  frames: FrameReport[];
  diagnostics: DiagnosticReport[];
}

export function diagnosticReport({ range, severity, message, code }: StructureDiagnostic): DiagnosticReport {
  return { line: range.line + 1, column: range.start + 1, endColumn: range.end + 1, severity, message, code };
}

export function frameReport(frame: StructureFrame): FrameReport {
  return {
    natoms: frame.species.length,
    formula: hillFormula(frame.species),
    lattice: frameLattice(frame),
    ...(frame.energy !== undefined ? { energy: frame.energy } : {}),
  };
}

export function selectFrames<T>(frames: readonly T[], which: FrameSelection): T[] {
  if (which === 'all' || frames.length === 0) return [...frames];
  return [which === 'first' ? frames[0]! : frames[frames.length - 1]!];
}

export function structureReport(file: string, structure: StructureFile, which: FrameSelection = 'all'): StructureReport {
  return {
    file,
    format: structure.format,
    frames: selectFrames(structure.frames, which).map(frameReport),
    diagnostics: structure.diagnostics.map(diagnosticReport),
  };
}

export const hasErrors = (report: Pick<StructureReport, 'diagnostics'>): boolean => report.diagnostics.some((d) => d.severity === 'error');
