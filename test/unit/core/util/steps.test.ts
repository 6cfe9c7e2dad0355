import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSliced, runToEnd } from '../../../../src/core/util/steps';

test('runSliced gives the event loop turns and stops when aborted; runToEnd gives the same answer', async () => {
  function* slow(): Generator<void, number, void> {
    for (let i = 0; i < 40; i++) {
      const until = performance.now() + 2;
      while (performance.now() < until);
      yield;
    }
    return 42;
  }
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  assert.equal(await runSliced(slow()), 42);
  clearInterval(timer);
  assert.ok(ticks >= 3, `the event loop ran ${ticks} times meanwhile`);
  assert.equal(runToEnd(slow()), 42);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 15);
  await assert.rejects(runSliced(slow(), { signal: controller.signal }), { name: 'AbortError' });
  const own = new AbortController();
  setTimeout(() => own.abort(), 15);
  await assert.rejects(runSliced(slow(), { signal: own.signal, cancelled: () => new RangeError('stopped') }), { name: 'RangeError' });
});
