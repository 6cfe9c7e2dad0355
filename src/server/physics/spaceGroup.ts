/**
 * The space group in the reference server, for the band structure's k-path: the core's moyo finder
 * (core/crystallography), loaded in the worker thread that computes, synchronously (wasm-bindgen's initSync) on the
 * first band structure, since a route's computation is one synchronous call. The built server (dist/server/) finds
 * the build's dist/moyo.js and its .wasm one folder up; the tests (out/) the package in node_modules. When moyo
 * cannot load or finds no group, the lattice type comes from the cell's metric, as before, and the answer says so.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { standardizeCrystal, type Crystal, type Standardized } from '../../core/crystallography/kpoints';
import { DEFAULT_SYMPREC, type MoyoBindings } from '../../core/crystallography/symmetry';

/** The .wasm the build copies beside dist/moyo.js (esbuild.mjs MOYO_WASM). */
const WASM = 'moyo_wasm_bg.wasm';

type MoyoModule = MoyoBindings & { initSync(options: { module: Uint8Array }): unknown };

let moyo: MoyoBindings | string | undefined;

function loadMoyo(): MoyoBindings | string {
  try {
    const built = [path.join(__dirname, '..'), __dirname].find(
      (dir) => existsSync(path.join(dir, 'moyo.js')) && existsSync(path.join(dir, WASM)),
    );
    const glue = built ? path.join(built, 'moyo.js') : require.resolve('@spglib/moyo-wasm');
    const wasm = built ? path.join(built, WASM) : path.join(path.dirname(glue), WASM);
    const module = require(glue) as MoyoModule;
    module.initSync({ module: readFileSync(wasm) });
    return module;
  } catch (error) {
    return `moyo could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The space group and its standard cell, or why there is none (then the metric decides). */
export function spaceGroupOf(crystal: Crystal): Standardized | string {
  moyo ??= loadMoyo();
  if (typeof moyo === 'string') return moyo;
  try {
    return standardizeCrystal(moyo, crystal, DEFAULT_SYMPREC) ?? 'moyo gave no standard cell';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
