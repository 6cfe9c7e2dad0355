/**
 * Runs fn while a 1 ms heartbeat measures the longest time the event loop was held (and how often it
 * ran): the benchmark's and the tests' one way to measure blocking. `maxGapMs` is wall time, what a user waits;
 * `maxCpuGapMs` is the CPU time this process spent between two beats, the work that held the loop, which a machine
 * busy with other processes does not stretch (tests assert on it; the benchmark prints both).
 */
export async function withHeartbeat<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; totalMs: number; maxGapMs: number; maxCpuGapMs: number; beats: number }> {
  const cpuNow = (): number => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let [last, lastCpu] = [performance.now(), cpuNow()];
  let [maxGap, maxCpuGap, beats] = [0, 0, 0];
  const beat = (): void => {
    const [now, cpu] = [performance.now(), cpuNow()];
    maxGap = Math.max(maxGap, now - last);
    maxCpuGap = Math.max(maxCpuGap, cpu - lastCpu);
    [last, lastCpu] = [now, cpu];
    beats++;
  };
  const timer = setInterval(beat, 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  [maxGap, maxCpuGap, beats] = [0, 0, 0];
  const started = (last = performance.now());
  lastCpu = cpuNow();
  const value = await fn();
  beat();
  clearInterval(timer);
  return { value, totalMs: last - started, maxGapMs: maxGap, maxCpuGapMs: maxCpuGap, beats: beats - 1 };
}
