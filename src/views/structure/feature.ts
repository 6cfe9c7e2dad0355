/**
 * Token Lens: Show Structure, one view per POSCAR document (running it again reveals that view), and
 * the views' return after a window reload.
 */
import * as vscode from 'vscode';
import { isPoscar } from '../../poscar/editor/documents';
import { Disposable } from '../../util/disposable';
import { isString, isRecord } from '../guards';
import { PanelSet } from '../panelSet';
import { panelOptions } from '../webviewHost';
import { StructurePanel } from './panel';
import { sanitizeStructureOptions, STRUCTURE_VIEW_TYPE, type StructureOptions } from './protocol';

export const SHOW_STRUCTURE = 'tokenLens.showStructure';
/** Registered outside production mode only. */
export const STRUCTURE_TEST_COMMAND = 'tokenLens.structure.test';

export class StructureFeature extends Disposable {
  private readonly panels = this.register(new PanelSet<StructurePanel>());
  private readonly testMode: boolean;

  constructor(private readonly context: vscode.ExtensionContext, private readonly log: vscode.LogOutputChannel) {
    super();
    this.testMode = context.extensionMode !== vscode.ExtensionMode.Production;
    this.register(vscode.commands.registerCommand(SHOW_STRUCTURE, async (uri?: unknown) => {
      const view = await this.show(uri instanceof vscode.Uri ? uri : undefined);
      return view?.uri.toString();
    }));
    this.register(vscode.window.registerWebviewPanelSerializer(STRUCTURE_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => this.restore(panel, state),
    }));
    if (this.testMode) this.register(vscode.commands.registerCommand(STRUCTURE_TEST_COMMAND, (action: string, arg?: unknown) => this.test(action, arg)));
  }

  /** Shows the structure of `uri`, or of the active POSCAR editor; returns the view (undefined when there is nothing to show). */
  async show(uri?: vscode.Uri): Promise<StructurePanel | undefined> {
    const target = uri ?? this.activePoscar();
    if (!target) {
      void vscode.window.showInformationMessage('Open a POSCAR file (or choose POSCAR as the language mode) to see its structure.');
      return undefined;
    }
    const existing = this.panels.get(target.toString());
    if (existing) {
      existing.panel.reveal(existing.panel.viewColumn, true);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(STRUCTURE_VIEW_TYPE, 'Structure', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, panelOptions(this.context.extensionUri));
    return this.adopt(panel, target, sanitizeStructureOptions(undefined));
  }

  private activePoscar(): vscode.Uri | undefined {
    const editor = vscode.window.activeTextEditor;
    return editor && isPoscar(editor.document) ? editor.document.uri : undefined;
  }

  private restore(panel: vscode.WebviewPanel, state: unknown): void {
    const uri = isRecord(state) && isString(state.uri, 10_000) ? tryParse(state.uri) : undefined;
    if (!uri) {
      panel.dispose();
      return;
    }
    this.adopt(panel, uri, sanitizeStructureOptions(isRecord(state) ? state.options : undefined));
  }

  private adopt(panel: vscode.WebviewPanel, uri: vscode.Uri, options: StructureOptions): StructurePanel {
    return this.panels.add(uri.toString(), new StructurePanel(panel, this.context.extensionUri, uri, options, this.testMode, this.log));
  }

  /** Test seam: what a view shows, and acting on it as a user would. */
  private async test(action: string, arg?: unknown): Promise<unknown> {
    const args = isRecord(arg) ? arg : {};
    const panel = isString(args.uri, 10_000) ? this.panels.get(args.uri) : this.panels.last();
    switch (action) {
      case 'open': // the views that are open
        return this.panels.keys();
      case 'report': case 'hover': case 'setRepeat': case 'exportPng': {
        if (!panel) return undefined;
        if (action === 'exportPng' && isString(args.target, 10_000)) panel.exportTarget = vscode.Uri.parse(args.target);
        return panel.requestReport({ action, atom: args.atom as number | undefined, repeat: args.repeat as [number, number, number] | undefined });
      }
      case 'restore': { // what the serializer does after a reload
        const webviewPanel = vscode.window.createWebviewPanel(STRUCTURE_VIEW_TYPE, 'Structure', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, panelOptions(this.context.extensionUri));
        this.restore(webviewPanel, arg);
        return this.panels.keys();
      }
      case 'closeAll':
        this.panels.dispose();
        return true;
      default:
        return undefined;
    }
  }
}

function tryParse(text: string): vscode.Uri | undefined {
  try {
    return vscode.Uri.parse(text, true);
  } catch {
    return undefined;
  }
}
