/**
 * Every message the inspector's page shows, in English. The page cannot call vscode.l10n.t: the host
 * translates this list and posts it when the page says ready (before the first render); the page
 * fills {0}, {1}, … itself. Pure: imported by panel.ts and by pages/inspector/main.ts.
 */
import type { Translate } from '../util/locale';

export const PAGE_MESSAGES = [
  'Tokenizer',
  'Tokenizer (the tokenLens.tokenizer setting)',
  'Ids',
  'Show token ids inline',
  'Whitespace',
  'Show spaces, tabs and newlines as symbols',
  'Compare',
  'Compare side by side with a second tokenizer',
  'Off',
  'Tokens',
  'Comparison tokens',
  'Copy ids',
  "Copy this pane's token ids as JSON",
  'Tokens: arrow keys move, Enter selects the token in the editor',
  '{0} token',
  '{0} tokens',
  '{0} char',
  '{0} chars',
  '{0} chars/token',
  'Showing the first {0} characters of {1}: the inspector stops at {0}.',
  'Inspecting the selection. Clear the selection to inspect the whole document.',
  'not a token (skipped by this tokenizer)',
  'id {0}  bytes {1}',
  '{0} tokens share these characters',
  'line:column {0}–{1}',
  'context window {0}',
  'counting…',
  'Counting tokens… (showing {0} of {1} characters)',
] as const;

export type PageMessage = (typeof PAGE_MESSAGES)[number];

/** The page's messages translated, placeholders kept for the page to fill. */
export function translatePage(t: Translate): Record<string, string> {
  return Object.fromEntries(PAGE_MESSAGES.map((message) => [message, t(message, '{0}', '{1}', '{2}')]));
}
