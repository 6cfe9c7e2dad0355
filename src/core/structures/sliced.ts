/**
 * A big VASP output file read from its bytes in slices, yielding to the event loop between them, so that
 * a 500 MB vasprun.xml never holds the extension host: vasprun.xml through VasprunReader (the text is never
 * whole), any other format decoded, then read. Pure: the bytes come from the host.
 */
import { yieldToEventLoop } from '../util/yield';
import { readStructure } from './formats';
import type { StructureFile } from './types';
import { VasprunReader } from './vasprun/index';

/** Bytes decoded and pushed per slice. */
export const SLICE_BYTES = 1 << 20;

export async function readStructureBytes(
  format: string,
  bytes: Uint8Array,
  onProgress?: (done: number, total: number) => void,
  isCancelled: () => boolean = () => false,
): Promise<StructureFile | undefined> {
  const decoder = new TextDecoder('utf-8');
  if (format !== 'vasprun') {
    const parts: string[] = [];
    for (let at = 0; at < bytes.length && !isCancelled(); at += SLICE_BYTES) {
      parts.push(decoder.decode(bytes.subarray(at, at + SLICE_BYTES), { stream: true }));
      onProgress?.(Math.min(at + SLICE_BYTES, bytes.length), bytes.length);
      await yieldToEventLoop();
    }
    return isCancelled() ? undefined : readStructure(format, parts.join('') + decoder.decode());
  }
  const reader = new VasprunReader();
  for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
    if (isCancelled()) return undefined;
    reader.push(decoder.decode(bytes.subarray(at, at + SLICE_BYTES), { stream: true }));
    onProgress?.(Math.min(at + SLICE_BYTES, bytes.length), bytes.length);
    await yieldToEventLoop();
  }
  reader.push(decoder.decode());
  return reader.finish();
}
