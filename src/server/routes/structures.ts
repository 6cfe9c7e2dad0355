/**
 * gnn_ff_dynamics/* and tightbinding/compute: the reference calculations (src/server/physics) on the POSCAR
 * sent. Like every route they run on a worker thread (compute.ts), on the workers of their own lane (routes/index.ts).
 */
import { parsePoscar } from '../../core/poscar/index';
import {
  bandStructure,
  dynamics,
  FIELDS,
  MAX_ATOMS,
  relaxation,
  singlePoint,
  structureOf,
  type Field,
  type Structure,
} from '../physics/answers';
import type { Ensemble } from '../physics/md';
import { runToEnd } from '../../core/util/steps';
import { HttpError, lineCount, num, str, type Handler, type Json } from '../http/body';

/** The body's POSCAR as the POSCAR core reads it: its first error is a 400, warnings do not block. */
export const readStructure = (body: Json, maxAtoms: number): Structure => {
  const text = str(body, 'poscar', true);
  if (!text.trim()) throw new HttpError(400, 'Field "poscar" is empty: send the structure in POSCAR text format.');
  // Refused before parsing: a POSCAR cannot hold more atoms than lines (twice, with velocities).
  const lines = lineCount(text);
  if (lines > 2 * maxAtoms + 20)
    throw new HttpError(
      400,
      `The POSCAR has ${lines} lines, more than a structure of ${maxAtoms} atoms (the most the reference server computes for this calculation) can have.`,
    );
  const { poscar, diagnostics } = parsePoscar(text);
  const error = diagnostics.find((d) => d.severity === 'error');
  if (error || !poscar) throw new HttpError(400, `The POSCAR is malformed: ${error?.message ?? 'it could not be read'}.`);
  return structureOf(poscar);
};

/** A numeric field: its default when absent, a 400 out of range, cut to the maximum where it clamps. */
export const option = (body: Json, name: string & keyof typeof FIELDS, limits: keyof typeof FIELDS = name): number => {
  const field: Field = FIELDS[limits];
  const value = num(body, name, field.integer) ?? field.default;
  if (field.clamp && value > field.max) return field.max;
  if (value < field.min || value > field.max) {
    throw new HttpError(
      400,
      field.clamp ? `Field "${name}" must be at least ${field.min}.` : `Field "${name}" must be between ${field.min} and ${field.max}.`,
    );
  }
  return value;
};

/** What the reference models refuse (too many atoms, unknown elements, ...) is an InputError: a 400 (compute.ts). */
export const singlePointHandler: Handler = (body) => singlePoint(readStructure(body, MAX_ATOMS.singlePoint));

export const relax: Handler = (body) => {
  const structure = readStructure(body, MAX_ATOMS.relax);
  // agapi's names: steps for max_steps, optimizer (FIRE is the one the reference server runs), relax_cell.
  const maxSteps =
    body.steps !== undefined && body.max_steps === undefined ? option(body, 'steps', 'max_steps') : option(body, 'max_steps');
  const optimizer = str(body, 'optimizer', false);
  if (optimizer !== undefined && optimizer.trim().toUpperCase() !== 'FIRE')
    throw new HttpError(400, `Field "optimizer": the reference server runs FIRE, not ${JSON.stringify(optimizer.slice(0, 40))}.`);
  const relaxCell = body.relax_cell ?? false;
  if (typeof relaxCell !== 'boolean') throw new HttpError(400, 'Field "relax_cell" must be true or false.');
  return runToEnd(relaxation(structure, { fmax: option(body, 'fmax'), maxSteps, relaxCell }));
};

export const md: Handler = (body) => {
  const structure = readStructure(body, MAX_ATOMS.md);
  const options = {
    temperature: option(body, 'temperature'),
    timestep: option(body, 'timestep'),
    steps: option(body, 'steps'),
    seed: option(body, 'seed'),
    ensemble: ensembleOf(body),
    interval: option(body, 'interval'),
  };
  return runToEnd(dynamics(structure, options));
};

export const tightbinding: Handler = (body) =>
  runToEnd(bandStructure(readStructure(body, MAX_ATOMS.tightbinding), option(body, 'kpath_density')));

/** `ensemble`: nve (the default, as the service) or nvt (a Langevin thermostat at `temperature`). */
function ensembleOf(body: Json): Ensemble {
  const given = str(body, 'ensemble', false)?.trim().toLowerCase() ?? 'nve';
  if (given !== 'nve' && given !== 'nvt')
    throw new HttpError(400, `Field "ensemble" must be "nve" or "nvt", not ${JSON.stringify(given.slice(0, 40))}.`);
  return given;
}
