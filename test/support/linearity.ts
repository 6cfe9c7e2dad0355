/**
 * Linear-time checks on a shared machine: `npm test` runs the unit tests beside the extension-host suites, so one
 * measurement of a time ratio can be inflated by the other lane (cache and memory-bandwidth contention count even
 * in CPU time). A ratio is measured again, up to `attempts` times, until one comes under `limit`: a quadratic
 * algorithm stays over it every time, a linear one measured in a noisy moment does not.
 */
export function leastRatio(measure: () => number, limit: number, attempts = 3): number {
  let least = Infinity;
  for (let k = 0; k < attempts && least >= limit; k++) least = Math.min(least, measure());
  return least;
}
