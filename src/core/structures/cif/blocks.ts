/**
 * CIF data blocks from tokens: `data_NAME` starts a block; inside it a tag is followed by one value, and
 * `loop_` is followed by tags and then rows of values, one per tag, row after row (CIF 1.1 syntax, see
 * lexer.ts). Save frames (dictionaries), `global_` and STAR's `stop_` are not used by structure files: they
 * are skipped with a diagnostic.
 *
 * Tags are matched without regard to letter case, and a CIF 2.0 (DDLm) name `_cell.length_a` is the same
 * item as the CIF 1.1 name `_cell_length_a`: keys are lower-cased with '.' read as '_'.
 *
 * Total: never throws; linear in the tokens.
 */
import type { Report } from '../../poscar/report';
import { plural, quote } from '../../poscar/report';
import type { LineSpan } from '../types';
import type { Token } from './lexer';

export interface Loop {
  tags: Token[];
  /** Normalised keys of the tags, in order. */
  keys: string[];
  /** Row-major: values[row * tags.length + column]. Only complete rows. */
  values: Token[];
  rows: number;
  lines: LineSpan;
}

export interface Block {
  name: string;
  /** The `data_` token. */
  head: Token;
  lines: LineSpan;
  /** Every item outside loops, by key. */
  items: Map<string, { tag: Token; value: Token }>;
  loops: Loop[];
  /** Where each looped key lives. */
  looped: Map<string, { loop: Loop; column: number }>;
}

/** Lower case, and DDLm's '.' between category and attribute read as DDL1's '_'. */
export const normaliseTag = (tag: string): string => tag.toLowerCase().replace(/\./g, '_');

const lastLine = (t: Token): number => t.lastLine ?? t.line;

/** The values of an item: one for a single item, a column for a looped one; undefined when absent. */
export function column(block: Block, key: string): Token[] | undefined {
  const single = block.items.get(key);
  if (single) return [single.value];
  const where = block.looped.get(key);
  if (!where) return undefined;
  const { loop, column: c } = where;
  const out: Token[] = new Array<Token>(loop.rows);
  for (let r = 0; r < loop.rows; r++) out[r] = loop.values[r * loop.tags.length + c]!;
  return out;
}

/** The first of these keys the block has, with its values. */
export function firstColumn(block: Block, keys: readonly string[]): { key: string; values: Token[] } | undefined {
  for (const key of keys) {
    const values = column(block, key);
    if (values) return { key, values };
  }
  return undefined;
}

const isValue = (t: Token | undefined): boolean => t !== undefined && (t.kind === 'value' || t.kind === 'compound');

export function readBlocks(tokens: readonly Token[], report: Report): Block[] {
  return new BlockReader(tokens, report).read();
}

class BlockReader {
  readonly blocks: Block[] = [];
  private readonly names = new Map<string, number>();
  private block: Block | undefined;
  private k = 0;
  private stray: Token | undefined;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly report: Report,
  ) {}

  read(): Block[] {
    while (this.k < this.tokens.length) {
      const t = this.tokens[this.k]!;
      if (t.kind === 'data') this.data(t);
      else if (t.kind === 'tag') this.tag(t);
      else if (t.kind === 'loop') this.loop(t);
      else if (t.kind === 'save') this.save(t);
      else if (t.kind === 'global') this.global(t);
      else if (t.kind === 'stop') this.stop(t);
      else this.value(t);
    }
    const { stray } = this;
    if (stray) {
      const range = { line: stray.line, start: stray.start, end: stray.end };
      if (this.blocks.length === 0)
        this.report.error('no-data-block', range, 'no data block: a CIF holds its data after a "data_NAME" line');
      else this.report.error('outside-block', range, 'data must follow a "data_NAME" line: this is outside any data block');
    }
    return this.blocks;
  }

  private outside(t: Token): void {
    this.stray ??= t;
  }

  private compound(t: Token): void {
    if (t.kind === 'compound')
      this.report.warning(
        'cif2-compound',
        { line: t.line, start: t.start, end: t.end },
        `a CIF 2.0 ${t.text} ([...] or {...}): its contents are not read (no item a structure is read from is a ${t.text})`,
      );
  }

  private extend(t: Token): void {
    if (this.block) this.block.lines.last = Math.max(this.block.lines.last, lastLine(t));
  }

  private claim(key: string, tag: Token): boolean {
    const { block } = this;
    if (!block) return false;
    if (block.items.has(key) || block.looped.has(key)) {
      this.report.warning(
        'duplicate-tag',
        { line: tag.line, start: tag.start, end: tag.end },
        `${quote(tag.text)} is given twice in block ${quote(block.name)}; the first is used`,
      );
      return false;
    }
    return true;
  }

  private data(t: Token): void {
    const lower = t.text.toLowerCase();
    const seen = this.names.get(lower);
    if (seen !== undefined && t.text.length > 0)
      this.report.warning(
        'duplicate-block',
        { line: t.line, start: t.start, end: t.end },
        `a second block named ${quote(t.text)} (the first is on line ${seen + 1})`,
      );
    else this.names.set(lower, t.line);
    this.block = { name: t.text, head: t, lines: { first: t.line, last: t.line }, items: new Map(), loops: [], looped: new Map() };
    this.blocks.push(this.block);
    this.k++;
  }

  private tag(t: Token): void {
    this.k++;
    const next = this.tokens[this.k];
    if (!isValue(next)) {
      if (t.text.toLowerCase() === '_eof') {
        this.report.warning(
          'eof-tag',
          { line: t.line, start: t.start, end: t.end },
          '"_eof" is not CIF (some programs end a file with it): ignored',
        );
        return;
      }
      this.report.error(
        'missing-value',
        { line: t.line, start: t.start, end: t.end },
        `${quote(t.text)} has no value (write ? when it is unknown)`,
      );
      this.extend(t);
      return;
    }
    this.k++;
    if (!this.block) {
      this.outside(t);
      return;
    }
    this.compound(next!);
    this.extend(next!);
    const key = normaliseTag(t.text);
    if (this.claim(key, t)) this.block.items.set(key, { tag: t, value: next! });
  }

  private loop(t: Token): void {
    this.k++;
    const tags: Token[] = [];
    while (this.tokens[this.k]?.kind === 'tag') tags.push(this.tokens[this.k++]!);
    const values: Token[] = [];
    while (isValue(this.tokens[this.k])) values.push(this.tokens[this.k++]!);
    if (this.block) values.forEach((v) => this.compound(v));
    if (!this.block) {
      this.outside(t);
      return;
    }
    this.extend(t);
    if (tags.length === 0) {
      this.report.error('empty-loop', { line: t.line, start: t.start, end: t.end }, 'loop_ must be followed by the tags it lists');
      return;
    }
    const lastToken = values[values.length - 1] ?? tags[tags.length - 1]!;
    this.extend(lastToken);
    const rows = Math.floor(values.length / tags.length);
    const rest = values.length - rows * tags.length;
    if (values.length === 0)
      this.report.warning(
        'loop-without-values',
        { line: t.line, start: t.start, end: t.end },
        `this loop of ${plural(tags.length, 'tag')} has no values`,
      );
    else if (rest !== 0)
      this.report.error(
        'loop-incomplete-row',
        { line: lastToken.line, start: lastToken.start, end: lastToken.end },
        `the last row of this loop is incomplete: ${plural(tags.length, 'tag')} need ${tags.length} values a row, the last row has ${rest} (a value with a space must be quoted; an unknown one is ?)`,
      );
    const loop: Loop = {
      tags,
      keys: [],
      values: values.slice(0, rows * tags.length),
      rows,
      lines: { first: t.line, last: lastLine(lastToken) },
    };
    tags.forEach((tag, c) => {
      const key = normaliseTag(tag.text);
      loop.keys.push(key);
      if (this.claim(key, tag)) this.block!.looped.set(key, { loop, column: c });
    });
    this.block.loops.push(loop);
  }

  private save(t: Token): void {
    // A save frame (a dictionary definition): skipped up to its closing "save_".
    const open = t;
    this.k++;
    while (
      this.k < this.tokens.length &&
      !(this.tokens[this.k]!.kind === 'save' && this.tokens[this.k]!.text === '') &&
      this.tokens[this.k]!.kind !== 'data'
    )
      this.k++;
    const closed = this.tokens[this.k]?.kind === 'save';
    if (closed) this.k++;
    this.report.warning(
      'save-frame',
      { line: open.line, start: open.start, end: open.end },
      closed
        ? 'save frames (used by dictionaries) hold no structure: this one is skipped'
        : 'this save frame is never closed by "save_": the rest of the block is skipped',
    );
    this.extend(this.tokens[this.k - 1]!);
  }

  private global(t: Token): void {
    this.report.warning(
      'global-block',
      { line: t.line, start: t.start, end: t.end },
      'a global_ block is not part of CIF: it is skipped up to the next data_ block',
    );
    this.k++;
    while (this.k < this.tokens.length && this.tokens[this.k]!.kind !== 'data') this.k++;
    this.block = undefined;
  }

  private stop(t: Token): void {
    this.report.warning(
      'stop-ignored',
      { line: t.line, start: t.start, end: t.end },
      'stop_ (nested STAR loops) is not part of CIF: it is ignored',
    );
    this.k++;
  }

  /** A value with no tag before it. */
  private value(t: Token): void {
    // A value with no tag before it.
    if (!this.block) this.outside(t);
    else
      this.report.error(
        'value-without-tag',
        { line: t.line, start: t.start, end: t.end },
        `${quote(t.text)} is a value with no tag before it (a value with a space must be quoted)`,
      );
    this.extend(t);
    this.k++;
  }
}
