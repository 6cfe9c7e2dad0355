/**
 * What the dataset overview shows, worded and localised: the counts, the distribution per conversation, the
 * histogram, the training cost and the lines to look at. Pure (no vscode), so it is unit-tested.
 */
import type { DatasetStats } from '../../core/chat/datasetStats';
import { cost, inputCost, noPriceReason, priceOrigin, usd, type PriceQuote } from '../../core/counts/cost';
import { plainText } from '../../core/util/outsideText';
import { plural, type Locale } from '../../core/util/locale';
import { EPOCHS, type DatasetView, type LinesTable, type TextTable } from './protocol';

export interface DatasetInput {
  fileName: string;
  tokenizer: string;
  /** How the model reads the conversations (the format's label). */
  format: string;
  state: DatasetView['state'];
  /** Share of the file counted so far, 0-1, while counting. */
  progress?: number;
  elapsedMs: number;
  notice?: string;
  stats: DatasetStats;
  price?: PriceQuote;
  /** Training epochs the cost is for: the view's own choice, at first tokenLens.dataset.epochs. */
  epochs: number;
  /** The file's URI, which the page keeps so the view comes back after a reload. */
  key: string;
}

/** Tokens as written: whole numbers bare, a percentile between two counts with one decimal. */
function tokens(locale: Locale, n: number): string {
  return locale.number(n, Number.isInteger(n) ? 0 : 1);
}

export function datasetView(input: DatasetInput, locale: Locale): DatasetView {
  const { t } = locale;
  const { stats } = input;
  const training = input.price?.price.training;
  return {
    title: t('Dataset: {0}', plainText(input.fileName, 200)),
    key: input.key,
    state: input.state,
    status: status(input, locale),
    ...(input.notice ? { notice: plainText(input.notice, 1_000) } : {}),
    summary: summary(input, locale),
    ...(stats.distribution ? { distribution: distribution(stats, locale) } : {}),
    ...(stats.histogram.length ? { histogram: histogramPlot(stats, locale) } : {}),
    cost: costTable(input, locale),
    epochs: { label: t('Epochs'), value: input.epochs, ...EPOCHS },
    ...(training === undefined ? { priceAction: t('Set a price in tokenLens.prices') } : {}),
    ...(stats.usable !== undefined && stats.overCount > 0 ? { over: overTable(stats, locale) } : {}),
    ...(stats.problemCount > 0 ? { problems: problemsTable(stats, locale) } : {}),
  };
}

function status(input: DatasetInput, locale: Locale): string {
  const { t } = locale;
  const seconds = locale.number(input.elapsedMs / 1000, 1);
  if (input.state === 'counting') return t('Counting… {0} % ({1} s)', locale.number(100 * (input.progress ?? 0), 0), seconds);
  if (input.state === 'failed') return t('Not counted');
  const lines = input.stats.conversations + input.stats.problemCount;
  return `${plural(locale, lines, '{0} line counted', '{0} lines counted')} ${t('in {0} s', seconds)} · ${plainText(input.tokenizer, 100)}`;
}

function summary({ stats, format }: DatasetInput, locale: Locale): TextTable {
  const { t } = locale;
  const added = stats.tokens - stats.text;
  const share = stats.tokens > 0 ? locale.number((100 * added) / stats.tokens, 1) : '0';
  return {
    title: t('Dataset'),
    head: ['', ''],
    rows: [
      [t('Conversations'), locale.number(stats.conversations)],
      [t('Tokens as the model reads them'), locale.number(stats.tokens)],
      [t("The messages' text"), locale.number(stats.text)],
      [t('Added by the format'), `${locale.number(added)} (${share} %)`],
      [t('Messages'), locale.number(stats.messages)],
      [t('Lines that are no conversation'), locale.number(stats.problemCount)],
      [t('Over the usable context window'), stats.usable === undefined ? t('no window known') : locale.number(stats.overCount)],
      [t('Read as'), plainText(format, 300)],
    ],
  };
}

function distribution(stats: DatasetStats, locale: Locale): TextTable {
  const { t } = locale;
  const d = stats.distribution!;
  const rows: [string, number][] = [
    [t('Minimum'), d.min],
    [t('Median'), d.median],
    ['p90', d.p90],
    ['p95', d.p95],
    ['p99', d.p99],
    [t('Maximum'), d.max],
    [t('Mean'), Math.round(d.mean * 10) / 10],
  ];
  return {
    title: t('Tokens per conversation'),
    head: ['', t('Tokens')],
    rows: rows.map(([label, n]) => [label, tokens(locale, n)]),
    note: t('Percentiles interpolated between ranks, as numpy.percentile does by default.'),
  };
}

function histogramPlot(stats: DatasetStats, locale: Locale): NonNullable<DatasetView['histogram']> {
  const { t } = locale;
  const bins = stats.histogram;
  return {
    title: t('Conversations by tokens'),
    xLabel: t('Tokens as the model reads them'),
    yLabel: t('Conversations'),
    x: bins.map((b) => b.from),
    end: bins[bins.length - 1]!.to,
    counts: bins.map((b) => b.count),
    ...(stats.usable !== undefined ? { limit: { x: stats.usable, label: t('usable window {0}', locale.number(stats.usable)) } } : {}),
  };
}

function costTable(input: DatasetInput, locale: Locale): TextTable {
  const { t } = locale;
  const { stats, price, epochs } = input;
  const name = plainText(input.tokenizer, 100);
  const training = price?.price.training;
  const rows: string[][] = [];
  if (training !== undefined)
    rows.push(
      [t('Training tokens'), `${locale.number(stats.tokens)} × ${plural(locale, epochs, '{0} epoch', '{0} epochs')}`],
      [t('Price per 1M training tokens'), usd(training, locale)],
      [t('Estimated cost'), usd(cost(stats.tokens, training, epochs), locale)],
    );
  const asInput = inputCost(price, stats.tokens);
  if (asInput)
    rows.push([
      t('All conversations once as input'),
      `${usd(asInput.amount, locale)} (${t('at {0} per 1M tokens', usd(asInput.perMillion, locale))})`,
    ]);
  const notes = [
    price ? plainText(priceOrigin(price, name, locale), 1_000) : noPriceReason(name, locale),
    ...(price && training === undefined
      ? [t("No training price for {0}: set one in tokenLens.prices (US dollars per 1M tokens; LiteLLM's table lists none).", name)]
      : []),
  ];
  return { title: t('Training cost'), head: ['', ''], rows, note: notes.join(' ') };
}

function overTable(stats: DatasetStats, locale: Locale): LinesTable {
  const { t } = locale;
  return {
    title: t('Over the usable context window ({0} tokens)', locale.number(stats.usable!)),
    head: [t('Line'), t('Tokens'), t('Over by')],
    rows: stats.over.map(({ line, tokens: n }) => ({
      line,
      cells: [locale.number(line), locale.number(n), locale.number(n - stats.usable!)],
    })),
    ...(stats.overCount > stats.over.length
      ? { note: t('The first {0} of {1} lines.', locale.number(stats.over.length), locale.number(stats.overCount)) }
      : {}),
  };
}

function problemsTable(stats: DatasetStats, locale: Locale): LinesTable {
  const { t } = locale;
  return {
    title: t('Lines that are no conversation'),
    head: [t('Line'), t('Problem')],
    rows: stats.problems.map(({ line, problem }) => ({ line, cells: [locale.number(line), plainText(problem, 300)] })),
    ...(stats.problemCount > stats.problems.length
      ? { note: t('The first {0} of {1} lines.', locale.number(stats.problems.length), locale.number(stats.problemCount)) }
      : {}),
  };
}
