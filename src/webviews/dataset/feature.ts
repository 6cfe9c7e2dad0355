/**
 * Token Lens: Show Dataset Overview: one view per JSON Lines file (the active editor's, or the one the editor
 * title or Explorer names), opened beside the editor; running it again for the same file reveals and recounts.
 */
import * as vscode from 'vscode';
import { isRecord, isString } from '../../core/util/guards';
import { Disposable } from '../../platform/disposable';
import { notify } from '../../platform/notify';
import { panelOptions } from '../host';
import { PanelSet } from '../panelSet';
import { DatasetPanel, type DatasetEnvironment } from './panel';
import { DATASET_VIEW_TYPE } from './protocol';

/** Command used by the extension-host tests (registered outside production mode only). */
export const DATASET_TEST_COMMAND = 'tokenLens.dataset.test';

export class DatasetViewFeature extends Disposable {
  private readonly panels = this.register(new PanelSet<DatasetPanel>());

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly environment: DatasetEnvironment,
  ) {
    super();
    this.register(vscode.commands.registerCommand('tokenLens.openDatasetView', (uri?: unknown) => this.open(uri)));
    if (TEST_HOOKS && environment.testMode)
      this.register(vscode.commands.registerCommand(DATASET_TEST_COMMAND, (action: string, arg?: unknown) => this.test(action, arg)));
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
    const panel = vscode.window.createWebviewPanel(
      DATASET_VIEW_TYPE,
      'Dataset',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      panelOptions(this.context.extensionUri),
    );
    return this.panels.add(uri.toString(), new DatasetPanel(panel, this.context.extensionUri, uri, this.environment));
  }

  /** Test seam: open a file's view and wait for its count, read what the page shows, click as a user would. */
  private async test(action: string, arg?: unknown): Promise<unknown> {
    const args = isRecord(arg) ? arg : {};
    const panel = this.panels.last();
    switch (action) {
      case 'open': {
        const opened = this.open(isString(args.uri, 10_000) ? vscode.Uri.parse(args.uri) : undefined);
        await opened?.settled();
        return opened?.uri.toString();
      }
      case 'settled':
        await panel?.settled();
        return panel !== undefined;
      case 'report':
      case 'click':
        return panel?.requestReport(action, isString(args.target, 100) ? args.target : undefined);
      case 'closeAll':
        this.panels.dispose();
        return true;
      default:
        return undefined;
    }
  }
}
