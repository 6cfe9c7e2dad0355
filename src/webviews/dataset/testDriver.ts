/**
 * The dataset overview's test driver (test builds only: registered behind TEST_HOOKS, so release bundles drop this
 * module): open a file's view and wait for its count, read what the page shows, click as a user would.
 */
import * as vscode from 'vscode';
import { isRecord, isString } from '../../core/util/guards';
import type { PanelSet } from '../panelSet';
import type { DatasetPanel } from './panel';

export const DATASET_TEST_COMMAND = 'tokenLens.dataset.test';

/** What the driver reaches of the feature: its views, the command's open, and its serializer's restore on a fresh panel. */
export interface DatasetViews {
  readonly panels: PanelSet<DatasetPanel>;
  open(uri: vscode.Uri | undefined): DatasetPanel | undefined;
  restore(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
  createPanel(): vscode.WebviewPanel;
}

export function datasetTestDriver(views: DatasetViews): vscode.Disposable {
  return vscode.commands.registerCommand(DATASET_TEST_COMMAND, (action: string, arg?: unknown) => drive(views, action, arg));
}

async function drive(views: DatasetViews, action: string, arg?: unknown): Promise<unknown> {
  const args = isRecord(arg) ? arg : {};
  const panel = views.panels.last();
  switch (action) {
    case 'open': {
      const opened = views.open(isString(args.uri, 10_000) ? vscode.Uri.parse(args.uri) : undefined);
      await opened?.settled();
      return opened?.uri.toString();
    }
    case 'settled':
      await panel?.settled();
      return panel !== undefined;
    case 'report':
    case 'click':
    case 'epochs':
      return panel?.requestReport(
        action,
        isString(args.target, 100) ? args.target : undefined,
        typeof args.value === 'number' ? args.value : undefined,
      );
    case 'restore': // what the serializer does after a reload; arg: the page's persisted state
      await views.restore(views.createPanel(), arg);
      await views.panels.last()?.settled();
      return views.panels.keys();
    case 'closeAll':
      views.panels.dispose();
      return true;
    default:
      return undefined;
  }
}
