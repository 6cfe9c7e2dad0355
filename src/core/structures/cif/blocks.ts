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
  const blocks: Block[] = [];
  const names = new Map<string, number>();
  let block: Block | undefined;
  let k = 0;

  let stray: Token | undefined;
  const outside = (t: Token): void => {
    stray ??= t;
  };
  const compound = (t: Token): void => {
    if (t.kind === 'compound')
      report.warning(
        'cif2-compound',
        { line: t.line, start: t.start, end: t.end },
        `a CIF 2.0 ${t.text} ([...] or {...}): its contents are not read (no item a structure is read from is a ${t.text})`,
      );
  };
  const extend = (t: Token): void => {
    if (block) block.lines.last = Math.max(block.lines.last, lastLine(t));
  };
  const claim = (key: string, tag: Token): boolean => {
    if (!block) return false;
    if (block.items.has(key) || block.looped.has(key)) {
      report.warning(
        'duplicate-tag',
        { line: tag.line, start: tag.start, end: tag.end },
        `${quote(tag.text)} is given twice in block ${quote(block.name)}; the first is used`,
      );
      return false;
    }
    return true;
  };

  while (k < tokens.length) {
    const t = tokens[k]!;
    switch (t.kind) {
      case 'data': {
        const lower = t.text.toLowerCase();
        const seen = names.get(lower);
        if (seen !== undefined && t.text.length > 0)
          report.warning(
            'duplicate-block',
            { line: t.line, start: t.start, end: t.end },
            `a second block named ${quote(t.text)} (the first is on line ${seen + 1})`,
          );
        else names.set(lower, t.line);
        block = { name: t.text, head: t, lines: { first: t.line, last: t.line }, items: new Map(), loops: [], looped: new Map() };
        blocks.push(block);
        k++;
        break;
      }
      case 'tag': {
        k++;
        const next = tokens[k];
        if (!isValue(next)) {
          if (t.text.toLowerCase() === '_eof') {
            report.warning(
              'eof-tag',
              { line: t.line, start: t.start, end: t.end },
              '"_eof" is not CIF (some programs end a file with it): ignored',
            );
            break;
          }
          report.error(
            'missing-value',
            { line: t.line, start: t.start, end: t.end },
            `${quote(t.text)} has no value (write ? when it is unknown)`,
          );
          extend(t);
          break;
        }
        k++;
        if (!block) {
          outside(t);
          break;
        }
        compound(next!);
        extend(next!);
        const key = normaliseTag(t.text);
        if (claim(key, t)) block.items.set(key, { tag: t, value: next! });
        break;
      }
      case 'loop': {
        k++;
        const tags: Token[] = [];
        while (tokens[k]?.kind === 'tag') tags.push(tokens[k++]!);
        const values: Token[] = [];
        while (isValue(tokens[k])) values.push(tokens[k++]!);
        if (block) values.forEach(compound);
        if (!block) {
          outside(t);
          break;
        }
        extend(t);
        if (tags.length === 0) {
          report.error('empty-loop', { line: t.line, start: t.start, end: t.end }, 'loop_ must be followed by the tags it lists');
          break;
        }
        const lastToken = values[values.length - 1] ?? tags[tags.length - 1]!;
        extend(lastToken);
        const rows = Math.floor(values.length / tags.length);
        const rest = values.length - rows * tags.length;
        if (values.length === 0)
          report.warning(
            'loop-without-values',
            { line: t.line, start: t.start, end: t.end },
            `this loop of ${plural(tags.length, 'tag')} has no values`,
          );
        else if (rest !== 0)
          report.error(
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
          if (claim(key, tag)) block!.looped.set(key, { loop, column: c });
        });
        block.loops.push(loop);
        break;
      }
      case 'save': {
        // A save frame (a dictionary definition): skipped up to its closing "save_".
        const open = t;
        k++;
        while (k < tokens.length && !(tokens[k]!.kind === 'save' && tokens[k]!.text === '') && tokens[k]!.kind !== 'data') k++;
        const closed = tokens[k]?.kind === 'save';
        if (closed) k++;
        report.warning(
          'save-frame',
          { line: open.line, start: open.start, end: open.end },
          closed
            ? 'save frames (used by dictionaries) hold no structure: this one is skipped'
            : 'this save frame is never closed by "save_": the rest of the block is skipped',
        );
        extend(tokens[k - 1]!);
        break;
      }
      case 'global': {
        report.warning(
          'global-block',
          { line: t.line, start: t.start, end: t.end },
          'a global_ block is not part of CIF: it is skipped up to the next data_ block',
        );
        k++;
        while (k < tokens.length && tokens[k]!.kind !== 'data') k++;
        block = undefined;
        break;
      }
      case 'stop': {
        report.warning(
          'stop-ignored',
          { line: t.line, start: t.start, end: t.end },
          'stop_ (nested STAR loops) is not part of CIF: it is ignored',
        );
        k++;
        break;
      }
      default: {
        // A value with no tag before it.
        if (!block) outside(t);
        else
          report.error(
            'value-without-tag',
            { line: t.line, start: t.start, end: t.end },
            `${quote(t.text)} is a value with no tag before it (a value with a space must be quoted)`,
          );
        extend(t);
        k++;
      }
    }
  }
  if (stray) {
    const range = { line: stray.line, start: stray.start, end: stray.end };
    if (blocks.length === 0) report.error('no-data-block', range, 'no data block: a CIF holds its data after a "data_NAME" line');
    else report.error('outside-block', range, 'data must follow a "data_NAME" line: this is outside any data block');
  }
  return blocks;
}
