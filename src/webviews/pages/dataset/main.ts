/**
 * The dataset overview's page: the extension's numbers as tables, the histogram drawn with uPlot (the result
 * views' plot), and the lines over the window or that are no conversation, each a row that asks the extension
 * to select its line; the training epochs chosen in a field of the cost table. All text arrives worded by the
 * extension and reaches the DOM through textContent. The page keeps its file's URI and the epochs (setState), so the
 * view comes back after a window reload.
 */
import { connect, el, onThemeChange } from '../bridge';
import type { PlotSpec } from '../../results/plots';
import {
  isToDatasetPage,
  type DatasetView,
  type FromDatasetPage,
  type LinesTable,
  type ShowMessage,
  type TextTable,
  type ToDatasetPage,
} from '../../dataset/protocol';
import { button, table } from '../results/dom';
import { drawPlot, type Plot } from '../results/plot';
import { datasetTestDriver } from './testDriver';

const bridge = connect<ToDatasetPage, FromDatasetPage>(isToDatasetPage, (message) => {
  if (message.type === 'show') show(message);
  else driver?.(message);
});

const app = document.getElementById('app')!;
let current: ShowMessage | undefined;
let slot: { container: HTMLElement; spec: PlotSpec } | undefined;
let plot: Plot | undefined;

function show(message: ShowMessage): void {
  current = message;
  const { view } = message;
  bridge.persist({ uri: view.key, epochs: view.epochs.value });
  const parts: HTMLElement[] = [header(view)];
  if (view.notice) parts.push(notice(view.notice, view.state === 'failed' ? 'error' : 'note'));
  const columns = el('div', 'dataset-columns');
  columns.append(textTable(view.summary));
  if (view.distribution) columns.append(textTable(view.distribution));
  columns.append(costSection(view));
  parts.push(columns);
  slot = undefined;
  if (view.histogram) parts.push(histogram(view.histogram));
  if (view.over) parts.push(linesTable(view.over, 'over'));
  if (view.problems) parts.push(linesTable(view.problems, 'problem'));
  app.replaceChildren(...parts);
  draw();
}

function header(view: DatasetView): HTMLElement {
  const node = el('header');
  const status = el('span', `status ${view.state === 'counting' ? 'running' : view.state}`, view.status);
  status.setAttribute('role', 'status');
  const line = el('div', 'status-line');
  line.append(status);
  node.append(el('h1', undefined, view.title), line);
  return node;
}

function notice(text: string, kind: 'error' | 'note'): HTMLElement {
  const node = el('div', `problem ${kind}`);
  node.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  node.append(el('p', undefined, text));
  return node;
}

function textTable(t: TextTable): HTMLElement {
  return table(
    t.title,
    t.head,
    t.rows.map((cells) => ({ cells })),
    t.note,
  );
}

function costSection(view: DatasetView): HTMLElement {
  const section = textTable(view.cost);
  section.querySelector('h3')!.after(epochsField(view.epochs));
  if (view.priceAction) section.append(button(view.priceAction, 'prices', () => bridge.post({ type: 'openPrices' })));
  return section;
}

/** The epochs the cost is for: a whole number in the setting's range, sent to the extension when it changes. */
function epochsField(epochs: DatasetView['epochs']): HTMLElement {
  const label = el('label', 'epochs');
  const input = el('input');
  Object.assign(input, { type: 'number', min: String(epochs.min), max: String(epochs.max), step: '1', value: String(epochs.value) });
  input.dataset.target = 'epochs';
  input.addEventListener('change', () => {
    const n = Number(input.value);
    if (Number.isInteger(n) && n >= epochs.min && n <= epochs.max) bridge.post({ type: 'epochs', epochs: n });
    else input.value = String(epochs.value);
  });
  label.append(el('span', undefined, epochs.label), input);
  return label;
}

/** Clickable rows: the extension selects the line (the page never opens anything itself). */
function linesTable(t: LinesTable, kind: string): HTMLElement {
  const rows = t.rows.map(({ line, cells }) => ({
    cells,
    target: `${kind}:${line}`,
    onClick: () => bridge.post({ type: 'reveal', line }),
  }));
  return table(t.title, t.head, rows, t.note);
}

function histogram(h: NonNullable<DatasetView['histogram']>): HTMLElement {
  const figure = el('figure', 'plot');
  const caption = el('figcaption');
  caption.append(el('span', 'plot-title', h.title));
  const container = el('div', 'plot-area');
  figure.append(caption, container);
  // The last bin's upper edge closes the x axis; its bar would start there, so it has no value.
  const spec: PlotSpec = {
    id: 'histogram',
    title: h.title,
    xLabel: h.xLabel,
    yLabel: h.yLabel,
    x: [...h.x, h.end],
    series: [{ label: h.yLabel, values: [...h.counts, null], colour: 'blue', bars: true }],
    legend: false,
    ySteps: true,
    xRange: [h.x[0]!, Math.max(h.end, h.limit ? h.limit.x * 1.02 : h.end)],
    ...(h.limit ? { vLines: [{ x: h.limit.x, label: h.limit.label, colour: 'red' as const }] } : {}),
  };
  slot = { container, spec };
  return figure;
}

function draw(): void {
  plot?.destroy();
  plot = slot ? drawPlot(slot.container, slot.spec) : undefined;
}

onThemeChange(() => draw());
new ResizeObserver(() => (plot && slot ? plot.resize(slot.container.clientWidth) : undefined)).observe(app);

const driver =
  TEST_HOOKS && bridge.testMode ? datasetTestDriver({ app, current: () => current, plot: () => plot }, bridge.post) : undefined;

bridge.ready();
