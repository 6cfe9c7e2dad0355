/** The POSCAR texts of a run: the input as parsed, and names for the files a run writes. Pure. */
import { parsePoscar } from '../../core/poscar/index';
import type { ParseResult, Poscar } from '../../core/poscar/types';

export function firstErrorMessage(result: ParseResult): string | undefined {
  return result.diagnostics.find((d) => d.severity === 'error')?.message;
}

/** The structure sent, when the core can build one from it (warnings and all). */
export function inputStructure(text: string): Poscar | undefined {
  return parsePoscar(text).poscar;
}

/** "POSCAR" → "POSCAR.relaxed", "Si.vasp" → "Si.relaxed.vasp": the name keeps matching the poscar language. */
export function derivedName(inputName: string, suffix: string): string {
  const dot = inputName.lastIndexOf('.');
  return dot > 0 && /^\.(vasp|poscar)$/i.test(inputName.slice(dot))
    ? `${inputName.slice(0, dot)}.${suffix}${inputName.slice(dot)}`
    : `${inputName}.${suffix}`;
}
