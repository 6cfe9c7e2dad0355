/**
 * The structure view: a webview beside a POSCAR editor that shows its cell in 3D and follows the
 * document as it is edited. While the text has errors the last valid structure stays, with a note.
 */
import * as vscode from 'vscode';
import { summarize } from '../../poscar';
import { oneLine } from '../../poscar/format';
import { firstError, parsed } from '../../poscar/editor/documents';
import type { Poscar, StructureSummary } from '../../poscar/types';
import { quantity } from '../../util/quantity';
import { Debouncer } from '../../util/debounce';
import { WebviewHost } from '../webviewHost';
import {
  isFromStructurePage, sanitizeStructureOptions,
  type FromStructurePage, type StructureData, type StructureOptions, type StructureReport, type StructureTestMessage, type ToStructurePage,
} from './protocol';

export const DEBOUNCE_MS = 150;

function structureData(poscar: Poscar, summary: StructureSummary): StructureData {
  return {
    lattice: poscar.lattice,
    elements: poscar.sites.map((s) => s.species),
    frac: poscar.sites.flatMap((s) => s.frac),
    labels: poscar.sites.map((s, i) => `${s.species} ${i + 1}${s.label ? ` ${s.label}` : ''} (line ${s.line + 1})`),
    summary: oneLine(summary),
  };
}

function fileName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1) || uri.toString();
}

export class StructurePanel extends WebviewHost<ToStructurePage, FromStructurePage> {
  private seq = 0;
  private structure: StructureData | null = null;
  private formula = '';
  private note = '';
  private readonly updater = this.register(new Debouncer(DEBOUNCE_MS, () => this.update()));

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    readonly uri: vscode.Uri,
    private options: StructureOptions,
    testMode: boolean,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super(panel, extensionUri, { title: 'Structure', script: 'structure.js', styles: ['structure.css'] }, isFromStructurePage, testMode);
    this.register(vscode.workspace.onDidChangeTextDocument((event) => {
      if (this.follows(event.document) && event.contentChanges.length > 0) this.updater.schedule();
    }));
    this.register(vscode.workspace.onDidOpenTextDocument((document) => {
      if (this.follows(document)) this.updater.schedule();
    }));
    this.update();
  }

  private follows(document: vscode.TextDocument): boolean {
    return document.uri.toString() === this.uri.toString();
  }

  private document(): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => this.follows(d));
  }

  /** Reads the document (open, or from disk after a reload) and posts what to show. */
  update(): void {
    const document = this.document();
    if (!document) {
      void vscode.workspace.openTextDocument(this.uri).then(() => undefined, () => {
        this.note = `${fileName(this.uri)} could not be opened.`;
        this.show();
      });
      return;
    }
    const result = parsed(document);
    const error = firstError(result);
    if (result.poscar && !error) {
      const summary = summarize(result.poscar);
      this.structure = structureData(result.poscar, summary);
      this.formula = summary.formula;
      this.note = '';
    } else {
      const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
      this.note = `${fileName(this.uri)} has ${quantity(errors, 'error')} (${error?.message ?? 'unreadable'}): `
        + (this.structure ? 'showing the last valid structure.' : 'nothing to show until it can be read.');
    }
    this.show();
  }

  private show(): void {
    this.panel.title = `Structure: ${fileName(this.uri)}`;
    this.post({
      type: 'show', seq: ++this.seq, title: `${fileName(this.uri)}${this.formula ? ` — ${this.formula}` : ''}`, uri: this.uri.toString(),
      structure: this.structure, note: this.note, options: this.options,
    });
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
        void this.savePng(message.dataUrl, this.uri.scheme === 'file' ? vscode.Uri.joinPath(this.uri, '..', `${fileName(this.uri)}.png`) : undefined);
        return;
      case 'error':
        this.log.error(`Structure view: ${message.message}`);
        return;
      case 'rendered': {
        const { type: _type, ...report } = message;
        this.answered(report.request, report);
        return;
      }
      case 'ready':
        return;
    }
  }

  // ---- test seam (used through the feature's test command, development and test mode only) ----

  /** Asks the page for a report (optionally acting first) and resolves with it. */
  requestReport(message: Omit<StructureTestMessage, 'type' | 'id'>): Promise<StructureReport | undefined> {
    return this.askPage((id) => ({ type: 'test', id, ...message }));
  }
}
