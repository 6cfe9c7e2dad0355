/**
 * Band edges from eigenvalues, when the service does not give them.
 *  - With the electron count: nelectrons / 2 bands are filled (spin-degenerate bands). An odd count
 *    leaves a band half filled: a metal. Otherwise VBM = highest of the top filled band over all k,
 *    CBM = lowest of the band above; CBM ≤ VBM is a metal (bands overlap).
 *  - With only a Fermi level: a band reaching both sides of it makes a metal; otherwise VBM = highest
 *    eigenvalue below it, CBM = lowest above.
 * Pure.
 */
import type { Series } from './model';

export interface Edges {
  vbm?: number;
  cbm?: number;
  /** k-point indices of the edges */
  vbmK?: number;
  cbmK?: number;
  metal: boolean;
}

const METAL: Edges = { metal: true };

/** The eigenvalues at k-point k, ascending; undefined when one is missing. */
function levelsAt(bands: readonly Series[], k: number): number[] | undefined {
  const values = bands.map((b) => b[k]);
  return values.every((v): v is number => typeof v === 'number') ? values.sort((a, b) => a - b) : undefined;
}

function edges(vbm: [number, number] | undefined, cbm: [number, number] | undefined): Edges | undefined {
  if (!vbm || !cbm) return undefined;
  if (cbm[0] <= vbm[0]) return METAL;
  return { vbm: vbm[0], vbmK: vbm[1], cbm: cbm[0], cbmK: cbm[1], metal: false };
}

export function edgesFromElectrons(bands: readonly Series[], nelectrons: number): Edges | undefined {
  const filled = nelectrons / 2;
  if (Number.isInteger(nelectrons) && !Number.isInteger(filled)) return METAL;
  if (!Number.isInteger(filled) || filled < 1 || filled >= bands.length) return undefined;
  let vbm: [number, number] | undefined;
  let cbm: [number, number] | undefined;
  const nk = bands[0]?.length ?? 0;
  for (let k = 0; k < nk; k++) {
    const levels = levelsAt(bands, k);
    if (!levels) continue;
    if (!vbm || levels[filled - 1]! > vbm[0]) vbm = [levels[filled - 1]!, k];
    if (!cbm || levels[filled]! < cbm[0]) cbm = [levels[filled]!, k];
  }
  return edges(vbm, cbm);
}

export function edgesFromFermi(bands: readonly Series[], fermi: number): Edges | undefined {
  let vbm: [number, number] | undefined;
  let cbm: [number, number] | undefined;
  for (const band of bands) {
    let below = false;
    let above = false;
    band.forEach((e, k) => {
      if (e === null) return;
      if (e <= fermi) {
        below = true;
        if (!vbm || e > vbm[0]) vbm = [e, k];
      } else {
        above = true;
        if (!cbm || e < cbm[0]) cbm = [e, k];
      }
    });
    if (below && above) return METAL;
  }
  return edges(vbm, cbm);
}

/** The k-point where some band comes closest to `energy` (within 10 meV), for edges the service gave. */
export function locate(bands: readonly Series[], energy: number): number | undefined {
  let best: [number, number] | undefined;
  for (const band of bands) {
    band.forEach((e, k) => {
      if (e !== null && (!best || Math.abs(e - energy) < best[0])) best = [Math.abs(e - energy), k];
    });
  }
  return best && best[0] <= 0.01 ? best[1] : undefined;
}
