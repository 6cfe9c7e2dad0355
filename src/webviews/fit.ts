/**
 * A message for a page that its guard would refuse (a service sent a species name of 300 characters, a
 * jid of 5,000) is shortened rather than dropped, so the view shows the rest: every string longer than
 * `max` is cut and marked with "…". Pure: the host runs it with the page's own guard.
 */

export function shortenStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max - 1)}…` : value;
  if (Array.isArray(value)) return value.map((v) => shortenStrings(v, max));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortenStrings(v, max)]));
  return value;
}

/** The longest string in a message and where it is, for the log line that says what the page refused. */
export function longestString(value: unknown, at = ''): { path: string; length: number } {
  if (typeof value === 'string') return { path: at || '(message)', length: value.length };
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : value && typeof value === 'object'
      ? Object.entries(value)
      : [];
  let best = { path: '', length: -1 };
  for (const [key, v] of entries) {
    const found = longestString(v, at ? `${at}.${key}` : key);
    if (found.length > best.length) best = found;
  }
  return best;
}
