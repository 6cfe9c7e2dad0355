/**
 * The Runs list's test driver (test builds only: registered behind TEST_HOOKS, so release bundles drop this
 * module): the entries as the tree shows them, and Save Result As without a dialog.
 */
import * as vscode from 'vscode';
import type { RunRecord } from '../core/runs/run';
import { saveResult } from '../webviews/results/saveResult';
import type { RunStore } from './store';

export const RUNS_TEST_COMMAND = 'tokenLens.runs.test';

/** The tree as VS Code reads it. */
interface Tree {
  getChildren(): RunRecord[];
  getTreeItem(run: RunRecord): vscode.TreeItem;
}

export function runsTestDriver(store: RunStore, tree: Tree): vscode.Disposable {
  return vscode.commands.registerCommand(RUNS_TEST_COMMAND, (action: string, arg?: { runId: string; target: string }) => {
    if (action === 'items')
      return tree.getChildren().map((run) => ({ ...tree.getTreeItem(run), id: run.id, tooltip: undefined, command: undefined }));
    const run = arg && store.get(arg.runId);
    return action === 'save' && run ? saveResult(run, vscode.Uri.parse(arg.target)).then((uri) => uri?.toString()) : undefined;
  });
}
