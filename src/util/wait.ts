/** Resolves once `predicate` holds, checking every 50 ms, or after `timeoutMs` in any case. */
export async function waitUntil(predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
