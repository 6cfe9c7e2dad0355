/**
 * A child process of the latency benchmark (test/bench/structures.ts): the reference server of one build (its
 * `out/src/server/http/app.js`, the path in argv), alone in its process, so that what holds its event loop is the
 * server's work and not the clients'. A 1 ms heartbeat keeps the longest gap; the parent asks for it ("stall",
 * which also starts a new measure) and ends the process ("close").
 */
import type { createServer } from '../../src/server/http/app';

const factory = (require(process.argv[2]!) as { createServer: typeof createServer }).createServer;
const server = factory({ apiKey: process.argv[3]!, ratePerMinute: 1_000_000 });
let last = performance.now();
let longest = 0;
const heartbeat = setInterval(() => {
  const now = performance.now();
  longest = Math.max(longest, now - last);
  last = now;
}, 1);

process.on('message', (message: string) => {
  if (message === 'stall') {
    process.send!({ stallMs: Math.max(longest, performance.now() - last) });
    longest = 0;
  } else if (message === 'close') {
    clearInterval(heartbeat);
    void server.close().then(() => process.exit(0));
  }
});
void server.listen(0).then((url) => process.send!({ url }));
