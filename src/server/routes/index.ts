/** Every route of the reference server (spec section 4, and the applications of the catalog), by path, and where each runs. */
import type { Handler } from '../http/body';
import { heterostructure } from './heterostructure';
import { hea } from './hea';
import { predict, search } from './materials';
import { optimade } from './optimade';
import { pxrd, pxrdMatch } from './pxrd';
import { vqe } from './quantum';
import { balance } from './reaction';
import { md, relax, singlePointHandler, tightbinding } from './structures';
import { tokenize, tokenizerSearch } from './tokenizer';

export const ROUTES: Readonly<Record<string, Handler>> = {
  'tokenizer/tokenize': tokenize,
  'tokenizer/compute': tokenize,
  'tokenizer/search': tokenizerSearch,
  'materials_explorer/search': search,
  'materials_explorer/compute': search,
  'gnn_predictor/search': search,
  'gnn_predictor/predict': predict,
  'gnn_predictor/compute': predict,
  'gnn_ff_dynamics/search': search,
  'gnn_ff_dynamics/relax': relax,
  'gnn_ff_dynamics/single_point': singlePointHandler,
  'gnn_ff_dynamics/md': md,
  'gnn_ff_dynamics/compute': singlePointHandler,
  'tightbinding/search': search,
  'tightbinding/compute': tightbinding,
  'pxrd/search': search,
  'pxrd/compute': pxrd,
  'pxrd/match': pxrdMatch,
  'heterostructure/search': search,
  'heterostructure/generate': heterostructure,
  'heterostructure/compute': heterostructure,
  'quantum/search': search,
  'quantum/vqe': vqe,
  'quantum/compute': vqe,
  'reaction_network/search': search,
  'reaction_network/balance': balance,
  'reaction_network/compute': balance,
  'hea/search': search,
  'hea/compute': hea,
  'optimade_explorer/search': search,
  'optimade_explorer/query': optimade,
  'optimade_explorer/compute': optimade,
};

/**
 * The worker threads a request runs on, so that it never waits behind a longer kind: `compute`, the structure
 * calculations (seconds to minutes); `bulk`, what can take up to about a second (VQE whatever its body, any
 * route given a large body: a 50,000-character tokenize, a long scan to match); `quick`, every other request,
 * a few milliseconds each once the worker has loaded what it needs (a rank table: once per encoding).
 */
export type Lane = 'quick' | 'bulk' | 'compute';

/** A body of up to this many characters keeps its route on the quick lane: 2,048 characters tokenize in ~20 ms at worst. */
export const QUICK_BODY_CHARS = 2048;

const COMPUTE = new Set([singlePointHandler, relax, md, tightbinding]);
const BULK = new Set([vqe]);

export function laneOf(route: string, bodyChars: number): Lane {
  const handler = ROUTES[route];
  if (handler && COMPUTE.has(handler)) return 'compute';
  return (handler && BULK.has(handler)) || bodyChars > QUICK_BODY_CHARS ? 'bulk' : 'quick';
}
