/**
 * The token inspector's page. Receives compact segment tables (never HTML) from the extension and
 * builds the DOM with createElement/textContent only, so every piece of user text stays text.
 *
 * Rendering is virtualized: the text is cut into rows (its lines, long lines wrapped at segment
 * boundaries to the pane's width), all rows have one height, and only the rows in view (plus a
 * margin) are in the DOM. A 1 MB document costs one linear pass to cut rows, then the same as a
 * screenful of text.
 */
import {
  isToWebview,
  sanitizeOptions,
  type EmptyMessage,
  type FromWebview,
  type InspectorOptions,
  type MarkMessage,
  type RenderMessage,
  type ToWebview,
} from '../../inspector/protocol';
import { getSegment } from '../../../core/inspector/segments';
import type { PageMessage } from '../../../core/inspector/strings';
import { substitute } from '../../../core/util/locale';
import { connect, el } from '../bridge';
import { EMPTY_TABLE, PaneView, type PaneHost } from './pane';
import { rowAt } from './rows';
import { inspectorTestDriver, type InspectorDriver } from './testDriver';

const bridge = connect<ToWebview, FromWebview>(isToWebview, (message) => handle(message));
/** Only development and test builds (data-test-mode from the host) report renders and obey test messages. */
let driver: InspectorDriver | undefined;

const persistedState = bridge.persisted as { options?: unknown } | undefined;
let options: InspectorOptions = sanitizeOptions(persistedState?.options);
/** Until the page has options of its own, it takes the extension's (restored by the serializer). */
let ownsOptions = persistedState?.options !== undefined;
let current: RenderMessage | undefined;
let currentSeq = -1;
let mark: [number, number] | undefined;
let tokenizers: string[] = [];
let tokenizer = '';

function post(message: FromWebview): void {
  bridge.post(message);
}

// Numbers as the user writes them (a webview's navigator.language is VS Code's display language).
const integer = new Intl.NumberFormat(navigator.language);
const twoDigits = new Intl.NumberFormat(navigator.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The host's translations (English until they arrive, which is before the first render). */
let strings: Record<string, string> = {};

function t(message: PageMessage, ...args: (string | number)[]): string {
  return substitute(strings[message] ?? message, ...args);
}

/** Static labels: set now, and again when the translations arrive. */
const labels: (() => void)[] = [];
function label(apply: () => void): void {
  apply();
  labels.push(apply);
}

function fmt(n: number): string {
  return integer.format(n);
}

/** "1 token", "2,048 tokens". */
function count(n: number, one: PageMessage, other: PageMessage): string {
  return t(n === 1 ? one : other, fmt(n));
}

function ratio(chars: number, tokens: number): string {
  return tokens > 0 ? twoDigits.format(chars / tokens) : '–';
}

// ---- Page skeleton ---------------------------------------------------------------------------

const app = document.getElementById('app') ?? document.body;
const toolbar = el('header', 'toolbar');
const source = el('div', 'source');
const stats = el('div', 'stats');
stats.setAttribute('aria-live', 'polite');
const controls = el('div', 'controls');

/** A control in the toolbar with its caption (before a drop-down, after a checkbox) and a tooltip. */
function control<T extends HTMLElement>(input: T, className: string, text: PageMessage, title: PageMessage): T {
  const captionFirst = input instanceof HTMLSelectElement;
  const caption = document.createTextNode('');
  const box = el('label', className);
  if (captionFirst) box.append(caption, input);
  else box.append(input, caption);
  controls.append(box);
  label(() => {
    box.title = t(title);
    caption.textContent = captionFirst ? `${t(text)} ` : ` ${t(text)}`;
  });
  return input;
}

function labelledSelect(id: string, text: PageMessage, title: PageMessage): HTMLSelectElement {
  const select = el('select');
  select.id = id;
  return control(select, 'control', text, title);
}

function toggle(id: string, text: PageMessage, title: PageMessage): HTMLInputElement {
  const input = el('input');
  input.type = 'checkbox';
  input.id = id;
  return control(input, 'control toggle', text, title);
}

const tokenizerSelect = labelledSelect('tokenizer', 'Tokenizer', 'Tokenizer (the tokenLens.tokenizer setting)');
const idsToggle = toggle('showIds', 'Ids', 'Show token ids inline');
const wsToggle = toggle('showWhitespace', 'Whitespace', 'Show spaces, tabs and newlines as symbols');
const compareSelect = labelledSelect('compare', 'Compare', 'Compare side by side with a second tokenizer');

toolbar.append(source, stats, controls);
const note = el('div', 'note');
note.setAttribute('role', 'status');
const panesBox = el('div', 'panes');
const tooltip = el('div', 'tooltip');
tooltip.setAttribute('role', 'tooltip');
tooltip.id = 'token-tooltip';
tooltip.hidden = true;
const live = el('div', 'visually-hidden');
live.setAttribute('aria-live', 'polite');
app.append(toolbar, note, panesBox, tooltip, live);

function fillSelect(select: HTMLSelectElement, names: string[], value: string, off?: string): void {
  const wanted = [...(off !== undefined ? [''] : []), ...names];
  const same =
    select.options.length === wanted.length &&
    wanted.every((n, i) => select.options[i]!.value === n) &&
    (off === undefined || select.options[0]!.textContent === off);
  if (!same) {
    select.replaceChildren(
      ...wanted.map((name) => {
        const option = el('option', undefined, name === '' ? off : name);
        option.value = name;
        return option;
      }),
    );
  }
  select.value = value;
}

function syncControls(): void {
  idsToggle.checked = options.showIds;
  wsToggle.checked = options.showWhitespace;
  fillSelect(tokenizerSelect, tokenizers, tokenizer);
  fillSelect(compareSelect, tokenizers, options.compare ?? '', t('Off'));
}

function setOptions(next: InspectorOptions): void {
  const compareChanged = next.compare !== options.compare;
  options = next;
  ownsOptions = true;
  bridge.persist({ options });
  post({ type: 'options', options });
  syncControls();
  if (!compareChanged) {
    for (const pane of panes) pane.relayout();
    driver?.report();
  }
}

idsToggle.addEventListener('change', () => setOptions({ ...options, showIds: idsToggle.checked }));
wsToggle.addEventListener('change', () => setOptions({ ...options, showWhitespace: wsToggle.checked }));
compareSelect.addEventListener('change', () => setOptions({ ...options, compare: compareSelect.value || null }));
tokenizerSelect.addEventListener('change', () => post({ type: 'setTokenizer', tokenizer: tokenizerSelect.value }));

// ---- One tokenization, virtualized -------------------------------------------------------------

function describe(pane: PaneView, segment: number): string[] {
  const text = current?.text ?? '';
  const seg = getSegment(text, pane.tableData, segment);
  const lines: string[] = [];
  const shown = JSON.stringify(seg.text.length > 60 ? `${seg.text.slice(0, 60)}…` : seg.text);
  lines.push(`${shown}`);
  if (seg.ids.length === 0) lines.push(t('not a token (skipped by this tokenizer)'));
  seg.ids.forEach((id, i) => lines.push(t('id {0}  bytes {1}', id, seg.tokenBytesHex[i] ?? '')));
  if (seg.ids.length > 1) lines.push(t('{0} tokens share these characters', seg.ids.length));
  lines.push(t('line:column {0}–{1}', position(seg.start), position(seg.end)));
  return lines;
}

/** Offsets of the current text's line starts, built on the first hover after a render. */
let lineStarts: number[] | undefined;

/** "3:7": the document's one-based line and column of an offset into the rendered text. */
function position(offset: number): string {
  if (!current) return '';
  const text = current.text;
  if (!lineStarts) {
    lineStarts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  }
  const lo = rowAt(lineStarts, offset);
  const [line, character] = current.origin;
  const column = (lo === 0 ? character : 0) + offset - lineStarts[lo]!;
  return `${line + lo + 1}:${column + 1}`;
}

function showTooltip(pane: PaneView, segment: number, anchor?: HTMLElement): void {
  const node = (anchor?.closest('.t') as HTMLElement | null) ?? pane.pieceOf(segment);
  tooltip.replaceChildren(...describe(pane, segment).map((line, i) => el('div', i === 0 ? 'tip-text' : 'tip-line', line)));
  tooltip.hidden = false;
  if (!node) return;
  const rect = node.getBoundingClientRect();
  const tip = tooltip.getBoundingClientRect();
  const left = Math.max(4, Math.min(rect.left, window.innerWidth - tip.width - 4));
  const below = rect.bottom + 4;
  const top = below + tip.height > window.innerHeight ? Math.max(4, rect.top - tip.height - 4) : below;
  tooltip.style.left = `${left}px`;
  tooltip.style.top = `${top}px`;
}

function hideTooltip(): void {
  tooltip.hidden = true;
}

// ---- Messages --------------------------------------------------------------------------------

/** What the panes take from the page. */
const paneHost: PaneHost = {
  post,
  t,
  counts: (nTokens, nChars) => `${count(nTokens, '{0} token', '{0} tokens')} · ${t('{0} chars/token', ratio(nChars, nTokens))}`,
  options: () => options,
  current: () => current,
  tooltipId: tooltip.id,
  showTooltip,
  hideTooltip,
  announce: (pane, segment) => {
    live.textContent = describe(pane, segment).join('. ');
  },
};

/** The first pane is always there; a comparison adds the second. */
const primaryPane = new PaneView(0, paneHost);
const panes: PaneView[] = [primaryPane];
panesBox.append(primaryPane.root);

function ensurePanes(count: number): void {
  while (panes.length < count) {
    const pane = new PaneView(panes.length as 0 | 1, paneHost);
    panes.push(pane);
    panesBox.append(pane.root);
  }
  while (panes.length > count) panes.pop()!.root.remove();
  panesBox.classList.toggle('compare', count > 1);
  // Keep the two panes on the same text: scrolling one scrolls the other to the same offset.
  primaryPane.onScrolled = count > 1 ? (offset) => panes[1]?.scrollToOffset(offset) : undefined;
  if (panes[1]) panes[1].onScrolled = (offset) => primaryPane.scrollToOffset(offset);
}

function render(message: RenderMessage): void {
  const started = performance.now();
  // A first render, or another document: open at the top; a re-render of the same text reveals the cursor.
  const previous = current;
  const sameSource = previous?.source === message.source;
  // After a first paint, the text in view stays in view (its offset in the new text); a first paint shows what the editor shows.
  const anchor =
    sameSource && previous?.partial ? Math.max(0, primaryPane.topOffset + previous.partial.from - (message.partial?.from ?? 0)) : undefined;
  current = message;
  lineStarts = undefined;
  currentSeq = message.seq;
  tokenizers = message.tokenizers;
  tokenizer = message.primary.tokenizer;
  // The page owns the options once it has persisted some; before that it takes the extension's.
  if (!ownsOptions) {
    options = sanitizeOptions(message.options, tokenizers);
    ownsOptions = true;
    bridge.persist({ options });
  }
  mark = message.mark;
  document.body.classList.remove('empty');
  source.textContent = message.source;
  const primary = message.primary;
  const parts = [
    count(primary.nTokens, '{0} token', '{0} tokens'),
    count(message.nChars, '{0} char', '{0} chars'),
    t('{0} chars/token', ratio(message.nChars, primary.nTokens)),
  ];
  if (message.compare) {
    const diff = message.compare.nTokens - primary.nTokens;
    parts.push(
      `${message.compare.tokenizer}: ${count(message.compare.nTokens, '{0} token', '{0} tokens')} (${diff > 0 ? '+' : diff < 0 ? '−' : '±'}${fmt(Math.abs(diff))})`,
    );
  }
  if (message.gauge) parts.push(t('context window {0}', message.gauge.text));
  stats.textContent = message.partial
    ? t('Counting tokens… (showing {0} of {1} characters)', fmt(message.text.length), fmt(message.partial.total))
    : parts.join(' · ');
  stats.classList.toggle('pending', message.partial !== undefined);
  stats.dataset.gauge = message.gauge?.level ?? '';
  const notes: string[] = [];
  if (message.truncatedFrom !== undefined) {
    notes.push(
      t('Showing the first {0} characters of {1}: the inspector stops at {0}.', fmt(message.text.length), fmt(message.truncatedFrom)),
    );
  }
  if (message.scope === 'selection') notes.push(t('Inspecting the selection. Clear the selection to inspect the whole document.'));
  note.textContent = notes.join(' ');
  note.hidden = notes.length === 0;
  syncControls();
  ensurePanes(message.compare ? 2 : 1);
  primaryPane.setData(message.text, primary, message.nChars, !sameSource);
  if (message.compare) panes[1]!.setData(message.text, message.compare, message.nChars, !sameSource);
  const top = anchor ?? message.partial?.top;
  for (const pane of panes) pane.setMark(mark, sameSource && top === undefined);
  if (top !== undefined) {
    for (const pane of panes) pane.scrollToOffset(top);
    for (const pane of panes) pane.renderVisible();
  }
  void panesBox.offsetHeight; // include layout in the measured time
  driver?.rendered(performance.now() - started, true);
}

function empty(message: EmptyMessage): void {
  current = undefined;
  currentSeq = message.seq;
  tokenizers = message.tokenizers;
  tokenizer = message.tokenizer;
  document.body.classList.add('empty');
  source.textContent = '';
  stats.textContent = '';
  note.textContent = message.reason;
  note.hidden = false;
  syncControls();
  ensurePanes(1);
  primaryPane.setData('', { tokenizer: message.tokenizer, nTokens: 0, table: EMPTY_TABLE }, 0);
  driver?.rendered(0, false);
}

function applyMark(message: MarkMessage): void {
  if (!current || message.seq !== current.seq || message.end > current.text.length) return;
  mark = [message.start, message.end];
  for (const pane of panes) pane.setMark(mark, message.reveal);
  driver?.report();
}

/** Every message from the extension, once the bridge's guard passed it (anything else is dropped there). */
function handle(message: ToWebview): void {
  switch (message.type) {
    case 'render':
      render(message);
      return;
    case 'mark':
      applyMark(message);
      return;
    case 'empty':
      empty(message);
      return;
    case 'busy':
      note.textContent = message.label;
      note.hidden = false;
      return;
    case 'strings':
      strings = message.strings;
      for (const apply of labels) apply();
      for (const pane of panes) pane.applyLabels();
      syncControls();
      return;
    case 'test':
      driver?.test(message);
      return;
  }
}

let resizeTimer = 0;
new ResizeObserver(() => {
  clearTimeout(resizeTimer);
  resizeTimer = window.setTimeout(() => {
    for (const pane of panes) pane.relayout();
  }, 100);
}).observe(panesBox);

syncControls();
if (TEST_HOOKS && bridge.testMode)
  driver = inspectorTestDriver(
    { app, stats, note, tooltip, compareSelect, idsToggle, wsToggle },
    () => ({ current, seq: currentSeq, options, panes }),
    post,
  );
bridge.ready();
