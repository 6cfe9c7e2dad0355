/**
 * One pane of the inspector: a virtualised list of rows cut from the text at token boundaries, coloured
 * tokens, ids inline, keyboard and mouse selection. What it needs from the page (messages, strings, the
 * options, the render on screen, the tooltip) comes through PaneHost.
 */
import type { FromWebview, InspectorOptions, PaneData, PaneLayout, RenderMessage } from '../../inspector/protocol';
import { segmentsInRange, type TableView } from '../../../core/inspector/segments';
import type { PageMessage } from '../../../core/inspector/strings';
import { el } from '../bridge';
import { keyMove } from './keys';
import { cutRows, rowAt } from './rows';

export interface PaneHost {
  post(message: FromWebview): void;
  t(message: PageMessage, ...args: (string | number)[]): string;
  /** "1,234 tokens · 3.85 chars/token" */
  counts(nTokens: number, nChars: number): string;
  options(): InspectorOptions;
  /** The render on screen, if any. */
  current(): RenderMessage | undefined;
  readonly tooltipId: string;
  showTooltip(pane: PaneView, segment: number, anchor?: HTMLElement): void;
  hideTooltip(): void;
  /** Says the active token to a screen reader. */
  announce(pane: PaneView, segment: number): void;
}

export const PALETTE = 6;

const OVERSCAN = 20;

export const EMPTY_TABLE: PaneData['table'] = {
  bounds: Int32Array.of(0),
  tokenIndex: Int32Array.of(0),
  ids: new Int32Array(0),
  byteLengths: new Int32Array(0),
};

function visible(text: string, showWhitespace: boolean): string {
  if (!showWhitespace) return text.replace(/\r/g, '');
  return text.replace(/ /g, '·').replace(/\t/g, '→   ').replace(/\r/g, '␍').replace(/\n/g, '↵');
}

export function segmentOf(target: EventTarget | null): number {
  const node = (target as HTMLElement | null)?.closest?.('.t') as HTMLElement | null;
  const value = node?.dataset.s;
  return value === undefined ? -1 : Number(value);
}

export class PaneView {
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

  constructor(
    readonly index: 0 | 1,
    private readonly host: PaneHost,
  ) {
    this.applyLabels();
    this.copy.addEventListener('click', () => this.host.post({ type: 'copyIds', pane: this.index }));
    this.head.append(this.name, this.counts, this.copy);
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute('role', 'listbox');
    this.scroller.setAttribute('aria-describedby', this.host.tooltipId);
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
      this.host.showTooltip(this, seg, event.target as HTMLElement);
    });
    this.rowsBox.addEventListener('mouseleave', () => {
      this.hover = -1;
      this.highlight();
      if (this.active >= 0 && document.activeElement === this.scroller) this.host.showTooltip(this, this.active);
      else this.host.hideTooltip();
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
      else if (this.active >= 0) this.host.showTooltip(this, this.active);
    });
    this.scroller.addEventListener('blur', () => this.host.hideTooltip());
    this.scroller.addEventListener('keydown', (event) => this.key(event));
  }

  applyLabels(): void {
    this.root.setAttribute('aria-label', this.host.t(this.index === 0 ? 'Tokens' : 'Comparison tokens'));
    this.copy.textContent = this.host.t('Copy ids');
    this.copy.title = this.host.t("Copy this pane's token ids as JSON");
    this.scroller.setAttribute('aria-label', this.host.t('Tokens: arrow keys move, Enter selects the token in the editor'));
    if (this.data) this.showCounts(this.data, this.nChars);
  }

  private nChars = 0;

  private showCounts(data: PaneData, nChars: number): void {
    // A first paint's counts are of the part shown, not of the document: the pane's totals are pending.
    const partial = this.host.current()?.partial !== undefined;
    this.copy.disabled = partial;
    this.counts.textContent = partial ? this.host.t('counting…') : this.host.counts(data.nTokens, nChars);
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
    if (!force && cols === this.cols && this.layoutOptions === `${this.host.options().showIds}${this.host.options().showWhitespace}`) {
      this.first = -1;
      this.renderVisible();
      return;
    }
    const anchor = this.rowStarts[this.firstVisibleRow()] ?? 0;
    this.cols = cols;
    this.layoutOptions = `${this.host.options().showIds}${this.host.options().showWhitespace}`;
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

  /** Rows: lines, wrapped at segment boundaries when wider than the pane (rows.ts). */
  private cutRows(): void {
    ({ rowStarts: this.rowStarts, rowSegs: this.rowSegs } = cutRows(this.text, this.table, this.cols, this.host.options().showIds));
  }

  /** Text offset of the first row in view. */
  get topOffset(): number {
    return this.rowStarts[this.firstVisibleRow()] ?? 0;
  }

  private firstVisibleRow(): number {
    return Math.min(this.rowStarts.length - 1, Math.max(0, Math.floor(this.scroller.scrollTop / this.rowHeight)));
  }

  private rowOf(offset: number): number {
    return rowAt(this.rowStarts, offset);
  }

  scrollToOffset(offset: number): void {
    const top = this.rowOf(offset) * this.rowHeight;
    if (Math.abs(this.scroller.scrollTop - top) >= 1) {
      this.syncing = true;
      this.scroller.scrollTop = top;
    }
  }

  private reveal(segment: number): void {
    const row = this.rowOf(this.table.bounds[segment]!);
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
  /** The first row in the DOM (−1 before any): a scroll that changes it rebuilt the rows. */
  get firstRendered(): number {
    return this.first;
  }

  private renderRow(r: number): HTMLElement {
    const rowEnd = r + 1 < this.rowStarts.length ? this.rowStarts[r + 1]! : this.text.length;
    return rowElement(this.text, this.table, [this.rowStarts[r]!, rowEnd, this.rowSegs[r]!], this.marked, this.index, this.host.options());
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
    this.host.showTooltip(this, segment);
    this.host.announce(this, segment);
  }

  selectInEditor(segment: number): void {
    const current = this.host.current();
    if (!current) return;
    this.host.post({ type: 'select', seq: current.seq, start: this.table.bounds[segment]!, end: this.table.bounds[segment + 1]! });
  }

  private key(event: KeyboardEvent): void {
    if (this.segmentCount === 0) return;
    const page = Math.floor(this.scroller.clientHeight / this.rowHeight);
    const move = keyMove(event.key, {
      active: this.active,
      table: this.table,
      rowStarts: this.rowStarts,
      textLength: this.text.length,
      page,
    });
    if (move === undefined) return;
    if (move === 'hide') return this.host.hideTooltip();
    event.preventDefault();
    if (move === 'select') {
      if (this.active >= 0) this.selectInEditor(this.active);
      return;
    }
    if (move >= 0) this.setActive(move, true);
  }
}

/** One row's pieces: a span per segment part (coloured, with its ids after the segment's last part), as text only. */
function rowElement(
  text: string,
  { bounds, tokenIndex, ids }: TableView,
  [rowStart, rowEnd, firstSegment]: [number, number, number],
  marked: [number, number] | undefined,
  pane: number,
  options: InspectorOptions,
): HTMLElement {
  const row = el('div', 'row');
  const n = bounds.length - 1;
  for (let s = firstSegment; s < n && bounds[s]! < rowEnd; s++) {
    const from = Math.max(bounds[s]!, rowStart);
    const to = Math.min(bounds[s + 1]!, rowEnd);
    if (to <= from) continue;
    const raw = text.slice(from, to);
    const hasIds = tokenIndex[s + 1]! > tokenIndex[s]!;
    const piece = el('span', hasIds ? `t c${s % PALETTE}` : 't gap');
    piece.dataset.s = String(s);
    if (marked && s >= marked[0] && s <= marked[1]) piece.classList.add('marked');
    if (from === bounds[s]) piece.id = `p${pane}-s${s}`;
    piece.setAttribute('role', 'option');
    const endsLine = raw.endsWith('\n');
    const shown = visible(endsLine && !options.showWhitespace ? raw.slice(0, -1) : raw, options.showWhitespace);
    if (shown) piece.append(document.createTextNode(shown));
    if (endsLine && !options.showWhitespace) piece.classList.add('eol');
    if (options.showIds && hasIds && to === bounds[s + 1]) {
      const list: string[] = [];
      for (let t = tokenIndex[s]!; t < tokenIndex[s + 1]!; t++) list.push(String(ids[t]));
      piece.append(el('span', 'id', list.join(',')));
    }
    row.append(piece);
  }
  return row;
}
