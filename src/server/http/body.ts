/** Reading a request body: typed fields with 400s that name the field, and the error type the routes throw. */
import { findMaterial, MATERIALS, type Material } from '../materials';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export type Json = Record<string, unknown>;
/** A route: the request's body in, the answer out (on a worker thread: compute.ts). */
export type Handler = (body: Json) => unknown;

export function str(body: Json, field: string, required: true): string;
export function str(body: Json, field: string, required: false): string | undefined;
export function str(body: Json, field: string, required: boolean): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) throw new HttpError(400, `Field "${field}" is required (a string).`);
    return undefined;
  }
  if (typeof value !== 'string') throw new HttpError(400, `Field "${field}" must be a string, not ${typeName(value)}.`);
  return value;
}

export function num(body: Json, field: string, integer = false): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new HttpError(400, `Field "${field}" must be ${integer ? 'an integer' : 'a number'}, not ${typeName(value)}.`);
  }
  return value;
}

export function strings(body: Json, field: string): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new HttpError(400, `Field "${field}" must be an array of strings.`);
  return value;
}

/** A list of formulas: an array of strings, or text such as "Fe2O3 + C" (leading coefficients dropped). */
export function formulas(body: Json, field: string): string[] | undefined {
  const value = body[field];
  if (typeof value === 'string') return splitSide(value);
  return strings(body, field);
}

export function splitSide(side: string): string[] {
  return side
    .split('+')
    .map((s) => s.trim().replace(/^\d+\s*(?=[A-Z(])/, ''))
    .filter(Boolean);
}

export function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

export function round(v: number, digits: number): number {
  return Math.round(v * 10 ** digits) / 10 ** digits;
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
  return typeof value === 'object'
    ? 'an object'
    : `${typeof value === 'number' ? 'the number' : typeof value === 'boolean' ? 'the boolean' : 'the string'} ${JSON.stringify(value)}`;
}

export function material(body: Json, field: string): Material {
  const jid = str(body, field, true);
  const found = findMaterial(jid);
  if (!found) throw new HttpError(404, `No material with id "${jid}". Known ids: ${MATERIALS.map((m) => m.jid).join(', ')}.`);
  return found;
}
