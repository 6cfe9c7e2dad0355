/**
 * A big VASP output file read from its bytes in slices, yielding to the event loop between them, so that
 * a 500 MB vasprun.xml never holds the extension host: vasprun.xml through VasprunReader (the text is never
 * whole), any other format decoded, then read. Pure: the bytes come from the host.
 */
import { yieldToEventLoop } from '../util/yield';
import { readStructure } from './formats';
import { ENGLISH, type Locale } from '../util/locale';
import type { StructureFile } from './types';
import { VasprunReader } from './vasprun/index';

/** Bytes decoded per slice. */
export const SLICE_BYTES = 1 << 20;

/**
 * Bytes of vasprun.xml decoded and pushed into VasprunReader at a time, with a yield after each: a push
 * holds the event loop, and the first ones run before V8 has compiled the reader (measured on the
 * benchmark's vasprun.xml, main-thread CPU: the first 256 KB push 55–62 ms, a 64 KB one 17–20 ms; warm,
 * a 64 KB push is a few ms). `npm run bench -- --only=vasp` checks the longest against 50 ms.
 */
export const VASPRUN_PUSH_BYTES = 64 << 10;

export async function readStructureBytes(
  format: string,
  bytes: Uint8Array,
  onProgress?: (done: number, total: number) => void,
  isCancelled: () => boolean = () => false,
  locale: Locale = ENGLISH,
): Promise<StructureFile | undefined> {
  const decoder = new TextDecoder('utf-8');
  if (format !== 'vasprun') {
    const parts: string[] = [];
    for (let at = 0; at < bytes.length && !isCancelled(); at += SLICE_BYTES) {
      parts.push(decoder.decode(bytes.subarray(at, at + SLICE_BYTES), { stream: true }));
      onProgress?.(Math.min(at + SLICE_BYTES, bytes.length), bytes.length);
      await yieldToEventLoop();
    }
    return isCancelled() ? undefined : readStructure(format, parts.join('') + decoder.decode(), locale);
  }
  const reader = new VasprunReader(locale);
  for (let at = 0; at < bytes.length; at += VASPRUN_PUSH_BYTES) {
    if (isCancelled()) return undefined;
    reader.push(decoder.decode(bytes.subarray(at, at + VASPRUN_PUSH_BYTES), { stream: true }));
    onProgress?.(Math.min(at + VASPRUN_PUSH_BYTES, bytes.length), bytes.length);
    await yieldToEventLoop();
  }
  reader.push(decoder.decode());
  return reader.finish();
}
