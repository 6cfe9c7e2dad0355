/**
 * JSON.parse in resumable steps: the same values (and the same refusals) as JSON.parse, but a generator that
 * yields about every `every` characters, so a caller can parse a 30 MB tokenizer.json in time slices instead of
 * blocking the editor for the second JSON.parse takes. Iterative (a file nested a million deep is no stack
 * overflow), linear in the text; strings and numbers are cut out here and read natively. Pure.
 */
import { runToEnd } from './steps';
import { yieldToEventLoop } from './yield';

/** A text nested deeper than the caller allows: refused at the first container past the limit. */
export class JsonDepthError extends Error {
  constructor(
    readonly maxDepth: number,
    readonly position: number,
  ) {
    super(`nested more than ${maxDepth} levels deep at position ${position}`);
    this.name = 'JsonDepthError';
  }
}

export class JsonSyntaxError extends SyntaxError {
  constructor(
    readonly what: string,
    readonly position: number,
  ) {
    super(`${what} at position ${position}`);
    this.name = 'JsonSyntaxError';
  }
}

/** An object with more members than the caller allows (parseJsonSteps' maxObjectMembers), refused as it is read. */
export class JsonSizeError extends Error {
  constructor(
    readonly limit: number,
    readonly position: number,
  ) {
    super(`An object has more than ${limit} members at position ${position}`);
    this.name = 'JsonSizeError';
  }
}

type Container = { array: unknown[] } | { object: Record<string, unknown>; key: string; size: number };

/**
 * A value parseJsonSteps was asked to skip (JsonLimits.skip): its place in the text, [start, end), for a reader of
 * its own, and its members (an object's or array's; 0 for a scalar or an empty container). The text up to its end
 * is known to hold no unterminated string; anything else about it is the reader's to check.
 */
export class JsonSpan {
  constructor(
    readonly start: number,
    readonly end: number,
    readonly members: number,
  ) {}
}

/** The characters' worth of work one closed container counts for between yields. */
const CLOSE_COST = 32;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: readonly [string, unknown][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

/** Sets a member as JSON.parse does: an own data property, even for "__proto__". */
function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/**
 * A copy of a string cut out of the text: V8 makes a slice of 13 units or more a view that keeps the whole text
 * alive (30 MB and more of a tokenizer.json, for one added token kept). A concatenation flattened is a string of its own.
 */
function detached(s: string): string {
  return s.length < 13 ? s : ` ${s}`.slice(1);
}

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  skipSpace(): number {
    const text = this.text;
    let pos = this.pos;
    for (let c = text.charCodeAt(pos); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(pos)) pos++;
    this.pos = pos;
    return text.charCodeAt(pos);
  }

  fail(what?: string): never {
    const at = this.pos;
    throw new JsonSyntaxError(
      what ?? (at >= this.text.length ? 'Unexpected end of JSON input' : `Unexpected ${JSON.stringify(this.text[at])}`),
      at,
    );
  }

  expect(code: number): void {
    if (this.skipSpace() !== code) this.fail();
    this.pos++;
  }

  /** A string from its opening quote: sliced as it is, or read by JSON.parse when it holds escapes or control characters. */
  string(): string {
    const text = this.text;
    const start = this.pos;
    let pos = start + 1;
    let plain = true;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) break;
      if (c !== c) this.fail('Unterminated string');
      if (c === 0x5c) {
        plain = false;
        pos += 2;
        continue;
      }
      if (c < 0x20) plain = false;
      pos++;
    }
    this.pos = pos + 1;
    if (plain) return detached(text.slice(start + 1, pos));
    try {
      return JSON.parse(text.slice(start, pos + 1)) as string;
    } catch {
      this.pos = start;
      return this.fail('Bad string');
    }
  }

  /** A number, true, false or null. */
  scalar(code: number): unknown {
    if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      NUMBER.lastIndex = this.pos;
      const match = NUMBER.exec(this.text);
      if (!match) this.fail();
      this.pos += match[0].length;
      return Number(match[0]);
    }
    for (const [word, value] of LITERALS) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.fail();
  }
}

export interface JsonLimits {
  maxDepth?: number;
  maxObjectMembers?: number;
  /**
   * Members not to build, by their keys from the top (["model", "vocab"]): each is found and counted but left in the
   * text, a JsonSpan in its place, for a reader that needs no strings or objects of it (an object's members still
   * count against maxObjectMembers).
   */
  skip?: readonly (readonly string[])[];
}

/**
 * Parses `text` as JSON.parse does, yielding about every `every` characters; the generator's value is the result.
 * A container opened more than `maxDepth` levels deep is a JsonDepthError (JSON.parse has no such limit); an object
 * with more than `maxObjectMembers` members is a JsonSizeError (before the work and memory it would take).
 */
export function* parseJsonSteps(text: string, every = 1 << 16, limits: JsonLimits = {}): Generator<void, unknown> {
  const { maxDepth = Infinity, maxObjectMembers = Infinity, skip = [] } = limits;
  const r = new Reader(text);
  const stack: Container[] = [];
  let nextYield = every;
  let value: unknown;
  for (;;) {
    if (r.pos >= nextYield) {
      yield;
      nextYield = r.pos + every;
    }
    const code = r.skipSpace();
    if (skip.length && skip.some((keys) => at(stack, keys))) {
      value = yield* skipValue(r, every, maxObjectMembers);
      nextYield = r.pos + every;
    } else if (code === 0x5b || code === 0x7b) {
      // Opening a container: read its first member (or see that it is empty).
      if (stack.length >= maxDepth) throw new JsonDepthError(maxDepth, r.pos);
      r.pos++;
      const close = code === 0x5b ? 0x5d : 0x7d;
      if (r.skipSpace() === close) {
        r.pos++;
        value = code === 0x5b ? [] : {};
      } else {
        stack.push(code === 0x5b ? { array: [] } : { object: {}, key: readKey(r), size: 1 });
        continue;
      }
    } else if (code === 0x22) value = r.string();
    else value = r.scalar(code);
    // A value is complete: hand it to its container, closing every container it completes.
    for (;;) {
      const top = stack.at(-1);
      if (!top) {
        r.skipSpace();
        if (r.pos < text.length) r.fail();
        return value;
      }
      if ('array' in top) top.array.push(value);
      else setMember(top.object, top.key, value);
      const next = r.skipSpace();
      r.pos++;
      if (next === 0x2c) {
        if ('object' in top) {
          if (++top.size > maxObjectMembers) {
            r.skipSpace(); // at the member too many
            throw new JsonSizeError(maxObjectMembers, r.pos);
          }
          top.key = readKey(r);
        }
        break;
      }
      if (next !== ('array' in top ? 0x5d : 0x7d)) {
        r.pos--;
        r.fail();
      }
      stack.pop();
      value = 'array' in top ? top.array : top.object;
      // A level closed costs about as much as CLOSE_COST characters read (measured: a file nested 100,000 deep
      // closed in one step of 0.4-0.9 s), so a deep nest is closed in slices too.
      nextYield -= CLOSE_COST;
      if (r.pos >= nextYield) {
        yield;
        nextYield = r.pos + every;
      }
    }
  }
}

/** Whether the value about to be read is the member at `keys` (every container on the stack an object). */
function at(stack: readonly Container[], keys: readonly string[]): boolean {
  if (stack.length !== keys.length) return false;
  return stack.every((c, i) => 'key' in c && c.key === keys[i]);
}

/**
 * Finds the end of the value at r.pos without building it, yielding about every `every` characters: strings are
 * passed by indexOf, brackets only counted (their kinds are the reader's to check), and the members at the first
 * level counted, an object's against maxMembers.
 */
function* skipValue(r: Reader, every: number, maxMembers: number): Generator<void, JsonSpan> {
  const text = r.text;
  const start = r.pos;
  const open = text.charCodeAt(start);
  if (open !== 0x5b && open !== 0x7b) {
    if (open === 0x22) r.string();
    else r.scalar(open);
    return new JsonSpan(start, r.pos, 0);
  }
  let depth = 0;
  let commas = 0;
  let empty = true;
  let nextYield = start + every;
  for (let pos = start; ; pos++) {
    if (pos >= nextYield) {
      yield;
      nextYield = pos + every;
    }
    const c = text.charCodeAt(pos);
    if (c === 0x22) pos = stringEnd(r, pos);
    else if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) {
      if (--depth === 0) {
        r.pos = pos + 1;
        return new JsonSpan(start, pos + 1, empty ? 0 : commas + 1);
      }
    } else if (c === 0x2c && depth === 1) {
      if (++commas >= maxMembers && open === 0x7b) {
        r.pos = pos + 1;
        r.skipSpace(); // at the member too many
        throw new JsonSizeError(maxMembers, r.pos);
      }
    } else if (c !== c) {
      r.pos = pos;
      r.fail();
    }
    if (empty && pos > start && c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) empty = false;
  }
}

/** The position of the quote that closes the string opened at `open` (a quote after an odd run of backslashes is escaped). */
function stringEnd(r: Reader, open: number): number {
  const text = r.text;
  for (let q = text.indexOf('"', open + 1); ; q = text.indexOf('"', q + 1)) {
    if (q < 0) {
      r.pos = open;
      r.fail('Unterminated string');
    }
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return q;
  }
}

function readKey(r: Reader): string {
  if (r.skipSpace() !== 0x22) r.fail();
  const key = r.string();
  r.expect(0x3a);
  return key;
}

/** Parses in steps of about `every` characters, letting the event loop run between them. */
export async function parseJsonSliced(text: string, maxDepth = Infinity, every = 1 << 16): Promise<unknown> {
  const steps = parseJsonSteps(text, every, { maxDepth });
  for (let next = steps.next(); ; next = steps.next()) {
    if (next.done) return next.value;
    await yieldToEventLoop();
  }
}

/** Runs parseJsonSteps to the end in one go (for callers with no time budget). */
export function parseJson(text: string): unknown {
  return runToEnd(parseJsonSteps(text, Infinity));
}
