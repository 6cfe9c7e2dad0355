/**
 * A request as a job a worker thread runs: the route and the raw body in, the answer out as JSON bytes, so
 * that neither parsing the body nor building and serializing the answer ever holds the event loop.
 */
import { HttpError } from './body';
import { InputError } from '../physics/cell';
import { jsonObject } from './respond';
import { ROUTES } from '../routes/index';

export interface Job {
  route: string;
  /** The body as received (at most MAX_BODY_BYTES): parsed on the worker. */
  body: string;
  /** A staged `throw` fault: the route fails with this message once the body is read. */
  fail?: string;
}

/** The answer as UTF-8 JSON (its buffer transferred, not copied), or the error status and detail. */
export type JobOutcome = { ok: true; json: Uint8Array } | { ok: false; status: number; detail: string; headers?: Record<string, string> };

export function runJob(job: Job): JobOutcome {
  try {
    const body = jsonObject(job.body);
    if (job.fail !== undefined) throw new Error(job.fail);
    const handler = ROUTES[job.route];
    if (!handler) throw new Error(`no route ${job.route}`);
    return { ok: true, json: new TextEncoder().encode(JSON.stringify(handler(body))) };
  } catch (error) {
    if (error instanceof HttpError) return { ok: false, status: error.status, detail: error.detail, headers: error.headers };
    // What the reference models refuse (too many atoms, unknown elements, ...) is the caller's mistake.
    if (error instanceof InputError) return { ok: false, status: 400, detail: error.message };
    // Decision: a handler that throws answers 500 with the error's message as detail.
    return { ok: false, status: 500, detail: `Internal server error: ${error instanceof Error ? error.message : String(error)}` };
  }
}
