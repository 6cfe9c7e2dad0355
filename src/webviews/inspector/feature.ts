import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../platform/disposable';
import type { Locale } from '../../core/util/locale';
import { createInspectorPanel, InspectorPanel, type PanelEnvironment } from './panel';
import { sanitizeOptions, VIEW_TYPE, type RenderedReport } from './protocol';
import { exactTokenizerNames } from '../../core/tokenizers/index';

/** Command used by the extension-host tests (registered outside production mode only). */
export const TEST_COMMAND = 'tokenLens.inspector.test';

/**
 * `tokenLens.openInspector` and the panel's restore after a window reload. One panel at a time:
 * running the command again reveals it.
 */
export class InspectorFeature extends Disposable {
  private panel: InspectorPanel | undefined;
  /** Test seam: the benchmark turns the first paint off to measure the path before it. */
  private firstPaint = true;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly locale: Locale,
    private readonly testMode: boolean,
  ) {
    super();
    this.register(vscode.commands.registerCommand('tokenLens.openInspector', () => this.open()));
    this.register(
      vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
        deserializeWebviewPanel: async (webviewPanel: vscode.WebviewPanel, state: unknown) => this.restore(webviewPanel, state),
      }),
    );
    if (TEST_HOOKS && testMode) {
      this.register(vscode.commands.registerCommand(TEST_COMMAND, (action: string, arg?: unknown) => this.test(action, arg)));
    }
    this.register(toDisposable(() => this.panel?.dispose()));
  }

  /** Opens (or reveals) the inspector; resolves with the webview's report once it is ready and has rendered. */
  async open(): Promise<RenderedReport | undefined> {
    if (this.panel) this.panel.reveal();
    else this.adopt(createInspectorPanel(this.context.extensionUri, this.environment));
    return this.panel!.settled();
  }

  /** After a window reload: the panel VS Code recreated, with the page state it persisted (untrusted). */
  private restore(webviewPanel: vscode.WebviewPanel, state: unknown): void {
    const options = sanitizeOptions((state as { options?: unknown } | undefined)?.options, exactTokenizerNames());
    this.adopt(new InspectorPanel(webviewPanel, this.context.extensionUri, options, this.environment));
  }

  private get environment(): PanelEnvironment {
    return { testMode: this.testMode, log: this.log, locale: this.locale, firstPaint: this.firstPaint };
  }

  private adopt(panel: InspectorPanel): void {
    this.panel?.dispose();
    this.panel = panel;
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
  }

  /** Test seam: what the panel shows, and ways to drive it as a user or a hostile page would. */
  private async test(action: string, arg?: unknown): Promise<unknown> {
    const panel = this.panel;
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
        this.firstPaint = arg !== false;
        return true;
      case 'post': // raw message to the webview
        return panel?.postRaw(arg);
      case 'receive': // raw message as if from the webview
        panel?.receiveRaw(arg);
        return true;
      case 'restore': {
        // what the serializer does after a reload, on a fresh panel with the given state
        const webviewPanel = vscode.window.createWebviewPanel(VIEW_TYPE, this.locale.t(InspectorPanel.title), {
          viewColumn: vscode.ViewColumn.Beside,
          preserveFocus: true,
        });
        this.restore(webviewPanel, arg);
        return this.panel!.settled();
      }
      case 'close':
        panel?.dispose();
        return true;
      default:
        return undefined;
    }
  }
}
