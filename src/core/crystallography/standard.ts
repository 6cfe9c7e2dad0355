/**
 * The commands' cells: the conventional and primitive standard cells idealized, as spglib's standardize_cell
 * (no_idealize=False) gives them: moyo's standardized cells, searched again and symmetrized with their own
 * operations (operations.ts symmetrizeCell), so that a cubic cell has equal lengths and right angles and every
 * atom sits on its Wyckoff position. The basis is moyo's: in the monoclinic and triclinic systems it can differ
 * from spglib's by a change of basis of the same lattice (the tests compare the two through their Niggli cells).
 */
import { wrapCell, type Cell } from './cell';
import { symmetrizeCell } from './operations';
import { analyzeSymmetry, type MoyoBindings, type SymmetryResult } from './symmetry';

/** The cell with its lattice and positions made exactly symmetric under the group found at `symprec`. */
export function idealizedCell(moyo: MoyoBindings, cell: Cell, symprec: number): Cell {
  return wrapCell(symmetrizeCell(cell, analyzeSymmetry(moyo, cell, symprec)));
}

export function standardCells(moyo: MoyoBindings, result: SymmetryResult): { conventional: Cell; primitive: Cell } {
  return {
    conventional: idealizedCell(moyo, result.conventional, result.symprec),
    primitive: idealizedCell(moyo, result.primitive, result.symprec),
  };
}
