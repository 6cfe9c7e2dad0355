/**
 * The result page's test driver (test builds only: created behind TEST_HOOKS, so release bundles drop this
 * module): clicks as a user would, and reports what the page shows.
 */
import { themeKind } from '../bridge';
import type { FromResultPage, ResultTestMessage, ShowMessage } from '../../results/protocol';
import { tableTexts } from './dom';
import { yTicks, type Plot } from './plot';

/** What the driver reads of the page: its root, the run shown, its plots and how long it took to build. */
export interface ResultPage {
  readonly app: HTMLElement;
  current(): ShowMessage | undefined;
  plots(): readonly Plot[];
  renderMs(): number;
}

export function resultsTestDriver(page: ResultPage, post: (message: FromResultPage) => void): (message: ResultTestMessage) => void {
  return (message) => {
    if (message.action === 'click' && message.target)
      page.app.querySelector<HTMLElement>(`[data-target="${CSS.escape(message.target)}"]`)?.click();
    post(report(page, message.id));
  };
}

function report({ app, current, plots, renderMs }: ResultPage, request: number): FromResultPage {
  const shown = current();
  const view = shown?.view;
  return {
    type: 'rendered',
    seq: shown?.seq ?? -1,
    request,
    kind: shown?.run.kind ?? '',
    state: shown?.run.state ?? '',
    headline: app.querySelector('.headline')?.textContent ?? '',
    source: app.querySelector('.builtin')?.textContent ?? '',
    status: app.querySelector('header .status')?.textContent ?? '',
    note: app.querySelector('.fitted')?.textContent ?? '',
    plots: plots().map((p) => ({ title: p.spec.title, series: p.spec.series.length, points: p.spec.x.length, yTicks: yTicks(p) })),
    tables: tableTexts(app),
    extraKeys: Object.keys(view?.model.extra ?? {}),
    images: app.querySelectorAll('figure.image img').length,
    warnings: view?.model.warnings ?? [],
    targets: Array.from(app.querySelectorAll<HTMLElement>('[data-target]'), (e) => e.dataset.target!),
    theme: themeKind(),
    renderMs: renderMs(),
  };
}
