/**
 * Token Lens: Show Dataset Overview: one view per JSON Lines file (the active editor's, or the one the editor
 * title or Explorer names), opened beside the editor; running it again for the same file reveals and recounts.
 * After a window reload each view comes back for its file (counted again), or says the file is gone.
 */
import * as vscode from 'vscode';
import { isInt, isRecord, isString } from '../../core/util/guards';
import { Disposable } from '../../platform/disposable';
import { notify } from '../../platform/notify';
import { panelOptions } from '../host';
import { PanelSet } from '../panelSet';
import { DatasetPanel, type DatasetEnvironment } from './panel';
import { DATASET_VIEW_TYPE, EPOCHS } from './protocol';
import { exists, tryParse } from '../uris';
import { datasetTestDriver } from './testDriver';

export class DatasetViewFeature extends Disposable {
  private readonly panels = this.register(new PanelSet<DatasetPanel>());

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly environment: DatasetEnvironment,
  ) {
    super();
    this.register(vscode.commands.registerCommand('tokenLens.openDatasetView', (uri?: unknown) => this.open(uri)));
    this.register(
      vscode.window.registerWebviewPanelSerializer(DATASET_VIEW_TYPE, {
        deserializeWebviewPanel: (panel: vscode.WebviewPanel, state: unknown) => this.restore(panel, state),
      }),
    );
    if (TEST_HOOKS && environment.testMode)
      this.register(
        datasetTestDriver({
          panels: this.panels,
          open: (uri) => this.open(uri),
          restore: (panel, state) => this.restore(panel, state),
          createPanel: () => this.createPanel(),
        }),
      );
  }

  /** The file: the one the menu passed, else the active editor's or active tab's. */
  private target(arg: unknown): vscode.Uri | undefined {
    if (arg instanceof vscode.Uri) return arg;
    const editor = vscode.window.activeTextEditor;
    if (editor) return editor.document.uri;
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    return input instanceof vscode.TabInputText ? input.uri : undefined;
  }

  private open(arg: unknown): DatasetPanel | undefined {
    const uri = this.target(arg);
    if (!uri) {
      void notify.info(this.environment.locale.t('Open a JSON Lines dataset (.jsonl, one conversation per line) first.'));
      return undefined;
    }
    const existing = this.panels.get(uri.toString());
    if (existing) {
      existing.reveal();
      existing.recount();
      return existing;
    }
    return this.adopt(this.createPanel(), uri);
  }

  private createPanel(): vscode.WebviewPanel {
    return vscode.window.createWebviewPanel(
      DATASET_VIEW_TYPE,
      'Dataset',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      panelOptions(this.context.extensionUri),
    );
  }

  private adopt(panel: vscode.WebviewPanel, uri: vscode.Uri, epochs?: number): DatasetPanel {
    return this.panels.add(uri.toString(), new DatasetPanel(panel, this.context.extensionUri, uri, this.environment, epochs));
  }

  /** After a window reload: the file the page kept, counted again with the epochs chosen in the view; a gone file is said so. */
  private async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const kept = isRecord(state) ? state : {};
    const uri = isString(kept.uri, 10_000) ? tryParse(kept.uri) : undefined;
    let closed = false;
    const closing = panel.onDidDispose(() => (closed = true));
    const gone = !uri || !(await exists(uri));
    closing.dispose();
    if (closed) return;
    if (!uri || gone) {
      panel.dispose();
      const { t } = this.environment.locale;
      if (uri) void notify.warning(t('The dataset overview did not come back after the reload: {0} is gone.', shown(uri)));
      return;
    }
    this.adopt(panel, uri, isInt(kept.epochs, EPOCHS.min, EPOCHS.max) ? kept.epochs : undefined);
  }
}

/** A file as the user knows it: its path on the disk, else its URI. */
function shown(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.toString(true);
}
