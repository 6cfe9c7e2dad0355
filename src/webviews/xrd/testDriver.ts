/**
 * The powder pattern views' test driver (test builds only: registered behind TEST_HOOKS, so release bundles drop
 * this module): what the last pattern view shows.
 */
import * as vscode from 'vscode';
import type { PanelSet } from '../panelSet';
import type { ResultPanel } from '../results/panel';

export const XRD_TEST_COMMAND = 'tokenLens.xrd.test';

export function xrdTestDriver(panels: PanelSet<ResultPanel>): vscode.Disposable {
  return vscode.commands.registerCommand(XRD_TEST_COMMAND, (action: string) =>
    action === 'report'
      ? panels.last()?.requestReport({ action: 'report' })
      : action === 'closeAll'
        ? panels.dispose()
        : action === 'open'
          ? panels.keys()
          : undefined,
  );
}
