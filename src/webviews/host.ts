/**
 * The one base every Token Lens webview stands on: the page's HTML under a strict Content-Security-
 * Policy with a fresh cryptographic nonce, scripts and styles only from media/, a typed message
 * protocol guarded on arrival, and a ready handshake: nothing is posted before the page says it
 * listens, and on `ready` the host sends the whole current state (a hidden page is destroyed and a
 * new one says ready again).
 */
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../platform/disposable';
import { notify } from '../platform/notify';
import { longestString, shortenStrings } from './fit';

/** Characters a string is cut to when a page's guard refuses a message: the shortest limit any page has. */
const FITTED_LENGTH = 100;

export interface PageSpec {
  title: string;
  /** Bundled page script, relative to media/build/. */
  script: string;
  /** Style sheets, relative to media/. */
  styles: string[];
}

/** The page's ready message: the first thing every page posts, with what it persisted (untrusted). */
export interface ReadyMessage {
  type: 'ready';
  state?: unknown;
}

export function mediaRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'media');
}

export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [mediaRoot(extensionUri)], retainContextWhenHidden: false };
}

export function nonce(): string {
  // Web Crypto: the same in the desktop host (Node 20) and in VS Code for the Web's worker.
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

/**
 * The page: `testMode` puts data-test-mode on <body>, which the page script reads to answer test
 * messages; published builds never set it. data-l10n carries the extension's translations (vscode.l10n.bundle,
 * none in English) for the page's t() (pages/bridge.ts), so one bundle translates the pages too.
 */
export function pageHtml(webview: vscode.Webview, extensionUri: vscode.Uri, spec: PageSpec, testMode: boolean): string {
  const media = mediaRoot(extensionUri);
  const uri = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(media, ...parts)).toString();
  const n = nonce();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${n}'`,
    `img-src ${webview.cspSource} data: blob:`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  const styles = spec.styles.map((s) => `<link rel="stylesheet" href="${uri(s)}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
<title>${escapeAttribute(spec.title)}</title>
</head>
<body data-l10n="${escapeAttribute(JSON.stringify(vscode.l10n.bundle ?? {}))}"${TEST_HOOKS && testMode ? ' data-test-mode="1"' : ''}>
<div id="app" role="main" aria-label="${escapeAttribute(spec.title)}"></div>
<script nonce="${n}" src="${uri('build', spec.script)}"></script>
</body>
</html>`;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A script error on the page, and a page's answer to a test message: guarded by each view's protocol. */
interface PageError {
  type: 'error';
  message: string;
}
interface PageReport {
  type: 'rendered';
  request: number;
}

/**
 * Owns one WebviewPanel and its page. Subclasses say what they post (ToPage) and receive (FromPage);
 * `guard` checks every message from the page (anything that fails it is dropped).
 */
export abstract class WebviewHost<ToPage, FromPage extends { type: string }> extends Disposable {
  private ready = false;
  private readonly answers = new Map<number, (report: unknown) => void>();
  private requests = 0;
  /** Where Export PNG writes without asking (tests only). */
  exportTarget: vscode.Uri | undefined;
  private readonly onDisposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.onDisposeEmitter.event;

  protected constructor(
    readonly panel: vscode.WebviewPanel,
    protected readonly extensionUri: vscode.Uri,
    spec: PageSpec,
    private readonly guard: (value: unknown) => value is FromPage | ReadyMessage,
    protected readonly testMode: boolean,
    protected readonly log: vscode.LogOutputChannel,
  ) {
    super();
    panel.webview.options = { enableScripts: true, localResourceRoots: [mediaRoot(extensionUri)] };
    this.register(this.onDisposeEmitter);
    this.register(toDisposable(() => this.answers.forEach((answer) => answer(undefined))));
    this.register(panel.onDidDispose(() => this.dispose()));
    this.register(panel.webview.onDidReceiveMessage((message: unknown) => this.arrive(message)));
    this.register(
      panel.onDidChangeViewState(() => {
        // A hidden page is destroyed (no retainContextWhenHidden); the new one posts ready again.
        if (panel.visible) return;
        this.ready = false;
        this.onHidden();
      }),
    );
    panel.webview.html = pageHtml(panel.webview, extensionUri, spec, testMode);
    this.viewName = spec.title;
  }

  private readonly viewName: string;

  override dispose(): void {
    if (this.isDisposed) return;
    this.onDisposeEmitter.fire();
    super.dispose();
    this.panel.dispose();
  }

  /** The page's own guard of what it receives, when the view has one: a message it would refuse is fitted first. */
  protected readonly accepts?: (value: unknown) => value is ToPage;

  /** Posts when the page listens; before that, onReady() will send the state anyway. */
  protected post(message: ToPage): void {
    if (this.ready && !this.isDisposed) void this.panel.webview.postMessage(this.fitted(message));
  }

  /** The message as the page will take it: strings over its limits shortened, and a log line saying so. */
  private fitted(message: ToPage): ToPage {
    if (!this.accepts || this.accepts(message)) return message;
    const longest = longestString(message);
    const shortened = shortenStrings(message, FITTED_LENGTH) as ToPage;
    if (this.accepts(shortened)) {
      this.log.warn(
        `${this.viewName} view: text longer than the page shows was shortened (the longest, ${longest.path}, had ${longest.length} characters)`,
      );
      return shortened;
    }
    this.log.error(
      `${this.viewName} view: the page refuses this message even with its text shortened (longest string: ${longest.path}, ${longest.length} characters); it is sent as it is`,
    );
    return message;
  }

  /**
   * Test seam: once the page listens, posts the test message made with a fresh id and resolves with
   * the report the page sends back for that id (undefined on timeout or disposal).
   */
  protected askPage<Report>(message: (id: number) => ToPage, timeoutMs = 15_000): Promise<Report | undefined> {
    const id = ++this.requests;
    return new Promise((resolve) => {
      const deadline = Date.now() + timeoutMs;
      const timeout = setTimeout(() => answer(undefined), timeoutMs);
      const answer = (report: unknown): void => {
        clearTimeout(timeout);
        this.answers.delete(id);
        resolve(report as Report | undefined);
      };
      this.answers.set(id, answer);
      const send = (): void => {
        if (!this.answers.has(id)) return;
        if (this.ready) this.post(message(id));
        else if (Date.now() < deadline) setTimeout(send, 50);
      };
      send();
    });
  }

  /** The page's report for test message `request`. */
  protected answered(request: number, report: unknown): void {
    this.answers.get(request)?.(report);
  }

  /** Export PNG: writes the page's picture where the user chooses (suggesting `defaultUri`). */
  protected async savePng(dataUrl: string, defaultUri: vscode.Uri | undefined): Promise<void> {
    const target =
      this.exportTarget ??
      (await vscode.window.showSaveDialog({ defaultUri, filters: { 'PNG image': ['png'] }, saveLabel: vscode.l10n.t('Export') }));
    if (!target) return;
    try {
      await vscode.workspace.fs.writeFile(target, Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
      vscode.window.setStatusBarMessage(vscode.l10n.t('Token Lens: saved {0}', target.path.slice(target.path.lastIndexOf('/') + 1)), 3000);
    } catch (error) {
      void notify.error(vscode.l10n.t('Could not save the image: {0}', error instanceof Error ? error.message : String(error)));
    }
  }

  /** Whether the page listens now (it posted ready and has not been hidden since). */
  protected get isReady(): boolean {
    return this.ready;
  }

  /** The page was hidden, and so destroyed: what the subclass keeps about it is stale. */
  protected onHidden(): void {}

  /** The page is (again) listening, with the state it persisted; the subclass brings it up to date. */
  protected abstract onReady(state: unknown): void;
  protected abstract receive(message: FromPage): void;

  /** Every page's own messages are handled here: ready, a script error (logged), a test report (answered); the rest go to receive(). */
  protected arrive(message: unknown): void {
    if (this.isDisposed || !this.guard(message)) return;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.onReady((message as ReadyMessage).state);
        return;
      case 'error':
        this.log.error(`${this.viewName} view: ${(message as unknown as PageError).message}`);
        return;
      case 'rendered': {
        const { type: _type, ...report } = message as unknown as PageReport;
        this.answered(report.request, report);
        return;
      }
      default:
        this.receive(message as FromPage);
    }
  }
}
