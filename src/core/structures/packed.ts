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

/** Where a frame keeps one packed array and its rows, once made. */
interface Holder {
  packed: Float64Array;
  rows: Vec3[] | undefined;
}

/** Per key ('positions', 'forces'): the hidden property of the holder and the accessor every frame shares. */
const ACCESSORS = new Map<string, Accessor>();

interface Accessor {
  slot: symbol;
  descriptor: PropertyDescriptor;
}

/**
 * The accessor of `key`: one getter and setter for every frame, reaching the frame's holder through `this`
 * under a symbol. Fresh functions per frame (closures over the rows) gave every frame a hidden class of its
 * own, 1,000 of them for 1,000 frames: defining them cost more than reading an XYZ frame's atoms.
 */
function accessorOf(key: string): Accessor {
  let accessor = ACCESSORS.get(key);
  if (accessor === undefined) {
    const slot = Symbol(key);
    const holder = (frame: object): Holder => (frame as Record<symbol, Holder>)[slot]!;
    const descriptor: PropertyDescriptor = {
      enumerable: true,
      configurable: true,
      get(this: object): Vec3[] {
        const h = holder(this);
        return (h.rows ??= unpack(h.packed));
      },
      set(this: object, value: Vec3[]) {
        holder(this).rows = value;
      },
    };
    accessor = { slot, descriptor };
    ACCESSORS.set(key, accessor);
  }
  return accessor;
}

/** Defines `frame[key]` as the rows of `packed`, made on first read; returns the frame. */
export function defineRows<F extends object, K extends string>(frame: F, key: K, packed: Float64Array): F & Record<K, Vec3[]> {
  const { slot, descriptor } = accessorOf(key);
  const holder: Holder = { packed, rows: undefined };
  Object.defineProperty(frame, slot, { value: holder });
  return Object.defineProperty(frame, key, descriptor) as F & Record<K, Vec3[]>;
}
