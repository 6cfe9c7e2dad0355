/**
 * Messages between the dataset overview (extension) and its page, with the guard each side runs. Every text
 * is worded and localised by the extension; the page shows it with textContent. Pure: imported by both sides.
 */
import { isArrayOf, isFiniteNumber, isInt, isRecord, isString } from '../../core/util/guards';

export const DATASET_VIEW_TYPE = 'tokenLens.dataset';

/** Rows a table of lines may carry (the view lists the first MAX_LISTED of each kind). */
export const MAX_ROWS = 1_000;
const MAX_BINS = 200;
const MAX_TEXT = 2_000;
/** The epochs the view lets the user choose (tokenLens.dataset.epochs's range). */
export const EPOCHS = { min: 1, max: 100 } as const;

export interface TextTable {
  title: string;
  head: string[];
  rows: string[][];
  note?: string;
}

/** A table whose rows are lines of the file: clicking one asks the extension to select that line. */
export interface LinesTable {
  title: string;
  head: string[];
  rows: { line: number; cells: string[] }[];
  note?: string;
}

export interface HistogramPlot {
  title: string;
  xLabel: string;
  yLabel: string;
  /** Each bin's lower edge, in tokens (its upper edge is the next one's; the last is `end`). */
  x: number[];
  end: number;
  counts: number[];
  /** The usable context window, drawn as a line, when it is known. */
  limit?: { x: number; label: string };
}

export interface DatasetView {
  title: string;
  /** The file's URI: the page persists it, and the view comes back for it after a reload. */
  key: string;
  state: 'counting' | 'done' | 'failed';
  /** "Counting… 24 %", "12,345 lines counted in 3.2 s". */
  status: string;
  /** What went wrong, or what was left out (a file over the limit), in words. */
  notice?: string;
  summary: TextTable;
  distribution?: TextTable;
  histogram?: HistogramPlot;
  cost: TextTable;
  /** The training epochs the cost is for, which the user chooses in the view. */
  epochs: { label: string; value: number; min: number; max: number };
  /** No training price for this tokenizer: the label of the page's button that opens the setting. */
  priceAction?: string;
  over?: LinesTable;
  problems?: LinesTable;
}

export interface ShowMessage {
  type: 'show';
  seq: number;
  view: DatasetView;
}

/** Test seam (development and test builds only): a report, or a click on a data-target as a user would. */
export interface DatasetTestMessage {
  type: 'test';
  id: number;
  action: 'report' | 'click' | 'epochs';
  target?: string;
  /** For 'epochs': the number typed into the view's field. */
  value?: number;
}

export type ToDatasetPage = ShowMessage | DatasetTestMessage;

export interface DatasetReport {
  request: number;
  seq: number;
  state: string;
  status: string;
  notice: string;
  /** Every table as shown: its title and its rows, cells joined by " | ". */
  tables: { title: string; rows: string[] }[];
  bins: number;
  /** The value of the epochs field. */
  epochs: number;
  /** The histogram's y tick labels (conversations are counted in whole numbers). */
  yTicks: string[];
  /** Whether the histogram drew on its canvas. */
  plotted: boolean;
  targets: string[];
}

export type FromDatasetPage =
  | { type: 'reveal'; line: number }
  | { type: 'openPrices' }
  | { type: 'epochs'; epochs: number }
  | { type: 'error'; message: string }
  | ({ type: 'rendered' } & DatasetReport);

const isText = (v: unknown): v is string => isString(v, MAX_TEXT);
const isCells = (v: unknown): v is string[] => isArrayOf(v, isText, 8);

function isTextTable(v: unknown): v is TextTable {
  return (
    isRecord(v) && isText(v.title) && isCells(v.head) && isArrayOf(v.rows, isCells, MAX_ROWS) && (v.note === undefined || isText(v.note))
  );
}

function isLinesTable(v: unknown): v is LinesTable {
  const isRow = (r: unknown): r is LinesTable['rows'][number] => isRecord(r) && isInt(r.line, 1) && isCells(r.cells);
  return (
    isRecord(v) && isText(v.title) && isCells(v.head) && isArrayOf(v.rows, isRow, MAX_ROWS) && (v.note === undefined || isText(v.note))
  );
}

function isHistogram(v: unknown): v is HistogramPlot {
  if (!isRecord(v) || !isText(v.title) || !isText(v.xLabel) || !isText(v.yLabel) || !isFiniteNumber(v.end)) return false;
  if (!isArrayOf(v.x, isFiniteNumber, MAX_BINS) || !isArrayOf(v.counts, isInt, MAX_BINS) || v.x.length !== v.counts.length) return false;
  return v.limit === undefined || (isRecord(v.limit) && isFiniteNumber(v.limit.x) && isText(v.limit.label));
}

function isEpochs(v: unknown): v is DatasetView['epochs'] {
  return isRecord(v) && isText(v.label) && isInt(v.value, 1) && isInt(v.min, 1) && isInt(v.max, 1);
}

export function isDatasetView(v: unknown): v is DatasetView {
  return (
    isRecord(v) &&
    isText(v.title) &&
    isString(v.key, 10_000) &&
    isEpochs(v.epochs) &&
    ['counting', 'done', 'failed'].includes(v.state as string) &&
    isText(v.status) &&
    (v.notice === undefined || isText(v.notice)) &&
    isTextTable(v.summary) &&
    (v.distribution === undefined || isTextTable(v.distribution)) &&
    (v.histogram === undefined || isHistogram(v.histogram)) &&
    isTextTable(v.cost) &&
    (v.priceAction === undefined || isText(v.priceAction)) &&
    (v.over === undefined || isLinesTable(v.over)) &&
    (v.problems === undefined || isLinesTable(v.problems))
  );
}

/** The page's guard of everything from the extension. */
export function isToDatasetPage(v: unknown): v is ToDatasetPage {
  if (!isRecord(v)) return false;
  if (v.type === 'show') return isInt(v.seq) && isDatasetView(v.view);
  return (
    TEST_HOOKS &&
    v.type === 'test' &&
    isInt(v.id) &&
    (v.action === 'report' || v.action === 'click' || v.action === 'epochs') &&
    (v.target === undefined || isString(v.target, 100)) &&
    (v.value === undefined || isFiniteNumber(v.value))
  );
}

function isReport(v: Record<string, unknown>): boolean {
  return (
    isInt(v.request) &&
    Number.isInteger(v.seq) &&
    typeof v.state === 'string' &&
    typeof v.status === 'string' &&
    typeof v.notice === 'string' &&
    isArrayOf(
      v.tables,
      (t): t is DatasetReport['tables'][number] => isRecord(t) && typeof t.title === 'string' && isArrayOf(t.rows, isString),
    ) &&
    isInt(v.bins) &&
    typeof v.epochs === 'number' &&
    isArrayOf(v.yTicks, isString) &&
    typeof v.plotted === 'boolean' &&
    isArrayOf(v.targets, isString)
  );
}

/** The extension's guard of everything from the page. */
export function isFromDatasetPage(v: unknown): v is FromDatasetPage | { type: 'ready'; state?: unknown } {
  if (!isRecord(v)) return false;
  switch (v.type) {
    case 'ready':
    case 'openPrices':
      return true;
    case 'reveal':
      return isInt(v.line, 1);
    case 'epochs':
      return isInt(v.epochs, EPOCHS.min, EPOCHS.max);
    case 'error':
      return isString(v.message, 5000);
    case 'rendered': // the page's report, which only tests ask for
      return TEST_HOOKS && isReport(v);
    default:
      return false;
  }
}
