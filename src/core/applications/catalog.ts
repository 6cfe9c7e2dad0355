import { ENGLISH, type Translate } from '../util/locale';

/**
 * The applications of spec section 1, with the path segment each one serves under, titled in `t`. Pure: the reference
 * server (APPS, English) and the editor (its locale) share it.
 */
export const appCatalog = (t: Translate): ReadonlyArray<{ name: string; title: string; operations: string[] }> => [
  { name: 'tokenizer', title: t('Text tokenization'), operations: ['tokenize'] },
  { name: 'materials_explorer', title: t('Materials search'), operations: ['search'] },
  { name: 'gnn_predictor', title: t('Property prediction'), operations: ['predict'] },
  { name: 'gnn_ff_dynamics', title: t('Force-field relaxation and dynamics'), operations: ['relax', 'single_point', 'md'] },
  { name: 'tightbinding', title: t('Electronic-structure computation'), operations: ['compute'] },
  { name: 'pxrd', title: t('Powder diffraction'), operations: ['compute', 'match'] },
  { name: 'heterostructure', title: t('Heterostructure generation'), operations: ['generate'] },
  { name: 'quantum', title: t('Variational quantum computation'), operations: ['vqe'] },
  { name: 'reaction_network', title: t('Reaction balancing'), operations: ['balance'] },
  { name: 'hea', title: t('High-entropy alloys'), operations: ['compute'] },
  { name: 'optimade_explorer', title: t('OPTIMADE queries'), operations: ['query'] },
];

export const APPS = appCatalog(ENGLISH.t);
