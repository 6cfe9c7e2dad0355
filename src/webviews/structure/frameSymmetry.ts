/**
 * The space group of the trajectory frame a structure view shows (an XDATCAR's, an MD run's): searched when the
 * frame is shown, never ahead, one search at a time with the latest frame asked for next (a playing trajectory skips
 * the frames it passed while a search ran), each frame's answer kept for this structure and tolerance. The finder
 * is the editor's (platform/symmetry.ts), with the limit of the thread it runs on: over it the answer says so and moyo is
 * not even loaded. Pure: no `vscode`.
 */
import type { Cell } from '../../core/crystallography/cell';
import { symmetryTitle } from '../../core/crystallography/describe';
import type { SymmetryOutcome } from '../../core/crystallography/symmetry';
import type { Vec3 } from '../../core/poscar/types';
import type { StructureData } from './protocol';

/** The cell of the frame whose index in its file is `source`; undefined for a molecule or a frame not played. */
export function frameCell(structure: StructureData, source: number): Cell | undefined {
  if (structure.molecule || !structure.frames) return undefined;
  const frame = structure.frames.find((f, i) => (f.source ?? i) === source);
  if (!frame) return undefined;
  const frac: Vec3[] = [];
  for (let i = 0; i + 2 < frame.frac.length; i += 3) frac.push([frame.frac[i]!, frame.frac[i + 1]!, frame.frac[i + 2]!]);
  return { lattice: frame.lattice ?? structure.lattice, frac, species: structure.elements };
}

export class FrameSymmetry {
  private readonly known = new Map<string, string>();
  private structure: StructureData | null = null;
  private wanted: number | undefined;
  private running = false;

  constructor(
    /** The search, at the tolerance of tolerance(). */
    private readonly find: (cell: Cell, symprec: number) => Promise<SymmetryOutcome>,
    private readonly tolerance: () => number,
    /** Gives the page the legend line of a frame. */
    private readonly post: (source: number, text: string) => void,
  ) {}

  /** The frame `source` of `structure` is shown: its space group, once known. */
  shown(structure: StructureData | null, source: number): void {
    if (structure !== this.structure) {
      this.known.clear();
      this.structure = structure;
    }
    if (!structure || !frameCell(structure, source)) return;
    const known = this.known.get(`${this.tolerance()}:${source}`);
    if (known !== undefined) return this.post(source, known);
    this.wanted = source;
    void this.run();
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.wanted !== undefined) {
        const source = this.wanted;
        this.wanted = undefined;
        const structure = this.structure;
        const cell = structure && frameCell(structure, source);
        if (!cell) continue;
        const symprec = this.tolerance();
        const text = symmetryTitle(await this.find(cell, symprec));
        if (structure !== this.structure) continue; // the view shows another structure now
        this.known.set(`${symprec}:${source}`, text);
        this.post(source, text);
      }
    } finally {
      this.running = false;
    }
  }
}
