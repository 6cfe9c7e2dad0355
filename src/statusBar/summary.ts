import { countChars } from '../tokenizers';
import { quantity } from '../util/quantity';

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

const number = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return number.format(n);
}

export function charsPerToken(summary: Pick<CountSummary, 'tokens' | 'characters'>): string {
  return summary.tokens === 0 ? '–' : (summary.characters / summary.tokens).toFixed(2);
}

/** "2 tokens", "1 selected token". */
export function tokenQuantity(summary: Pick<CountSummary, 'tokens' | 'scope'>): string {
  return quantity(summary.tokens, summary.scope === 'selection' ? 'selected token' : 'token');
}

export function statusText(summary: CountSummary): string {
  return `$(symbol-numeric) ${tokenQuantity(summary)} · ${summary.tokenizer}`;
}

/** The tooltip as Markdown: the numbers, then the other encodings. */
export function tooltipMarkdown(summary: CountSummary): string {
  const scope = summary.scope === 'document'
    ? 'Whole document'
    : summary.selections > 1 ? `${summary.selections} selections` : 'Selection';
  const lines = [
    `**Token Lens** · ${scope} · \`${summary.tokenizer}\``,
    '',
    '| | |',
    '|---|---:|',
    `| Tokens | ${formatCount(summary.tokens)} |`,
    `| Characters | ${formatCount(summary.characters)} |`,
    `| Characters per token | ${charsPerToken(summary)} |`,
  ];
  if (summary.comparisons.length) {
    lines.push('', '| Other encodings | Tokens |', '|---|---:|');
    for (const c of summary.comparisons) lines.push(`| ${c.tokenizer} | ${formatCount(c.tokens)} |`);
  }
  lines.push('', 'Click to choose the tokenizer.');
  return lines.join('\n');
}

export function summarize(tokenizer: string, scope: CountSummary['scope'], texts: readonly string[], tokens: number): CountSummary {
  let characters = 0;
  for (const text of texts) characters += countChars(text);
  return { tokenizer, scope, selections: scope === 'selection' ? texts.length : 0, tokens, characters, comparisons: [] };
}
