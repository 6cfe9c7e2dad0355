/** The shape of an application model (the common fields are added with every kind's: protocol.ts). Pure. */
import { isArrayOf, isFiniteNumber, isInt, isString } from '../../../core/util/guards';
import { list, optional, record, test, text, whole, type Shape } from '../../../core/util/shape';

const key = (k: unknown): boolean => isFiniteNumber(k) || isString(k, 10_000);
const colour = text(20);
const range = optional(test((r) => isArrayOf(r, isFiniteNumber) && r.length === 2, [0, 1]));

const ROW = record({
  cells: list(text(10_000)),
  // Sort keys, one a column: one that cannot be used becomes null (no key), so the others keep their columns.
  keys: list(optional(test(key, 0), null)),
  // The id a click asks the service for: a cut id is another item, so a long one is dropped (the row is not clickable).
  detail: optional(whole(200)),
});

const TABLE = record({
  id: text(100),
  title: text(1000),
  columns: list(text(1000)),
  rows: list(ROW),
  pageSize: optional(test((v) => isInt(v) && v > 0, 10)),
  detailApp: optional(whole(100)),
  note: optional(text(10_000)),
});

const SERIES = record({
  label: text(1000),
  values: test((v) => Array.isArray(v) && v.every((x) => x === null || isFiniteNumber(x)), [1, null]),
  colour,
  sticks: optional(test((v) => typeof v === 'boolean', true)),
  spanGaps: optional(test((v) => typeof v === 'boolean', true)),
});

const PLOT = record({
  id: text(100),
  title: text(1000),
  xLabel: text(100),
  yLabel: text(100),
  x: test((v) => isArrayOf(v, isFiniteNumber), [0, 1]),
  series: list(SERIES),
  legend: test((v) => typeof v === 'boolean', true),
  hLines: optional(list(record({ y: test(isFiniteNumber, 0), label: text(100), colour }))),
  yRange: range,
  xRange: range,
  xNotes: optional(list(test((v) => v === null || (typeof v === 'string' && v.length <= 1000), null))),
});

export const APP_MODEL: Record<string, Shape> = {
  headline: text(10_000),
  facts: list(text(10_000)),
  equation: optional(text(10_000)),
  poscar: optional(record({ text: whole(5_000_000), note: text(10_000) })),
  tables: list(TABLE),
  plots: list(PLOT),
};
