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
  type PaneData,
  type PaneLayout,
  type RenderMessage,
  type TestMessage,
  type ToWebview,
} from '../../inspector/protocol';
import { getSegment, segmentAt, segmentsInRange, type TableView } from '../../../core/inspector/segments';
import type { PageMessage } from '../../../core/inspector/strings';
import { substitute } from '../../../core/util/locale';
import { connect, el } from '../bridge';

const bridge = connect<ToWebview, FromWebview>(isToWebview, (message) => handle(message));
const PALETTE = 6;
const OVERSCAN = 20;
const REPORT_SEGMENTS = 200;
const EMPTY_TABLE: PaneData['table'] = {
  bounds: Int32Array.of(0),
  tokenIndex: Int32Array.of(0),
  ids: new Int32Array(0),
  byteLengths: new Int32Array(0),
};
const pageNonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
/** Only development and test builds (data-test-mode from the host) report renders and obey test messages. */
const testMode = bridge.testMode;

const persistedState = bridge.persisted as { options?: unknown } | undefined;
let options: InspectorOptions = sanitizeOptions(persistedState?.options);
/** Until the page has options of its own, it takes the extension's (restored by the serializer). */
let ownsOptions = persistedState?.options !== undefined;
let current: RenderMessage | undefined;
let currentSeq = -1;
let mark: [number, number] | undefined;
let tokenizers: string[] = [];
let tokenizer = '';
let lastRenderMs = 0;
/** When the page said ready, and how long after it the last render was on screen. */
let readyAt = 0;
let lastSinceReadyMs = 0;
let lastScroll: { frames: number; maxMs: number; meanMs: number; p95Ms: number; rebuilt: number } | undefined;

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
    wanted.every((n, i) => select.options[i].value === n) &&
    (off === undefined || select.options[0].textContent === off);
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
    report();
  }
}

idsToggle.addEventListener('change', () => setOptions({ ...options, showIds: idsToggle.checked }));
wsToggle.addEventListener('change', () => setOptions({ ...options, showWhitespace: wsToggle.checked }));
compareSelect.addEventListener('change', () => setOptions({ ...options, compare: compareSelect.value || null }));
tokenizerSelect.addEventListener('change', () => post({ type: 'setTokenizer', tokenizer: tokenizerSelect.value }));

// ---- One tokenization, virtualized -------------------------------------------------------------

function charWidth(code: number): number {
  if (code === 9) return 4;
  if (code >= 0xdc00 && code <= 0xdfff) return 0; // second half of a pair: counted with the first
  if (code >= 0x300 && code < 0x370) return 0; // combining marks
  if ((code >= 0x200b && code <= 0x200f) || (code >= 0xfe00 && code <= 0xfe0f)) return 0; // ZWJ, variation selectors
  return code >= 0x1100 ? 2 : 1;
}

function visible(text: string, showWhitespace: boolean): string {
  if (!showWhitespace) return text.replace(/\r/g, '');
  return text.replace(/ /g, '·').replace(/\t/g, '→   ').replace(/\r/g, '␍').replace(/\n/g, '↵');
}

class PaneView {
  readonly root = el('section', 'pane');
  private readonly head = el('div', 'pane-head');
  private readonly name = el('span', 'pane-name');
  private readonly counts = el('span', 'pane-counts');
  private readonly copy = el('button', 'copy');
  readonly scroller = el('div', 'scroller');
  private readonly spacer = el('div', 'spacer');
  private readonly rowsBox = el('div', 'rows');
  private text = '';
  private data: PaneData | undefined;
  private table: TableView = EMPTY_TABLE;
  /** rowStarts[r] is the text offset row r starts at; rowSegs[r] the segment containing it. */
  private rowStarts: number[] = [0];
  private rowSegs: number[] = [0];
  private rowHeight = 20;
  private cols = 80;
  private first = -1;
  private last = -1;
  private marked: [number, number] | undefined;
  active = -1;
  hover = -1;
  onScrolled: ((offset: number) => void) | undefined;
  private syncing = false;

  constructor(readonly index: 0 | 1) {
    this.applyLabels();
    this.copy.addEventListener('click', () => post({ type: 'copyIds', pane: this.index }));
    this.head.append(this.name, this.counts, this.copy);
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute('role', 'listbox');
    this.scroller.setAttribute('aria-describedby', tooltip.id);
    this.spacer.append(this.rowsBox);
    this.scroller.append(this.spacer);
    this.root.append(this.head, this.scroller);

    let frame = 0;
    this.scroller.addEventListener(
      'scroll',
      () => {
        if (frame) return;
        frame = requestAnimationFrame(() => {
          frame = 0;
          this.renderVisible();
          if (!this.syncing) this.onScrolled?.(this.rowStarts[this.firstVisibleRow()] ?? 0);
          this.syncing = false;
        });
      },
      { passive: true },
    );
    this.rowsBox.addEventListener('mouseover', (event) => {
      const seg = segmentOf(event.target);
      if (seg < 0 || seg === this.hover) return;
      this.hover = seg;
      this.highlight();
      showTooltip(this, seg, event.target as HTMLElement);
    });
    this.rowsBox.addEventListener('mouseleave', () => {
      this.hover = -1;
      this.highlight();
      if (this.active >= 0 && document.activeElement === this.scroller) showTooltip(this, this.active);
      else hideTooltip();
    });
    this.rowsBox.addEventListener('click', (event) => {
      const seg = segmentOf(event.target);
      if (seg < 0) return;
      this.scroller.focus({ preventScroll: true });
      this.setActive(seg, false);
      this.selectInEditor(seg);
    });
    this.scroller.addEventListener('focus', () => {
      if (this.active < 0 && this.segmentCount > 0) this.setActive(this.rowSegs[this.firstVisibleRow()] ?? 0, false);
      else if (this.active >= 0) showTooltip(this, this.active);
    });
    this.scroller.addEventListener('blur', () => hideTooltip());
    this.scroller.addEventListener('keydown', (event) => this.key(event));
  }

  applyLabels(): void {
    this.root.setAttribute('aria-label', t(this.index === 0 ? 'Tokens' : 'Comparison tokens'));
    this.copy.textContent = t('Copy ids');
    this.copy.title = t("Copy this pane's token ids as JSON");
    this.scroller.setAttribute('aria-label', t('Tokens: arrow keys move, Enter selects the token in the editor'));
    if (this.data) this.showCounts(this.data, this.nChars);
  }

  private nChars = 0;

  private showCounts(data: PaneData, nChars: number): void {
    // A first paint's counts are of the part shown, not of the document: the pane's totals are pending.
    this.copy.disabled = current?.partial !== undefined;
    this.counts.textContent = current?.partial
      ? t('counting…')
      : `${count(data.nTokens, '{0} token', '{0} tokens')} · ${t('{0} chars/token', ratio(nChars, data.nTokens))}`;
  }

  get segmentCount(): number {
    return this.table.bounds.length - 1;
  }

  get rowCount(): number {
    return this.rowStarts.length;
  }

  get domRows(): number {
    return this.rowsBox.childElementCount;
  }

  /** Test report: is anything cut off? (A head that wraps is fine; text wider than its box is not.) */
  get layout(): PaneLayout {
    const clipped = (node: HTMLElement) => node.scrollWidth > node.clientWidth + 1;
    return {
      head: [this.name, this.counts, this.copy].map((node) => node.textContent ?? '').join(' | '),
      scrollTop: this.scroller.scrollTop,
      headClipped: [this.head, this.name, this.counts, this.copy].some(clipped),
      rowsClipped: clipped(this.scroller),
    };
  }

  get domText(): string {
    return Array.from(this.rowsBox.children)
      .slice(0, 60)
      .map((row) => row.textContent ?? '')
      .join('\n');
  }

  segmentText(i: number): string {
    return this.text.slice(this.table.bounds[i], this.table.bounds[i + 1]);
  }

  get tableData(): TableView {
    return this.table;
  }

  get paneData(): PaneData | undefined {
    return this.data;
  }

  /** Shows `data`; `fromTop` (another document) scrolls back to the start instead of keeping the scroll position. */
  setData(text: string, data: PaneData, nChars: number, fromTop = false): void {
    const changed = this.text !== text || this.data?.tokenizer !== data.tokenizer;
    this.text = text;
    this.data = data;
    this.table = data.table;
    this.name.textContent = data.tokenizer;
    this.nChars = nChars;
    this.showCounts(data, nChars);
    if (this.active >= this.segmentCount || changed) this.active = Math.min(this.active, this.segmentCount - 1);
    this.hover = -1;
    if (fromTop) this.scroller.scrollTop = 0;
    this.relayout(true);
  }

  setMark(range: [number, number] | undefined, reveal: boolean): void {
    this.marked = range ? segmentsInRange(this.table, range[0], range[1]) : undefined;
    this.first = -1; // force a re-render of the rows in view
    if (reveal && this.marked) this.reveal(this.marked[0]);
    this.renderVisible();
  }

  get markedSegments(): number[] {
    if (!this.marked) return [];
    const out: number[] = [];
    for (let i = this.marked[0]; i <= this.marked[1] && out.length < 1000; i++) out.push(i);
    return out;
  }

  /** Recuts rows (text, width or options changed) and redraws what is in view. */
  relayout(force = false): void {
    this.measure();
    // The text area inside the padding, less one column for the end-of-line marker: no row is wider than the pane.
    const cols = Math.max(4, Math.floor((this.scroller.clientWidth - this.padding) / this.charPx) - 1);
    if (!force && cols === this.cols && this.layoutOptions === `${options.showIds}${options.showWhitespace}`) {
      this.first = -1;
      this.renderVisible();
      return;
    }
    const anchor = this.rowStarts[this.firstVisibleRow()] ?? 0;
    this.cols = cols;
    this.layoutOptions = `${options.showIds}${options.showWhitespace}`;
    this.cutRows();
    this.spacer.style.height = `${this.rowStarts.length * this.rowHeight}px`;
    if (!force) this.scrollToOffset(anchor);
    this.first = -1;
    this.renderVisible();
  }

  private layoutOptions = '';
  private charPx = 8;
  private padding = 24;

  private measure(): void {
    const probe = el('div', 'row');
    const piece = el('span', 't c0', 'MMMMMMMMMM');
    probe.append(piece);
    this.rowsBox.append(probe);
    const height = probe.getBoundingClientRect().height;
    const style = getComputedStyle(this.scroller);
    this.padding = (parseFloat(style.paddingLeft) || 0) + (parseFloat(style.paddingRight) || 0);
    const width = piece.getBoundingClientRect().width / 10;
    probe.remove();
    if (height > 0) this.rowHeight = height;
    if (width > 0) this.charPx = width;
  }

  /** Rows: lines, wrapped at segment boundaries when wider than the pane. One linear pass. */
  private cutRows(): void {
    const text = this.text;
    const { bounds, tokenIndex, ids } = this.table;
    const n = bounds.length - 1;
    const rowStarts: number[] = [0];
    const rowSegs: number[] = [0];
    const max = this.cols;
    const idWidth = options.showIds;
    let col = 0;
    for (let s = 0; s < n; s++) {
      const start = bounds[s];
      const end = bounds[s + 1];
      let width = 0;
      let newline = -1;
      for (let i = start; i < end; i++) {
        const code = text.charCodeAt(i);
        if (code === 10) {
          newline = i;
          break;
        }
        width += charWidth(code);
      }
      // The ids badge after the segment's last piece: digits and commas at 0.75em, after a 2px margin.
      let badge = 0;
      if (idWidth && tokenIndex[s + 1] > tokenIndex[s]) {
        badge = 0.5;
        for (let t = tokenIndex[s]; t < tokenIndex[s + 1]; t++) badge += (String(ids[t]).length + 1) * 0.75;
      }
      // A segment that starts with a newline stays on its row, unless its badge does not fit there.
      if (col > 0 && col + width + (newline < 0 ? badge : 0) > max && (newline !== start || col + badge > max)) {
        rowStarts.push(start);
        rowSegs.push(s);
        col = 0;
      }
      if (newline < 0) {
        if (width + badge > max) {
          // One segment wider than the pane (a long run of spaces or a huge word): cut it at code points,
          // short enough that the badge still fits after the last piece.
          const limit = badge < max ? max - badge : max;
          let w = col;
          for (let i = start; i < end; i++) {
            const code = text.charCodeAt(i);
            const cw = charWidth(code);
            if (w + cw > limit && w > 0 && !(code >= 0xdc00 && code <= 0xdfff)) {
              rowStarts.push(i);
              rowSegs.push(s);
              w = 0;
            }
            w += cw;
          }
          col = w + badge;
        } else {
          col += width + badge;
        }
        continue;
      }
      // Every newline inside the segment ends a row; the next row starts after it.
      for (let i = newline; i < end; i++) {
        if (text.charCodeAt(i) === 10 && i + 1 < text.length) {
          rowStarts.push(i + 1);
          rowSegs.push(i + 1 < end ? s : s + 1);
        }
      }
      col = 0;
      let tail = end;
      while (tail > start && text.charCodeAt(tail - 1) !== 10) tail--;
      for (let i = tail; i < end; i++) col += charWidth(text.charCodeAt(i));
      col += badge;
    }
    this.rowStarts = rowStarts;
    this.rowSegs = rowSegs;
  }

  /** Text offset of the first row in view. */
  get topOffset(): number {
    return this.rowStarts[this.firstVisibleRow()] ?? 0;
  }

  private firstVisibleRow(): number {
    return Math.min(this.rowStarts.length - 1, Math.max(0, Math.floor(this.scroller.scrollTop / this.rowHeight)));
  }

  private rowOf(offset: number): number {
    let lo = 0;
    let hi = this.rowStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.rowStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  scrollToOffset(offset: number): void {
    const top = this.rowOf(offset) * this.rowHeight;
    if (Math.abs(this.scroller.scrollTop - top) >= 1) {
      this.syncing = true;
      this.scroller.scrollTop = top;
    }
  }

  private reveal(segment: number): void {
    const row = this.rowOf(this.table.bounds[segment]);
    const top = row * this.rowHeight;
    const view = this.scroller;
    if (top < view.scrollTop || top + this.rowHeight > view.scrollTop + view.clientHeight) {
      view.scrollTop = Math.max(0, top - view.clientHeight / 3);
    }
  }

  /**
   * Puts the rows in view (plus OVERSCAN on each side) in the DOM. Scrolling within the rows already
   * built costs nothing; the DOM is rebuilt only when the view leaves them.
   */
  renderVisible(): void {
    const rows = this.rowStarts.length;
    const top = this.scroller.scrollTop;
    const height = this.scroller.clientHeight || 600;
    const viewFirst = Math.max(0, Math.floor(top / this.rowHeight));
    const viewLast = Math.min(rows - 1, Math.ceil((top + height) / this.rowHeight));
    if (this.first >= 0 && this.first <= viewFirst && viewLast <= this.last) return;
    const first = Math.max(0, viewFirst - OVERSCAN);
    const last = Math.min(rows - 1, viewLast + OVERSCAN);
    const box = this.rowsBox;
    if (this.first < 0 || first > this.last || last < this.first || box.childElementCount !== this.last - this.first + 1) {
      const fragment = document.createDocumentFragment();
      for (let r = first; r <= last; r++) fragment.append(this.renderRow(r));
      box.replaceChildren(fragment);
    } else {
      // Keep the rows still in the window; build only the ones scrolled in.
      for (let r = this.first; r < first; r++) box.firstElementChild?.remove();
      for (let r = this.last; r > last; r--) box.lastElementChild?.remove();
      if (first < this.first) {
        const head = document.createDocumentFragment();
        for (let r = first; r < this.first; r++) head.append(this.renderRow(r));
        box.prepend(head);
      }
      if (last > this.last) {
        const tail = document.createDocumentFragment();
        for (let r = this.last + 1; r <= last; r++) tail.append(this.renderRow(r));
        box.append(tail);
      }
    }
    this.first = first;
    this.last = last;
    box.style.transform = `translateY(${first * this.rowHeight}px)`;
    this.highlight();
  }

  /** Test seam: scrolls through the pane frame by frame; returns the slowest and mean frame work. */
  async scrollBench(frames: number): Promise<{ frames: number; maxMs: number; meanMs: number; p95Ms: number; rebuilt: number }> {
    const times: number[] = [];
    let maxMs = 0;
    let total = 0;
    let rebuilt = 0;
    const step = Math.max(1, Math.floor(this.scroller.clientHeight / 3));
    for (let i = 0; i < frames; i++) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const started = performance.now();
      const before = this.first;
      this.scroller.scrollTop += step;
      this.renderVisible();
      void this.rowsBox.offsetHeight;
      const spent = performance.now() - started;
      if (this.first !== before) rebuilt++;
      maxMs = Math.max(maxMs, spent);
      total += spent;
      times.push(spent);
    }
    times.sort((a, b) => a - b);
    const round = (x: number) => Math.round(x * 100) / 100;
    const p95Ms = times[Math.min(times.length - 1, Math.floor(times.length * 0.95))] ?? 0;
    return { frames, maxMs: round(maxMs), meanMs: round(total / frames), p95Ms: round(p95Ms), rebuilt };
  }

  private renderRow(r: number): HTMLElement {
    const text = this.text;
    const { bounds, tokenIndex, ids } = this.table;
    const rowStart = this.rowStarts[r];
    const rowEnd = r + 1 < this.rowStarts.length ? this.rowStarts[r + 1] : text.length;
    const row = el('div', 'row');
    const n = bounds.length - 1;
    const marked = this.marked;
    for (let s = this.rowSegs[r]; s < n && bounds[s] < rowEnd; s++) {
      const from = Math.max(bounds[s], rowStart);
      const to = Math.min(bounds[s + 1], rowEnd);
      if (to <= from) continue;
      const raw = text.slice(from, to);
      const hasIds = tokenIndex[s + 1] > tokenIndex[s];
      const piece = el('span', hasIds ? `t c${s % PALETTE}` : 't gap');
      piece.dataset.s = String(s);
      if (marked && s >= marked[0] && s <= marked[1]) piece.classList.add('marked');
      if (from === bounds[s]) piece.id = `p${this.index}-s${s}`;
      piece.setAttribute('role', 'option');
      const endsLine = raw.endsWith('\n');
      const shown = visible(endsLine && !options.showWhitespace ? raw.slice(0, -1) : raw, options.showWhitespace);
      if (shown) piece.append(document.createTextNode(shown));
      if (endsLine && !options.showWhitespace) piece.classList.add('eol');
      if (options.showIds && hasIds && to === bounds[s + 1]) {
        const badge = el('span', 'id');
        const list: string[] = [];
        for (let t = tokenIndex[s]; t < tokenIndex[s + 1]; t++) list.push(String(ids[t]));
        badge.textContent = list.join(',');
        piece.append(badge);
      }
      row.append(piece);
    }
    return row;
  }

  /** Active (keyboard) and hovered segment: every piece of it, in every row. */
  highlight(): void {
    for (const node of Array.from(this.rowsBox.querySelectorAll('.t.active, .t.hover'))) node.classList.remove('active', 'hover');
    if (this.active >= 0)
      for (const node of Array.from(this.rowsBox.querySelectorAll(`[data-s="${this.active}"]`))) node.classList.add('active');
    if (this.hover >= 0)
      for (const node of Array.from(this.rowsBox.querySelectorAll(`[data-s="${this.hover}"]`))) node.classList.add('hover');
    const activeId = this.active >= 0 ? `p${this.index}-s${this.active}` : '';
    if (activeId && document.getElementById(activeId)) this.scroller.setAttribute('aria-activedescendant', activeId);
    else this.scroller.removeAttribute('aria-activedescendant');
  }

  pieceOf(segment: number): HTMLElement | null {
    return this.rowsBox.querySelector(`[data-s="${segment}"]`);
  }

  setActive(segment: number, reveal: boolean): void {
    if (segment < 0 || segment >= this.segmentCount) return;
    this.active = segment;
    if (reveal) this.reveal(segment);
    this.renderVisible();
    this.highlight();
    showTooltip(this, segment);
    live.textContent = describe(this, segment).join('. ');
  }

  selectInEditor(segment: number): void {
    if (!current) return;
    post({ type: 'select', seq: current.seq, start: this.table.bounds[segment], end: this.table.bounds[segment + 1] });
  }

  private key(event: KeyboardEvent): void {
    const n = this.segmentCount;
    if (n === 0) return;
    const at = this.active < 0 ? 0 : this.active;
    let next: number;
    const rowMove = (delta: number) => {
      const offset = this.table.bounds[at];
      const row = this.rowOf(offset);
      const target = Math.min(this.rowStarts.length - 1, Math.max(0, row + delta));
      const column = offset - this.rowStarts[row];
      const end = target + 1 < this.rowStarts.length ? this.rowStarts[target + 1] - 1 : this.text.length;
      return segmentAt(this.table, Math.min(this.rowStarts[target] + column, Math.max(this.rowStarts[target], end)));
    };
    switch (event.key) {
      case 'ArrowRight':
        next = Math.min(n - 1, at + (this.active < 0 ? 0 : 1));
        break;
      case 'ArrowLeft':
        next = Math.max(0, at - 1);
        break;
      case 'ArrowDown':
        next = rowMove(1);
        break;
      case 'ArrowUp':
        next = rowMove(-1);
        break;
      case 'PageDown':
        next = rowMove(Math.floor(this.scroller.clientHeight / this.rowHeight));
        break;
      case 'PageUp':
        next = rowMove(-Math.floor(this.scroller.clientHeight / this.rowHeight));
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = n - 1;
        break;
      case 'Enter':
      case ' ':
        if (this.active >= 0) this.selectInEditor(this.active);
        event.preventDefault();
        return;
      case 'Escape':
        hideTooltip();
        return;
      default:
        return;
    }
    event.preventDefault();
    if (next >= 0) this.setActive(next, true);
  }
}

function segmentOf(target: EventTarget | null): number {
  const node = (target as HTMLElement | null)?.closest?.('.t') as HTMLElement | null;
  const value = node?.dataset.s;
  return value === undefined ? -1 : Number(value);
}

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
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  const [line, character] = current.origin;
  const column = (lo === 0 ? character : 0) + offset - lineStarts[lo];
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

const panes: PaneView[] = [new PaneView(0)];
panesBox.append(panes[0].root);

function ensurePanes(count: number): void {
  while (panes.length < count) {
    const pane = new PaneView(panes.length as 0 | 1);
    panes.push(pane);
    panesBox.append(pane.root);
  }
  while (panes.length > count) panes.pop()!.root.remove();
  panesBox.classList.toggle('compare', count > 1);
  // Keep the two panes on the same text: scrolling one scrolls the other to the same offset.
  panes[0].onScrolled = count > 1 ? (offset) => panes[1]?.scrollToOffset(offset) : undefined;
  if (panes[1]) panes[1].onScrolled = (offset) => panes[0].scrollToOffset(offset);
}

function render(message: RenderMessage): void {
  const started = performance.now();
  // A first render, or another document: open at the top; a re-render of the same text reveals the cursor.
  const previous = current;
  const sameSource = previous?.source === message.source;
  // After a first paint, the text in view stays in view (its offset in the new text); a first paint shows what the editor shows.
  const anchor =
    sameSource && previous?.partial ? Math.max(0, panes[0].topOffset + previous.partial.from - (message.partial?.from ?? 0)) : undefined;
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
  panes[0].setData(message.text, primary, message.nChars, !sameSource);
  if (message.compare) panes[1].setData(message.text, message.compare, message.nChars, !sameSource);
  const top = anchor ?? message.partial?.top;
  for (const pane of panes) pane.setMark(mark, sameSource && top === undefined);
  if (top !== undefined) {
    for (const pane of panes) pane.scrollToOffset(top);
    for (const pane of panes) pane.renderVisible();
  }
  void panesBox.offsetHeight; // include layout in the measured time
  lastRenderMs = performance.now() - started;
  lastSinceReadyMs = performance.now() - readyAt;
  report();
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
  panes[0].setData('', { tokenizer: message.tokenizer, nTokens: 0, table: EMPTY_TABLE }, 0);
  lastRenderMs = 0;
  report();
}

function applyMark(message: MarkMessage): void {
  if (!current || message.seq !== current.seq || message.end > current.text.length) return;
  mark = [message.start, message.end];
  for (const pane of panes) pane.setMark(mark, message.reveal);
  report();
}

/** Elements in the page that this script did not build: what a token could have injected. */
const BUILT = new Set(['HEADER', 'SECTION', 'DIV', 'SPAN', 'BUTTON', 'SELECT', 'OPTION', 'LABEL', 'INPUT']);
function injected(): string[] {
  const foreign = Array.from(app.querySelectorAll('*')).filter((node) => !BUILT.has(node.tagName));
  const scripts = Array.from(document.querySelectorAll('script')).filter(
    (node) => node.nonce !== pageNonce && node.id !== '_vscodeApiScript',
  );
  return [...foreign, ...scripts].map((node) => node.outerHTML.slice(0, 120));
}

function report(): void {
  if (!TEST_HOOKS || !testMode) return;
  const pane = panes[0];
  const segments: string[] = [];
  for (let i = 0; i < Math.min(REPORT_SEGMENTS, pane.segmentCount); i++) segments.push(pane.segmentText(i));
  post({
    type: 'painted',
    seq: Math.max(0, currentSeq),
    nTokens: current?.primary.nTokens ?? 0,
    nChars: current?.nChars ?? 0,
    compareTokens: current?.compare?.nTokens ?? null,
    segmentCount: pane.segmentCount,
    segments,
    domText: pane.domText,
    rows: pane.rowCount,
    domRows: pane.domRows,
    marked: pane.markedSegments,
    injected: injected(),
    options,
    header: stats.textContent ?? '',
    note: note.hidden ? '' : (note.textContent ?? ''),
    tooltip: tooltip.hidden
      ? ''
      : Array.from(tooltip.children)
          .map((line) => line.textContent ?? '')
          .join('\n'),
    renderMs: Math.round(lastRenderMs * 100) / 100,
    sinceReadyMs: Math.round(lastSinceReadyMs),
    theme: document.body.className,
    scroll: lastScroll,
    panes: panes.map((p) => p.layout),
  });
}

function test(message: TestMessage): void {
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
      void pane.scrollBench(message.segment ?? 120).then((result) => {
        lastScroll = result;
        report();
      });
      return;
  }
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
      if (TEST_HOOKS && testMode) test(message);
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

// Theme switches change the body's class: report them (the screenshots wait for it).
new MutationObserver(() => report()).observe(document.body, { attributes: true, attributeFilter: ['class'] });

syncControls();
readyAt = performance.now();
bridge.ready();
