/** A worker thread of the reference server: runs one structure calculation at a time (see pool.ts). */
import { parentPort } from 'node:worker_threads';
import { runJob, type Job, type JobOutcome } from './compute';
import { InputError } from './physics/cell';

parentPort?.on('message', (job: Job) => {
  let outcome: JobOutcome;
  try {
    outcome = { ok: true, value: runJob(job) };
  } catch (error) {
    outcome = { ok: false, input: error instanceof InputError, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(outcome);
});
