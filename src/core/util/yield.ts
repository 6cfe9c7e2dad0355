/**
 * Lets pending events run before the caller goes on. Node (the desktop extension host) has
 * setImmediate; a browser worker (VS Code for the Web) does not, and its setTimeout(0) is clamped
 * to 4 ms after a few nestings, so a MessageChannel round trip is used there instead.
 */
export const yieldToEventLoop: () => Promise<void> = makeYield();

function makeYield(): () => Promise<void> {
  if (typeof setImmediate === 'function') return () => new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel();
    const waiting: (() => void)[] = [];
    // Node's typings lack onmessage on a MessagePort; only browsers reach this branch.
    (channel.port1 as unknown as { onmessage: (() => void) | null }).onmessage = () => waiting.shift()?.();
    return () =>
      new Promise((resolve) => {
        waiting.push(resolve);
        channel.port2.postMessage(undefined);
      });
  }
  return () => new Promise((resolve) => setTimeout(resolve, 0));
}
