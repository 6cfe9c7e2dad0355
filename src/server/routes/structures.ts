/**
 * gnn_ff_dynamics/* and tightbinding/compute: the reference calculations (src/server/physics) on the POSCAR
 * sent, each on a worker thread of the pool, so that other requests are answered meanwhile.
 */
import { parsePoscar } from '../../core/poscar/index';
import { FIELDS, MAX_ATOMS, structureOf, type Field, type Structure } from '../physics/answers';
import type { Job, JobOutcome } from '../compute';
import type { Ensemble } from '../physics/md';
import { JobTimeout, type WorkerPool } from '../pool';
import { HttpError, lineCount, num, str, type Handler, type Json } from '../body';

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

export function structureRoutes(pool: WorkerPool): Record<'singlePoint' | 'relax' | 'md' | 'tightbinding', Handler> {
  /** A calculation on a worker thread; what the reference models refuse (too many atoms, unknown elements, ...) is a 400. */
  const compute = async (job: Job, signal: AbortSignal): Promise<unknown> => {
    let outcome: JobOutcome;
    try {
      outcome = await pool.run(job, signal);
    } catch (error) {
      if (error instanceof JobTimeout)
        throw new HttpError(
          504,
          `The calculation ran ${error.message}, the reference server's budget, and was stopped: try fewer atoms or steps.`,
        );
      throw error;
    }
    if (outcome.ok) return outcome.value;
    if (outcome.input) throw new HttpError(400, outcome.message);
    throw new Error(outcome.message);
  };

  const singlePointHandler: Handler = (body, signal) =>
    compute({ kind: 'singlePoint', structure: readStructure(body, MAX_ATOMS.singlePoint) }, signal);

  const relax: Handler = (body, signal) => {
    const structure = readStructure(body, MAX_ATOMS.relax);
    // agapi's names: steps for max_steps, optimizer (FIRE is the one the reference server runs), relax_cell.
    const maxSteps =
      body.steps !== undefined && body.max_steps === undefined ? option(body, 'steps', 'max_steps') : option(body, 'max_steps');
    const optimizer = str(body, 'optimizer', false);
    if (optimizer !== undefined && optimizer.trim().toUpperCase() !== 'FIRE')
      throw new HttpError(400, `Field "optimizer": the reference server runs FIRE, not ${JSON.stringify(optimizer.slice(0, 40))}.`);
    const relaxCell = body.relax_cell ?? false;
    if (typeof relaxCell !== 'boolean') throw new HttpError(400, 'Field "relax_cell" must be true or false.');
    return compute({ kind: 'relax', structure, options: { fmax: option(body, 'fmax'), maxSteps, relaxCell } }, signal);
  };

  const md: Handler = (body, signal) => {
    const structure = readStructure(body, MAX_ATOMS.md);
    const options = {
      temperature: option(body, 'temperature'),
      timestep: option(body, 'timestep'),
      steps: option(body, 'steps'),
      seed: option(body, 'seed'),
      ensemble: ensembleOf(body),
      interval: option(body, 'interval'),
    };
    return compute({ kind: 'md', structure, options }, signal);
  };

  const tightbinding: Handler = (body, signal) => {
    const structure = readStructure(body, MAX_ATOMS.tightbinding);
    return compute({ kind: 'tightbinding', structure, density: option(body, 'kpath_density') }, signal);
  };
  return { singlePoint: singlePointHandler, relax, md, tightbinding };
}

/** `ensemble`: nve (the default, as the service) or nvt (a Langevin thermostat at `temperature`). */
function ensembleOf(body: Json): Ensemble {
  const given = str(body, 'ensemble', false)?.trim().toLowerCase() ?? 'nve';
  if (given !== 'nve' && given !== 'nvt')
    throw new HttpError(400, `Field "ensemble" must be "nve" or "nvt", not ${JSON.stringify(given.slice(0, 40))}.`);
  return given;
}
