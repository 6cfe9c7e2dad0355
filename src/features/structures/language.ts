/**
 * Every registered structure format but POSCAR (which keeps its richer editor, features/poscar) in the
 * editor, from the shared model of the document's one parse: Outline symbols and folding from the
 * reader's outline (blocks, frames, ionic steps), a hover with the frame under the cursor, and a
 * CodeLens with the actions and the summary (formula, atoms, cell, frames).
 */
import * as vscode from 'vscode';
import { markdownText, plainText } from '../../core/util/outsideText';
import { fileLine, frameLine, maxForce } from '../../core/structures/summary';
import type { FormatEntry } from '../../core/structures/formats';
import type { OutlineEntry, StructureFile, StructureFrame } from '../../core/structures/types';
import { Disposable } from '../../platform/disposable';
import { formatOf, structureOf, structureSelector } from '../../platform/formatDocuments';

/** A command the CodeLens offers on a structure file, when `when` (if given) holds for its model. */
export interface StructureLensAction {
  title: string;
  command: string;
  when?: (file: StructureFile) => boolean;
}

const KINDS: Record<OutlineEntry['kind'], vscode.SymbolKind> = {
  block: vscode.SymbolKind.Namespace,
  frame: vscode.SymbolKind.Object,
  step: vscode.SymbolKind.Event,
  section: vscode.SymbolKind.Array,
};

/** Outline entries beyond this many (a 100,000-step trajectory) are left out of the symbols: the Outline would not be read. */
const MAX_SYMBOLS = 5000;

export class StructureLanguageFeature extends Disposable {
  constructor(actions: readonly StructureLensAction[], formats: (entry: FormatEntry) => boolean = (f) => f.language.id !== 'poscar') {
    super();
    const selector = structureSelector(formats);
    this.register(
      vscode.languages.registerDocumentSymbolProvider(
        selector,
        { provideDocumentSymbols: (d) => symbols(d) },
        { label: vscode.l10n.t('Structure') },
      ),
    );
    this.register(vscode.languages.registerFoldingRangeProvider(selector, { provideFoldingRanges: (d) => folding(d) }));
    this.register(vscode.languages.registerHoverProvider(selector, { provideHover: (d, p) => hover(d, p) }));
    this.register(vscode.languages.registerCodeLensProvider(selector, { provideCodeLenses: (d) => lenses(d, actions) }));
  }
}

function lineRange(document: vscode.TextDocument, first: number, last: number): vscode.Range {
  const end = Math.min(Math.max(first, last), document.lineCount - 1);
  const start = Math.min(first, end);
  return new vscode.Range(start, 0, end, document.lineAt(end).text.length);
}

function symbols(document: vscode.TextDocument): vscode.DocumentSymbol[] {
  const file = structureOf(document);
  if (!file) return [];
  let budget = MAX_SYMBOLS;
  const convert = (entries: readonly OutlineEntry[]): vscode.DocumentSymbol[] => {
    const out: vscode.DocumentSymbol[] = [];
    for (const e of entries) {
      if (budget-- <= 0) break;
      const range = lineRange(document, e.lines.first, e.lines.last);
      const symbol = new vscode.DocumentSymbol(
        e.name || '(unnamed)',
        e.detail,
        KINDS[e.kind],
        range,
        lineRange(document, e.lines.first, e.lines.first),
      );
      if (e.children?.length) symbol.children = convert(e.children);
      out.push(symbol);
    }
    return out;
  };
  return convert(file.outline);
}

function folding(document: vscode.TextDocument): vscode.FoldingRange[] {
  const file = structureOf(document);
  if (!file) return [];
  const out: vscode.FoldingRange[] = [];
  const walk = (entries: readonly OutlineEntry[]): void => {
    for (const e of entries) {
      if (out.length >= MAX_SYMBOLS) return;
      if (e.lines.last > e.lines.first) out.push(new vscode.FoldingRange(e.lines.first, e.lines.last));
      if (e.children) walk(e.children);
    }
  };
  walk(file.outline);
  return out;
}

/** The frame whose lines hold `line` (frames are in file order: a binary search). */
export function frameAt(frames: readonly StructureFrame[], line: number): number {
  let lo = 0;
  let hi = frames.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const { first, last } = frames[mid]!.lines;
    if (line < first) hi = mid - 1;
    else if (line > last) lo = mid + 1;
    else return mid;
  }
  return -1;
}

function hover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
  const file = structureOf(document);
  if (!file) return undefined;
  const index = frameAt(file.frames, position.line);
  if (index < 0) return undefined;
  const frame = file.frames[index]!;
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${markdownText(frame.title || `Frame ${index + 1}`)}**`);
  md.appendText(file.frames.length > 1 ? vscode.l10n.t(' (frame {0} of {1})\n\n', index + 1, file.frames.length) : '\n\n');
  md.appendText(frameLine(frame));
  const force = maxForce(frame);
  if (force !== undefined) md.appendText(vscode.l10n.t('\n\nLargest force {0} eV/Å', force.toFixed(4)));
  if (frame.occupancy) md.appendText(vscode.l10n.t('\n\nPartial occupancy: convert to an ordered structure before a run.'));
  return new vscode.Hover(md);
}

function lenses(document: vscode.TextDocument, actions: readonly StructureLensAction[]): vscode.CodeLens[] {
  const file = structureOf(document);
  const entry = formatOf(document);
  if (!file || !entry) return [];
  const top = new vscode.Range(0, 0, 0, 0);
  return [
    ...actions
      .filter((a) => !a.when || a.when(file))
      .map((a) => new vscode.CodeLens(top, { title: a.title, command: a.command, arguments: [document.uri] })),
    new vscode.CodeLens(top, { title: plainText(fileLine(file, entry.language.label)), command: '' }),
  ];
}
