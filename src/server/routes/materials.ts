/** The search every application has, a material's public view (search and detail), and gnn_predictor's tabulated predictions. */
import { parseFormula } from '../../core/chemistry/formula';
import { MATERIALS, type Material } from '../materials';
import { own } from '../../core/util/own';
import { HttpError, material, num, str, strings, type Handler } from '../http/body';

export const search: Handler = (body) => {
  const query: SearchQuery = {};
  const formula = str(body, 'formula', false);
  if (formula) {
    try {
      parseFormula(formula);
    } catch (error) {
      throw new HttpError(400, `Field "formula" could not be read: ${(error as Error).message}.`);
    }
    query.formula = formula;
  }
  const elements = strings(body, 'elements');
  if (elements) query.elements = elements;
  const mode = str(body, 'element_mode', false);
  if (mode !== undefined) {
    if (!(ELEMENT_MODES as readonly string[]).includes(mode))
      throw new HttpError(400, `Field "element_mode" must be one of ${ELEMENT_MODES.join(', ')}.`);
    query.element_mode = mode;
  }
  const min = num(body, 'bandgap_min');
  const max = num(body, 'bandgap_max');
  if (min !== undefined) query.bandgap_min = min;
  if (max !== undefined) query.bandgap_max = max;
  if (min !== undefined && max !== undefined && min > max) throw new HttpError(400, 'bandgap_min is larger than bandgap_max.');
  const results = searchMaterials(query).map((m) => materialView(m));
  return { count: results.length, results };
};

export const predict: Handler = (body) => {
  const m = material(body, 'jid');
  const model = str(body, 'model', false) ?? DEFAULT_MODEL;
  const spec = own(MODELS, model);
  if (!spec) throw new HttpError(400, `Unknown model "${model}". Models: ${Object.keys(MODELS).join(', ')}.`);
  return {
    jid: m.jid,
    formula: m.formula,
    model,
    property: spec.description,
    prediction: m[spec.field],
    unit: spec.unit,
    source: 'tabulated reference value',
  };
};

/** The public view of a material (what search and detail answer). */
export function materialView(m: Material, full = false): Record<string, unknown> {
  const { structure, ...rest } = m;
  const view: Record<string, unknown> = { ...rest, nelements: m.elements.length };
  if (full && structure) view.poscar = toPoscar(m);
  return view;
}

export function toPoscar(m: Material): string {
  const s = m.structure!;
  const kinds = [...new Set(s.species)];
  const lines = [`${m.formula} ${m.jid}`, '1.0'];
  for (const row of s.lattice) lines.push(row.map((v) => v.toFixed(6).padStart(12)).join(' '));
  lines.push(kinds.join(' '));
  lines.push(kinds.map((k) => s.species.filter((x) => x === k).length).join(' '));
  lines.push('Direct');
  for (const kind of kinds) {
    s.species.forEach((x, i) => {
      if (x === kind) lines.push(`${s.frac[i]!.map((v) => v.toFixed(6).padStart(10)).join(' ')} ${kind}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

// ---- formulas -------------------------------------------------------------------------------------------

/** Reduced formula in the order the elements are written, e.g. Ga2As2 → GaAs. */
export function reducedFormula(formula: string): string {
  const counts = parseFormula(formula);
  const values = [...counts.values()];
  const g = values.reduce((a, b) => gcd(a, b));
  return [...counts].map(([el, c]) => `${el}${c / g === 1 ? '' : c / g}`).join('');
}

export function sameComposition(a: string, b: string): boolean {
  try {
    const x = parseFormula(reducedFormula(a));
    const y = parseFormula(reducedFormula(b));
    return x.size === y.size && [...x].every(([el, c]) => y.get(el) === c);
  } catch {
    return false;
  }
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return Math.abs(a);
}

// ---- materials search -----------------------------------------------------------------------------------

export interface SearchQuery {
  formula?: string;
  elements?: string[];
  element_mode?: string;
  bandgap_min?: number;
  bandgap_max?: number;
}

export const ELEMENT_MODES = ['all', 'any', 'exact'] as const;

export function searchMaterials(q: SearchQuery): Material[] {
  return MATERIALS.filter((m) => {
    if (q.formula && !sameComposition(q.formula, m.formula)) return false;
    if (q.elements && q.elements.length) {
      const mode = q.element_mode ?? 'all';
      const has = (el: string): boolean => m.elements.some((x) => x.toLowerCase() === el.toLowerCase());
      if (mode === 'all' && !q.elements.every(has)) return false;
      if (mode === 'any' && !q.elements.some(has)) return false;
      if (mode === 'exact' && !(q.elements.every(has) && new Set(q.elements.map((e) => e.toLowerCase())).size === m.elements.length))
        return false;
    }
    if (q.bandgap_min !== undefined && m.bandgap < q.bandgap_min) return false;
    if (q.bandgap_max !== undefined && m.bandgap > q.bandgap_max) return false;
    return true;
  });
}

// ---- property prediction --------------------------------------------------------------------------------

export const MODELS: Record<string, { field: keyof Material; unit: string; description: string }> = {
  formation_energy_peratom: { field: 'formation_energy_per_atom', unit: 'eV/atom', description: 'formation energy per atom' },
  optb88vdw_bandgap: { field: 'bandgap', unit: 'eV', description: 'band gap' },
  bulk_modulus_kv: { field: 'bulk_modulus', unit: 'GPa', description: 'Voigt bulk modulus' },
  shear_modulus_gv: { field: 'shear_modulus', unit: 'GPa', description: 'Voigt shear modulus' },
};
export const DEFAULT_MODEL = 'formation_energy_peratom';
