/**
 * How much longer the editor suites wait than a test asks: `npm test` runs them beside the CPU-bound lane on a shared
 * machine (test/runner/all.ts sets TOKEN_LENS_WAIT_SCALE), where a view that draws in 2 s alone can take 15. Waits
 * are calibrated on a quiet machine; a stretched wait costs its length only when the condition never comes. Read by
 * the extension host (waitFor, test timeouts) and by the headless runner (its clicks and reads in the window).
 */
export const WAIT_SCALE = Math.max(1, Number(process.env.TOKEN_LENS_WAIT_SCALE) || 1);

/** `ms` on a quiet machine, stretched by WAIT_SCALE. */
export const patience = (ms: number): number => ms * WAIT_SCALE;
