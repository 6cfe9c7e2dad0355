/** The moyo .wasm read from disk, for Node without the editor: the CLI (dist/), the unit tests and the benchmark (node_modules). */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { MoyoBindings } from '../core/crystallography/symmetry';
import { loadMoyo, MOYO_WASM_FILE } from './moyo';

export function moyoWasmPath(): string {
  const beside = path.join(__dirname, MOYO_WASM_FILE);
  return existsSync(beside) ? beside : require.resolve(`@spglib/moyo-wasm/${MOYO_WASM_FILE}`);
}

export const loadMoyoNode = (): Promise<MoyoBindings> => loadMoyo(readFileSync(moyoWasmPath()));
