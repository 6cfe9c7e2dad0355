/**
 * The short-range pair term of the ionic models (ionic.ts, shellModel.ts), φ(r) = A e^(−r/ρ) − C/r⁶ − D/r⁸, switched
 * smoothly to zero between SHORT_ON and SHORT_OFF (quintic, species.ts); the dispersion it drops beyond is below 0.01 eV
 * per ion in NaCl, KCl and MgO (2πnC/3r³ with the anion's C from about 9 Å). Pure.
 */
import type { ShortRange } from './ionicParameters';
import { smoothSwitch } from './species';

/**
 * Å: closer than this the model is refused. Formal charges and Buckingham's −C/r⁶ fall without bound as two ions meet
 * (O–O of Bush et al. turns over below about 1.3 Å), so a relax or MD there would collapse rather than answer.
 */
export const MIN_SEPARATION = 1;
/** Å */
export const SHORT_ON = 8;
export const SHORT_OFF = 10;

/** φ(r) and dφ/dr, switched. */
export function shortRange(p: ShortRange, r: number): [number, number] {
  const [s, ds] = smoothSwitch(r, SHORT_ON, SHORT_OFF);
  if (s === 0) return [0, 0];
  const rep = p.A * Math.exp(-r / p.rho);
  const r6 = r ** 6;
  const phi = rep - p.C / r6 - p.D / (r6 * r * r);
  const dphi = -rep / p.rho + (6 * p.C) / (r6 * r) + (8 * p.D) / (r6 * r * r * r);
  return [phi * s, dphi * s + phi * ds];
}
