import { approx, countChars, estimateOf, scaleCount, type Estimate } from '../tokenizers/index';
import { markdownText, plainText } from '../util/outsideText';
import { ENGLISH, plural, type Locale } from '../util/locale';
import { inputCost, noPriceReason, priceOrigin, usd, type PriceQuote } from './cost';

/** What the status bar and the count command show about one text: pure, so it is unit-tested. */
export interface CountSummary {
  tokenizer: string;
  scope: 'document' | 'selection';
  selections: number;
  tokens: number;
  characters: number;
  /** Counts of the same text under the other encodings, when computed. */
  comparisons: { tokenizer: string; tokens: number }[];
  /** Set when `tokens` is a closed model's estimate (scaled from its base encoding's count): shown with ≈, never as exact. */
  estimate?: Estimate;
  /** Set when a provider confirmed the count of this very text (an estimate's exact count, on request): `tokens` is then its. */
  exact?: ExactSummary;
  /** Set when the text is a conversation or a dataset of them (`tokens` is then what the model reads), or looks like one but is not valid. */
  conversation?: ConversationSummary | { problem: string };
}

/** A provider's exact count in place of an estimate: who counted, for which model, when, and what the estimate said. */
export interface ExactSummary {
  provider: string;
  model: string;
  /** Epoch ms. */
  at: number;
  estimated: number;
}

/** A conversation (or a JSONL dataset's conversations) as the model reads it: its text, and what its format adds. */
export interface ConversationSummary {
  conversations: number;
  /** Tokens of the messages' text alone. */
  text: number;
  /** How the conversations were read: the chat template's source, OpenAI's framing, Harmony, or none. */
  format: string;
  /** Lines of a dataset that are no conversation (malformed JSON, a bad role): not in the count. */
  problems: number;
}

export function charsPerToken(summary: Pick<CountSummary, 'tokens' | 'characters'>, locale: Locale = ENGLISH): string {
  return summary.tokens === 0 ? '–' : locale.number(summary.characters / summary.tokens, 2);
}

/** "2 tokens", "1 selected token". */
export function tokenQuantity(summary: Pick<CountSummary, 'tokens' | 'scope'>, locale: Locale = ENGLISH): string {
  return summary.scope === 'selection'
    ? plural(locale, summary.tokens, '{0} selected token', '{0} selected tokens')
    : plural(locale, summary.tokens, '{0} token', '{0} tokens');
}

export function statusText(summary: CountSummary, locale: Locale = ENGLISH, window?: ContextWindow): string {
  const g = window && gauge(summary.tokens, window);
  const count = g ? gaugeText(summary.tokens, g, locale) : tokenQuantity(summary, locale);
  // An estimate starts with ≈ in place of the icon, so it is never read as an exact count; a provider's confirmed count with a check.
  return `${summary.exact ? '$(verified)' : summary.estimate ? '≈' : '$(symbol-numeric)'} ${count} · ${plainText(summary.tokenizer)}`;
}

/** "Whole document", "Selection", "3 selections". */
export function scopeLabel(summary: CountSummary, locale: Locale = ENGLISH): string {
  if (summary.scope === 'document') return locale.t('Whole document');
  return summary.selections > 1 ? plural(locale, summary.selections, '{0} selection', '{0} selections') : locale.t('Selection');
}

/** The tooltip as Markdown: the numbers and the cost as input (or why there is none), then the other encodings. */
export function tooltipMarkdown(summary: CountSummary, locale: Locale = ENGLISH, window?: ContextWindow, price?: PriceQuote): string {
  const { t } = locale;
  const g = window && gauge(summary.tokens, window);
  const lines = [
    `**Token Lens** · ${scopeLabel(summary, locale)} · ${markdownText(summary.tokenizer)}`,
    '',
    '| | |',
    '|---|---:|',
    `| ${t('Tokens')} | ${approx(!!summary.estimate && !summary.exact, locale.number(summary.tokens))} |`,
    `| ${t('Characters')} | ${locale.number(summary.characters)} |`,
    `| ${t('Characters per token')} | ${charsPerToken(summary, locale)} |`,
    ...costLines(summary, locale, price),
  ];
  if (g && window) lines.push('', gaugeLine(g, window, locale));
  if (summary.conversation) lines.push('', ...conversationLines(summary, summary.conversation, locale));
  if (summary.exact) lines.push('', ...exactLines(summary.exact, locale));
  else if (summary.estimate) lines.push('', ...estimateLines(summary.estimate, locale));
  if (summary.comparisons.length) {
    lines.push('', `| ${t('Other encodings')} | ${t('Tokens')} |`, '|---|---:|');
    for (const c of summary.comparisons) lines.push(`| ${c.tokenizer} | ${locale.number(c.tokens)} |`);
  }
  lines.push('', t('Click to choose the tokenizer.'));
  return lines.join('\n');
}

/** The cost row (≈ for an estimate) and, under the table, where its price comes from or why there is none. */
function costLines(summary: CountSummary, locale: Locale, price: PriceQuote | undefined): string[] {
  const { t } = locale;
  if (!price) return [`| ${t('Cost as input')} | – |`, '', markdownText(noPriceReason(summary.tokenizer, locale))];
  const asInput = inputCost(price, summary.tokens);
  if (!asInput) return [];
  const amount = approx(!!summary.estimate && !summary.exact, usd(asInput.amount, locale));
  return [
    `| ${t('Cost as input')} | ${amount} (${t('at {0} per 1M tokens', usd(asInput.perMillion, locale))}) |`,
    '',
    markdownText(priceOrigin(price, summary.tokenizer, locale)),
  ];
}

/** The tooltip's part on a conversation: the model's reading against the messages' text, and what is not counted. */
export function conversationLines(summary: CountSummary, c: NonNullable<CountSummary['conversation']>, locale: Locale = ENGLISH): string[] {
  const { t } = locale;
  if ('problem' in c) return [`${t('Counted as text, not as a conversation')}: ${markdownText(c.problem)}`];
  const overhead = summary.tokens - c.text;
  const share = summary.tokens > 0 ? locale.number((100 * overhead) / summary.tokens, 1) : '0';
  const lines = [`**${t('As the model reads it')}** · ${markdownText(c.format)}`, '', '| | |', '|---|---:|'];
  if (c.conversations !== 1) lines.push(`| ${t('Conversations')} | ${locale.number(c.conversations)} |`);
  lines.push(
    `| ${t("The messages' text")} | ${locale.number(c.text)} |`,
    `| ${t('Added by the format')} | ${locale.number(overhead)} (${share} %) |`,
  );
  if (c.problems > 0)
    lines.push(
      '',
      plural(
        locale,
        c.problems,
        '{0} line is no conversation and is not counted (see Problems).',
        '{0} lines are no conversation and are not counted (see Problems).',
      ),
    );
  return lines;
}

/** The tooltip's note on a provider's exact count: who, for which model, when, and the estimate it replaces. */
export function exactLines(exact: ExactSummary, locale: Locale = ENGLISH): string[] {
  const { t } = locale;
  return [
    `**${t('Exact count from {0}', markdownText(exact.provider))}** · ${markdownText(exact.model)} · ${t('confirmed at {0}', new Date(exact.at).toLocaleTimeString('en-GB'))}`,
    '',
    `${t('The estimate for this text was')} ≈${locale.number(exact.estimated)}.`,
  ];
}

/** The tooltip's note on an estimate: that it is one, its method, its measured error and their source. */
export function estimateLines(estimate: Estimate, locale: Locale = ENGLISH): string[] {
  const { t } = locale;
  return [
    `**${t('Estimate, not an exact count')}** · ${t('method')}: ${estimate.method}.`,
    '',
    `${t('Error')}: ${estimate.error}.`,
    '',
    `${t('Source')}: ${estimate.source}.`,
  ];
}

/** One row of the count result: what it measures, the number as shown, and the bare number to copy. */
export interface CountRow {
  label: string;
  description: string;
  /** A second line, not searched when the user types to pick a row (a price's origin names other models). */
  detail?: string;
  value: string;
}

/** The count result, one row per metric and per encoding, so that nothing is cut off. */
export function countRows(summary: CountSummary, locale: Locale = ENGLISH, price?: PriceQuote): CountRow[] {
  const { t } = locale;
  const rows: CountRow[] = [
    {
      label: `${summary.exact ? '$(verified)' : summary.estimate ? '≈' : '$(symbol-numeric)'} ${plural(locale, summary.tokens, '{0} token', '{0} tokens')}`,
      description: summary.exact
        ? t(
            '{0} (exact count from {1} for {2})',
            plainText(summary.tokenizer),
            plainText(summary.exact.provider),
            plainText(summary.exact.model),
          )
        : summary.estimate
          ? t('{0} (current tokenizer; an estimate: {1})', plainText(summary.tokenizer), summary.estimate.method)
          : t('{0} (current tokenizer)', plainText(summary.tokenizer)),
      value: String(summary.tokens),
    },
    {
      label: `$(whole-word) ${plural(locale, summary.characters, '{0} character', '{0} characters')}`,
      description: t('Unicode characters'),
      value: String(summary.characters),
    },
    {
      label: `$(dashboard) ${charsPerToken(summary, locale)}`,
      description: t('characters per token'),
      value: charsPerToken(summary, ENGLISH),
    },
  ];
  rows.push(costRow(summary, locale, price));
  for (const c of summary.comparisons) {
    rows.push({
      label: `$(symbol-numeric) ${plural(locale, c.tokens, '{0} token', '{0} tokens')}`,
      description: c.tokenizer,
      value: String(c.tokens),
    });
  }
  return rows;
}

/** The count's cost as input and where its price comes from, or why there is none. */
function costRow(summary: CountSummary, locale: Locale, price: PriceQuote | undefined): CountRow {
  const asInput = inputCost(price, summary.tokens);
  if (!price || !asInput)
    return { label: `$(credit-card) –`, description: locale.t('no price'), detail: noPriceReason(summary.tokenizer, locale), value: '' };
  return {
    label: `$(credit-card) ${approx(!!summary.estimate && !summary.exact, usd(asInput.amount, locale))}`,
    description: locale.t('cost as input, at {0} per 1M tokens', usd(asInput.perMillion, locale)),
    detail: priceOrigin(price, summary.tokenizer, locale),
    value: String(asInput.amount),
  };
}

/** The summary of a count; `tokens` is the tokenizer's own count, which an estimate scales here (round(base × factor)). */
export function summarize(tokenizer: string, scope: CountSummary['scope'], texts: readonly string[], tokens: number): CountSummary {
  let characters = 0;
  for (const text of texts) characters += countChars(text);
  const estimate = estimateOf(tokenizer);
  const summary: CountSummary = {
    tokenizer,
    scope,
    selections: scope === 'selection' ? texts.length : 0,
    tokens,
    characters,
    comparisons: [],
  };
  return estimate ? { ...summary, tokens: scaleCount(estimate, tokens), estimate } : summary;
}

/** The context window the count is measured against: its size (0: no gauge), the tokens kept for the answer, and when to warn. */
export interface ContextWindow {
  size: number;
  reserve: number;
  /** Percent of the usable window (size − reserve) from which the gauge warns. */
  warnAt: number;
}

export interface Gauge {
  /** Tokens the prompt may use: the window less the reserve for the answer. */
  usable: number;
  /** Share of `usable` the count takes, in percent. */
  percent: number;
  /** Tokens left for the prompt (negative: over by that many). */
  remaining: number;
  level: 'ok' | 'warning' | 'error';
}

/** How much of the context window a count fills; undefined when no window is set. */
export function gauge(tokens: number, window: ContextWindow): Gauge | undefined {
  if (!(window.size > 0)) return undefined;
  const usable = Math.max(1, window.size - Math.max(0, window.reserve));
  const percent = (100 * tokens) / usable;
  return { usable, percent, remaining: usable - tokens, level: percent > 100 ? 'error' : percent >= window.warnAt ? 'warning' : 'ok' };
}

/** "12,345 / 128,000 · 9.6 %" */
export function gaugeText(tokens: number, g: Gauge, locale: Locale = ENGLISH): string {
  return `${locale.number(tokens)} / ${locale.number(g.usable)} · ${locale.number(g.percent, 1)} %`;
}

/** The tooltip's line about the window: what is left, or how far over. */
export function gaugeLine(g: Gauge, window: ContextWindow, locale: Locale = ENGLISH): string {
  const { t } = locale;
  const of =
    window.reserve > 0
      ? t('of a {0}-token context window less {1} reserved for the answer', locale.number(window.size), locale.number(window.reserve))
      : t('of a {0}-token context window', locale.number(window.size));
  return g.remaining >= 0
    ? `${t('{0} tokens left', locale.number(g.remaining))} ${of} (${locale.number(g.percent, 1)} % ${t('used')})`
    : `**${t('{0} tokens over', locale.number(-g.remaining))}** ${of}`;
}
