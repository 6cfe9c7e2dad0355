import { countChars } from '../tokenizers';
import { ENGLISH, plural, type Locale } from '../util/locale';

/** What the status bar and the count command show about one text: pure, so it is unit-tested. */
export interface CountSummary {
  tokenizer: string;
  scope: 'document' | 'selection';
  selections: number;
  tokens: number;
  characters: number;
  /** Counts of the same text under the other encodings, when computed. */
  comparisons: { tokenizer: string; tokens: number }[];
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

export function statusText(summary: CountSummary, locale: Locale = ENGLISH): string {
  return `$(symbol-numeric) ${tokenQuantity(summary, locale)} · ${summary.tokenizer}`;
}

/** "Whole document", "Selection", "3 selections". */
export function scopeLabel(summary: CountSummary, locale: Locale = ENGLISH): string {
  if (summary.scope === 'document') return locale.t('Whole document');
  return summary.selections > 1 ? plural(locale, summary.selections, '{0} selection', '{0} selections') : locale.t('Selection');
}

/** The tooltip as Markdown: the numbers, then the other encodings. */
export function tooltipMarkdown(summary: CountSummary, locale: Locale = ENGLISH): string {
  const { t } = locale;
  const lines = [
    `**Token Lens** · ${scopeLabel(summary, locale)} · \`${summary.tokenizer}\``,
    '',
    '| | |',
    '|---|---:|',
    `| ${t('Tokens')} | ${locale.number(summary.tokens)} |`,
    `| ${t('Characters')} | ${locale.number(summary.characters)} |`,
    `| ${t('Characters per token')} | ${charsPerToken(summary, locale)} |`,
  ];
  if (summary.comparisons.length) {
    lines.push('', `| ${t('Other encodings')} | ${t('Tokens')} |`, '|---|---:|');
    for (const c of summary.comparisons) lines.push(`| ${c.tokenizer} | ${locale.number(c.tokens)} |`);
  }
  lines.push('', t('Click to choose the tokenizer.'));
  return lines.join('\n');
}

/** One row of the count result: what it measures, the number as shown, and the bare number to copy. */
export interface CountRow {
  label: string;
  description: string;
  value: string;
}

/** The count result, one row per metric and per encoding, so that nothing is cut off. */
export function countRows(summary: CountSummary, locale: Locale = ENGLISH): CountRow[] {
  const { t } = locale;
  const rows: CountRow[] = [
    { label: `$(symbol-numeric) ${plural(locale, summary.tokens, '{0} token', '{0} tokens')}`, description: t('{0} (current tokenizer)', summary.tokenizer), value: String(summary.tokens) },
    { label: `$(whole-word) ${plural(locale, summary.characters, '{0} character', '{0} characters')}`, description: t('Unicode characters'), value: String(summary.characters) },
    { label: `$(dashboard) ${charsPerToken(summary, locale)}`, description: t('characters per token'), value: charsPerToken(summary, ENGLISH) },
  ];
  for (const c of summary.comparisons) {
    rows.push({ label: `$(symbol-numeric) ${plural(locale, c.tokens, '{0} token', '{0} tokens')}`, description: c.tokenizer, value: String(c.tokens) });
  }
  return rows;
}

export function summarize(tokenizer: string, scope: CountSummary['scope'], texts: readonly string[], tokens: number): CountSummary {
  let characters = 0;
  for (const text of texts) characters += countChars(text);
  return { tokenizer, scope, selections: scope === 'selection' ? texts.length : 0, tokens, characters, comparisons: [] };
}
