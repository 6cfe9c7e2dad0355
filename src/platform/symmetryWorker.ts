/** The worker thread symmetry searches run in (symmetryPool.ts): moyo loaded once, one search at a time. */
import { parentPort } from 'node:worker_threads';
import type { Cell } from '../core/crystallography/cell';
import { analyzeSymmetry, type MoyoBindings, type SymmetryResult } from '../core/crystallography/symmetry';
import { loadMoyoNode } from './moyoNode';

export interface SearchRequest {
  id: number;
  cell: Cell;
  symprec: number;
}
export type SearchReply = { id: number; result: SymmetryResult } | { id: number; error: string };

let moyo: Promise<MoyoBindings> | undefined;

parentPort?.on('message', ({ id, cell, symprec }: SearchRequest) => {
  const loading = (moyo ??= loadMoyoNode().catch((error: unknown) => {
    moyo = undefined;
    throw new Error(`The symmetry finder (moyo) could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
  }));
  loading
    .then((bindings) => analyzeSymmetry(bindings, cell, symprec))
    .then(
      (result) => parentPort!.postMessage({ id, result } satisfies SearchReply),
      (error: unknown) =>
        parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies SearchReply),
    );
});
