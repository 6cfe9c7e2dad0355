/**
 * Text from outside (a service's answer, a file) on its way to the user: shown as text, never as
 * markup or a command. The one place that decides it, pure (no `vscode`):
 * - `plainText` for notifications, quick picks, tree items and status-bar text, whose renderers turn
 *   `[label](command:…)` into a live link and `$(name)` into an icon;
 * - `markdownText` for Markdown (hovers, tooltips, the reports opened in the Markdown preview).
 */

/** Characters longer than this are cut: a notification is no place for a whole answer (the log has it). */
export const MAX_SHOWN = 2000;

// Bidirectional overrides and isolates reorder what a reader sees (Trojan Source); C0/C1 controls are invisible.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** A zero-width space between `]` and `(` (or `$` and `(`) keeps the text as it reads but breaks the syntax. */
const ZWSP = '\u200b';

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** `value` as text that no notification, quick pick or tree renders as a link, a command or an icon. */
export function plainText(value: unknown, max = MAX_SHOWN): string {
  const text = shorten(String(value ?? '').replace(INVISIBLE, ''), max);
  return text.replace(/\]\s*\(/g, (m) => `]${ZWSP}${m.slice(1)}`).replace(/\$\(/g, `$${ZWSP}(`);
}

/**
 * `value` as Markdown that renders exactly as the text: the characters that open links, images,
 * emphasis, code or table cells backslash-escaped (CommonMark 2.4), `<`, `>` and `&` as entities so no
 * HTML or autolink forms, and line breaks as spaces (so no heading or list can start).
 */
export function markdownText(value: unknown, max = MAX_SHOWN): string {
  return shorten(String(value ?? '').replace(INVISIBLE, ''), max)
    .replace(/[\\`*_[\]|~]/g, '\\$&')
    .replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'))
    .replace(/\s+/g, ' ');
}
