/**
 * The inspector's test driver (test builds only: registered behind TEST_HOOKS, so release bundles drop this
 * module): what the panel shows, and ways to drive it as a user or a hostile page would.
 */
import * as vscode from 'vscode';
import type { Locale } from '../../core/util/locale';
import { InspectorPanel } from './panel';
import { VIEW_TYPE } from './protocol';

export const TEST_COMMAND = 'tokenLens.inspector.test';

/** What the driver reaches of the feature: its one panel, the first paint switch and its serializer's restore. */
export interface InspectorSeam {
  readonly locale: Locale;
  panel(): InspectorPanel | undefined;
  setFirstPaint(on: boolean): void;
  restore(panel: vscode.WebviewPanel, state: unknown): void;
}

export function inspectorTestDriver(inspector: InspectorSeam): vscode.Disposable {
  return vscode.commands.registerCommand(TEST_COMMAND, (action: string, arg?: unknown) => drive(inspector, action, arg));
}

async function drive(inspector: InspectorSeam, action: string, arg?: unknown): Promise<unknown> {
  const panel = inspector.panel();
  switch (action) {
    case 'isOpen':
      return panel !== undefined;
    case 'state':
      if (!panel) return undefined;
      await panel.settled();
      return { report: panel.lastReport, state: panel.state, options: panel.currentOptions };
    case 'painted': // the first report of a render on screen, without waiting for the update to finish
      return panel?.painted();
    case 'firstPaint': // on or off for the panels opened from now on
      inspector.setFirstPaint(arg !== false);
      return true;
    case 'post': // raw message to the webview
      return panel?.postRaw(arg);
    case 'receive': // raw message as if from the webview
      panel?.receiveRaw(arg);
      return true;
    case 'restore': {
      // what the serializer does after a reload, on a fresh panel with the given state
      const webviewPanel = vscode.window.createWebviewPanel(VIEW_TYPE, inspector.locale.t(InspectorPanel.title), {
        viewColumn: vscode.ViewColumn.Beside,
        preserveFocus: true,
      });
      inspector.restore(webviewPanel, arg);
      return inspector.panel()!.settled();
    }
    case 'close':
      panel?.dispose();
      return true;
    default:
      return undefined;
  }
}
