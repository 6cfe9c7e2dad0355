/**
 * Long calculations are written as generators that yield between steps (a FIRE step, an MD step, a
 * k-point), so the same code runs straight through in a test or in slices on the server's event loop.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs to the end without pausing. */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * Runs in slices of about `sliceMs`, giving the event loop a turn (setImmediate) between slices, so other
 * requests are answered meanwhile. Stops with the signal's reason once it is aborted (the client went away).
 */
export async function runSliced<T>(steps: Steps<T>, signal?: AbortSignal, sliceMs = 10): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - sliceStart < sliceMs) continue;
    await new Promise((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
    sliceStart = performance.now();
  }
}
