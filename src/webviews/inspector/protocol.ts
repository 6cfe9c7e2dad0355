/**
 * The messages between the inspector panel (extension host) and its webview, both directions, and
 * the guards each side runs on what it receives: anything malformed or unknown is dropped, never
 * trusted. Pure: imported by panel.ts and by pages/inspector/main.ts.
 *
 * Handshake: the webview posts `ready` (with its persisted options) once its script runs; the
 * extension posts nothing before that. Every `render` carries a `seq`; `select` and `rendered`
 * echo it, so a reply to an out-of-date render is ignored.
 */
import { isInt, isRecord, isString } from '../../core/util/guards';
import type { WireTable } from '../../core/inspector/segments';

export const VIEW_TYPE = 'tokenLens.inspector';

/** What the user toggles in the panel; persisted with webview.setState and restored after a reload. */
export interface InspectorOptions {
  showIds: boolean;
  showWhitespace: boolean;
  /** Second tokenizer for the side-by-side comparison, or null when it is off. */
  compare: string | null;
}

export const DEFAULT_OPTIONS: InspectorOptions = { showIds: false, showWhitespace: false, compare: null };

/** One tokenization of the inspected text. */
export interface PaneData {
  tokenizer: string;
  nTokens: number;
  table: WireTable;
}

export interface RenderMessage {
  type: 'render';
  seq: number;
  /** What is inspected, for the header: "notes.md — selection 3:1–5:7" or "notes.md". */
  source: string;
  scope: 'document' | 'selection';
  text: string;
  /** Code points of the inspected text (what the service calls n_chars). */
  nChars: number;
  /** The document was longer than the inspector's cap: its first `text.length` UTF-16 units are shown. */
  truncatedFrom?: number;
  tokenizers: string[];
  primary: PaneData;
  compare?: PaneData;
  /** A tokenizer that failed to load or run, with the reason (shown instead of the pane). */
  error?: string;
  options: InspectorOptions;
  /** Editor selection to mark right away, offsets into text. */
  mark?: [number, number];
  /**
   * First paint of a big text: `text` is only the stretch [from, from + text.length) of the
   * `total` UTF-16 units inspected, around what the editor shows (`top`: the offset into text to scroll
   * to). The counts are of that stretch; a complete render follows once the whole text is tokenized.
   */
  partial?: { from: number; top: number; total: number };
  /** Where the text starts in the document: zero-based line and character, for the hover's line:column. */
  origin: [number, number];
  /** The context-window gauge, as the status bar shows it ("12,345 / 128,000 · 9.6 %"), when a window is set. */
  gauge?: { text: string; level: 'ok' | 'warning' | 'error' };
}

export interface MarkMessage {
  type: 'mark';
  seq: number;
  /** UTF-16 offsets into the rendered text; start == end is a cursor. */
  start: number;
  end: number;
  /** Scroll the marked tokens into view. */
  reveal: boolean;
}

export interface EmptyMessage {
  type: 'empty';
  seq: number;
  reason: string;
  tokenizers: string[];
  tokenizer: string;
  options: InspectorOptions;
}

export interface BusyMessage {
  type: 'busy';
  label: string;
}

/** The page's messages in the user's language (see strings.ts), posted once the page is ready. */
export interface StringsMessage {
  type: 'strings';
  strings: Record<string, string>;
}

/** Test seam: drive the real DOM (click a segment, press a key) or ask for a fresh report. */
export interface TestMessage {
  type: 'test';
  /** 'scroll' scrolls the pane through `segment` (a frame count) frames and reports the frame times. */
  action: 'click' | 'focus' | 'report' | 'toggle' | 'compare' | 'hover' | 'scroll';
  pane?: 0 | 1;
  segment?: number;
  option?: 'showIds' | 'showWhitespace';
  /** For 'compare': the tokenizer to pick in the Compare drop-down ('' for off). */
  value?: string;
}

export type ToWebview = RenderMessage | MarkMessage | EmptyMessage | BusyMessage | StringsMessage | TestMessage;

/** The webview base's ready (webviews/host.ts): with the page's persisted state, whose options win when it has any. */
export interface ReadyMessage {
  type: 'ready';
  state?: unknown;
}

export interface OptionsMessage {
  type: 'options';
  options: InspectorOptions;
}

export interface SetTokenizerMessage {
  type: 'setTokenizer';
  tokenizer: string;
}

export interface SelectMessage {
  type: 'select';
  seq: number;
  start: number;
  end: number;
}

export interface CopyIdsMessage {
  type: 'copyIds';
  pane: 0 | 1;
}

/** What the webview shows, after each render: the numbers the header shows and the first segments' texts as the DOM holds them. */
export interface RenderedReport {
  seq: number;
  nTokens: number;
  nChars: number;
  compareTokens: number | null;
  segmentCount: number;
  /** Source texts of the first segments (up to 200) of the primary pane. */
  segments: string[];
  /** textContent of the first rendered rows of the primary pane. */
  domText: string;
  /** Rows the pane has and rows it put in the DOM (virtualization). */
  rows: number;
  domRows: number;
  /** Segment indices marked from the editor selection. */
  marked: number[];
  /** Elements a token could have injected (img, iframe, object, embed, svg, links, scripts without the page nonce), as the start of their HTML. */
  injected: string[];
  options: InspectorOptions;
  header: string;
  note: string;
  /** The hover/focus card's text, '' when hidden. */
  tooltip: string;
  /** Time from receiving the render message to the DOM being built, in ms. */
  renderMs: number;
  /** Time from the page posting `ready` to this render's DOM being built, in ms (the first render's is the first paint once the page has loaded). */
  sinceReadyMs: number;
  theme: string;
  /** Per pane: where it is scrolled, and whether its head or a row of tokens is wider than the pane (cut off). */
  panes: PaneLayout[];
  /** After a 'scroll' test: frames scrolled (a third of the view each), the slowest, 95th-percentile and mean frame's work, and how many rebuilt the DOM. */
  scroll?: { frames: number; maxMs: number; meanMs: number; p95Ms: number; rebuilt: number };
}

export interface PaneLayout {
  /** The pane's head as shown: tokenizer, counts, button. */
  head: string;
  scrollTop: number;
  headClipped: boolean;
  rowsClipped: boolean;
}

/** Named apart from the base's test report ('rendered', answered by request id): this one follows every render. */
export interface RenderedMessage extends RenderedReport {
  type: 'painted';
}

/** A script error on the page (pages/bridge.ts reports it; the webview base logs it). */
export interface PageErrorMessage {
  type: 'error';
  message: string;
}

export type FromWebview =
  ReadyMessage | OptionsMessage | SetTokenizerMessage | SelectMessage | CopyIdsMessage | PageErrorMessage | RenderedMessage;

// ---- Guards ------------------------------------------------------------------------------------

export function isOptions(value: unknown): value is InspectorOptions {
  return (
    isRecord(value) &&
    typeof value.showIds === 'boolean' &&
    typeof value.showWhitespace === 'boolean' &&
    (value.compare === null || isString(value.compare, 100))
  );
}

/** Options from an untrusted source (persisted state), field by field, falling back to the defaults. */
export function sanitizeOptions(value: unknown, tokenizers?: readonly string[]): InspectorOptions {
  const rec = isRecord(value) ? value : {};
  const compare = isString(rec.compare, 100) && (!tokenizers || tokenizers.includes(rec.compare)) ? rec.compare : null;
  return {
    showIds: typeof rec.showIds === 'boolean' ? rec.showIds : DEFAULT_OPTIONS.showIds,
    showWhitespace: typeof rec.showWhitespace === 'boolean' ? rec.showWhitespace : DEFAULT_OPTIONS.showWhitespace,
    compare,
  };
}

function isIntArray(value: unknown, length?: number): value is number[] {
  if (!Array.isArray(value)) return false;
  if (length !== undefined && value.length !== length) return false;
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (typeof v !== 'number' || !Number.isInteger(v)) return false;
  }
  return true;
}

/** A table the renderer can walk without ever indexing out of range (Int32Arrays: whole numbers by construction). */
export function isSegmentTable(value: unknown, textLength: number): value is WireTable {
  if (!isRecord(value)) return false;
  const { bounds, tokenIndex, ids, byteLengths } = value;
  if (!(bounds instanceof Int32Array && tokenIndex instanceof Int32Array && ids instanceof Int32Array && byteLengths instanceof Int32Array))
    return false;
  if (byteLengths.length !== ids.length || tokenIndex.length !== bounds.length || bounds.length < 1) return false;
  if (bounds[0] !== 0 || tokenIndex[0] !== 0) return false;
  if (bounds[bounds.length - 1] !== textLength || tokenIndex[tokenIndex.length - 1] !== ids.length) return false;
  for (let i = 1; i < bounds.length; i++) {
    if (bounds[i]! < bounds[i - 1]! || tokenIndex[i]! < tokenIndex[i - 1]!) return false;
  }
  for (let i = 0; i < byteLengths.length; i++) if (byteLengths[i]! < 0) return false;
  return true;
}

function isPane(value: unknown, textLength: number): value is PaneData {
  return (
    isRecord(value) &&
    isString(value.tokenizer, 100) &&
    isInt(value.nTokens) &&
    isSegmentTable(value.table, textLength) &&
    value.nTokens === value.table.ids.length
  );
}

function isRange(value: unknown): value is [number, number] {
  return Array.isArray(value) && value.length === 2 && isInt(value[0]) && isInt(value[1]) && value[0] <= value[1];
}

function isPartial(value: unknown, textLength: number): value is RenderMessage['partial'] {
  return (
    isRecord(value) &&
    isInt(value.from) &&
    isInt(value.top) &&
    isInt(value.total) &&
    value.top <= textLength &&
    value.from + textLength <= value.total
  );
}

/** Guard the webview runs on every message from the extension. */
export function isToWebview(value: unknown): value is ToWebview {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'render': {
      if (!isInt(value.seq) || !isString(value.source) || (value.scope !== 'document' && value.scope !== 'selection')) return false;
      if (typeof value.text !== 'string' || !isInt(value.nChars)) return false;
      if (value.truncatedFrom !== undefined && !isInt(value.truncatedFrom)) return false;
      if (!Array.isArray(value.tokenizers) || !value.tokenizers.every((t) => isString(t, 100))) return false;
      if (!isPane(value.primary, value.text.length)) return false;
      if (value.compare !== undefined && !isPane(value.compare, value.text.length)) return false;
      if (value.error !== undefined && !isString(value.error, 10_000)) return false;
      if (value.mark !== undefined && !isRange(value.mark)) return false;
      if (value.partial !== undefined && !isPartial(value.partial, value.text.length)) return false;
      if (
        value.gauge !== undefined &&
        !(isRecord(value.gauge) && isString(value.gauge.text, 200) && ['ok', 'warning', 'error'].includes(value.gauge.level as string))
      )
        return false;
      if (!Array.isArray(value.origin) || value.origin.length !== 2 || !isInt(value.origin[0]) || !isInt(value.origin[1])) return false;
      return isOptions(value.options);
    }
    case 'mark':
      return isInt(value.seq) && isInt(value.start) && isInt(value.end) && value.start <= value.end && typeof value.reveal === 'boolean';
    case 'empty':
      return (
        isInt(value.seq) &&
        isString(value.reason, 10_000) &&
        Array.isArray(value.tokenizers) &&
        value.tokenizers.every((t) => isString(t, 100)) &&
        isString(value.tokenizer, 100) &&
        isOptions(value.options)
      );
    case 'busy':
      return isString(value.label);
    case 'strings':
      return isRecord(value.strings) && Object.values(value.strings).every((v) => isString(v, 1000));
    case 'test': // what only tests send: compiled out of release bundles with the page's driver
      return (
        TEST_HOOKS &&
        ['click', 'focus', 'report', 'toggle', 'compare', 'hover', 'scroll'].includes(value.action as string) &&
        (value.value === undefined || isString(value.value, 100)) &&
        (value.pane === undefined || value.pane === 0 || value.pane === 1) &&
        (value.segment === undefined || isInt(value.segment)) &&
        (value.option === undefined || value.option === 'showIds' || value.option === 'showWhitespace')
      );
    default:
      return false;
  }
}

/** Guard the extension runs on every message from the webview. */
export function isFromWebview(value: unknown): value is FromWebview {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'ready':
      return true; // the state it carries is checked where it is read (sanitizeOptions)
    case 'options':
      return isOptions(value.options);
    case 'setTokenizer':
      return isString(value.tokenizer, 100);
    case 'select':
      return isInt(value.seq) && isInt(value.start) && isInt(value.end) && value.start <= value.end;
    case 'copyIds':
      return value.pane === 0 || value.pane === 1;
    case 'error':
      return isString(value.message, 5000);
    case 'painted': // the page's report, which only tests ask for: compiled out of release bundles with it
      return (
        TEST_HOOKS &&
        isInt(value.seq) &&
        isInt(value.nTokens) &&
        isInt(value.nChars) &&
        (value.compareTokens === null || isInt(value.compareTokens)) &&
        isInt(value.segmentCount) &&
        Array.isArray(value.segments) &&
        value.segments.every((s) => typeof s === 'string') &&
        typeof value.domText === 'string' &&
        isInt(value.rows) &&
        isInt(value.domRows) &&
        isIntArray(value.marked) &&
        Array.isArray(value.injected) &&
        value.injected.every((s) => typeof s === 'string') &&
        isOptions(value.options) &&
        typeof value.header === 'string' &&
        typeof value.note === 'string' &&
        typeof value.tooltip === 'string' &&
        typeof value.renderMs === 'number' &&
        Number.isFinite(value.renderMs) &&
        typeof value.sinceReadyMs === 'number' &&
        Number.isFinite(value.sinceReadyMs) &&
        typeof value.theme === 'string' &&
        Array.isArray(value.panes) &&
        value.panes.every(
          (p) =>
            isRecord(p) &&
            typeof p.head === 'string' &&
            typeof p.scrollTop === 'number' &&
            typeof p.headClipped === 'boolean' &&
            typeof p.rowsClipped === 'boolean',
        ) &&
        (value.scroll === undefined ||
          (isRecord(value.scroll) &&
            typeof value.scroll.maxMs === 'number' &&
            typeof value.scroll.meanMs === 'number' &&
            typeof value.scroll.p95Ms === 'number' &&
            isInt(value.scroll.frames) &&
            isInt(value.scroll.rebuilt)))
      );
    default:
      return false;
  }
}
