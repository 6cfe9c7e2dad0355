import { countChars } from '../tokenizers';

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

export function statusText(summary: CountSummary): string {
  const noun = summary.tokens === 1 ? 'token' : 'tokens';
  const what = summary.scope === 'selection' ? `selected ${noun}` : noun;
  return `$(symbol-numeric) ${formatCount(summary.tokens)} ${what} · ${summary.tokenizer}`;
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
