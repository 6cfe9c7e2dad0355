/**
 * Which potential computes a structure's energy and forces: a published one where one covers its elements,
 * else the Morse reference potential, which the answer's method labels as the rough model it is. Pure.
 */
import type { Cell } from './cell';
import { evaluate as morse, MORSE_METHOD, type Evaluation } from './potential';
import { EAM_METHOD, eamCovers, evaluateEam } from './eam';
import { evaluateSw, swCovers, SW_METHOD } from './stillingerWeber';
import { evaluateTersoff, tersoffCovers, TERSOFF_METHOD } from './tersoff';

export interface ForceField {
  evaluate(cell: Cell): Evaluation;
  /** The potential and its paper, for the answer's method. */
  method: string;
}

export function forceFieldFor(symbols: readonly string[]): ForceField {
  if (swCovers(symbols)) return { evaluate: evaluateSw, method: SW_METHOD };
  if (tersoffCovers(symbols)) return { evaluate: evaluateTersoff, method: TERSOFF_METHOD };
  if (eamCovers(symbols)) return { evaluate: evaluateEam, method: EAM_METHOD };
  return { evaluate: morse, method: MORSE_METHOD };
}
