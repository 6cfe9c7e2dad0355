/** The page's check of an application model (the common fields are checked with every kind's). Pure. */
import { isArrayOf, isFiniteNumber, isInt, isRecord, isString } from '../../../core/util/guards';

const texts = (v: unknown, max: number): boolean => isArrayOf(v, (s): s is string => isString(s, max));
const key = (k: unknown): boolean => k === null || isFiniteNumber(k) || isString(k, 10_000);

const isRow = (r: unknown): boolean =>
  isRecord(r) &&
  texts(r.cells, 10_000) &&
  Array.isArray(r.keys) &&
  r.keys.every(key) &&
  (r.detail === undefined || isString(r.detail, 200));

const isTable = (t: unknown): boolean =>
  isRecord(t) &&
  isString(t.id, 100) &&
  isString(t.title, 1000) &&
  texts(t.columns, 1000) &&
  Array.isArray(t.rows) &&
  t.rows.every(isRow) &&
  (t.pageSize === undefined || (isInt(t.pageSize) && t.pageSize > 0)) &&
  (t.detailApp === undefined || isString(t.detailApp, 100)) &&
  (t.note === undefined || isString(t.note, 10_000));

const isSeries = (s: unknown): boolean =>
  isRecord(s) &&
  isString(s.label, 1000) &&
  Array.isArray(s.values) &&
  s.values.every((v) => v === null || isFiniteNumber(v)) &&
  isString(s.colour, 20) &&
  (s.sticks === undefined || typeof s.sticks === 'boolean') &&
  (s.spanGaps === undefined || typeof s.spanGaps === 'boolean');

const isLine = (l: unknown): boolean => isRecord(l) && isFiniteNumber(l.y) && isString(l.label, 100) && isString(l.colour, 20);

const isPlot = (p: unknown): boolean =>
  isRecord(p) &&
  isString(p.id, 100) &&
  isString(p.title, 1000) &&
  isString(p.xLabel, 100) &&
  isString(p.yLabel, 100) &&
  isArrayOf(p.x, isFiniteNumber) &&
  Array.isArray(p.series) &&
  p.series.every(isSeries) &&
  typeof p.legend === 'boolean' &&
  (p.hLines === undefined || (Array.isArray(p.hLines) && p.hLines.every(isLine))) &&
  [p.yRange, p.xRange].every((r) => r === undefined || (isArrayOf(r, isFiniteNumber) && r.length === 2));

export function isAppModel(m: Record<string, unknown>): boolean {
  return (
    isString(m.headline, 10_000) &&
    texts(m.facts, 10_000) &&
    (m.equation === undefined || isString(m.equation, 10_000)) &&
    (m.poscar === undefined || (isRecord(m.poscar) && isString(m.poscar.text, 5_000_000) && isString(m.poscar.note, 10_000))) &&
    Array.isArray(m.tables) &&
    m.tables.every(isTable) &&
    Array.isArray(m.plots) &&
    m.plots.every(isPlot)
  );
}
