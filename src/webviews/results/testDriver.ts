/**
 * The result views' test driver (test builds only: registered behind TEST_HOOKS, so release bundles drop this
 * module): show runs the test makes, what a view shows, and acting on it as a user would.
 */
import * as vscode from 'vscode';
import { isRecord, isString } from '../../core/util/guards';
import type { RunRecord } from '../../core/runs/run';
import { panelOptions } from '../host';
import { viewsColumn } from '../column';
import type { PanelSet } from '../panelSet';
import type { ResultPanel } from './panel';
import { RESULT_VIEW_TYPE } from './protocol';
import type { ResultDocuments } from './structures';

export const RESULTS_TEST_COMMAND = 'tokenLens.results.test';

/** What the driver reaches of the feature: its views and documents, showing and updating, and its serializer's restore. */
export interface ResultViewsSeam {
  readonly panels: PanelSet<ResultPanel>;
  readonly documents: ResultDocuments;
  readonly extensionUri: vscode.Uri;
  show(run: RunRecord): unknown;
  update(run: RunRecord): void;
  restore(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
}

export function resultsTestDriver(views: ResultViewsSeam): vscode.Disposable {
  return vscode.commands.registerCommand(RESULTS_TEST_COMMAND, (action: string, arg?: unknown) => drive(views, action, arg));
}

async function drive(views: ResultViewsSeam, action: string, arg?: unknown): Promise<unknown> {
  const { panels } = views;
  const args = isRecord(arg) ? arg : {};
  const panel = isString(args.runId, 200) ? panels.get(args.runId) : panels.last();
  switch (action) {
    case 'open': // the runs whose views are open
      return panels.keys();
    case 'show':
    case 'update': // arg: a RunRecord
      if (action === 'show') views.show(arg as RunRecord);
      else views.update(arg as RunRecord);
      return (arg as RunRecord).id;
    case 'report':
    case 'click': {
      if (!panel) return undefined;
      if (isString(args.exportTarget, 10_000)) panel.exportTarget = vscode.Uri.parse(args.exportTarget);
      if (isString(args.saveTarget, 10_000)) views.documents.saveTarget = vscode.Uri.parse(args.saveTarget);
      return panel.requestReport({ action, target: args.target as string | undefined });
    }
    case 'lastAction':
      return panel?.lastAction;
    case 'restore': {
      // what the serializer does after a reload; arg: the page's persisted state
      const options = { viewColumn: viewsColumn(), preserveFocus: true };
      await views.restore(vscode.window.createWebviewPanel(RESULT_VIEW_TYPE, 'Result', options, panelOptions(views.extensionUri)), arg);
      return panels.keys();
    }
    case 'closeAll':
      panels.dispose();
      return true;
    default:
      return undefined;
  }
}
