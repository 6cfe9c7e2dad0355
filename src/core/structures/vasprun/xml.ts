/**
 * A small, tolerant, incremental XML tokenizer for vasprun.xml: text arrives in slices cut anywhere (inside
 * a tag, an attribute, a comment or an entity) and is never kept whole. It reports start tags (name,
 * attributes), end tags and, only while the consumer asks for it, the text between them; comments, CDATA,
 * processing instructions and declarations are skipped. It tracks the line and column (UTF-16 units, as the
 * editor counts them; \r\n, \r and \n end a line) of every tag. Pure: no `vscode`.
 *
 * Bounded: what it holds between slices is at most one unfinished tag (MAX_TAG characters) or the last
 * two characters of an unfinished comment; each character is looked at a constant number of times.
 */

/** A tag longer than this is not vasprun.xml's: it is skipped and reported. */
export const MAX_TAG = 4096;

export interface TagPosition {
  /** 0-based line and column of the '<'. */
  line: number;
  column: number;
  /** The column after the '>' when the tag ends on its own line, else the column after the '<'. */
  end: number;
}

/**
 * A start tag's attributes, read from its text only when asked for: most tags' never are. Valid only during
 * the `open` call it is passed to (the tokenizer reuses it).
 */
export class Attributes {
  private data = '';
  private from = 0;
  private to = 0;

  /** The tag's characters between its name and its '>' are data[from, to). */
  set(data: string, from: number, to: number): this {
    this.data = data;
    this.from = from;
    this.to = to;
    return this;
  }

  /** The value of the last attribute `name` (as a Map built in order would hold it), undefined without one. */
  get(name: string): string | undefined {
    const body = this.data.slice(this.from, this.to);
    if (body.indexOf('=') < 0) return undefined;
    let value: string | undefined;
    for (const [key, text] of attributePairs(body)) if (key === name) value = text;
    return value;
  }
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
const isNameEnd = (c: string | undefined): boolean => c === undefined || c === '=' || c === '/' || isSpace(c);

/**
 * The `name="value"` or `name='value'` pairs of a tag's body, in order, in one pass: a scan that meets something else
 * goes on from where it is. (An unanchored regex retried a long name from each of its characters: quadratic per tag.)
 */
function* attributePairs(body: string): Generator<[string, string]> {
  let at = 0;
  while (at < body.length) {
    const start = at;
    while (!isNameEnd(body[at])) at++;
    if (at === start) {
      at++;
      continue;
    }
    const name = body.slice(start, at);
    while (isSpace(body[at])) at++;
    if (body[at] !== '=') continue;
    at++;
    while (isSpace(body[at])) at++;
    const quote = body[at];
    if (quote !== '"' && quote !== "'") continue;
    const end = body.indexOf(quote, at + 1);
    if (end < 0) {
      at++;
      continue;
    }
    yield [name, body.slice(at + 1, end)];
    at = end + 1;
  }
}

export interface XmlHandler {
  open(name: string, attributes: Attributes, at: TagPosition, selfClosing: boolean): void;
  close(name: string, at: TagPosition): void;
  /** Text between tags, in pieces, only while `wantsText` is true (entities are not decoded). */
  text(piece: string): void;
  readonly wantsText: boolean;
  /** Markup the tokenizer could not read: a tag too long, or the file ends inside one. */
  problem(code: 'xml-long-tag' | 'xml-unfinished', at: TagPosition, message: string): void;
}

type Skip = { until: string; what: string } | null;

export class XmlTokenizer {
  /** Characters kept from the previous slice: an unfinished tag or the tail of an unfinished comment. */
  private carry = '';
  /** Absolute offset of carry's first character. */
  private base = 0;
  private skip: Skip = null;
  /** Current line (0-based) and the absolute offset where it starts. */
  private line = 0;
  private lineStart = 0;
  /** The last character seen was '\r' (a following '\n' belongs to the same line break). */
  private afterCR = false;
  private unfinished: { at: TagPosition; what: string } | null = null;
  /** The slice last searched for '\r' and where its next one is (-1: none). */
  private slice = 0;
  private crSlice = -1;
  private crAt = -1;
  private nlSlice = -1;
  private nlAt = -1;

  private readonly attributes = new Attributes();

  constructor(private readonly handler: XmlHandler) {}

  /** The position after everything pushed so far (for a problem at the end). */
  get end(): TagPosition {
    const column = this.base + this.carry.length - this.lineStart;
    return { line: this.line, column, end: column };
  }

  push(chunk: string): void {
    if (chunk.length === 0) return;
    this.slice++;
    const data = this.carry.length ? this.carry + chunk : chunk;
    const base = this.base;
    this.carry = '';
    let pos = 0;
    const n = data.length;
    while (pos < n) {
      if (this.skip) {
        pos = this.skipped(data, pos, base);
        if (pos < 0) return;
        continue;
      }
      const lt = data.indexOf('<', pos);
      const textEnd = lt < 0 ? n : lt;
      if (textEnd > pos) {
        if (this.handler.wantsText) this.handler.text(data.slice(pos, textEnd));
        this.lines(data, pos, textEnd, base);
      }
      if (lt < 0) break;
      pos = this.markup(data, lt, base);
      if (pos < 0) return;
    }
    this.base = base + n;
  }

  /** Passes over what is being skipped up to its terminator: the offset after it, or -1 when this slice does not hold it. */
  private skipped(data: string, pos: number, base: number): number {
    const { until } = this.skip!;
    const found = data.indexOf(until, pos);
    if (found < 0) {
      // Keep the last characters: the terminator may start in them.
      const keep = Math.max(pos, data.length - (until.length - 1));
      this.lines(data, pos, keep, base);
      this.keep(data, keep, base);
      return -1;
    }
    this.lines(data, pos, found + until.length, base);
    this.skip = null;
    this.unfinished = null;
    return found + until.length;
  }

  /** The markup at data[lt] ('<'): the offset after it, or -1 when it goes on in the next slice (it is kept). */
  private markup(data: string, lt: number, base: number): number {
    const n = data.length;
    const column = base + lt - this.lineStart;
    const line = this.line;
    // Comments, CDATA, processing instructions and declarations: skipped to their end.
    if (n - lt < 9 && isPrefixOfSpecial(data, lt)) {
      this.keep(data, lt, base);
      return -1;
    }
    const special = specialAt(data, lt);
    if (special) {
      this.skipFrom({ line, column, end: column + 1 }, special.until, special.what);
      this.lines(data, lt, lt + special.open, base);
      return lt + special.open;
    }
    // A tag: up to the '>' outside quotes, looked for no further than MAX_TAG characters.
    const limit = Math.min(n, lt + MAX_TAG + 1);
    const i = tagEnd(data, lt + 1, limit);
    // Too long: skipped to the next '>', quoted or not, the same wherever the slices were cut.
    if (i === limit && limit - lt > MAX_TAG) {
      const at = { line, column, end: column + 1 };
      this.handler.problem('xml-long-tag', at, `a tag longer than ${MAX_TAG} characters starts here: it is skipped`);
      this.skipFrom(at, '>', 'tag');
      this.lines(data, lt, lt + 1, base);
      return lt + 1;
    }
    if (i >= n) {
      this.keep(data, lt, base);
      return -1;
    }
    this.lines(data, lt, i + 1, base);
    const end = this.line === line ? base + i + 1 - this.lineStart : column + 1;
    this.tag(data, lt + 1, i, { line, column, end });
    return i + 1;
  }

  private skipFrom(at: TagPosition, until: string, what: string): void {
    this.skip = { until, what };
    this.unfinished = { at, what };
  }

  /** The end of the text: a construct left open is reported. */
  finish(): void {
    this.slice++;
    const at = this.unfinished?.at ?? (this.carry.length ? this.position(this.base) : null);
    if (at) {
      const what = this.unfinished?.what ?? 'tag';
      this.handler.problem('xml-unfinished', at, `the file ends inside this ${what}`);
    }
    this.lines(this.carry, 0, this.carry.length, this.base);
    this.base += this.carry.length;
    this.carry = '';
  }

  private keep(data: string, from: number, base: number): void {
    this.carry = data.slice(from);
    this.base = base + from;
  }

  /** The tag whose text (between '<' and '>') is data[from, to). */
  private tag(data: string, from: number, to: number, at: TagPosition): void {
    if (data.charCodeAt(from) === 47 /* / */) {
      this.handler.close(data.slice(from + 1, nameEnd(data, from + 1, to)), at);
      return;
    }
    const selfClosing = to > from && data.charCodeAt(to - 1) === 47;
    const end = nameEnd(data, from, to);
    const name = data.slice(from, end);
    this.handler.open(name, this.attributes.set(data, end, to), at, selfClosing);
    if (selfClosing) this.handler.close(name, at);
  }

  private position(absolute: number): TagPosition {
    const column = absolute - this.lineStart;
    return { line: this.line, column, end: column + 1 };
  }

  /** Counts the line breaks in data[from, to) (data[0] is at absolute offset base). */
  private lines(data: string, from: number, to: number, base: number): void {
    if (from >= to) return;
    if (this.afterCR && data.charCodeAt(from) === 10) {
      this.lineStart = base + from + 1;
      from++;
    }
    this.afterCR = false;
    // The next '\r' of this slice, looked up again only once passed: a search per call would be quadratic.
    if (this.crSlice !== this.slice || (this.crAt >= 0 && this.crAt < from)) {
      this.crSlice = this.slice;
      this.crAt = data.indexOf('\r', from);
    }
    const cr = this.crAt;
    if (cr < 0 || cr >= to) {
      // The same for '\n': a long stretch without one must not be searched again on every call.
      if (this.nlSlice !== this.slice || (this.nlAt >= 0 && this.nlAt < from)) {
        this.nlSlice = this.slice;
        this.nlAt = data.indexOf('\n', from);
      }
      for (; this.nlAt >= 0 && this.nlAt < to; this.nlAt = data.indexOf('\n', this.nlAt + 1)) {
        this.line++;
        this.lineStart = base + this.nlAt + 1;
      }
      return;
    }
    for (let i = from; i < to; i++) {
      const c = data.charCodeAt(i);
      if (c === 10) {
        this.line++;
        this.lineStart = base + i + 1;
      } else if (c === 13) {
        this.line++;
        if (i + 1 < to && data.charCodeAt(i + 1) === 10) i++;
        else if (i + 1 === to) this.afterCR = true;
        this.lineStart = base + i + 1;
      }
    }
  }
}

const SPECIALS = [
  { start: '<!--', until: '-->', what: 'comment' },
  { start: '<![CDATA[', until: ']]>', what: 'CDATA section' },
  { start: '<?', until: '?>', what: 'processing instruction' },
  { start: '<!', until: '>', what: 'declaration' },
] as const;

function specialAt(data: string, at: number): { until: string; what: string; open: number } | undefined {
  if (data.charCodeAt(at + 1) !== 33 /* ! */ && data.charCodeAt(at + 1) !== 63 /* ? */) return undefined;
  for (const s of SPECIALS) if (data.startsWith(s.start, at)) return { until: s.until, what: s.what, open: s.start.length };
  return undefined;
}

/** Whether the characters from `at` to the end could still become the start of a comment, CDATA, … */
function isPrefixOfSpecial(data: string, at: number): boolean {
  const rest = data.slice(at, at + 9);
  if (rest.length < 2) return true; // '<' alone: anything may follow
  // '<!' or '<!-' may become a comment, '<![CD' a CDATA section: wait for more.
  return SPECIALS.some((s) => s.start.length > rest.length && s.start.startsWith(rest));
}

/** The offset of the '>' that ends a tag, outside quotes, looked for from `from` up to `limit` (`limit`: none). */
function tagEnd(data: string, from: number, limit: number): number {
  let i = from;
  let quote = 0;
  for (; i < limit; i++) {
    const c = data.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 62 /* > */) break;
    else if (c === 34 || c === 39) quote = c;
  }
  return i;
}

/** Where the tag name starting at `from` ends (at whitespace, '/' or `to`). */
function nameEnd(data: string, from: number, to: number): number {
  let i = from;
  while (i < to) {
    const c = data.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 12) break;
    i++;
  }
  return i;
}
