/** Readers of the materials applications: search, prediction, OPTIMADE. Pure and tolerant. */
import type { Rec } from '../../../core/util/guards';
import type { Fields } from '../fields';
import { counting, short } from '../format';
import type { AppRead } from './model';
import { recordTable, type Column } from './tables';
import { plural, type Translate } from '../../../core/util/locale';

const materialColumns = (t: Translate): Column[] => [
  { names: ['jid', 'id', 'material_id'], label: t('Id') },
  { names: ['formula', 'chemical_formula_reduced', 'reduced_formula'], label: t('Formula') },
  { names: ['name'], label: t('Name') },
  { names: ['spacegroup', 'spg_symbol', 'space_group'], label: t('Space group') },
  { names: ['bandgap', 'optb88vdw_bandgap', 'band_gap'], label: t('Band gap (eV)') },
  { names: ['formation_energy_per_atom', 'formation_energy_peratom'], label: t('Formation energy (eV/atom)') },
  { names: ['elements'], label: t('Elements') },
];

/** The list of an answer: the first of these fields that is a list, or the answer itself. */
function list(f: Fields, names: string[]): unknown[] | undefined {
  return f.read(names, (v) => (Array.isArray(v) ? v : undefined), f.t('a list'));
}

export function readSearch(f: Fields, _request: Rec, t: Translate): AppRead {
  const rows = list(f, ['results', 'materials', 'data', 'answer']) ?? [];
  const count = f.count('count', 'total', 'n_results');
  const { table, skipped } = recordTable(rows, {
    id: 'results',
    title: t('Materials'),
    known: materialColumns(t),
    idNames: ['jid', 'id', 'material_id'],
    detailApp: 'materials_explorer',
    pageSize: 25,
    note: t('Click a column to sort; click a row (or press Enter) to open the material and its structure.'),
  });
  const en = counting(t);
  if (skipped)
    f.warnings.push(
      plural(en, skipped, '{0} result of the list could not be shown as rows.', '{0} results of the list could not be shown as rows.'),
    );
  const shown = count ?? rows.length;
  const headline = shown === 0 ? t('No materials match') : plural(en, shown, '{0} material found', '{0} materials found');
  const facts = count !== undefined && count !== rows.length ? [t('The answer lists {0} of them', rows.length)] : [];
  return { headline, facts, tables: rows.length ? [table] : [], plots: [] };
}

const UNIT_WORDS: Record<string, string> = {
  formation_energy_peratom: 'eV/atom',
  optb88vdw_bandgap: 'eV',
  bulk_modulus_kv: 'GPa',
  shear_modulus_gv: 'GPa',
};

export function readPredict(f: Fields, request: Rec, t: Translate): AppRead {
  const value = f.number('prediction', 'predicted_value', 'value', 'predictions');
  const model = f.text('model', 'model_name') ?? (typeof request.model === 'string' ? request.model : undefined);
  const unit = f.text('unit', 'units') ?? (model ? UNIT_WORDS[model] : undefined);
  const property = f.text('property', 'target', 'prop');
  const jid = f.text('jid', 'id') ?? (typeof request.jid === 'string' ? request.jid : undefined);
  const formula = f.text('formula');
  const source = f.text('source');
  const what = property ? property[0]!.toUpperCase() + property.slice(1) : t('Prediction');
  const headline =
    value === undefined
      ? t('No predicted value in the answer')
      : unit
        ? t('{0}: {1} {2}', what, short(value, 5), unit)
        : t('{0}: {1} (no unit given)', what, short(value, 5));
  const facts = [
    ...(jid || formula ? [t('Material: {0}', [formula, jid && `(${jid})`].filter(Boolean).join(' '))] : []),
    ...(model ? [t('Model: {0}', model)] : []),
    ...(source ? [t('Source: {0}', source)] : []),
  ];
  return { headline, facts, tables: [], plots: [] };
}

export function readOptimade(f: Fields, _request: Rec, t: Translate): AppRead {
  const data = list(f, ['data', 'results']) ?? [];
  const meta = f.nested('meta');
  const returned = meta?.count('data_returned');
  const available = meta?.count('data_available');
  const more = meta?.boolean('more_data_available');
  const { table, skipped } = recordTable(data, {
    id: 'structures',
    title: t('Structures'),
    flatten: 'attributes',
    pageSize: 5,
    idNames: ['id'],
    detailApp: 'materials_explorer',
    known: [
      { names: ['id'], label: t('Id') },
      { names: ['chemical_formula_reduced', 'chemical_formula_descriptive'], label: t('Formula') },
      { names: ['elements'], label: t('Elements') },
      { names: ['nelements'], label: t('Elements (n)') },
      { names: ['nsites'], label: t('Sites') },
      { names: ['type'], label: t('Type') },
    ],
    note: t('Click a column to sort; click a row to open the entry.'),
  });
  const en = counting(t);
  if (skipped)
    f.warnings.push(
      plural(en, skipped, '{0} entry of data could not be shown as rows.', '{0} entries of data could not be shown as rows.'),
    );
  const headline =
    data.length === 0
      ? t('No structures match the filter')
      : plural(en, returned ?? data.length, '{0} structure match', '{0} structures match');
  const facts = [
    ...(available !== undefined ? [plural(en, available, 'The database holds {0} entry', 'The database holds {0} entries')] : []),
    ...(more ? [t('More data is available than this page holds')] : []),
  ];
  return { headline, facts, tables: data.length ? [table] : [], plots: [] };
}
