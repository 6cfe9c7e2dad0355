/**
 * Loads @spglib/moyo-wasm (spglib's successor, the symmetry finder of core/crystallography/symmetry.ts) from the
 * bytes of its .wasm, which each host reads its own way: the extension with vscode.workspace.fs from dist/ (both
 * hosts), the CLI and the tests from disk (moyoNode.ts). The package's JavaScript is an ES module; the desktop
 * build keeps it in dist/moyo.js, required here on the first search only, and the web build bundles it, evaluated
 * here on the first search only. Nothing here runs at activation.
 */
import type { MoyoBindings } from '../core/crystallography/symmetry';

/** The file the build copies beside the bundles (esbuild.mjs) and the .vsix carries. */
export const MOYO_WASM_FILE = 'moyo_wasm_bg.wasm';

/** The package as required: its functions, and its init as `default` (or inside it, through a CommonJS wrapper). */
type Init = (options: { module_or_path: Uint8Array }) => Promise<unknown>;
type MoyoModule = MoyoBindings & { default?: Init | { default?: Init } };

export async function loadMoyo(bytes: Uint8Array): Promise<MoyoBindings> {
  // require, not import(): the desktop bundle's require of dist/moyo.js (CommonJS) and the web bundle's of its own
  // copy both run here, on the first search; Node (the tests) requires the ES module itself.
  const moyo = require('@spglib/moyo-wasm') as MoyoModule;
  const init = typeof moyo.default === 'function' ? moyo.default : moyo.default?.default;
  if (typeof init !== 'function') throw new Error('the package has no init function');
  // The asynchronous form compiles off the calling thread where the host can.
  await init({ module_or_path: bytes });
  return moyo;
}
