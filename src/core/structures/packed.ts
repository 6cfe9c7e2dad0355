/**
 * A trajectory's per-site vectors kept packed: one Float64Array of x0 y0 z0 x1 … per frame, as ASE keeps
 * one numpy array per Atoms, instead of one small array per site (half the time of reading a 1,000-frame
 * XDATCAR went on allocating and collecting those). The frame still shows `positions: Vec3[]`: the rows
 * are made on the first read of the property and kept, so a player that shows a few frames of a long run
 * makes only those. The property is an own, enumerable accessor: spread, JSON and structured clone see
 * the rows, and assigning it replaces them. Pure: no `vscode`.
 */
import type { Vec3 } from '../poscar/types';

/** The rows of a packed array of 3·N numbers. */
export function unpack(packed: Float64Array): Vec3[] {
  const rows: Vec3[] = new Array<Vec3>(packed.length / 3);
  for (let i = 0, k = 0; k < packed.length; i++, k += 3) rows[i] = [packed[k]!, packed[k + 1]!, packed[k + 2]!];
  return rows;
}

/** Defines `frame[key]` as the rows of `packed`, made on first read; returns the frame. */
export function defineRows<F extends object, K extends string>(frame: F, key: K, packed: Float64Array): F & Record<K, Vec3[]> {
  let rows: Vec3[] | undefined;
  return Object.defineProperty(frame, key, {
    enumerable: true,
    configurable: true,
    get: () => (rows ??= unpack(packed)),
    set: (value: Vec3[]) => {
      rows = value;
    },
  }) as F & Record<K, Vec3[]>;
}
