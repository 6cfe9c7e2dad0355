/**
 * The structure views' test driver (test builds only: registered behind TEST_HOOKS, so release bundles drop this
 * module): what a view shows, and acting on it as a user would.
 */
import * as vscode from 'vscode';
import { isRecord, isString } from '../../core/util/guards';
import type { PanelSet } from '../panelSet';
import type { StructurePanel } from './panel';

export const STRUCTURE_TEST_COMMAND = 'tokenLens.structure.test';

/** What the driver reaches of the feature: its views, and its serializer's restore on a fresh panel. */
export interface StructureViews {
  readonly panels: PanelSet<StructurePanel>;
  restore(panel: vscode.WebviewPanel, state: unknown): void;
  createPanel(): vscode.WebviewPanel;
}

export function structureTestDriver(views: StructureViews): vscode.Disposable {
  return vscode.commands.registerCommand(STRUCTURE_TEST_COMMAND, (action: string, arg?: unknown) => drive(views, action, arg));
}

async function drive({ panels, restore, createPanel }: StructureViews, action: string, arg?: unknown): Promise<unknown> {
  const args = isRecord(arg) ? arg : {};
  const panel = isString(args.uri, 10_000) ? panels.get(args.uri) : panels.last();
  switch (action) {
    case 'open': // the views that are open
      return panels.keys();
    case 'report':
    case 'hover':
    case 'pick':
    case 'setRepeat':
    case 'exportPng':
    case 'setFrame':
    case 'play':
    case 'pause': {
      if (!panel) return undefined;
      if (action === 'exportPng' && isString(args.target, 10_000)) panel.exportTarget = vscode.Uri.parse(args.target);
      return panel.requestReport({
        action,
        atom: args.atom as number | undefined,
        repeat: args.repeat as [number, number, number] | undefined,
        frame: args.frame as number | undefined,
        paint: args.paint === true,
      });
    }
    case 'restore': // what the serializer does after a reload
      restore(createPanel(), arg);
      return panels.keys();
    case 'closeAll':
      panels.dispose();
      return true;
    default:
      return undefined;
  }
}
