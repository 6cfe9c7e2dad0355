/**
 * k-point labels in the two spellings they travel in: as Setyawan & Curtarolo print them and the band view shows
 * them ('Γ', 'Σ₁', 'Z₁'), and as pymatgen writes them into VASP KPOINTS files and band-structure JSON
 * ('\Gamma', '\Sigma_1', 'Z_1'; pymatgen.symmetry.kpath.KPathSetyawanCurtarolo). Pure.
 */

const GREEK: Record<string, string> = { gamma: 'Γ', g: 'Γ', gam: 'Γ', sigma: 'Σ', delta: 'Δ', lambda: 'Λ' };
const LATEX: Record<string, string> = { Γ: '\\Gamma', Σ: '\\Sigma', Δ: '\\Delta', Λ: '\\Lambda' };
const SUBSCRIPT = '₀₁₂₃₄₅₆₇₈₉';

/**
 * A label as shown: G, \Gamma, $\Gamma$, GAMMA → Γ; \Sigma_1, $\Sigma_1$ → Σ₁; X_1, X1 → X₁. Anything else is
 * returned trimmed, as it came.
 */
export function displayLabel(raw: string): string {
  const text = raw
    .trim()
    .replace(/\$/g, '')
    .replace(/\\mathrm\{([^}]*)\}|\\rm\s*/g, '$1')
    .replace(/[{}]/g, '');
  const m = /^\\?([A-Za-z]+|Γ|Σ|Δ|Λ)(?:_?(\d+))?$/.exec(text);
  if (!m) return text;
  const name = GREEK[m[1]!.toLowerCase()] ?? m[1]!;
  return name + [...(m[2] ?? '')].map((d) => SUBSCRIPT[Number(d)]).join('');
}

/** A label as pymatgen writes it in a KPOINTS file: Γ → \Gamma, Σ₁ → \Sigma_1, Z₁ → Z_1. */
export function pymatgenLabel(label: string): string {
  const m = /^([^₀-₉]+)([₀-₉]*)$/.exec(label);
  if (!m) return label;
  const digits = [...m[2]!].map((d) => SUBSCRIPT.indexOf(d)).join('');
  return (LATEX[m[1]!] ?? m[1]!) + (digits ? `_${digits}` : '');
}
