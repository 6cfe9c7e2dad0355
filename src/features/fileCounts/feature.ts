/**
 * Token Lens: Count Tokens in Files, from the Explorer on any selection of files and folders: each
 * file's tokens with the current tokenizer, folders summed, in the "Token Counts" view (sortable by
 * tokens or name, Copy as Markdown Table), with progress and Cancel on large trees.
 */
import * as vscode from 'vscode';
import { config } from '../../platform/config';
import { approx, CancelledError, estimateOf, loadTokenizer } from '../../core/tokenizers/index';
import { Disposable } from '../../platform/disposable';
import { plural } from '../../core/util/locale';
import { hostLocale } from '../../platform/locale';
import { countTree, markdownTable, sorted, type CountNode, type FileCount, type SortOrder } from './counts';
import { collectFiles, countFiles } from './files';
import { notify } from '../../platform/notify';
import { fileCountsTestDriver } from './testDriver';

export const COUNT_FILES = 'tokenLens.countFiles';
const VIEW = 'tokenLens.fileCounts';

export interface FileCountsResult {
  status: 'ok' | 'cancelled' | 'empty' | 'error';
  tokenizer: string;
  files: FileCount[];
  total: number;
  message?: string;
}

const locale = hostLocale();
const number = (n: number): string => locale.number(n);
const fileCount = (n: number): string => plural(locale, n, '{0} file', '{0} files');
const tokenCount = (n: number): string => plural(locale, n, '{0} token', '{0} tokens');

export class FileCountsFeature extends Disposable implements vscode.TreeDataProvider<CountNode> {
  private readonly changed = this.register(new vscode.EventEmitter<CountNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view = this.register(vscode.window.createTreeView(VIEW, { treeDataProvider: this, showCollapseAll: true }));
  private files: FileCount[] = [];
  private tree: CountNode = countTree([]);
  private tokenizer = '';
  private order: SortOrder = 'tokens';
  private selection: vscode.Uri[] = [];

  constructor(testMode: boolean) {
    super();
    const command = (name: string, run: (...args: never[]) => unknown) => this.register(vscode.commands.registerCommand(name, run));
    command(COUNT_FILES, (uri?: vscode.Uri, uris?: vscode.Uri[]) => this.count(uris?.length ? uris : uri ? [uri] : []));
    command(`${VIEW}.sortByName`, () => this.sort('name'));
    command(`${VIEW}.sortByTokens`, () => this.sort('tokens'));
    command(`${VIEW}.copyMarkdown`, () => this.copyMarkdown());
    command(`${VIEW}.refresh`, () => this.count(this.selection));
    command(`${VIEW}.clear`, () => this.show([], ''));
    if (TEST_HOOKS && testMode) this.register(fileCountsTestDriver(this));
    void this.setContext();
  }

  /** Counts the selection (files and folders) and shows the result; returns it for callers and tests. */
  async count(selection: vscode.Uri[]): Promise<FileCountsResult> {
    const tokenizer = config.tokenizer;
    if (selection.length === 0) {
      void notify.info(vscode.l10n.t('Choose files or folders in the Explorer, then run Count Tokens in Files from their context menu.'));
      return { status: 'empty', tokenizer, files: [], total: 0 };
    }
    this.selection = selection;
    const abort = new AbortController();
    try {
      const files = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Token Lens: counting tokens'), cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => abort.abort());
          progress.report({ message: vscode.l10n.t('finding files…') });
          const uris = await collectFiles(selection, token);
          const engine = await loadTokenizer(tokenizer, { specialTokens: config.specialTokens });
          let reported = 0;
          return countFiles(uris, engine, abort.signal, (done) => {
            progress.report({
              message: vscode.l10n.t('{0} of {1}', number(done), fileCount(uris.length)),
              increment: ((done - reported) / Math.max(1, uris.length)) * 100,
            });
            reported = done;
          });
        },
      );
      const result = this.show(files, tokenizer, abort.signal.aborted);
      if (files.length === 0) void notify.info(vscode.l10n.t('No files to count in the selection (files.exclude and .gitignore apply).'));
      return result;
    } catch (error) {
      if (error instanceof CancelledError || abort.signal.aborted) return this.show(this.files, tokenizer, true);
      const message = vscode.l10n.t('Token Lens could not count the files: {0}', error instanceof Error ? error.message : String(error));
      void notify.error(message);
      return { status: 'error', tokenizer, files: [], total: 0, message };
    }
  }

  private show(files: FileCount[], tokenizer: string, cancelled = false): FileCountsResult {
    this.files = files;
    this.tokenizer = tokenizer;
    this.tree = countTree(files);
    const skipped = this.tree.skipped ? vscode.l10n.t(' · {0} skipped (binary, too large or unreadable)', number(this.tree.skipped)) : '';
    this.view.message = files.length
      ? vscode.l10n.t('{0} in {1} with {2}', approx(this.estimated, tokenCount(this.tree.tokens)), fileCount(this.tree.files), tokenizer) +
        `${this.estimated ? vscode.l10n.t(' (an estimate, not exact)') : ''}${skipped}${cancelled ? vscode.l10n.t(' · cancelled: partial') : ''}`
      : undefined;
    this.changed.fire(undefined);
    void this.setContext();
    if (files.length) void this.view.reveal(this.tree.children![0]!, { focus: false, select: false }).then(undefined, () => undefined);
    return { status: cancelled ? 'cancelled' : files.length ? 'ok' : 'empty', tokenizer, files, total: this.tree.tokens };
  }

  private sort(order: SortOrder): void {
    this.order = order;
    this.changed.fire(undefined);
    void this.setContext();
  }

  private async copyMarkdown(): Promise<string> {
    const table = markdownTable(this.files, this.tokenizer, number);
    await vscode.env.clipboard.writeText(table);
    const rows = plural(locale, this.files.length, '{0} row', '{0} rows');
    vscode.window.setStatusBarMessage(vscode.l10n.t('Token Lens: copied {0} as a Markdown table', rows), 3000);
    return table;
  }

  private async setContext(): Promise<void> {
    await vscode.commands.executeCommand('setContext', `${VIEW}.shown`, this.files.length > 0);
    await vscode.commands.executeCommand('setContext', `${VIEW}.order`, this.order);
  }

  /** Whether the counts shown are a closed model's estimate (shown with ≈). */
  private get estimated(): boolean {
    return estimateOf(this.tokenizer) !== undefined;
  }

  getTreeItem(node: CountNode): vscode.TreeItem {
    const folder = node.children !== undefined;
    const item = new vscode.TreeItem(node.name, folder ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    item.id = node.path;
    item.description = node.skip
      ? vscode.l10n.t('skipped: {0}', node.skip)
      : folder
        ? vscode.l10n.t('{0} tokens · {1}', approx(this.estimated, number(node.tokens)), fileCount(node.files))
        : vscode.l10n.t('{0} tokens', approx(this.estimated, number(node.tokens)));
    item.tooltip = node.skip
      ? vscode.l10n.t('{0}: not counted ({1})', node.path, node.skip)
      : `${node.path}\n${vscode.l10n.t('{0} ({1}{2}), {3}', approx(this.estimated, tokenCount(node.tokens)), this.tokenizer, this.estimated ? vscode.l10n.t(', an estimate') : '', plural(locale, node.chars, '{0} character', '{0} characters'))}`;
    const uri = this.uriOf(node.path);
    if (uri) {
      item.resourceUri = uri;
      if (!folder) item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [uri] };
    }
    item.contextValue = folder ? 'folder' : 'file';
    return item;
  }

  getChildren(node?: CountNode): CountNode[] {
    return sorted((node ?? this.tree).children ?? [], this.order);
  }

  getParent(node: CountNode): CountNode | undefined {
    const cut = node.path.lastIndexOf('/');
    if (cut < 0) return undefined;
    const parentPath = node.path.slice(0, cut);
    const find = (n: CountNode): CountNode | undefined => (n.path === parentPath ? n : n.children?.map(find).find(Boolean));
    return find(this.tree);
  }

  private uriOf(path: string): vscode.Uri | undefined {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (path.startsWith('/')) return vscode.Uri.file(path);
    if (folders.length === 1) return vscode.Uri.joinPath(folders[0]!.uri, path);
    const [name, ...rest] = path.split('/');
    const folder = folders.find((f) => f.name === name);
    return folder ? vscode.Uri.joinPath(folder.uri, ...rest) : undefined;
  }
}
