/**
 * Chemical formulas as the service takes them (Fe2O3, Ca(OH)2, Fe2(SO4)3, CuSO4·5H2O): element
 * counts, for the reference server and for checking input in the editor before it is sent. Pure.
 */

export const MAX_FORMULA = 1000;

/** Element counts of a formula such as Ca(OH)2, Fe2(SO4)3 or CuSO4·5H2O. Throws with a reason. */
export function parseFormula(formula: string): Map<string, number> {
  const text = formula.replace(/\s+/g, '');
  if (!text) throw new Error('empty formula');
  // Bounds the bracket nesting (recursion) and the scanning below; no real formula is near it.
  if (text.length > MAX_FORMULA) throw new Error(`formula longer than ${MAX_FORMULA} characters`);
  const parts = text.split(/[·*.]/);
  const total = new Map<string, number>();
  for (const part of parts) {
    const lead = /^(\d+)(.*)$/.exec(part);
    const factor = lead ? Number(lead[1]) : 1;
    const body = lead ? lead[2]! : part;
    let pos = 0;
    const group = (): Map<string, number> => {
      const counts = new Map<string, number>();
      while (pos < body.length) {
        const ch = body[pos]!;
        if (ch === '(' || ch === '[') {
          pos++;
          const inner = group();
          const close = body[pos];
          if (close !== ')' && close !== ']') throw new Error(`unclosed bracket in "${formula}"`);
          pos++;
          const n = number();
          for (const [el, c] of inner) counts.set(el, (counts.get(el) ?? 0) + c * n);
        } else if (ch === ')' || ch === ']') {
          return counts;
        } else {
          const m = /^[A-Z][a-z]?/.exec(body.slice(pos));
          if (!m) throw new Error(`unexpected "${ch}" in "${formula}"`);
          pos += m[0].length;
          const n = number();
          counts.set(m[0], (counts.get(m[0]) ?? 0) + n);
        }
      }
      return counts;
    };
    const number = (): number => {
      const m = /^\d+/.exec(body.slice(pos));
      if (!m) return 1;
      pos += m[0].length;
      return Number(m[0]);
    };
    const counts = group();
    if (pos !== body.length) throw new Error(`unbalanced bracket in "${formula}"`);
    for (const [el, c] of counts) total.set(el, (total.get(el) ?? 0) + c * factor);
  }
  return total;
}
