/** Numbers as the result views write them: a true minus sign, no "-0.000". Pure. */

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
