/**
 * Runs fn while a 1 ms heartbeat measures the longest time the event loop was held (and how often it
 * ran): the benchmark's and the tests' one way to measure blocking.
 */
export async function withHeartbeat<T>(fn: () => Promise<T>): Promise<{ value: T; totalMs: number; maxGapMs: number; beats: number }> {
  let last = performance.now();
  let maxGap = 0;
  let beats = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    beats++;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  maxGap = 0;
  beats = 0;
  const started = (last = performance.now());
  const value = await fn();
  const ended = performance.now();
  maxGap = Math.max(maxGap, ended - last);
  clearInterval(timer);
  return { value, totalMs: ended - started, maxGapMs: maxGap, beats };
}
