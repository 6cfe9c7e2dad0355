/**
 * Long work is written as generators that yield between steps (a FIRE step, an MD step, a k-point, a stretch of a
 * rank file, a piece's merges), so the same code runs straight through in a test or the command line, and in slices
 * on an event loop that must keep answering (the extension host, the server).
 */
import { yieldToEventLoop } from './yield';

export type Steps<T> = Generator<void, T, void>;

/** Runs to the end without pausing. */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

export interface SliceOptions {
  /** How long one slice may hold the event loop (ms). */
  sliceMs?: number;
  /** Checked after each pause: once aborted, the run stops with `cancelled()`, or else the signal's reason. */
  signal?: AbortSignal;
  cancelled?: () => Error;
  /** Given, its `ms` grows by the time the steps themselves took (the run's, without the turns given away). */
  busy?: { ms: number };
}

/** Runs in slices of about `sliceMs`, giving the event loop a turn between slices, so other events are answered meanwhile. */
export async function runSliced<T>(steps: Steps<T>, { sliceMs = 10, signal, cancelled, busy }: SliceOptions = {}): Promise<T> {
  let started = performance.now();
  let deadline = started + sliceMs;
  for (;;) {
    const next = steps.next();
    const now = performance.now();
    if (next.done) {
      if (busy) busy.ms += now - started;
      return next.value;
    }
    if (now < deadline) continue;
    if (busy) busy.ms += now - started;
    await yieldToEventLoop();
    if (signal?.aborted) throw cancelled ? cancelled() : signal.reason;
    started = performance.now();
    deadline = started + sliceMs;
  }
}
