/** A worker thread of the reference server: runs one request at a time (see pool.ts and compute.ts). */
import { parentPort } from 'node:worker_threads';
import { runJob, type Job } from './compute';

parentPort?.on('message', (job: Job) => {
  const outcome = runJob(job);
  parentPort!.postMessage(outcome, outcome.ok ? [outcome.json.buffer] : []);
});
