/**
 * Symmetry in the POSCAR editor: the space group in the CodeLens and the hover (found by moyo on first ask, with
 * the tolerance tokenLens.symmetry.tolerance, shown with the value used), and six commands that open the cell they
 * make as a new, untitled POSCAR document: Primitive Cell, Conventional Standard Cell, Niggli-Reduced Cell,
 * Supercell…, Wrap Atoms into the Cell, Symmetrize. The commands take a structure (cellOfPoscar) so that other
 * formats' readers can reuse them. A search that fails says why; the document stays as it is.
 */
import * as vscode from 'vscode';
import { cellOfPoscar, cellToPoscarText, wrapCell, type Cell } from '../../core/crystallography/cell';
import { symmetryParagraphs, symmetryTitle } from '../../core/crystallography/describe';
import { niggliCell, parseSupercellMatrix, supercell, supercellProblem, symmetrizeCell } from '../../core/crystallography/operations';
import { standardCells } from '../../core/crystallography/standard';
import { cellProblem, type SymmetryFinder, type SymmetryResult, type SymmetrySearch } from '../../core/crystallography/symmetry';
import { standardizeCrystal, type Standardize } from '../../core/crystallography/kpoints';
import { cartToFrac } from '../../core/poscar/structure';
import type { Poscar } from '../../core/poscar/types';
import { config, onDidChangeConfig } from '../../platform/config';
import { Disposable, toDisposable } from '../../platform/disposable';
import { notify } from '../../platform/notify';
import { parsed, POSCAR_LANGUAGE } from '../../platform/poscarDocuments';
import { documentSymmetry, resetSymmetry, symmetryFinder, type DocumentSymmetry } from '../../platform/symmetry';
import type { SymmetryHooks } from '../poscar/language';

export const SYMMETRY_COMMANDS = {
  primitive: 'tokenLens.symmetry.primitiveCell',
  conventional: 'tokenLens.symmetry.conventionalCell',
  niggli: 'tokenLens.symmetry.niggliCell',
  supercell: 'tokenLens.symmetry.supercell',
  wrap: 'tokenLens.symmetry.wrapAtoms',
  symmetrize: 'tokenLens.symmetry.symmetrize',
} as const;

/** A new cell to open, or a sentence saying why there is none. */
type Made = { cell: Cell; what: string } | { problem: string };

/** The group of a structure at the configured tolerance, or the reason there is none. */
async function groupOf(finder: SymmetryFinder, cell: Cell): Promise<SymmetryResult | string> {
  const outcome = await finder.find(cell, config.symmetryTolerance);
  return outcome.ok ? outcome.result : `No space group: ${outcome.reason}`;
}

const groupNote = (r: SymmetryResult): string => `${r.symbol} (${r.number}), symprec ${r.symprec} Å`;

/** The cell operations on any structure, for the commands (a reader of another format calls these with its cell). */
export async function primitiveCell(finder: SymmetryFinder, cell: Cell): Promise<Made> {
  const group = await groupOf(finder, cell);
  if (typeof group === 'string') return { problem: group };
  return { cell: standardCells(await finder.moyo(), group).primitive, what: `primitive standard cell, ${groupNote(group)}` };
}

export async function conventionalCell(finder: SymmetryFinder, cell: Cell): Promise<Made> {
  const group = await groupOf(finder, cell);
  if (typeof group === 'string') return { problem: group };
  return { cell: standardCells(await finder.moyo(), group).conventional, what: `conventional standard cell, ${groupNote(group)}` };
}

export async function symmetrizedCell(finder: SymmetryFinder, cell: Cell): Promise<Made> {
  const group = await groupOf(finder, cell);
  if (typeof group === 'string') return { problem: group };
  return { cell: wrapCell(symmetrizeCell(cell, group)), what: `symmetrized to ${groupNote(group)}` };
}

function attempt(make: () => Cell, what: string): Made {
  try {
    return { cell: make(), what };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

export class SymmetryFeature extends Disposable {
  private readonly finder: SymmetryFinder;
  private readonly documents: DocumentSymmetry;
  private readonly lensesChanged = this.register(new vscode.EventEmitter<void>());

  /** `offThread` runs the searches on a worker thread (the desktop host); without it they run on this one. */
  constructor(extensionUri: vscode.Uri, offThread?: SymmetrySearch) {
    super();
    this.finder = symmetryFinder(extensionUri, offThread);
    this.documents = documentSymmetry(extensionUri);
    this.register(toDisposable(resetSymmetry));
    this.register(this.documents.onDidChange(() => this.lensesChanged.fire()));
    this.register(onDidChangeConfig((affects) => affects('symmetry.tolerance') && this.lensesChanged.fire()));
    const command = (id: string, make: (cell: Cell) => Made | Promise<Made | undefined>) =>
      this.register(vscode.commands.registerCommand(id, (uri?: unknown) => this.run(uri, make)));
    command(SYMMETRY_COMMANDS.primitive, (cell) => primitiveCell(this.finder, cell));
    command(SYMMETRY_COMMANDS.conventional, (cell) => conventionalCell(this.finder, cell));
    command(SYMMETRY_COMMANDS.niggli, (cell) => attempt(() => niggliCell(cell), 'Niggli-reduced cell'));
    command(SYMMETRY_COMMANDS.wrap, (cell) => attempt(() => wrapCell(cell), 'atoms wrapped into the cell'));
    command(SYMMETRY_COMMANDS.symmetrize, (cell) => symmetrizedCell(this.finder, cell));
    command(SYMMETRY_COMMANDS.supercell, (cell) => askSupercell(cell));
  }

  /**
   * The space group and conventional lattice a k-path needs, in the structure's own frame (moyo's standard cell
   * rotated back by its std_rotation_matrix); undefined for a cell moyo may not take, so the caller falls back to
   * the metric. Throws on a search that fails (the caller falls back too).
   */
  readonly standardize: Standardize = async (crystal) => {
    const symprec = config.symmetryTolerance;
    const frac = crystal.positions.map((p) => cartToFrac(crystal.lattice, p));
    if (cellProblem({ lattice: crystal.lattice, frac, species: crystal.species }, symprec)) return undefined;
    return standardizeCrystal(await this.finder.moyo(), crystal, symprec);
  };

  /** The CodeLens and hover hooks of the POSCAR editor. */
  get hooks(): SymmetryHooks {
    return {
      lens: (document) => {
        const outcome = this.documents.peek(document);
        return outcome === undefined ? undefined : symmetryTitle(outcome);
      },
      hover: async (document) => {
        const outcome = await this.documents.get(document);
        const poscar = parsed(document).poscar;
        return outcome && poscar ? symmetryParagraphs(outcome, cellOfPoscar(poscar).species) : undefined;
      },
      onDidChange: this.lensesChanged.event,
    };
  }

  private async run(uri: unknown, make: (cell: Cell) => Made | Promise<Made | undefined>): Promise<void> {
    const source = await poscarOf(uri);
    if (typeof source === 'string') return void notify.error(source);
    const made = await make(cellOfPoscar(source));
    if (!made) return;
    if ('problem' in made) return void notify.error(vscode.l10n.t('Token Lens: {0}', made.problem));
    await openCell(made.cell, `${source.comment.trim() || 'structure'} — ${made.what}`);
  }
}

/** The POSCAR of the command's argument (a URI from a menu), else of the active editor; or what is wrong. */
async function poscarOf(uri: unknown): Promise<Poscar | string> {
  let document: vscode.TextDocument | undefined;
  if (uri instanceof vscode.Uri) document = await vscode.workspace.openTextDocument(uri);
  else document = vscode.window.activeTextEditor?.document;
  if (!document || document.languageId !== POSCAR_LANGUAGE) return 'Token Lens: open a POSCAR file first.';
  const { poscar, diagnostics } = parsed(document);
  const error = diagnostics.find((d) => d.severity === 'error');
  if (!poscar || error) return `Token Lens: the POSCAR has errors to fix first (${error?.message ?? 'no structure'}).`;
  return poscar;
}

async function askSupercell(cell: Cell): Promise<Made | undefined> {
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Supercell'),
    prompt: vscode.l10n.t(
      'Three whole numbers (2 2 1: the cell repeated along a, b, c) or nine (a 3×3 matrix, rows: the new vectors in the old)',
    ),
    value: '2 2 2',
    validateInput: (value) => {
      const m = parseSupercellMatrix(value);
      return typeof m === 'string' ? m : supercellProblem(m, cell.frac.length);
    },
  });
  if (text === undefined) return undefined;
  const m = parseSupercellMatrix(text);
  if (typeof m === 'string') return { problem: m };
  return attempt(() => supercell(cell, m), `supercell ${m.map((r) => r.join(' ')).join(' / ')}`);
}

/** Opens a cell as a new, untitled POSCAR document beside nothing: the user saves it where they choose. */
async function openCell(cell: Cell, comment: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language: POSCAR_LANGUAGE, content: cellToPoscarText(cell, comment) });
  await vscode.window.showTextDocument(document, { preview: false });
}
