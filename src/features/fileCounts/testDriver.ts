/**
 * Count Tokens in Files' test driver (test builds only: registered behind TEST_HOOKS, so release bundles drop this
 * module): the rows as the view shows them.
 */
import * as vscode from 'vscode';
import type { CountNode } from './counts';

export const FILE_COUNTS_TEST_COMMAND = 'tokenLens.fileCounts.test';

/** The tree as VS Code reads it. */
interface Tree {
  getChildren(node?: CountNode): CountNode[];
  getTreeItem(node: CountNode): vscode.TreeItem;
}

export function fileCountsTestDriver(tree: Tree): vscode.Disposable {
  return vscode.commands.registerCommand(FILE_COUNTS_TEST_COMMAND, () => rows(tree, undefined, 0));
}

/** The rows as shown, depth-first in the view's order: "  name — description". */
function rows(tree: Tree, node: CountNode | undefined, depth: number): string[] {
  return tree.getChildren(node).flatMap((child) => {
    const item = tree.getTreeItem(child);
    return [`${'  '.repeat(depth)}${String(item.label)} — ${String(item.description)}`, ...rows(tree, child, depth + 1)];
  });
}
