/**
 * The result view of one run: its state while it runs (elapsed time, Cancel), its error (Retry), and
 * its answer as plots and tables once it is done. The page draws; this side reads the answer, and acts
 * on what the user asks: open, compare or save the returned structure, select an atom in the input,
 * save a plot, copy its numbers.
 */
import * as vscode from 'vscode';
import { parsed } from '../../platform/poscarDocuments';
import type { Poscar } from '../../core/poscar/types';
import { WebviewHost } from '../host';
import { derivedName, inputStructure } from './poscarText';
import {
  fitShowMessage,
  isFromResultPage,
  isToResultPage,
  type FromResultPage,
  type ResultReport,
  type ResultTestMessage,
  type ResultView,
  type ShowMessage,
  type StructureAction,
  type ToResultPage,
} from './protocol';
import { runTitle, type RunRecord } from '../../core/runs/run';
import { saveResult } from './saveResult';
import type { ResultDocuments } from './structures';
import { resultView, runInfo } from './view';
import { notify } from '../../platform/notify';
import { hostLocale } from '../../platform/locale';
import { inInputLayout } from '../../core/poscar/layout';
import { toDisposable } from '../../platform/disposable';

/** What the lead's run list does when the user asks. */
export interface RunActions {
  onCancel(runId: string): void;
  onRetry(runId: string): void;
  /** Plays the run's trajectory, or shows its final structure, in the 3D view. */
  onShow3d(run: RunRecord): void;
  /** An application's row: open the item (GET /{app}/detail/{id}). */
  onDetail?(app: string, id: string): void;
}

const WHAT: Partial<Record<RunRecord['kind'], string>> = { relax: 'relaxed', md: 'md-final', heterostructure: 'interface' };

export class ResultPanel extends WebviewHost<ToResultPage, FromResultPage> {
  protected override readonly accepts = isToResultPage;
  private seq = 0;
  private input: Poscar | undefined;
  private view: ResultView | null = null;
  /** The last thing the user asked for on the page, e.g. "structure:compare" (tests read it). */
  lastAction = '';

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private run: RunRecord,
    testMode: boolean,
    private readonly actions: RunActions,
    private readonly documents: ResultDocuments,
    log: vscode.LogOutputChannel,
  ) {
    super(
      panel,
      extensionUri,
      { title: runTitle(run, hostLocale().t), script: 'results.js', styles: ['results.css'] },
      isFromResultPage,
      testMode,
      log,
    );
    this.register(toDisposable(() => documents.forget(this.run.id)));
    this.update(run);
  }

  get runId(): string {
    return this.run.id;
  }

  /** The run changed (running → done, …): read its answer again and show it. */
  update(run: RunRecord): void {
    if (run.id !== this.run.id) this.documents.forget(this.run.id);
    if (run.inputText !== this.run.inputText || !this.input) this.input = inputStructure(run.inputText);
    this.run = run;
    this.view = resultView(run, this.input, hostLocale());
    this.panel.title = runTitle(run, hostLocale().t);
    this.show();
  }

  /** The page is sent what it can show: fitted to its shape (protocol.ts), with a note of what that took. */
  private show(): void {
    const message: ShowMessage = { type: 'show', seq: ++this.seq, run: runInfo(this.run, hostLocale()), view: this.view };
    const fitted = fitShowMessage(message);
    if (fitted?.note) this.log.warn(`Result view of ${this.run.id}: ${fitted.note}`);
    this.post(fitted ?? message);
  }

  protected onReady(): void {
    this.show();
  }

  protected receive(message: FromResultPage): void {
    if (!['rendered', 'error', 'ready'].includes(message.type))
      this.lastAction =
        message.type === 'structure' ? `structure:${message.action}` : message.type === 'detail' ? `detail:${message.id}` : message.type;
    switch (message.type) {
      case 'cancel':
        this.actions.onCancel(this.run.id);
        return;
      case 'retry':
        this.actions.onRetry(this.run.id);
        return;
      case 'structure':
        void this.structure(message.action);
        return;
      case 'selectAtom':
        void this.selectAtom(message.index);
        return;
      case 'detail':
        this.actions.onDetail?.(message.app, message.id);
        return;
      case 'saveJson':
        void saveResult(this.run, this.documents.saveTarget);
        return;
      case 'exportPng': {
        const input = vscode.Uri.parse(this.run.inputUri);
        const file = `${derivedName(this.run.inputName, message.name)}.png`;
        void this.savePng(message.dataUrl, input.scheme === 'untitled' ? undefined : vscode.Uri.joinPath(input, '..', file));
        return;
      }
      case 'copyCsv':
        void vscode.env.clipboard
          .writeText(message.text)
          .then(() => vscode.window.setStatusBarMessage(vscode.l10n.t('Token Lens: copied the {0} numbers as CSV', message.name), 3000));
        return;
      default: // ready, error and rendered are the base's
        return;
    }
  }

  private async structure(action: StructureAction): Promise<void> {
    if (action === 'show3d') return this.actions.onShow3d(this.run);
    const model = this.view?.model;
    const returned = !model
      ? undefined
      : 'poscar' in model
        ? model.poscar?.text
        : model.kind === 'relax' || model.kind === 'md'
          ? model.finalPoscar
          : undefined;
    // A structure computed from the input is written in the input's own layout, wrapped into the cell.
    const text =
      returned !== undefined && model && 'kind' in model && (model.kind === 'relax' || model.kind === 'md')
        ? inInputLayout(this.run.inputText, returned)
        : returned;
    const what = WHAT[this.run.kind];
    if (text === undefined || !what) return;
    if (action === 'open') await this.documents.open(text);
    else if (action === 'compare') await this.documents.compare(this.run, text, what);
    else await this.documents.save(this.run, text, what);
  }

  /** Selects the atom's line in the input POSCAR, opening it where it is shown or in the first column. */
  private async selectAtom(index: number): Promise<void> {
    try {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(this.run.inputUri));
      const site = (parsed(document).poscar ?? this.input)?.sites[index];
      if (!site || site.line >= document.lineCount) return;
      const range = document.lineAt(site.line).range;
      const shown = vscode.window.visibleTextEditors.find((e) => e.document === document);
      // Never over this view: beside it when it stands in the first column.
      const column =
        shown?.viewColumn ?? (this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One);
      const editor = await vscode.window.showTextDocument(document, { viewColumn: column, selection: range, preserveFocus: true });
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      if (document.getText() !== this.run.inputText)
        vscode.window.setStatusBarMessage(
          vscode.l10n.t('Token Lens: {0} changed since the run: line {1} may hold another atom now', this.run.inputName, site.line + 1),
          5000,
        );
    } catch (error) {
      void notify.error(
        vscode.l10n.t('Could not open {0}: {1}', this.run.inputName, error instanceof Error ? error.message : String(error)),
      );
    }
  }

  // ---- test seam (used through the feature's test command, development and test mode only) ----

  /** Asks the page for a report (optionally clicking first) and resolves with it. */
  requestReport(message: Omit<ResultTestMessage, 'type' | 'id'>): Promise<ResultReport | undefined> {
    return this.askPage((id) => ({ type: 'test', id, ...message }));
  }
}
