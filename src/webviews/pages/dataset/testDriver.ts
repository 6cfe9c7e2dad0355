/**
 * The dataset page's test driver (test builds only: created behind TEST_HOOKS, so release bundles drop this
 * module): clicks and types as a user would, and reports what the page shows.
 */
import type { DatasetTestMessage, FromDatasetPage, ShowMessage } from '../../dataset/protocol';
import { tableTexts } from '../results/dom';
import { yTicks, type Plot } from '../results/plot';

/** What the driver reads of the page: its root, the overview shown and its histogram. */
export interface DatasetPage {
  readonly app: HTMLElement;
  current(): ShowMessage | undefined;
  plot(): Plot | undefined;
}

export function datasetTestDriver(page: DatasetPage, post: (message: FromDatasetPage) => void): (message: DatasetTestMessage) => void {
  return (message) => {
    const { app } = page;
    const epochs = app.querySelector<HTMLInputElement>('[data-target="epochs"]');
    if (message.action === 'click' && message.target)
      app.querySelector<HTMLElement>(`[data-target="${CSS.escape(message.target)}"]`)?.click();
    if (message.action === 'epochs' && epochs && message.value !== undefined) {
      epochs.value = String(message.value);
      epochs.dispatchEvent(new Event('change'));
    }
    const current = page.current();
    const plot = page.plot();
    post({
      type: 'rendered',
      request: message.id,
      seq: current?.seq ?? -1,
      state: current?.view.state ?? '',
      status: app.querySelector('.status')?.textContent ?? '',
      notice: app.querySelector('.problem')?.textContent ?? '',
      tables: tableTexts(app),
      bins: current?.view.histogram?.counts.length ?? 0,
      epochs: Number(epochs?.value ?? NaN),
      yTicks: plot ? yTicks(plot) : [],
      plotted: app.querySelector('.plot-area canvas') !== null,
      targets: Array.from(app.querySelectorAll<HTMLElement>('[data-target]'), (e) => e.dataset.target!),
    });
  };
}
