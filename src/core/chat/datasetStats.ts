/**
 * A conversation dataset's numbers, gathered line by line as countDataset yields them: how many conversations,
 * their tokens as the model reads them, the distribution per conversation (percentiles and a histogram), the
 * lines over the usable context window and the lines that are no conversation. Memory: one number per
 * conversation, and at most MAX_LISTED lines of each list.
 */
import type { LineResult } from './count';

/** Lines listed of each kind (over the window, no conversation); the rest are counted only. */
export const MAX_LISTED = 1_000;

export interface HistogramBin {
  /** Tokens, inclusive. */
  from: number;
  /** Tokens, exclusive. */
  to: number;
  count: number;
}

export interface Distribution {
  min: number;
  median: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export interface DatasetStats {
  conversations: number;
  /** Tokens as the model reads them, all conversations. */
  tokens: number;
  /** Tokens of the messages' text alone. */
  text: number;
  messages: number;
  /** Undefined when no line is a conversation. */
  distribution?: Distribution;
  histogram: HistogramBin[];
  /** The usable window the lines were measured against (undefined: none known). */
  usable?: number;
  overCount: number;
  /** The first MAX_LISTED lines over the usable window, with their tokens. */
  over: { line: number; tokens: number }[];
  problemCount: number;
  problems: { line: number; problem: string }[];
}

/**
 * The p-th percentile (0-100) of sorted values, interpolated linearly between the closest ranks: NumPy's
 * default (`numpy.percentile`, method "linear"; Hyndman & Fan's definition 7).
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (n - 1);
  const low = Math.floor(rank);
  const high = Math.min(n - 1, low + 1);
  return sorted[low]! + (rank - low) * (sorted[high]! - sorted[low]!);
}

/** Equal-width bins of whole tokens from the smallest value to the largest, at most `bins` of them. */
export function histogram(sorted: ArrayLike<number>, bins: number): HistogramBin[] {
  const n = sorted.length;
  if (n === 0) return [];
  const min = sorted[0]!;
  const max = sorted[n - 1]!;
  const width = Math.max(1, Math.ceil((max - min + 1) / Math.max(1, bins)));
  const count = Math.floor((max - min) / width) + 1;
  const out = Array.from({ length: count }, (_, i) => ({ from: min + i * width, to: min + (i + 1) * width, count: 0 }));
  for (let i = 0; i < n; i++) out[Math.floor((sorted[i]! - min) / width)]!.count++;
  return out;
}

export class DatasetTally {
  private values = new Float64Array(1024);
  private n = 0;
  private tokens = 0;
  private text = 0;
  private messages = 0;
  private overCount = 0;
  private problemCount = 0;
  private readonly over: DatasetStats['over'] = [];
  private readonly problems: DatasetStats['problems'] = [];

  /** `usable`: the tokens a conversation may have (the window less the reserve); undefined when no window is known. */
  constructor(private readonly usable?: number) {}

  add(result: LineResult): void {
    if ('problem' in result) {
      if (this.problemCount++ < MAX_LISTED) this.problems.push({ line: result.line, problem: result.problem });
      return;
    }
    const { total, text, messages } = result.count;
    if (this.n === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.n++] = total;
    this.tokens += total;
    this.text += text;
    this.messages += messages;
    if (this.usable !== undefined && total > this.usable && this.overCount++ < MAX_LISTED)
      this.over.push({ line: result.line, tokens: total });
  }

  get conversations(): number {
    return this.n;
  }

  /**
   * The numbers so far; `bins` for the histogram. The distribution sorts the counts (O(n log n) on the counts
   * alone); without `distribution` (progress while counting) none is computed, nor the histogram.
   */
  stats(bins = 40, distribution = true): DatasetStats {
    const sorted = distribution ? this.values.slice(0, this.n).sort() : new Float64Array(0);
    const spread =
      sorted.length === 0
        ? undefined
        : {
            min: sorted[0]!,
            median: percentile(sorted, 50),
            p90: percentile(sorted, 90),
            p95: percentile(sorted, 95),
            p99: percentile(sorted, 99),
            max: sorted[this.n - 1]!,
            mean: this.tokens / this.n,
          };
    return {
      conversations: this.n,
      tokens: this.tokens,
      text: this.text,
      messages: this.messages,
      ...(spread ? { distribution: spread } : {}),
      histogram: histogram(sorted, bins),
      ...(this.usable !== undefined ? { usable: this.usable } : {}),
      overCount: this.overCount,
      over: [...this.over],
      problemCount: this.problemCount,
      problems: [...this.problems],
    };
  }
}
