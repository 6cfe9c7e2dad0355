/**
 * Reading values the service may send in more than one way, without ever throwing: numbers as numbers
 * or numeric strings, lists with holes, and a record whose fields are marked as they are read so that
 * whatever is left over goes to "Other fields".
 */
import type { Vec3 } from '../../core/poscar/types';
import { isRecord, type Rec } from '../../core/util/guards';
import type { Series } from './model';
import { ENGLISH, type Translate } from '../../core/util/locale';

/** Longest series kept; longer ones are cut, with a warning. */
export const MAX_POINTS = 200_000;

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i;

/**
 * No quantity of these answers comes near this; refusing larger numbers keeps every sum and product
 * the views compute finite.
 */
const LARGEST = 1e100;

/** A number, or a string that is one (" -1.5e3 "); "NaN", "inf", 1e300 and the rest are not. */
export function toNumber(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : NaN;
  return Math.abs(n) <= LARGEST ? n : undefined;
}

export function toCount(value: unknown): number | undefined {
  const n = toNumber(value);
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

export function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(word)) return true;
  return ['false', 'no', '0'].includes(word) ? false : undefined;
}

function toText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value : undefined;
}

export function toStrings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.length <= MAX_POINTS && value.every((v) => typeof v === 'string') ? value : undefined;
}

export interface SeriesRead {
  values: Series;
  /** Entries that were not numbers (now null). */
  bad: number;
  /** Entries beyond MAX_POINTS, dropped. */
  cut: number;
}

/** A list with at least one number in it; entries that are not numbers become null. */
export function toSeries(value: unknown, max = MAX_POINTS): SeriesRead | undefined {
  if (!Array.isArray(value)) return undefined;
  const values = value.slice(0, max).map((v) => toNumber(v) ?? null);
  const bad = values.filter((v) => v === null).length;
  if (values.length > 0 && bad === values.length) return undefined;
  return { values, bad, cut: Math.max(0, value.length - max) };
}

/** Rows of exactly three numbers (N×3). */
export function toVec3Rows(value: unknown): Vec3[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_POINTS) return undefined;
  const rows = value.map((row) => (Array.isArray(row) && row.length === 3 ? row.map(toNumber) : undefined));
  return rows.every((r): r is [number, number, number] => r !== undefined && r.every((x) => x !== undefined)) ? rows : undefined;
}

/** A rectangular list of lists of numbers, at most `maxValues` in all. */
export function toMatrix(value: unknown, maxValues: number): SeriesRead[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || !value.every(Array.isArray)) return undefined;
  const width = (value[0] as unknown[]).length;
  if (width === 0 || value.length * width > maxValues || !value.every((row: unknown[]) => row.length === width)) return undefined;
  const rows = value.map((row) => toSeries(row, width));
  return rows.every((r) => r !== undefined) ? rows : undefined;
}

const describeSeries = (name: string, read: SeriesRead, t: Translate): string[] => [
  ...(read.bad ? [t('{0}: {1} of {2} values are not numbers (left as gaps).', name, read.bad, read.values.length)] : []),
  ...(read.cut
    ? [
        t(
          '{0} has {1} values: the first {2} are shown.',
          name,
          (read.values.length + read.cut).toLocaleString('en-US'),
          read.values.length.toLocaleString('en-US'),
        ),
      ]
    : []),
];

/**
 * A record read field by field. `read` tries each name in turn; a field that is there but cannot be
 * read stays unread (so it lands in `extra`), with a warning when the caller says what it expected, worded by `t`
 * (which the readers use for their own warnings too).
 */
export class Fields {
  private readonly used = new Set<string>();
  private readonly children = new Map<string, Fields>();
  private readonly remains = new Map<string, unknown>();
  /** The name the last successful read() took its value from. */
  private lastName = '';

  constructor(
    private readonly rec: Rec,
    readonly warnings: string[],
    private readonly prefix = '',
    readonly t: Translate = ENGLISH.t,
  ) {}

  has(name: string): boolean {
    return Object.hasOwn(this.rec, name) && this.rec[name] !== null && this.rec[name] !== undefined && !this.used.has(name);
  }

  /** The value of a field not yet read (untouched: read() or use() marks it). */
  peek(name: string): unknown {
    return this.has(name) ? this.rec[name] : undefined;
  }

  use(name: string): void {
    this.used.add(name);
  }

  /** Marks a field read, with the part of it the view does not show going to `extra` in its place. */
  leave(name: string, rest: unknown): void {
    this.used.add(name);
    this.remains.set(name, rest);
  }

  read<T>(names: readonly string[], convert: (value: unknown) => T | undefined, expected?: string): T | undefined {
    for (const name of names) {
      // A known field sent as null means "not applicable": nothing to show, nothing to keep.
      if (Object.hasOwn(this.rec, name) && this.rec[name] === null) this.used.add(name);
      if (!this.has(name)) continue;
      const value = convert(this.rec[name]);
      if (value !== undefined) {
        this.used.add(name);
        this.lastName = name;
        return value;
      }
      if (expected) this.warnings.push(this.t('{0} is not {1}: it is under Other fields.', `${this.prefix}${name}`, expected));
    }
    return undefined;
  }

  number(...names: string[]): number | undefined {
    return this.read(names, toNumber, this.t('a number'));
  }

  count(...names: string[]): number | undefined {
    return this.read(names, toCount, this.t('a whole number'));
  }

  text(...names: string[]): string | undefined {
    return this.read(names, toText, this.t('text'));
  }

  boolean(...names: string[]): boolean | undefined {
    return this.read(names, toBoolean, this.t('true or false'));
  }

  /** A list of numbers, holes and cuts reported. Silent when `quiet` (the field may mean something else). */
  series(names: string[], quiet = false): Series | undefined {
    const read = this.read(names, (v) => toSeries(v), quiet ? undefined : this.t('a list of numbers'));
    if (!read) return undefined;
    this.warnings.push(...describeSeries(`${this.prefix}${this.lastName}`, read, this.t));
    return read.values;
  }

  /** The fields not read, as sent (own properties only: a "__proto__" key stays a plain key). */
  get extra(): Rec {
    const entries: [string, unknown][] = [];
    for (const [key, value] of Object.entries(this.rec)) {
      const child = this.children.get(key);
      const rest = child?.extra;
      if (this.remains.has(key)) entries.push([key, this.remains.get(key)]);
      else if (rest && Object.keys(rest).length > 0) entries.push([key, rest]);
      else if (!child && !this.used.has(key)) entries.push([key, value]);
    }
    return Object.fromEntries(entries);
  }

  /** A nested record, read with the same warnings; what it leaves unread returns to `extra` under its name. */
  nested(name: string): Fields | undefined {
    const value = this.peek(name);
    if (!isRecord(value)) return undefined;
    const child = new Fields(value, this.warnings, `${this.prefix}${name}.`, this.t);
    this.children.set(name, child);
    this.used.add(name);
    return child;
  }
}
