/**
 * How user-facing text is worded and numbers are written, without importing vscode: the extension
 * passes vscode.l10n.t and the display language (vscode.env.language), unit tests plain English.
 */
export type Translate = (message: string, ...args: (string | number)[]) => string;

export interface Locale {
  /** Translates `message` (its English text is the key) and fills {0}, {1}, … */
  readonly t: Translate;
  /** A number as the user writes it: "12,345" in English, "12.345" in German. */
  number(n: number, fractionDigits?: number): string;
}

/** Fills {0}, {1}, … in `message` as vscode.l10n.t does when there is no translation. */
export function substitute(message: string, ...args: (string | number)[]): string {
  return message.replace(/\{(\d+)\}/g, (whole, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : whole));
}

/** vscode.l10n.t over a bundle (key → translation) outside the extension host: a webview page, a test. */
export function bundleTranslate(bundle: Readonly<Record<string, string>>): Translate {
  return (message, ...args) => substitute(Object.hasOwn(bundle, message) ? bundle[message]! : message, ...args);
}

/** The translations a page was given (JSON of key → translation); anything else is no translation. */
export function readTranslations(json: string | undefined): Readonly<Record<string, string>> {
  try {
    const value: unknown = JSON.parse(json ?? '{}');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

export function makeLocale(t: Translate, language: string): Locale {
  const formats = new Map<number, Intl.NumberFormat>();
  const format = (digits: number): Intl.NumberFormat => {
    let f = formats.get(digits);
    if (!f) {
      const options = { minimumFractionDigits: digits, maximumFractionDigits: digits };
      try {
        f = new Intl.NumberFormat(language, options);
      } catch {
        f = new Intl.NumberFormat('en-US', options); // a language tag Intl does not know
      }
      formats.set(digits, f);
    }
    return f;
  };
  return { t, number: (n, fractionDigits = 0) => format(fractionDigits).format(n) };
}

export const ENGLISH: Locale = makeLocale(substitute, 'en-US');

/**
 * "1 token", "2,048 tokens": the two messages are whole phrases ("{0} token", "{0} tokens") so that a
 * translation can place the number where its language wants it.
 */
export function plural(locale: Locale, n: number, one: string, other: string, ...rest: (string | number)[]): string {
  return locale.t(n === 1 ? one : other, locale.number(n), ...rest);
}
