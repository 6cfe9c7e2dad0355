import type * as vscode from 'vscode';
import { config } from '../../platform/config';
import { CancelledError, countAsync, ENCODING_NAMES, findTokenizer, loadTokenizer } from '../../core/tokenizers/index';
import type { DocumentCounts } from './documentCounts';
import type { CountSummary } from '../../core/counts/summary';

type Comparison = CountSummary['comparisons'][number];

/**
 * The same text counted with the other encodings, for the tooltip and the count command. One result
 * is kept, keyed by document version, selection, tokenizer and special-token mode: a cursor move or
 * a pause recounts nothing. The whole document is counted through DocumentCounts, whose indexes
 * follow edits incrementally, so after typing only the edited pieces are counted again.
 */
export class Comparisons {
  private last: { key: string; result: Comparison[] } | undefined;
  /** How many times the counts were actually computed (not served from the cache): the bench reads it. */
  computed = 0;

  constructor(private readonly counts: DocumentCounts) {}

  /** What a result depends on; `ranges` are the non-empty selections (none: the whole document). */
  static key(document: vscode.TextDocument, ranges: readonly vscode.Range[], tokenizer: string): string {
    const where = ranges.map((r) => `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`).join(',');
    return `${document.uri.toString()}#${document.version}|${where}|${tokenizer}|${config.specialTokens}`;
  }

  cached(key: string): Comparison[] | undefined {
    return this.last?.key === key ? this.last.result : undefined;
  }

  /** Counts `ranges` of `document` (or all of it) with every encoding but the one `tokenizer` resolves to. */
  async compute(
    key: string,
    document: vscode.TextDocument,
    ranges: readonly vscode.Range[],
    tokenizer: string,
    signal: AbortSignal,
  ): Promise<Comparison[]> {
    const hit = this.cached(key);
    if (hit) return hit;
    this.computed++;
    const info = findTokenizer(tokenizer);
    // An estimate's base is listed: the exact count its estimate was scaled from.
    const own = info?.estimate ? undefined : info?.kind;
    const texts = ranges.map((r) => document.getText(r));
    const result: Comparison[] = [];
    for (const encoding of ENCODING_NAMES) {
      if (encoding === own) continue;
      const other = await loadTokenizer(encoding, { specialTokens: config.specialTokens });
      let tokens = 0;
      if (texts.length === 0) {
        const count = await this.counts.count(document, other);
        if (count === undefined) throw new CancelledError();
        tokens = count;
      } else {
        for (const text of texts) tokens += await countAsync(other, text, { signal });
      }
      if (signal.aborted) throw new CancelledError();
      result.push({ tokenizer: encoding, tokens });
    }
    this.last = { key, result };
    return result;
  }

  clear(): void {
    this.last = undefined;
  }
}
