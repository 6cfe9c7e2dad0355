/**
 * Which potential computes a structure's energy and forces: a published one where one covers its elements (an
 * ionic set only when its formal charges make the cell neutral),
 * else UFF's Lennard-Jones nonbond term (uff.ts), which the answer's method labels as the rough model it is (saying why when
 * the elements are those of two alkali halides). Pure.
 */
import type { Cell } from './cell';
import type { Evaluation } from './potential';
import { EAM_METHOD, eamCovers, evaluateEam } from './eam';
import { evaluateSw, swCovers, SW_METHOD } from './stillingerWeber';
import { evaluateTersoff, tersoffCovers, TERSOFF_METHOD } from './tersoff';
import { evaluateUff, UFF_METHOD } from './uff';
import { evaluateIonic, ionicMethod, ionicSetFor, mixedHalideNote } from './ionic';
import { abopCovers, ABOP_METHOD, evaluateAbop } from './abop';
import { evaluatePowell, powellCovers, POWELL_METHOD } from './tersoffIIIV';

export interface ForceField {
  evaluate(cell: Cell): Evaluation;
  /** The potential and its paper, for the answer's method. */
  method: string;
}

export function forceFieldFor(symbols: readonly string[]): ForceField {
  if (swCovers(symbols)) return { evaluate: evaluateSw, method: SW_METHOD };
  if (tersoffCovers(symbols)) return { evaluate: evaluateTersoff, method: TERSOFF_METHOD };
  if (eamCovers(symbols)) return { evaluate: evaluateEam, method: EAM_METHOD };
  if (abopCovers(symbols)) return { evaluate: evaluateAbop, method: ABOP_METHOD };
  if (powellCovers(symbols)) return { evaluate: evaluatePowell, method: POWELL_METHOD };
  const set = ionicSetFor(symbols);
  if (set) {
    const memory = {};
    return { evaluate: (cell) => evaluateIonic(cell, set, undefined, memory), method: ionicMethod(set) };
  }
  const note = mixedHalideNote(symbols);
  return { evaluate: evaluateUff, method: note ? `${UFF_METHOD}. ${note}.` : UFF_METHOD };
}
