/**
 * The one way the unit tests check that something takes time linear in its input. `npm test` runs them beside the
 * extension-host lane on a 2-core machine, so a measurement can be disturbed twice over: the other lane takes the
 * processor (wall time counts that, CPU time does not: process.cpuUsage, user + system), and it shares the caches and
 * the memory bandwidth (CPU time counts that too, so one measurement of a linear reader has reached 10.5× for 4× the
 * atoms and 30.1× for 10× the frames). Hence the fastest of alternating small and large runs (a disturbance that
 * lasts hits both), and a measurement repeated, up to `attempts` times, until one ratio is under the limit: a
 * quadratic algorithm stays over it every time, a linear one measured in a noisy moment does not.
 */

export interface LinearCheck<T> {
  /** What grows and by how much, for the message: '16× the atoms'. */
  what: string;
  /** One run on an input; it may return a promise, which is awaited inside the measurement. */
  run: (input: T) => unknown;
  small: T;
  large: T;
  /** The ratio of the large run's time to the small one's that a linear algorithm stays under. */
  limit: number;
  /** Runs of each input per measurement, alternating, the fastest of each kept. */
  runs?: number;
  /** Measurements at most, until one ratio is under the limit. */
  attempts?: number;
}

export interface Linearity {
  /** The least ratio measured: under the limit as soon as one measurement was. */
  ratio: number;
  /** The fastest small and large CPU times (ms) of the measurement that gave the ratio. */
  smallMs: number;
  largeMs: number;
  /** How many measurements it took. */
  attempts: number;
  /** For the assertion: both times, the ratio and the limit. */
  message: string;
}

/** CPU time (ms, user + system) of one run: a machine busy with other work disturbs it far less than wall time. */
export async function cpuMs(run: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** The least of up to `attempts` measurements, stopping at the first under `limit`. */
export async function leastUnder(
  measure: () => number | Promise<number>,
  limit: number,
  attempts = 3,
): Promise<{ least: number; attempts: number }> {
  let least = Infinity;
  let made = 0;
  while (made < attempts && least >= limit) {
    least = Math.min(least, await measure());
    made++;
  }
  return { least, attempts: made };
}

/**
 * The least small time a ratio is taken over: below it, CPU time is the timer's and the scheduler's (a reader that
 * stops at once can take 0.0 ms on the small input), and a ratio of it would be noise or infinite.
 */
export const FLOOR_MS = 0.5;

/**
 * A measurement ends early, after at least MIN_RUNS alternating runs, once its ratio is under the limit divided by
 * CLEAR_MARGIN: a linear reader is then plainly linear, and further runs could only confirm it. A quadratic one stays
 * over the limit itself, so it is always measured in full.
 */
const MIN_RUNS = 2;
const CLEAR_MARGIN = 2;

const ratioOf = (smallMs: number, largeMs: number): number => largeMs / Math.max(FLOOR_MS, smallMs);

/** The fastest small and large CPU times of up to `runs` alternating runs. */
async function fastestPair<T>({ run, small, large, limit, runs = 7 }: LinearCheck<T>): Promise<{ smallMs: number; largeMs: number }> {
  let [smallMs, largeMs] = [Infinity, Infinity];
  for (let k = 0; k < runs && !(k >= MIN_RUNS && ratioOf(smallMs, largeMs) < limit / CLEAR_MARGIN); k++) {
    smallMs = Math.min(smallMs, await cpuMs(() => run(small)));
    largeMs = Math.min(largeMs, await cpuMs(() => run(large)));
  }
  return { smallMs, largeMs };
}

/** How much longer the large input takes than the small one: the least ratio of up to three measurements. */
export async function linearRatio<T>(check: LinearCheck<T>): Promise<Linearity> {
  await check.run(check.small); // the JIT warmed on both inputs before anything is timed
  await check.run(check.large);
  let best = { ratio: Infinity, smallMs: NaN, largeMs: NaN };
  const { attempts } = await leastUnder(
    async () => {
      const { smallMs, largeMs } = await fastestPair(check);
      const ratio = ratioOf(smallMs, largeMs);
      if (ratio < best.ratio) best = { ratio, smallMs, largeMs };
      return ratio;
    },
    check.limit,
    check.attempts,
  );
  const { ratio, smallMs, largeMs } = best;
  const message = `${check.what} took ${ratio.toFixed(1)}× the CPU time (${smallMs.toFixed(1)} ms, then ${largeMs.toFixed(1)} ms; linear stays under ${check.limit}×), the least of ${attempts} measurement${attempts === 1 ? '' : 's'}`;
  return { ratio, smallMs, largeMs, attempts, message };
}
