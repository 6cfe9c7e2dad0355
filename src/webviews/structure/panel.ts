/**
 * The structure views: a webview that shows a cell in 3D. One kind follows a structure document (POSCAR,
 * CIF, XYZ, XDATCAR, OUTCAR, vasprun.xml; several frames play) as it is edited (while the text has errors the last valid structure stays, with a note); the other shows a
 * run's trajectory, or its final structure, as it came back.
 */
import * as vscode from 'vscode';
import { summarize } from '../../core/poscar/index';
import { firstError, isPoscar, parsed } from '../../platform/poscarDocuments';
import { formatOf, structureOf } from '../../platform/formatDocuments';
import { errorsOf } from '../../core/structures/formats';
import { hillFormula } from '../../core/structures/summary';
import { fileStructureData } from './fileData';
import { quantity } from '../../core/util/quantity';
import { Debouncer } from '../../core/util/debounce';
import { derivedName } from '../results/poscarText';
import type { RunRecord } from '../../core/runs/run';
import { WebviewHost } from '../host';
import { symmetryTitle } from '../../core/crystallography/describe';
import { documentSymmetry, symmetryFinder, type DocumentSymmetry } from '../../platform/symmetry';
import { config } from '../../platform/config';
import { FrameSymmetry } from './frameSymmetry';
import { structureData, type RunStructure } from './data';
import {
  isFromStructurePage,
  isToStructurePage,
  sanitizeStructureOptions,
  type FromStructurePage,
  type StructureData,
  type StructureOptions,
  type StructureReport,
  type StructureTestMessage,
  type ToStructurePage,
} from './protocol';

export const DEBOUNCE_MS = 150;

/** The key a run's view is kept and persisted under, in place of a document URI. */
export const RUN_KEY_PREFIX = 'tokenlens-run:';

function fileName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1) || uri.toString();
}

export abstract class StructurePanel extends WebviewHost<ToStructurePage, FromStructurePage> {
  protected override readonly accepts = isToStructurePage;
  private seq = 0;
  protected structure: StructureData | null = null;
  protected formula = '';
  protected note = '';
  /** The trajectory frame the page shows (its index in the file), for Convert on the frame shown; undefined without a player. */
  shownFrame: number | undefined;
  private readonly frameSymmetry: FrameSymmetry;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    /** The document URI, or RUN_KEY_PREFIX + the run's id. */
    readonly key: string,
    private options: StructureOptions,
    testMode: boolean,
    log: vscode.LogOutputChannel,
  ) {
    super(
      panel,
      extensionUri,
      { title: vscode.l10n.t('Structure'), script: 'structure.js', styles: ['structure.css'] },
      isFromStructurePage,
      testMode,
      log,
    );
    // The shared finder is asked for at the search, not here: by then the symmetry feature has given it the worker.
    this.frameSymmetry = new FrameSymmetry(
      (cell, symprec) => {
        const finder = symmetryFinder(extensionUri);
        return finder.find(cell, symprec, finder.autoAtoms); // the web host has no worker: its smaller limit
      },
      () => config.symmetryTolerance,
      (frame, text) => this.post({ type: 'frameSymmetry', frame, text }),
    );
  }

  /** The view's name: the file's, or the run's title. */
  protected abstract get name(): string;
  /** Where Export PNG proposes to save. */
  protected abstract get pngTarget(): vscode.Uri | undefined;

  protected show(): void {
    this.panel.title = vscode.l10n.t('Structure: {0}', this.name);
    this.post({
      type: 'show',
      seq: ++this.seq,
      title: `${this.name}${this.formula ? ` — ${this.formula}` : ''}`,
      uri: this.key,
      structure: this.structure,
      note: this.note,
      options: this.options,
    });
    const frames = this.structure?.frames;
    if (frames?.length) this.frameSymmetry.shown(this.structure, this.shownFrame ?? frames[0]!.source ?? 0);
  }

  protected onReady(state: unknown): void {
    const persisted = (state as { options?: unknown } | undefined)?.options;
    if (persisted) this.options = sanitizeStructureOptions(persisted);
    this.show();
  }

  protected receive(message: FromStructurePage): void {
    switch (message.type) {
      case 'options':
        this.options = sanitizeStructureOptions(message.options);
        return;
      case 'exportPng':
        void this.savePng(message.dataUrl, this.pngTarget);
        return;
      case 'frame':
        this.shownFrame = message.index;
        this.frameSymmetry.shown(this.structure, message.index);
        return;
      case 'copy':
        void vscode.env.clipboard
          .writeText(message.text)
          .then(() => vscode.window.setStatusBarMessage(vscode.l10n.t('Token Lens: measurement copied'), 3000));
        return;
      default: // ready, error and rendered are the base's
        return;
    }
  }

  // ---- test seam (used through the feature's test command, development and test mode only) ----

  /** Asks the page for a report (optionally acting first) and resolves with it. */
  requestReport(message: Omit<StructureTestMessage, 'type' | 'id'>): Promise<StructureReport | undefined> {
    return this.askPage((id) => ({ type: 'test', id, ...message }));
  }
}

/** Follows a POSCAR document: its structure as the text is edited. */
export class DocumentStructurePanel extends StructurePanel {
  private readonly symmetry: DocumentSymmetry;
  private readonly updater = this.register(new Debouncer(DEBOUNCE_MS, () => this.update()));

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    readonly uri: vscode.Uri,
    options: StructureOptions,
    testMode: boolean,
    log: vscode.LogOutputChannel,
  ) {
    super(panel, extensionUri, uri.toString(), options, testMode, log);
    this.symmetry = documentSymmetry(extensionUri);
    this.register(
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (this.follows(event.document) && event.contentChanges.length > 0) this.updater.schedule();
      }),
    );
    this.register(
      vscode.workspace.onDidOpenTextDocument((document) => {
        if (this.follows(document)) this.updater.schedule();
      }),
    );
    this.update();
  }

  protected get name(): string {
    return fileName(this.uri);
  }

  protected get pngTarget(): vscode.Uri | undefined {
    return this.uri.scheme === 'file' ? vscode.Uri.joinPath(this.uri, '..', `${fileName(this.uri)}.png`) : undefined;
  }

  private follows(document: vscode.TextDocument): boolean {
    return document.uri.toString() === this.key;
  }

  private document(): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => this.follows(d));
  }

  /** Reads the document (open, or from disk after a reload) and posts what to show. */
  update(): void {
    const document = this.document();
    if (!document) {
      void vscode.workspace.openTextDocument(this.uri).then(
        () => undefined,
        () => {
          this.note = `${this.name} could not be opened.`;
          this.show();
        },
      );
      return;
    }
    if (isPoscar(document)) this.updatePoscar(document);
    else this.updateFile(document);
    this.show();
  }

  private updatePoscar(document: vscode.TextDocument): void {
    const result = parsed(document);
    const error = firstError(result);
    if (result.poscar && !error) {
      this.structure = structureData(result.poscar);
      this.formula = summarize(result.poscar).formula;
      this.note = '';
      this.legendSymmetry(document);
    } else this.unreadable(result.diagnostics.filter((d) => d.severity === 'error').length, error?.message ?? 'unreadable');
  }

  /** Any other registered structure format: every frame it read, played (what it read stands even with errors further on). */
  private updateFile(document: vscode.TextDocument): void {
    const entry = formatOf(document);
    const file = structureOf(document);
    if (!entry || !file) {
      this.note = `${this.name} is no longer in a structure format (${document.languageId}).`;
      return;
    }
    const data = fileStructureData(file, entry.language.label);
    const errors = errorsOf(file);
    if (typeof data === 'string') return this.unreadable(errors.length, errors[0]?.message ?? data);
    this.structure = data;
    this.formula = hillFormula(file.frames[file.frames.length - 1]!.species);
    this.shownFrame = data.frames ? (this.shownFrame ?? 0) : undefined;
    this.note = errors.length
      ? `${this.name} has ${quantity(errors.length, 'error')} (${errors[0]!.message}): showing what could be read.`
      : '';
  }

  private unreadable(errors: number, first: string): void {
    this.note =
      `${this.name} has ${quantity(errors, 'error')} (${first}): ` +
      (this.structure ? 'showing the last valid structure.' : 'nothing to show until it can be read.');
  }

  /** The space group joins the legend once the search settles (moyo loads on the first one), if the text is still the same. */
  private legendSymmetry(document: vscode.TextDocument): void {
    const version = document.version;
    const structure = this.structure;
    void this.symmetry.get(document).then((outcome) => {
      if (!outcome || this.structure !== structure || document.version !== version || !structure) return;
      this.structure = { ...structure, symmetry: symmetryTitle(outcome) };
      this.show();
    });
  }
}

/** A run's trajectory (played) or final structure, as the run returned it. */
export class RunStructurePanel extends StructurePanel {
  private readonly runName: string;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly run: RunRecord,
    data: RunStructure,
    options: StructureOptions,
    testMode: boolean,
    log: vscode.LogOutputChannel,
  ) {
    super(panel, extensionUri, RUN_KEY_PREFIX + run.id, options, testMode, log);
    this.structure = data.structure;
    this.formula = data.formula;
    this.runName = data.title;
    this.show();
  }

  protected get name(): string {
    return this.runName;
  }

  protected get pngTarget(): vscode.Uri | undefined {
    const input = vscode.Uri.parse(this.run.inputUri);
    return input.scheme === 'file'
      ? vscode.Uri.joinPath(input, '..', `${derivedName(this.run.inputName, `${this.run.kind}-3d`)}.png`)
      : undefined;
  }
}
