/** The applications of spec section 1, with the path segment each one serves under. Pure: the reference server and the editor share it. */
export const APPS: ReadonlyArray<{ name: string; title: string; operations: string[] }> = [
  { name: 'tokenizer', title: 'Text tokenization', operations: ['tokenize'] },
  { name: 'materials_explorer', title: 'Materials search', operations: ['search'] },
  { name: 'gnn_predictor', title: 'Property prediction', operations: ['predict'] },
  { name: 'gnn_ff_dynamics', title: 'Force-field relaxation and dynamics', operations: ['relax', 'single_point', 'md'] },
  { name: 'tightbinding', title: 'Electronic-structure computation', operations: ['compute'] },
  { name: 'pxrd', title: 'Powder diffraction', operations: ['compute', 'match'] },
  { name: 'heterostructure', title: 'Heterostructure generation', operations: ['generate'] },
  { name: 'quantum', title: 'Variational quantum computation', operations: ['vqe'] },
  { name: 'reaction_network', title: 'Reaction balancing', operations: ['balance'] },
  { name: 'hea', title: 'High-entropy alloys', operations: ['compute'] },
  { name: 'optimade_explorer', title: 'OPTIMADE queries', operations: ['query'] },
];
