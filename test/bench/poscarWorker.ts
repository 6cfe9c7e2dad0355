/**
 * Worker thread of the POSCAR benchmark (test/bench/structures.ts): generates a grid POSCAR, then
 * times the first `parsePoscar` (cold: fresh JIT) and `runs` more, and posts the times back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parsePoscar } from '../../src/core/poscar/index';
import { gridPoscar } from '../support/poscarSamples';

const { dims, runs } = workerData as { dims: [number, number, number]; runs: number };
const text = gridPoscar(dims);
let t = performance.now();
const first = parsePoscar(text);
const coldMs = performance.now() - t;
const warm: number[] = [];
for (let i = 0; i < runs; i++) {
  t = performance.now();
  parsePoscar(text);
  warm.push(performance.now() - t);
}
parentPort!.postMessage({
  atoms: first.poscar?.sites.length ?? 0,
  chars: text.length,
  diagnostics: first.diagnostics.length,
  errors: first.diagnostics.filter((d) => d.severity === 'error').length,
  coldMs,
  warm,
});
