/**
 * The result page: a run's state (running with the time ticking and Cancel, failed with Retry,
 * cancelled), and once done, its answer: headline and facts, actions, plots with PNG export and Copy
 * CSV, tables, the service's images, and every other field as JSON. All service text reaches the DOM
 * through textContent.
 */
import { connect, el, onThemeChange, t } from '../bridge';
import { duration } from '../../results/format';
import { plotsOf, toCsv, type PlotSpec } from '../../results/plots';
import {
  isToResultPage,
  type FromResultPage,
  type ResultView,
  type RunInfo,
  type ShowMessage,
  type ToResultPage,
} from '../../results/protocol';
import { describe } from '../../results/summary';
import { button, table } from './dom';
import type { ParameterRow } from '../../../core/runs/parameters';
import { drawPlot, type Plot } from './plot';
import { actions, images, tables } from './sections';
import { resultsTestDriver } from './testDriver';

const bridge = connect<ToResultPage, FromResultPage>(isToResultPage, (message) => {
  if (message.type === 'show') show(message);
  else driver?.(message);
});

const app = document.getElementById('app')!;
let current: ShowMessage | undefined;
let slots: { container: HTMLElement; spec: PlotSpec }[] = [];
let plots: Plot[] = [];
let ticker: ReturnType<typeof setInterval> | undefined;
let renderMs = 0;

function show(message: ShowMessage): void {
  const started = performance.now();
  current = message;
  bridge.persist({ runId: message.run.id });
  render(message);
  renderMs = performance.now() - started;
}

function render({ run, view, note }: ShowMessage): void {
  clearInterval(ticker);
  slots = [];
  const parts: HTMLElement[] = [header(run)];
  if (note) parts.push(fittedNote(note));
  if (run.state === 'running')
    parts.push(el('p', 'hint', t('Waiting for the service. Band structures and molecular dynamics can take a minute.')));
  if (run.state === 'failed') parts.push(problem('error', run.error || t('The run failed.'), t('Retry')));
  if (run.state === 'cancelled') parts.push(problem('note', t('The run was cancelled.'), t('Run Again')));
  const parameters = run.parameters?.length ? [parametersTable(run.parameters)] : [];
  if (view && run.state === 'done') parts.push(...done(view, parameters));
  else parts.push(...parameters);
  if (view && Object.keys(view.model.extra).length) parts.push(otherFields(view.model.extra));
  app.replaceChildren(...parts);
  drawPlots();
}

// ---- the parts ----------------------------------------------------------------------------------

function header(run: RunInfo): HTMLElement {
  const node = el('header');
  const status = el('span', `status ${run.state}`);
  status.setAttribute('role', 'status');
  const line = el('div', 'status-line');
  line.append(status);
  node.append(el('h1', undefined, run.title), line);
  if (run.builtin) {
    node.append(
      el(
        'div',
        'builtin',
        t(
          'Computed on this machine by the built-in reference service: the reference models named under “Other fields” (method), for trying Token Lens, not for research.',
        ),
      ),
    );
  }
  if (run.state === 'running') {
    const tick = () => (status.textContent = t('Running… {0}', duration(Date.now() - run.startedAt)));
    tick();
    ticker = setInterval(tick, 1000);
    line.append(button(t('Cancel'), 'cancel', () => bridge.post({ type: 'cancel' })));
  } else {
    const took = run.durationMs === undefined ? undefined : duration(run.durationMs);
    const words = {
      done: took === undefined ? t('Done') : t('Done in {0}', took),
      failed: took === undefined ? t('Failed') : t('Failed after {0}', took),
      cancelled: t('Cancelled'),
    } as const;
    const at = new Date(run.startedAt).toLocaleTimeString();
    status.textContent =
      run.readFrom !== undefined
        ? t('{0} · read from file at {1}', run.readFrom, at)
        : `${words[run.state]}${run.status ? t(' · HTTP {0}', run.status) : ''}${t(' · started {0}', at)}`;
  }
  return node;
}

/** What was shortened or dropped so that the rest could be shown. */
function fittedNote(note: string): HTMLElement {
  const node = el('p', 'fitted', note);
  node.setAttribute('role', 'status');
  return node;
}

function problem(kind: 'error' | 'note', text: string, again: string): HTMLElement {
  const node = el('div', `problem ${kind}`);
  node.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  node.append(
    el('p', undefined, text),
    button(again, 'retry', () => bridge.post({ type: 'retry' })),
  );
  return node;
}

/** The answer; `parameters` (what was sent) right after the summary and its actions, before warnings and plots. */
function done(view: ResultView, parameters: HTMLElement[]): HTMLElement[] {
  const summary = describe(view);
  const top = el('section', 'summary');
  const facts = el('ul', 'facts');
  facts.append(...summary.facts.map((f) => el('li', undefined, f)));
  top.append(el('h2', 'headline', summary.headline), facts);
  const parts: HTMLElement[] = [top];
  const buttons = actions(view, bridge.post);
  if (buttons.length) {
    const bar = el('div', 'actions');
    bar.append(...buttons);
    parts.push(bar);
  }
  parts.push(...parameters);
  if (view.model.warnings.length) {
    const list = el('ul', 'warnings');
    list.setAttribute('aria-label', t('Warnings'));
    list.append(...view.model.warnings.map((w) => el('li', undefined, w)));
    parts.push(list);
  }
  parts.push(...plotsOf(view, t).map(plotFigure), ...tables(view, bridge.post, current?.run.id));
  const pictures = images(view);
  if (pictures.length) {
    const gallery = el('section', 'images');
    gallery.append(...pictures);
    parts.push(gallery);
  }
  return parts;
}

function plotFigure(spec: PlotSpec): HTMLElement {
  const figure = el('figure', 'plot');
  const caption = el('figcaption');
  caption.append(
    el('span', 'plot-title', spec.title),
    button(t('Export PNG…'), `png:${spec.id}`, () => {
      const plot = plots.find((p) => p.spec.id === spec.id);
      if (plot) bridge.post({ type: 'exportPng', name: spec.id, dataUrl: plot.png() });
    }),
    button(t('Copy CSV'), `csv:${spec.id}`, () => bridge.post({ type: 'copyCsv', name: spec.title.toLowerCase(), text: toCsv(spec) })),
  );
  const container = el('div', 'plot-area');
  container.setAttribute('role', 'img');
  container.setAttribute('aria-label', t('{0}: {1} against {2}', spec.title, spec.yLabel, spec.xLabel));
  figure.append(caption, container);
  slots.push({ container, spec });
  return figure;
}

/** What the request carried besides the structure (from the run's record, not today's settings), and what the answer says it used. */
function parametersTable(rows: ParameterRow[]): HTMLElement {
  return table(
    t('Parameters'),
    [t('Parameter'), t('Sent'), t('The answer says')],
    rows.map((r) => ({ cells: [r.name, r.sent, r.answer || '–'] })),
    t('A parameter at its default is not sent: the service uses its own default, which its answer may state.'),
  );
}

/** The fields the view does not show, as JSON, written out only when opened (they can be large). */
function otherFields(extra: Record<string, unknown>): HTMLElement {
  const details = el('details', 'other');
  details.append(el('summary', undefined, t('Other fields ({0})', Object.keys(extra).length)));
  const pre = el('pre');
  details.append(pre);
  details.addEventListener('toggle', () => {
    if (!details.open || pre.textContent) return;
    const text = JSON.stringify(extra, null, 2);
    pre.textContent =
      text.length > 2_000_000
        ? `${text.slice(0, 2_000_000)}\n${t('… ({0} characters in all)', text.length.toLocaleString('en-US'))}`
        : text;
  });
  return details;
}

// ---- plots follow the theme and the width -------------------------------------------------------

function drawPlots(): void {
  plots.forEach((p) => p.destroy());
  plots = slots.map(({ container, spec }) => drawPlot(container, spec));
}

onThemeChange(() => drawPlots());
new ResizeObserver(() => plots.forEach((p, i) => p.resize(slots[i]!.container.clientWidth))).observe(app);

const driver =
  TEST_HOOKS && bridge.testMode
    ? resultsTestDriver({ app, current: () => current, plots: () => plots, renderMs: () => renderMs }, bridge.post)
    : undefined;

bridge.ready();
