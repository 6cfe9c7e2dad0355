/**
 * A message's shape, as data: the one description from which a page's guard (`conforms`: exactly this
 * shape, or the message is dropped) and the host's repair (`fit`: what the guard would refuse, made to
 * fit) both follow. A text over its limit is shortened and marked with "…" (or, where a cut text would be
 * wrong, such as a POSCAR or an id, it fails); what fails is dropped where it may be (an optional field,
 * a list's item) and counted; only a required part that fails fails its whole record. Pure.
 */
import { isRecord } from './guards';

export type Shape =
  /** A string of at most `max` units; `cut`: a longer one may be shortened; `also`: a further test, which `example` passes. */
  | { type: 'text'; max: number; cut: boolean; also?: (text: string) => boolean; example?: string }
  /** Anything else checked as a whole (numbers, series, enums); `example` is a value that passes (tests build messages from it). */
  | { type: 'test'; test: (value: unknown) => boolean; example: unknown }
  /** Absent (`empty`: undefined, or null) or the shape; when it fails it is dropped to `empty`. */
  | { type: 'optional'; shape: Shape; empty: undefined | null }
  | { type: 'list'; item: Shape; max: number }
  /** A record with these fields (others pass as they are). */
  | { type: 'record'; fields: Readonly<Record<string, Shape>> }
  /** A record whose field `by` names which shape it has. */
  | { type: 'pick'; by: string; options: Readonly<Record<string, Shape>> };

export const text = (max: number): Shape => ({ type: 'text', max, cut: true });
/** A text that means nothing cut short (a POSCAR, an id, an image): over its limit it is dropped, not shortened. */
export const whole = (max: number, also?: (text: string) => boolean, example?: string): Shape => ({
  type: 'text',
  max,
  cut: false,
  ...(also ? { also, example } : {}),
});
export const test = (check: (value: unknown) => boolean, example: unknown): Shape => ({ type: 'test', test: check, example });
export const optional = (shape: Shape, empty: undefined | null = undefined): Shape => ({ type: 'optional', shape, empty });
export const list = (item: Shape, max = Number.MAX_SAFE_INTEGER): Shape => ({ type: 'list', item, max });
export const record = (fields: Readonly<Record<string, Shape>>): Shape => ({ type: 'record', fields });
export const pick = (by: string, options: Readonly<Record<string, Shape>>): Shape => ({ type: 'pick', by, options });

/** What fit() changed: each text shortened (its full length) and each part dropped (how many items). */
export interface Fitting {
  shortened: { path: string; length: number }[];
  dropped: { path: string; count: number }[];
}

const FAIL: unique symbol = Symbol('fail');
type Out = unknown;

const join = (path: string, key: string | number): string => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;

function walkText(shape: Extract<Shape, { type: 'text' }>, value: unknown, path: string, fitting: Fitting | undefined): Out {
  if (typeof value !== 'string' || (shape.also && !shape.also(value))) return FAIL;
  if (value.length <= shape.max) return value;
  if (!fitting || !shape.cut) return FAIL;
  fitting.shortened.push({ path, length: value.length });
  // Never half of a surrogate pair (an emoji, a CJK extension character): the page would show U+FFFD.
  const end = isHighSurrogate(value.charCodeAt(shape.max - 2)) ? shape.max - 2 : shape.max - 1;
  return `${value.slice(0, end)}…`;
}

function walkList(shape: Extract<Shape, { type: 'list' }>, value: unknown, path: string, fitting: Fitting | undefined): Out {
  if (!Array.isArray(value) || (!fitting && value.length > shape.max)) return FAIL;
  const n = Math.min(value.length, shape.max);
  let out: unknown[] | undefined;
  for (let i = 0; i < n; i++) {
    const item = walk(shape.item, value[i], join(path, i), fitting);
    if (item === FAIL && !fitting) return FAIL;
    if (item === FAIL) fitting!.dropped.push({ path: join(path, i), count: 1 });
    if ((item === FAIL || item !== value[i]) && !out) out = value.slice(0, i);
    if (out && item !== FAIL) out.push(item);
  }
  if (value.length > n) fitting!.dropped.push({ path: `${path}[${n}…]`, count: value.length - n });
  return out ?? (value.length > n ? value.slice(0, n) : value);
}

function walkRecord(shape: Extract<Shape, { type: 'record' }>, value: unknown, path: string, fitting: Fitting | undefined): Out {
  if (!isRecord(value)) return FAIL;
  let out: Record<string, unknown> | undefined;
  for (const [name, field] of Object.entries(shape.fields)) {
    const was = Object.hasOwn(value, name) ? value[name] : undefined;
    const now = walk(field, was, join(path, name), fitting);
    if (now === FAIL) return FAIL;
    if (now === was) continue;
    out ??= { ...value };
    if (now === undefined) delete out[name];
    else out[name] = now;
  }
  return out ?? value;
}

function walk(shape: Shape, value: unknown, path: string, fitting: Fitting | undefined): Out {
  switch (shape.type) {
    case 'text':
      return walkText(shape, value, path, fitting);
    case 'test':
      return shape.test(value) ? value : FAIL;
    case 'optional': {
      if (value === shape.empty || value === undefined) return value;
      const out = walk(shape.shape, value, path, fitting);
      if (out !== FAIL || !fitting) return out;
      fitting.dropped.push({ path, count: 1 });
      return shape.empty;
    }
    case 'list':
      return walkList(shape, value, path, fitting);
    case 'record':
      return walkRecord(shape, value, path, fitting);
    case 'pick': {
      const by = isRecord(value) ? value[shape.by] : undefined;
      return typeof by === 'string' && Object.hasOwn(shape.options, by) ? walk(shape.options[by]!, value, path, fitting) : FAIL;
    }
  }
}

/** Whether `value` has exactly this shape (the page's guard). */
export function conforms(shape: Shape, value: unknown): boolean {
  return walk(shape, value, '', undefined) !== FAIL;
}

/** `value` made to fit the shape, and what that took; undefined when a required part fails. Never changes `value`. */
export function fit(shape: Shape, value: unknown): { value: unknown; fitting: Fitting } | undefined {
  const fitting: Fitting = { shortened: [], dropped: [] };
  const out = walk(shape, value, '', fitting);
  return out === FAIL ? undefined : { value: out, fitting };
}

/** How many of each, in words: "2 values were shortened and 1 dropped". */
function counts(f: Fitting): string {
  const shortened = f.shortened.length;
  const dropped = f.dropped.reduce((n, d) => n + d.count, 0);
  const were = (n: number): string => (n === 1 ? 'was' : 'were');
  const parts = [
    ...(shortened ? [`${shortened.toLocaleString('en-US')} ${shortened === 1 ? 'value' : 'values'} ${were(shortened)} shortened`] : []),
    ...(dropped
      ? [`${dropped.toLocaleString('en-US')} ${shortened ? '' : `${dropped === 1 ? 'item' : 'items'} ${were(dropped)} `}dropped`]
      : []),
  ];
  return parts.join(' and ');
}

/**
 * The note a view shows when fit() changed what it shows, or undefined: "2 values were shortened and 1
 * dropped: species[0] (312 characters), jid (5,000 characters); dropped: finalPoscar." `label` names a path.
 */
export function fittingNote(f: Fitting, label: (path: string) => string = (p) => p, most = 5): string | undefined {
  if (f.shortened.length === 0 && f.dropped.length === 0) return undefined;
  const cut = f.shortened.map((s) => `${label(s.path)} (${s.length.toLocaleString('en-US')} characters)`);
  const gone = f.dropped.map((d) => (d.count > 1 ? `${label(d.path)} (${d.count.toLocaleString('en-US')} items)` : label(d.path)));
  const some = (names: string[]): string =>
    names.length > most ? `${names.slice(0, most).join(', ')} and ${(names.length - most).toLocaleString('en-US')} more` : names.join(', ');
  const lists = [...(cut.length ? [some(cut)] : []), ...(gone.length ? [`dropped: ${some(gone)}`] : [])];
  return `${counts(f)} to fit the view: ${lists.join('; ')}.`.replace(/^./, (c) => c.toUpperCase());
}

/** Every path in `shape` that holds a text, with its shape (lists are entered at item 0, options of a pick each in turn). */
export function textPaths(shape: Shape, path = ''): { path: string; shape: Extract<Shape, { type: 'text' }>; option: string[] }[] {
  switch (shape.type) {
    case 'text':
      return [{ path, shape, option: [] }];
    case 'test':
      return [];
    case 'optional':
      return textPaths(shape.shape, path);
    case 'list':
      return textPaths(shape.item, join(path, 0));
    case 'record':
      return Object.entries(shape.fields).flatMap(([name, field]) => textPaths(field, join(path, name)));
    case 'pick':
      return Object.entries(shape.options).flatMap(([name, option]) =>
        textPaths(option, path).map((t) => ({ ...t, option: [name, ...t.option] })),
      );
  }
}

/** A value of the shape with every optional part present and one item in every list (`option`: which option of each pick, in order). */
export function example(shape: Shape, option: string[] = []): unknown {
  const options = [...option];
  const make = (s: Shape): unknown => {
    switch (s.type) {
      case 'text':
        return s.example ?? 'x';
      case 'test':
        return s.example;
      case 'optional':
        return make(s.shape);
      case 'list':
        return [make(s.item)];
      case 'record':
        return Object.fromEntries(Object.entries(s.fields).map(([name, field]) => [name, make(field)]));
      case 'pick': {
        const name = options.shift() ?? Object.keys(s.options)[0]!;
        return { ...(make(s.options[name]!) as object), [s.by]: name };
      }
    }
  };
  return make(shape);
}
