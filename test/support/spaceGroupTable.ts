/**
 * The space-group table readCif takes for blocks that name a group but list no operations, from moyo
 * (@spglib/moyo-wasm, a dependency: spglib's successor, MIT/Apache-2.0), loaded as the editor loads it.
 */
import { readFileSync } from 'node:fs';
import { spaceGroupsFromMoyo, type MoyoLike, type SpaceGroupTable } from '../../src/core/structures/cif/index';

let table: Promise<SpaceGroupTable> | undefined;

export function moyoSpaceGroups(): Promise<SpaceGroupTable> {
  return (table ??= (async () => {
    const moyo = (await import('@spglib/moyo-wasm')) as unknown as MoyoLike & { initSync(init: { module: Buffer }): unknown };
    moyo.initSync({ module: readFileSync(require.resolve('@spglib/moyo-wasm/moyo_wasm_bg.wasm')) });
    return spaceGroupsFromMoyo(moyo);
  })());
}
