/**
 * The materials side starts on first use, so that a prompt writer's window pays for the token features only:
 * when a document of a registered format (POSCAR, CIF, XYZ, XDATCAR, OUTCAR, vasprun.xml, diffraction data) is open or opens, when a result or 3D view comes back after a reload,
 * when the Structure Runs view is shown, or when one of its commands runs. Until then each of its commands is
 * a stand-in that starts it and then runs the real command with the same arguments. The Runs view is this
 * module's from the start (one view for the window's life), showing the Runs list's rows once there is one.
 */
import * as vscode from 'vscode';
import { RUNS_VIEW, type RunRecord } from './core/runs/run';
import { Disposable, toDisposable } from './platform/disposable';
import { MATERIALS_LANGUAGES } from './core/structures/languages';
import type { Wiring } from './wiring';

// Every registered format's language (core/structures/languages.ts: data only, no reader is loaded here).
const LANGUAGES = MATERIALS_LANGUAGES;
const VIEW_TYPES = /tokenLens\.(structure|result)$/;
/** What only the tests call, before any other materials command (behind TEST_HOOKS: not in release bundles). */
const TEST_COMMANDS = ['tokenLens.results.test', 'tokenLens.structure.test', 'tokenLens.runs.test', 'tokenLens.service.test'];

export class LazyMaterials extends Disposable {
  private startedBy: string | undefined;
  private standIns: vscode.Disposable[] = [];
  /** The Runs list's data once the materials side runs; the view, created once, asks it through runsView(). */
  private runs: vscode.TreeDataProvider<RunRecord> | undefined;
  private readonly runsChanged = this.register(new vscode.EventEmitter<void>());

  constructor(private readonly wiring: Wiring) {
    super();
    this.register(toDisposable(() => this.disposeStandIns()));
    this.register(vscode.window.createTreeView(RUNS_VIEW, { treeDataProvider: this.runsView(), showCollapseAll: false }));
  }

  /** Why the materials side started, or undefined while it has not. */
  get reason(): string | undefined {
    return this.startedBy;
  }

  /** Starts at once if the window already shows materials work, else waits for the first use. */
  async watch(): Promise<void> {
    const open = vscode.workspace.textDocuments.find((d) => LANGUAGES.has(d.languageId));
    if (open) return this.start(`a ${open.languageId} document was open`);
    if (this.restoredViews()) return this.start('a result or 3D view was restored');
    this.register(
      vscode.workspace.onDidOpenTextDocument((d) => LANGUAGES.has(d.languageId) && this.start(`a ${d.languageId} document opened`)),
    );
    await this.standInCommands();
  }

  start(reason: string): void {
    if (this.startedBy) return;
    this.startedBy = reason;
    this.disposeStandIns();
    const { startMaterials } = require('./materials') as typeof import('./materials');
    this.runs = startMaterials(this.wiring);
    if (this.runs?.onDidChangeTreeData) this.register(this.runs.onDidChangeTreeData(() => this.runsChanged.fire()));
    this.runsChanged.fire();
  }

  private restoredViews(): boolean {
    return vscode.window.tabGroups.all.some((g) =>
      g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && VIEW_TYPES.test(t.input.viewType)),
    );
  }

  /** Every contributed command the token features did not register, and the test seams in a test build. */
  private async standInCommands(): Promise<void> {
    const contributed =
      (this.wiring.context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? [];
    const registered = new Set(await vscode.commands.getCommands(true));
    const ids = contributed.map((c) => c.command).concat(TEST_HOOKS && this.wiring.testMode ? TEST_COMMANDS : []);
    for (const id of ids.filter((c) => !registered.has(c))) {
      this.standIns.push(
        vscode.commands.registerCommand(id, (...args: unknown[]) => {
          this.start(`the command ${id}`);
          return vscode.commands.executeCommand(id, ...args);
        }),
      );
    }
  }

  /**
   * The Structure Runs view's data: the Runs list's once the materials side runs. The view asks for rows when it
   * is shown, and that first ask starts it.
   */
  private runsView(): vscode.TreeDataProvider<RunRecord> {
    return {
      onDidChangeTreeData: this.runsChanged.event,
      getTreeItem: (run) => this.runs!.getTreeItem(run),
      getChildren: (run) => {
        if (this.runs) return this.runs.getChildren(run);
        setTimeout(() => this.start('the Structure Runs view was shown'), 0);
        return [];
      },
    };
  }

  private disposeStandIns(): void {
    for (const standIn of this.standIns.splice(0)) standIn.dispose();
  }
}
