/** Numbers as the result views write them: a true minus sign, no "-0.000". Pure. */
import { makeLocale, type Locale, type Translate } from '../../core/util/locale';

/** For plural(): counts as the result views write them ("12,345"), the phrases in `t`. */
export const counting = (t: Translate): Locale => makeLocale(t, 'en-US');

export function fixed(x: number, digits: number): string {
  const text = x.toFixed(digits);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text.replace('-', '−');
}

/** With its sign: "+0.012", "−2.087". */
export function signed(x: number, digits: number): string {
  const text = fixed(x, digits);
  return text.startsWith('−') || /^0\.?0*$/.test(text) ? text : `+${text}`;
}

/** Up to `digits` significant digits, small and large numbers in exponent form: for table cells and axes. */
export function short(x: number, digits = 4): string {
  if (x === 0) return '0';
  const a = Math.abs(x);
  const text = a >= 1e-3 && a < 1e6 ? String(Number(x.toPrecision(digits))) : x.toExponential(digits - 1);
  return text.replace(/-/g, '−');
}

export const lastNumber = (s: readonly (number | null)[]): number | undefined => {
  for (let i = s.length - 1; i >= 0; i--) if (s[i] !== null) return s[i]!;
  return undefined;
};

export const firstNumber = (s: readonly (number | null)[]): number | undefined => s.find((x): x is number => x !== null);

/** "0.8 s", "12 s", "3 min 05 s" */
export function duration(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.floor(s)} s`;
  return `${Math.floor(s / 60)} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
}

/** The smallest precision in [from, to] at which `write` puts every tick within a thousandth of `step` of its value. */
function precision(ticks: readonly number[], step: number, write: (x: number, n: number) => string, from: number, to: number): number {
  for (let n = from; n < to; n++) if (ticks.every((x) => Math.abs(Number(write(x, n)) - x) <= step / 1000)) return n;
  return to;
}

/**
 * An axis's tick labels, with the fewest decimals that still write each tick exactly to a thousandth of the step
 * between ticks, so that adjacent labels always differ: a flat relaxation's −34.0071, −34.0072, … otherwise all
 * read "−34.007". Ticks of 1e6 and more, or steps under 1e-6, in exponent form. Null ticks (filtered) stay empty.
 */
export function tickLabels(splits: readonly (number | null)[]): string[] {
  const ticks = splits.filter((x): x is number => x !== null && Number.isFinite(x));
  let step = Infinity;
  for (let i = 1; i < ticks.length; i++) {
    const gap = Math.abs(ticks[i]! - ticks[i - 1]!);
    if (gap > 0) step = Math.min(step, gap);
  }
  let write = (x: number): string => short(x, 6);
  if (step < Infinity && (Math.max(...ticks.map(Math.abs)) >= 1e6 || step < 1e-6)) {
    const n = precision(ticks, step, (x, k) => x.toExponential(k), 0, 15);
    write = (x) => (x === 0 ? '0' : x.toExponential(n).replace(/-/g, '−'));
  } else if (step < Infinity) {
    const n = precision(ticks, step, (x, k) => x.toFixed(k), 0, 12);
    write = (x) => fixed(x, n);
  }
  return splits.map((x) => (x === null || !Number.isFinite(x) ? '' : write(x)));
}
