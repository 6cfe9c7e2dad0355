/**
 * The page side of the webview base: the VS Code API, a guarded message listener, script errors reported,
 * persisted state, the theme, and the ready handshake. Every page script starts with connect().
 */
import { bundleTranslate, readTranslations, type Translate } from '../../core/util/locale';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

let translate: Translate | undefined;

/**
 * A page's message in the user's language: as vscode.l10n.t, from the extension's bundle, which the host puts on
 * <body> (pageHtml; empty in English, where the message is its own text). `npm run l10n` finds these calls.
 */
export function t(message: string, ...args: (string | number)[]): string {
  translate ??= bundleTranslate(readTranslations(document.body.dataset.l10n));
  return translate(message, ...args);
}

export type ThemeKind = 'light' | 'dark' | 'high-contrast' | 'high-contrast-light';

export interface Bridge<FromPage> {
  post(message: FromPage): void;
  /** What the page persisted before a reload or hide (untrusted: check it). */
  readonly persisted: unknown;
  persist(state: unknown): void;
  /** True only in development and test builds: the page then answers test messages and reports. */
  readonly testMode: boolean;
  /** Posts ready (with the persisted state); call once the page listens and is built. */
  ready(): void;
}

export function connect<ToPage, FromPage>(
  guard: (value: unknown) => value is ToPage,
  onMessage: (message: ToPage) => void,
): Bridge<FromPage> {
  const api = acquireVsCodeApi();
  const persisted = api.getState();
  window.addEventListener('message', (event: MessageEvent) => {
    const message: unknown = event.data;
    if (guard(message)) onMessage(message); // anything else is dropped
  });
  // A script error on the page goes to the extension's log (webviews/host.ts), where a bug report can find it.
  window.addEventListener('error', (event) => api.postMessage({ type: 'error', message: String(event.message) }));
  return {
    post: (message) => api.postMessage(message),
    persisted,
    persist: (state) => api.setState(state),
    testMode: TEST_HOOKS && document.body.dataset.testMode === '1',
    ready: () => api.postMessage({ type: 'ready', state: persisted }),
  };
}

export function themeKind(): ThemeKind {
  const classes = document.body.classList;
  if (classes.contains('vscode-high-contrast-light')) return 'high-contrast-light';
  if (classes.contains('vscode-high-contrast')) return 'high-contrast';
  return classes.contains('vscode-light') ? 'light' : 'dark';
}

/** Calls back when VS Code switches the theme (it changes the body's classes). */
export function onThemeChange(callback: (kind: ThemeKind) => void): void {
  let last = themeKind();
  new MutationObserver(() => {
    const kind = themeKind();
    if (kind !== last) callback((last = kind));
  }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
}

/** A CSS variable of the theme, e.g. cssVar('--vscode-editor-background'). */
export function cssVar(name: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim();
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
