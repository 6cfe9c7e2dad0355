/**
 * The headless runner's word on a run that never ends (test/runner/stack.ts): a Node process whose JavaScript holds
 * its thread is named with the function that holds it, and one that is only waiting is said to be waiting.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { freePort } from '../../runner/codeServer';
import { mainThreadStack } from '../../runner/stack';

async function withProcess(script: string, check: (pid: number, port: number) => Promise<void>): Promise<void> {
  const port = await freePort();
  const child = spawn(process.execPath, [`--inspect-port=127.0.0.1:${port}`, '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let ready = false;
    const exited = once(child, 'exit').then(([code]) => {
      if (!ready) assert.fail(`the script exited (code ${String(code)}) before it was ready`);
    });
    await Promise.race([once(child.stdout, 'data'), exited]); // the script says it is ready (or spinning)
    ready = true;
    await check(child.pid!, port);
  } finally {
    child.kill('SIGKILL');
  }
}

test('a process whose JavaScript never yields is named with the function that holds it', async () => {
  // Writes to a pipe are synchronous on Linux: "spinning" has reached us once the loop starts.
  const script = 'function spinUntilKilled() { for (;;) {} } setTimeout(() => { console.log("spinning"); spinUntilKilled(); }, 50);';
  await withProcess(script, async (pid, port) => {
    const said = await mainThreadStack(pid, port);
    assert.match(said, /^its main thread was blocked, running:\n {4}at spinUntilKilled \(/);
  });
});

test('a process that is only waiting is said to be waiting, not blocked', async () => {
  await withProcess('console.log("ready"); setInterval(() => undefined, 1000);', async (pid, port) => {
    assert.equal(await mainThreadStack(pid, port), 'its event loop was free: the suite was waiting for something, not blocked');
  });
});

test('a process without an inspector port gets a message, not a throw', async () => {
  const port = await freePort();
  const said = await mainThreadStack(2 ** 22 + 12345, port, 1000);
  assert.match(said, /^its stack could not be read: /);
});
