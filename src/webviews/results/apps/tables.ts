/**
 * Tables built from lists of records the way a service sends them: the columns the view knows first
 * (with labels and units), then every other field that fits in a cell, so no column is lost. Pure.
 */
import { isRecord, type Rec } from '../../../core/util/guards';
import { toNumber } from '../fields';
import { short } from '../format';
import type { AppRow, AppTable } from './model';

export interface Column {
  /** Field names tried in turn. */
  names: string[];
  label: string;
  digits?: number;
}

/** A value as a cell: numbers shortened, lists joined, records and nulls left out. */
export function cell(value: unknown, digits = 4): { text: string; key: number | string | null } | undefined {
  const n = typeof value === 'number' ? toNumber(value) : undefined;
  if (n !== undefined) return { text: short(n, digits), key: n };
  if (typeof value === 'string') return { text: value, key: value.toLowerCase() };
  if (typeof value === 'boolean') return { text: value ? 'yes' : 'no', key: value ? 1 : 0 };
  if (Array.isArray(value) && value.length <= 50 && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    const text = value
      .map((v) => (typeof v === 'number' ? short(v, digits) : v))
      .join(value.every((v) => typeof v === 'number') ? ' ' : ', ');
    return { text, key: text.toLowerCase() };
  }
  return undefined;
}

const fieldOf = (row: Rec, names: string[]): string | undefined => names.find((n) => Object.hasOwn(row, n) && cell(row[n]) !== undefined);

export interface TableOptions {
  id: string;
  title: string;
  known: Column[];
  /** The field that names the row's item for GET /{app}/detail/{id}. */
  idNames?: string[];
  detailApp?: string;
  pageSize?: number;
  note?: string;
  /** Flatten a nested record into the row first (OPTIMADE's `attributes`). */
  flatten?: string;
}

/** Rows that are not records are skipped, with the count in `skipped`. */
export function recordTable(list: unknown[], options: TableOptions): { table: AppTable; skipped: number } {
  const records = list
    .filter(isRecord)
    .map((r) => (options.flatten && isRecord(r[options.flatten]) ? { ...r, ...(r[options.flatten] as Rec) } : r));
  const known = options.known.filter((c) => records.some((r) => fieldOf(r, c.names) !== undefined));
  const taken = new Set([...options.known.flatMap((c) => c.names), ...(options.flatten ? [options.flatten] : [])]);
  const others = [...new Set(records.flatMap((r) => Object.keys(r)))].filter(
    (k) => !taken.has(k) && records.some((r) => cell(r[k]) !== undefined),
  );
  const columns: Column[] = [...known, ...others.map((k) => ({ names: [k], label: k }))];
  const rows: AppRow[] = records.map((r) => {
    const cells = columns.map((c) => {
      const name = fieldOf(r, c.names);
      return name === undefined ? undefined : cell(r[name], c.digits);
    });
    const idName = options.idNames && fieldOf(r, options.idNames);
    return {
      cells: cells.map((c) => c?.text ?? '–'),
      keys: cells.map((c) => c?.key ?? null),
      ...(idName && options.detailApp && typeof r[idName] === 'string' ? { detail: r[idName] } : {}),
    };
  });
  const table: AppTable = {
    id: options.id,
    title: options.title,
    columns: columns.map((c) => c.label),
    rows,
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    ...(options.detailApp ? { detailApp: options.detailApp } : {}),
    ...(options.note ? { note: options.note } : {}),
  };
  return { table, skipped: list.length - records.length };
}

/** Label → value rows (a parameter table). */
export function factTable(id: string, title: string, entries: [label: string, value: string][], note?: string): AppTable {
  return {
    id,
    title,
    columns: ['', 'Value'],
    rows: entries.map(([label, value]) => ({ cells: [label, value], keys: [label, value] })),
    ...(note ? { note } : {}),
  };
}
