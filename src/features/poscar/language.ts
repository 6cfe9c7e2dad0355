/**
 * POSCAR files in the editor (their problems come with every format's, features/structures/diagnostics.ts): hovers, a CodeLens with the summary and actions,
 * Outline symbols and folding. Every provider reads the one parse of the document's version.
 */
import * as vscode from 'vscode';
import { summarize } from '../../core/poscar';
import { element } from '../../core/poscar/elements';
import { cellLine, headline, oneLine } from '../../core/poscar/format';
import type { Poscar, StructureSummary } from '../../core/poscar/types';
import { Disposable } from '../../platform/disposable';
import { quantity } from '../../core/util/quantity';
import { plural } from '../../core/util/locale';
import { hostLocale } from '../../platform/locale';
import { markdownText, plainText } from '../../core/util/outsideText';
import { parsed, POSCAR_SELECTOR } from '../../platform/poscarDocuments';

/** Commands the CodeLens offers on a structure, after the summary. */
export interface LensAction {
  title: string;
  command: string;
}

/** The space group in the CodeLens and the hover (features/symmetry/feature.ts): computed on first ask, off activation. */
export interface SymmetryHooks {
  /** The lens title now (it may say the search runs); undefined without a structure. */
  lens(document: vscode.TextDocument): string | undefined;
  /** The hover's paragraphs, once the search settled. */
  hover(document: vscode.TextDocument): Promise<string[] | undefined>;
  /** Fires when a search settles or the tolerance changes: the lenses are asked again. */
  readonly onDidChange: vscode.Event<void>;
}

export class PoscarLanguageFeature extends Disposable {
  constructor(actions: readonly LensAction[], symmetry?: SymmetryHooks) {
    super();
    this.register(vscode.languages.registerHoverProvider(POSCAR_SELECTOR, { provideHover: (d, p) => hover(d, p, symmetry) }));
    this.register(
      vscode.languages.registerCodeLensProvider(POSCAR_SELECTOR, {
        provideCodeLenses: (d) => lenses(d, actions, symmetry),
        ...(symmetry ? { onDidChangeCodeLenses: symmetry.onDidChange } : {}),
      }),
    );
    this.register(
      vscode.languages.registerDocumentSymbolProvider(
        POSCAR_SELECTOR,
        { provideDocumentSymbols: (d) => symbols(d) },
        { label: vscode.l10n.t('POSCAR') },
      ),
    );
    this.register(vscode.languages.registerFoldingRangeProvider(POSCAR_SELECTOR, { provideFoldingRanges: (d) => folding(d) }));
  }
}

// ---- hover ----------------------------------------------------------------------------------------

async function hover(
  document: vscode.TextDocument,
  position: vscode.Position,
  symmetry?: SymmetryHooks,
): Promise<vscode.Hover | undefined> {
  const poscar = parsed(document).poscar;
  if (!poscar) return undefined;
  const line = position.line;
  if (line === poscar.lines.species) {
    const word = document.getWordRangeAtPosition(position, /[^\s]+/);
    const index = word ? speciesIndexAt(document, poscar, word) : -1;
    if (index >= 0) return new vscode.Hover(speciesMarkdown(poscar, index), word);
  }
  if (line === poscar.lines.comment || line === poscar.lines.counts || line === poscar.lines.species) {
    const md = summaryMarkdown(summarize(poscar));
    for (const paragraph of (await symmetry?.hover(document)) ?? []) md.appendText(`\n\n${paragraph}`);
    return new vscode.Hover(md);
  }
  return undefined;
}

function speciesIndexAt(document: vscode.TextDocument, poscar: Poscar, word: vscode.Range): number {
  const before = document.getText(new vscode.Range(word.start.line, 0, word.start.line, word.start.character)).trim();
  const index = before ? before.split(/\s+/).length : 0;
  return index < poscar.species.length ? index : -1;
}

function speciesMarkdown(poscar: Poscar, index: number): vscode.MarkdownString {
  const symbol = poscar.species[index] ?? '';
  const raw = poscar.speciesRaw[index] ?? symbol;
  const e = element(symbol);
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${markdownText(symbol)}**`);
  md.appendText(e ? vscode.l10n.t(' — {0}, Z = {1}, {2} g/mol', e.name, e.z, e.mass) : vscode.l10n.t(' — not an element symbol'));
  if (raw !== symbol) md.appendText(vscode.l10n.t(' (written {0})', raw));
  md.appendText(`\n\n${plural(hostLocale(), poscar.counts[index] ?? 0, '{0} site in this cell', '{0} sites in this cell')}`);
  return md;
}

export function summaryMarkdown(s: StructureSummary): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${markdownText(s.reducedFormula)}**`);
  md.appendText(` (${s.formula})\n\n`);
  md.appendText(`${headline(s)}\n\n${cellLine(s)}\n\n`);
  const elements = Object.entries(s.elements).map(([el, n]) => `${el} ${n}`);
  md.appendText(`${vscode.l10n.t('Elements: {0}', elements.join(', '))}\n\n`);
  md.appendText(vscode.l10n.t('{0} coordinates', s.coordinateMode) + (s.selectiveDynamics ? vscode.l10n.t(', selective dynamics') : ''));
  return md;
}

// ---- CodeLens ------------------------------------------------------------------------------------

function lenses(document: vscode.TextDocument, actions: readonly LensAction[], symmetry?: SymmetryHooks): vscode.CodeLens[] {
  const poscar = parsed(document).poscar;
  const top = new vscode.Range(0, 0, 0, 0);
  const summary = poscar ? plainText(oneLine(summarize(poscar))) : 'POSCAR: not readable yet (see Problems)';
  // The actions first: in a column narrowed by a 3D view beside it, the long summary is what runs off-screen.
  return [
    ...actions.map((a) => new vscode.CodeLens(top, { title: a.title, command: a.command, arguments: [document.uri] })),
    // The space group before the summary, which stays last.
    ...(poscar && symmetry ? [new vscode.CodeLens(top, { title: symmetry.lens(document) ?? '', command: '' })] : []),
    new vscode.CodeLens(top, { title: summary, command: '' }),
  ];
}

// ---- Outline and folding -------------------------------------------------------------------------

function lineRange(document: vscode.TextDocument, first: number, last = first): vscode.Range {
  return new vscode.Range(first, 0, last, document.lineAt(Math.min(last, document.lineCount - 1)).text.length);
}

function symbols(document: vscode.TextDocument): vscode.DocumentSymbol[] {
  const poscar = parsed(document).poscar;
  if (!poscar) return [];
  const l = poscar.lines;
  const symbol = (name: string, detail: string, kind: vscode.SymbolKind, first: number, last = first) =>
    new vscode.DocumentSymbol(name, detail, kind, lineRange(document, first, last), lineRange(document, first));
  const s = summarize(poscar);
  const out = [
    symbol('Comment', poscar.comment.trim(), vscode.SymbolKind.String, l.comment),
    symbol('Lattice', cellLine(s), vscode.SymbolKind.Namespace, l.scale, l.lattice[2]),
    symbol(
      'Species and counts',
      poscar.species.map((sp, i) => `${sp} ${poscar.counts[i]}`).join(' '),
      vscode.SymbolKind.Enum,
      l.species ?? l.counts,
      l.counts,
    ),
  ];
  const sites = symbol(
    'Sites',
    `${poscar.coordinateMode}, ${quantity(poscar.sites.length, 'atom')}`,
    vscode.SymbolKind.Array,
    l.mode,
    l.sites.last,
  );
  sites.children = l.sitesBySpecies.map((span, i) =>
    symbol(
      poscar.species[i] ?? `species ${i + 1}`,
      quantity(poscar.counts[i] ?? 0, 'site'),
      vscode.SymbolKind.Field,
      span.first,
      span.last,
    ),
  );
  out.push(sites);
  const blocks: [string, typeof l.velocities][] = [
    ['Lattice velocities', l.latticeVelocities],
    ['Velocities', l.velocities],
    ['Predictor-corrector', l.predictorCorrector],
  ];
  for (const [name, span] of blocks) if (span) out.push(symbol(name, '', vscode.SymbolKind.Array, span.first, span.last));
  return out;
}

function folding(document: vscode.TextDocument): vscode.FoldingRange[] {
  const l = parsed(document).poscar?.lines;
  if (!l) return [];
  const spans = [{ first: l.mode, last: l.sites.last }, ...l.sitesBySpecies, l.latticeVelocities, l.velocities, l.predictorCorrector];
  return spans.filter((s): s is NonNullable<typeof s> => !!s && s.last > s.first).map((s) => new vscode.FoldingRange(s.first, s.last));
}
