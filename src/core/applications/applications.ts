/** Every application command, and the one a request document's first line names. */
import { computePattern, matchPattern } from './diffraction';
import { highEntropyAlloy } from './hea';
import { generateHeterostructure } from './heterostructure';
import { optimadeQuery } from './optimade';
import { predictProperty } from './predict';
import { quantumVqe } from './quantum';
import { balanceReaction } from './reaction';
import { searchMaterials } from './search';
import type { Application } from './types';

export const APPLICATIONS: readonly Application[] = [
  searchMaterials,
  predictProperty,
  computePattern,
  matchPattern,
  optimadeQuery,
  generateHeterostructure,
  quantumVqe,
  balanceReaction,
  highEntropyAlloy,
];

/** "// Token Lens request: POST /pxrd/match" → the pattern match application. */
export function applicationOf(firstLine: string): Application | undefined {
  const match = /^\s*\/\/\s*Token Lens request:\s*POST\s+(\S+)\s*$/.exec(firstLine);
  return match ? APPLICATIONS.find((a) => a.path === match[1]) : undefined;
}
