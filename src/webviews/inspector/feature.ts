import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../platform/disposable';
import type { Locale } from '../../core/util/locale';
import { createInspectorPanel, InspectorPanel, type PanelEnvironment } from './panel';
import { sanitizeOptions, VIEW_TYPE, type RenderedReport } from './protocol';
import { exactTokenizerNames } from '../../core/tokenizers/index';
import { inspectorTestDriver } from './testDriver';

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
    if (TEST_HOOKS && testMode)
      this.register(
        inspectorTestDriver({
          locale,
          panel: () => this.panel,
          setFirstPaint: (on) => (this.firstPaint = on),
          restore: (panel, state) => this.restore(panel, state),
        }),
      );
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
}
