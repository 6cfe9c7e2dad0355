/**
 * Token Lens: Show Structure, one view per structure document of any registered format (running it again reveals that view), a
 * run's trajectory played in the same view, and the views' return after a window reload.
 */
import * as vscode from 'vscode';
import { isStructureDocument } from '../../platform/formatDocuments';
import { Disposable } from '../../platform/disposable';
import { isString, isRecord } from '../../core/util/guards';
import { PanelSet } from '../panelSet';
import { panelOptions } from '../host';
import type { RunRecord } from '../../core/runs/run';
import { runStructure } from './data';
import { DocumentStructurePanel, RUN_KEY_PREFIX, RunStructurePanel, type StructurePanel } from './panel';
import { sanitizeStructureOptions, STRUCTURE_VIEW_TYPE, type StructureOptions } from './protocol';
import { notify } from '../../platform/notify';
import { hostLocale } from '../../platform/locale';
import { viewsColumn } from '../column';
import { tryParse } from '../uris';
import { structureTestDriver } from './testDriver';

export const SHOW_STRUCTURE = 'tokenLens.showStructure';

export class StructureFeature extends Disposable {
  private readonly panels = this.register(new PanelSet<StructurePanel>());

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    /** The run list's record of a run, for a run's view that comes back after a reload. */
    private readonly lookup: (runId: string) => RunRecord | undefined,
    private readonly testMode: boolean,
  ) {
    super();
    this.register(
      vscode.commands.registerCommand(SHOW_STRUCTURE, async (uri?: unknown) => {
        const view = await this.show(uri instanceof vscode.Uri ? uri : undefined);
        return view?.key;
      }),
    );
    this.register(
      vscode.window.registerWebviewPanelSerializer(STRUCTURE_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => this.restore(panel, state),
      }),
    );
    if (TEST_HOOKS && testMode)
      this.register(
        structureTestDriver({ panels: this.panels, restore: (p, s) => this.restore(p, s), createPanel: () => this.createPanel() }),
      );
  }

  /** The view of a document, if one is open (for the frame its player shows). */
  viewOf(uri: vscode.Uri): StructurePanel | undefined {
    return this.panels.get(uri.toString());
  }

  /** Shows the structure of `uri`, or of the active structure editor; returns the view (undefined when there is nothing to show). */
  async show(uri?: vscode.Uri): Promise<StructurePanel | undefined> {
    const target = uri ?? this.activePoscar();
    if (!target) {
      void notify.info(vscode.l10n.t('Open a structure file (POSCAR, CIF, XYZ, XDATCAR, OUTCAR or vasprun.xml) to see its structure.'));
      return undefined;
    }
    const existing = this.panels.get(target.toString());
    if (existing) {
      existing.panel.reveal(existing.panel.viewColumn, true);
      return existing;
    }
    return this.adopt(this.createPanel(), target, sanitizeStructureOptions(undefined));
  }

  /** Plays a relax or MD run's trajectory (or shows its final structure); says why when it cannot. */
  showRun(run: RunRecord): StructurePanel | undefined {
    const existing = this.panels.get(RUN_KEY_PREFIX + run.id);
    if (existing) {
      existing.panel.reveal(existing.panel.viewColumn, true);
      return existing;
    }
    return this.adoptRun(this.createPanel(), run, sanitizeStructureOptions(undefined));
  }

  private createPanel(): vscode.WebviewPanel {
    return vscode.window.createWebviewPanel(
      STRUCTURE_VIEW_TYPE,
      'Structure',
      { viewColumn: viewsColumn(), preserveFocus: true },
      panelOptions(this.context.extensionUri),
    );
  }

  private activePoscar(): vscode.Uri | undefined {
    const editor = vscode.window.activeTextEditor;
    return editor && isStructureDocument(editor.document) ? editor.document.uri : undefined;
  }

  private restore(panel: vscode.WebviewPanel, state: unknown): void {
    const key = isRecord(state) && isString(state.uri, 10_000) ? state.uri : '';
    const options = sanitizeStructureOptions(isRecord(state) ? state.options : undefined);
    const run = key.startsWith(RUN_KEY_PREFIX) ? this.lookup(key.slice(RUN_KEY_PREFIX.length)) : undefined;
    const uri = run ? undefined : tryParse(key);
    if (run) this.adoptRun(panel, run, options);
    else if (uri) this.adopt(panel, uri, options);
    else panel.dispose();
  }

  private adopt(panel: vscode.WebviewPanel, uri: vscode.Uri, options: StructureOptions): StructurePanel {
    return this.panels.add(
      uri.toString(),
      new DocumentStructurePanel(panel, this.context.extensionUri, uri, options, this.testMode, this.log),
    );
  }

  private adoptRun(panel: vscode.WebviewPanel, run: RunRecord, options: StructureOptions): StructurePanel | undefined {
    const data = runStructure(run, hostLocale());
    if (typeof data === 'string') {
      panel.dispose();
      void notify.warning(data);
      return undefined;
    }
    return this.panels.add(
      RUN_KEY_PREFIX + run.id,
      new RunStructurePanel(panel, this.context.extensionUri, run, data, options, this.testMode, this.log),
    );
  }
}
