/** optimade_explorer/query: an OPTIMADE filter over the database, and the subset of the filter grammar it reads. */
import { MATERIALS, type Material } from '../materials';
import { HttpError, str, type Handler } from '../http/body';
import { sameComposition } from './materials';

export const optimade: Handler = (body) => {
  const filter = str(body, 'filter_string', true);
  let test;
  try {
    test = optimadeFilter(filter);
  } catch (error) {
    throw new HttpError(400, `Filter not understood: ${(error as Error).message}.`);
  }
  const data = MATERIALS.filter(test).map((m) => ({
    id: m.jid,
    type: 'structures',
    attributes: {
      chemical_formula_reduced: m.formula,
      elements: [...m.elements].sort(),
      nelements: m.elements.length,
      nsites: m.structure?.species.length ?? null,
    },
  }));
  return { data, meta: { data_returned: data.length, data_available: MATERIALS.length, more_data_available: false } };
};

export const OPTIMADE_SUBSET =
  'clauses joined by AND: elements HAS "X"; elements HAS ALL "X","Y"; elements HAS ANY "X","Y"; nelements <op> N; ' +
  'chemical_formula_reduced = "X"; id = "X" (op is one of = != < <= > >=)';

/** Characters of a filter at most: the reference data has a dozen materials, no filter needs more. */
export const MAX_FILTER = 2000;

export function optimadeFilter(filter: string): (m: Material) => boolean {
  if (filter.length > 100 * MAX_FILTER) throw new Error(`the filter is longer than ${MAX_FILTER} characters`);
  // Runs of white space become one space first (a linear pass), so no pattern below can backtrack over a long run.
  const text = filter.replace(/\s+/g, ' ').trim();
  if (text.length > MAX_FILTER) throw new Error(`the filter is longer than ${MAX_FILTER} characters`);
  if (!text) return () => true;
  const clauses = text.split(/ AND /i);
  const tests = clauses.map((clause): ((m: Material) => boolean) => {
    const c = clause
      .trim()
      .replace(/^\((.*)\)$/, '$1')
      .trim();
    let m = /^elements\s+HAS\s+(ALL\s+|ANY\s+)?(.+)$/i.exec(c);
    if (m) {
      const mode = (m[1] ?? '').trim().toUpperCase() || 'ALL';
      const values = m[2]!.split(',').map((v) => v.trim());
      if (!values.every((v) => /^"[A-Z][a-z]?"$/.test(v))) throw new Error(`could not read the element list in "${clause}"`);
      const els = values.map((v) => v.slice(1, -1));
      return mode === 'ANY' ? (x) => els.some((e) => x.elements.includes(e)) : (x) => els.every((e) => x.elements.includes(e));
    }
    m = /^nelements\s*(=|!=|<=|>=|<|>)\s*(\d+)$/i.exec(c);
    if (m) {
      const op = m[1]!;
      const n = Number(m[2]);
      return (x) => compare(x.elements.length, op, n);
    }
    m = /^(chemical_formula_reduced|chemical_formula_descriptive|id)\s*(=|!=)\s*"([^"]*)"$/i.exec(c);
    if (m) {
      const field = m[1]!.toLowerCase();
      const negate = m[2] === '!=';
      const value = m[3]!;
      return (x) => (field === 'id' ? x.jid === value : sameComposition(x.formula, value)) !== negate;
    }
    throw new Error(`the reference server does not understand the clause "${clause.trim()}"; it understands ${OPTIMADE_SUBSET}`);
  });
  return (x) => tests.every((t) => t(x));
}

function compare(a: number, op: string, b: number): boolean {
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    default:
      return a >= b;
  }
}
