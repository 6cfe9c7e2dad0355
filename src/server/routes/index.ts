/** Every route of the reference server (spec section 4, and the applications of the catalog), by path. */
import type { WorkerPool } from '../pool';
import type { Handler } from '../body';
import { heterostructure } from './heterostructure';
import { hea } from './hea';
import { predict, search } from './materials';
import { optimade } from './optimade';
import { pxrd, pxrdMatch } from './pxrd';
import { vqe } from './quantum';
import { balance } from './reaction';
import { structureRoutes } from './structures';
import { tokenize, tokenizerSearch } from './tokenizer';

export function routes(pool: WorkerPool): Record<string, Handler> {
  const { singlePoint: singlePointHandler, relax, md, tightbinding } = structureRoutes(pool);
  return {
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
}
