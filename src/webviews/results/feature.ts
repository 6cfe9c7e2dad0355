/**
 * The result views: one per run (showing a run again reveals its view), kept up to date as the run
 * changes, and back after a window reload when the run list still knows the run, or for a file's
 * relaxation summary, which no list keeps, when its file can still be read.
 */
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../platform/disposable';
import { isRecord, isString } from '../../core/util/guards';
import { PanelSet } from '../panelSet';
import { panelOptions } from '../host';
import { ResultPanel, type RunActions } from './panel';
import { RESULT_VIEW_TYPE } from './protocol';
import { runTitle, type RunRecord } from '../../core/runs/run';
import { ResultDocuments } from './structures';
import { viewsColumn } from '../column';
import { notify } from '../../platform/notify';
import { FILE_SUMMARY_PREFIX } from './relaxationFile';
import { resultsTestDriver } from './testDriver';
import { hostLocale } from '../../platform/locale';

/** Brings back, after a reload, a view whose record nobody keeps (computed here from a file): its id starts with the prefix. */
export type LocalRestore = (panel: vscode.WebviewPanel, id: string) => void | Promise<void>;

export interface ResultViewsOptions extends RunActions {
  /** The run list's record of a run, for views that come back after a reload. */
  lookup(runId: string): RunRecord | undefined;
  /** A file's relaxation summary read again from the file's URI, or why it cannot be (undefined: cancelled). */
  reread(uri: string): Promise<RunRecord | string | undefined>;
}

export class ResultViews extends Disposable {
  private readonly panels = this.register(new PanelSet<ResultPanel>());
  private readonly documents = this.register(new ResultDocuments());
  /** Every result page comes back through this one serializer (one per view type): these take the ids the run list does not know. */
  private readonly localRestores = new Map<string, LocalRestore>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly options: ResultViewsOptions,
    private readonly testMode: boolean,
  ) {
    super();
    this.register(
      vscode.window.registerWebviewPanelSerializer(RESULT_VIEW_TYPE, {
        deserializeWebviewPanel: (panel: vscode.WebviewPanel, state: unknown) => this.restore(panel, state),
      }),
    );
    this.localRestores.set(FILE_SUMMARY_PREFIX, (panel, id) => this.restoreSummary(panel, id));
    if (TEST_HOOKS && testMode)
      this.register(
        resultsTestDriver({
          panels: this.panels,
          documents: this.documents,
          extensionUri: context.extensionUri,
          show: (run) => this.show(run),
          update: (run) => this.update(run),
          restore: (panel, state) => this.restore(panel, state),
        }),
      );
  }

  /**
   * Opens the view of a run beside the editor, or reveals it (brought up to date). The views of runs it
   * `replaces` close; the first open one becomes this run's, so a Retry keeps its tab.
   */
  show(run: RunRecord, preserveFocus = true, replaces: readonly string[] = []): ResultPanel {
    const [taken, ...closing] = replaces.filter((id) => this.panels.get(id));
    closing.forEach((id) => this.close(id));
    if (taken && !this.panels.get(run.id)) this.panels.rekey(taken, run.id);
    const existing = this.panels.get(run.id);
    if (existing) {
      existing.update(run);
      existing.panel.reveal(existing.panel.viewColumn, preserveFocus);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      RESULT_VIEW_TYPE,
      runTitle(run, hostLocale().t),
      { viewColumn: viewsColumn(), preserveFocus },
      panelOptions(this.context.extensionUri),
    );
    return this.adopt(panel, run);
  }

  /** Closes the run's view, if open. */
  close(runId: string): void {
    this.panels.get(runId)?.panel.dispose();
  }

  /** Where a run's view stands, if it is open. */
  columnOf(runId: string): vscode.ViewColumn | undefined {
    return this.panels.get(runId)?.panel.viewColumn;
  }

  /** A run changed: its view, if open, shows the new state. */
  update(run: RunRecord): void {
    this.panels.get(run.id)?.update(run);
  }

  /** The views of records made from files (id starting with `prefix`) come back through `restore`, not the run list. */
  restoreLocal(prefix: string, restore: LocalRestore): vscode.Disposable {
    this.localRestores.set(prefix, restore);
    return toDisposable(() => this.localRestores.delete(prefix));
  }

  private async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const id = isRecord(state) && isString(state.runId, 10_000) ? state.runId : '';
    const local = [...this.localRestores].find(([prefix]) => id.startsWith(prefix));
    if (local) return local[1](panel, id);
    const run = id ? this.options.lookup(id) : undefined;
    if (run) this.adopt(panel, run);
    else panel.dispose();
  }

  /** A file's summary is kept by nobody: after a reload it is read again from its file, or the user is told why not. */
  private async restoreSummary(panel: vscode.WebviewPanel, id: string): Promise<void> {
    let closed = false;
    const closing = panel.onDidDispose(() => (closed = true));
    const record = await this.options.reread(id.slice(FILE_SUMMARY_PREFIX.length));
    closing.dispose();
    if (closed) return;
    if (typeof record === 'string')
      void notify.warning(vscode.l10n.t('The relaxation summary was not restored after the reload: {0}', record));
    if (record && typeof record !== 'string') this.adopt(panel, record);
    else panel.dispose();
  }

  private adopt(panel: vscode.WebviewPanel, run: RunRecord): ResultPanel {
    return this.panels.add(
      run.id,
      new ResultPanel(panel, this.context.extensionUri, run, this.testMode, this.options, this.documents, this.log),
    );
  }
}
