/**
 * Where a result or 3D view opens: in the one column Token Lens views already use, as a new tab there,
 * else beside the editor. So the window keeps two columns however many runs are made, and the editor
 * keeps its width (ViewColumn.Beside alone opens a third column whenever a view has the focus).
 */
import * as vscode from 'vscode';

const OUR_VIEWS = /tokenLens\.(result|structure)$/;

export function viewsColumn(): vscode.ViewColumn {
  for (const group of vscode.window.tabGroups.all) {
    if (group.tabs.some((tab) => tab.input instanceof vscode.TabInputWebview && OUR_VIEWS.test(tab.input.viewType)))
      return group.viewColumn;
  }
  return vscode.ViewColumn.Beside;
}
