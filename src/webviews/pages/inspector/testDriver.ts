/**
 * The inspector page's test driver (test builds only: created behind TEST_HOOKS, so release bundles drop this
 * module and paneBench.ts): reports every render and obeys test messages as a user or a hostile page would.
 */
import type { FromWebview, InspectorOptions, RenderMessage, TestMessage } from '../../inspector/protocol';
import type { PaneView } from './pane';
import { scrollBench, type ScrollBench } from './paneBench';

const REPORT_SEGMENTS = 200;
/** Elements in the page that its script did not build: what a token could have injected. */
const BUILT = new Set(['HEADER', 'SECTION', 'DIV', 'SPAN', 'BUTTON', 'SELECT', 'OPTION', 'LABEL', 'INPUT']);

/** The page's elements a report reads or a test message works. */
export interface InspectorElements {
  readonly app: HTMLElement;
  readonly stats: HTMLElement;
  readonly note: HTMLElement;
  readonly tooltip: HTMLElement;
  readonly compareSelect: HTMLSelectElement;
  readonly idsToggle: HTMLInputElement;
  readonly wsToggle: HTMLInputElement;
}

/** What the page shows now. */
export interface InspectorState {
  current: RenderMessage | undefined;
  seq: number;
  options: InspectorOptions;
  panes: readonly PaneView[];
}

export interface InspectorDriver {
  test(message: TestMessage): void;
  /** Posts what the page shows (after every render, mark, option and theme change). */
  report(): void;
  /** A render took `renderMs`; `fromReady`: it is the render the page's ready asked for (or a later one). */
  rendered(renderMs: number, fromReady: boolean): void;
}

export function inspectorTestDriver(
  elements: InspectorElements,
  state: () => InspectorState,
  post: (message: FromWebview) => void,
): InspectorDriver {
  const pageNonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
  const readyAt = performance.now();
  const times = { renderMs: 0, sinceReadyMs: 0, scroll: undefined as ScrollBench | undefined };
  const report = (): void => post(painted(elements, state(), times, pageNonce));
  // Theme switches change the body's class: report them (the screenshots wait for it).
  new MutationObserver(() => report()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  return {
    report,
    rendered(renderMs, fromReady) {
      times.renderMs = renderMs;
      if (fromReady) times.sinceReadyMs = performance.now() - readyAt;
      report();
    },
    test: (message) => obey(message, elements, state().panes, report, (scroll) => (times.scroll = scroll)),
  };
}

function painted(
  { app, stats, note, tooltip }: InspectorElements,
  { current, seq, options, panes }: InspectorState,
  times: { renderMs: number; sinceReadyMs: number; scroll: ScrollBench | undefined },
  pageNonce: string,
): FromWebview {
  const pane = panes[0]!;
  const segments: string[] = [];
  for (let i = 0; i < Math.min(REPORT_SEGMENTS, pane.segmentCount); i++) segments.push(pane.segmentText(i));
  return {
    type: 'painted',
    seq: Math.max(0, seq),
    nTokens: current?.primary.nTokens ?? 0,
    nChars: current?.nChars ?? 0,
    compareTokens: current?.compare?.nTokens ?? null,
    segmentCount: pane.segmentCount,
    segments,
    domText: pane.domText,
    rows: pane.rowCount,
    domRows: pane.domRows,
    marked: pane.markedSegments,
    injected: injected(app, pageNonce),
    options,
    header: stats.textContent ?? '',
    note: note.hidden ? '' : (note.textContent ?? ''),
    tooltip: tooltip.hidden
      ? ''
      : Array.from(tooltip.children)
          .map((line) => line.textContent ?? '')
          .join('\n'),
    renderMs: Math.round(times.renderMs * 100) / 100,
    sinceReadyMs: Math.round(times.sinceReadyMs),
    theme: document.body.className,
    scroll: times.scroll,
    panes: panes.map((p) => p.layout),
  };
}

function injected(app: HTMLElement, pageNonce: string): string[] {
  const foreign = Array.from(app.querySelectorAll('*')).filter((node) => !BUILT.has(node.tagName));
  const scripts = Array.from(document.querySelectorAll('script')).filter(
    (node) => node.nonce !== pageNonce && node.id !== '_vscodeApiScript',
  );
  return [...foreign, ...scripts].map((node) => node.outerHTML.slice(0, 120));
}

function obey(
  message: TestMessage,
  { compareSelect, idsToggle, wsToggle }: InspectorElements,
  panes: readonly PaneView[],
  report: () => void,
  scrolled: (result: ScrollBench) => void,
): void {
  const pane = panes[message.pane ?? 0];
  switch (message.action) {
    case 'click': {
      if (!pane || message.segment === undefined || message.segment >= pane.segmentCount) return;
      pane.setActive(message.segment, true);
      pane.pieceOf(message.segment)?.click();
      return;
    }
    case 'focus':
      if (!pane || message.segment === undefined) return;
      pane.scroller.focus();
      pane.setActive(message.segment, true);
      report();
      return;
    case 'hover': {
      if (!pane || message.segment === undefined || message.segment >= pane.segmentCount) return;
      pane.setActive(message.segment, true);
      pane.pieceOf(message.segment)?.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
      report();
      return;
    }
    case 'compare':
      compareSelect.value = message.value ?? '';
      compareSelect.dispatchEvent(new Event('change'));
      return;
    case 'toggle': {
      const input = message.option === 'showIds' ? idsToggle : message.option === 'showWhitespace' ? wsToggle : undefined;
      input?.click();
      return;
    }
    case 'report':
      report();
      return;
    case 'scroll':
      if (!pane) return;
      void scrollBench(pane, message.segment ?? 120).then((result) => {
        scrolled(result);
        report();
      });
      return;
  }
}
