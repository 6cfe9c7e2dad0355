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

test("runSliced counts the steps' own time in `busy`, not the turns it gives away", async () => {
  function* busySteps(): Generator<void, string, void> {
    for (let i = 0; i < 10; i++) {
      const until = performance.now() + 3;
      while (performance.now() < until);
      yield;
    }
    return 'done';
  }
  const busy = { ms: 0 };
  // Each turn given away is held about 20 ms by a blocking task: the wall time grows by it, the steps' own time does not.
  let [holding, heldMs] = [true, 0];
  const hold = (): void => {
    const started = performance.now();
    while (performance.now() < started + 20);
    heldMs += performance.now() - started;
    if (holding) setImmediate(hold);
  };
  setImmediate(hold);
  const started = performance.now();
  assert.equal(await runSliced(busySteps(), { sliceMs: 5, busy }), 'done');
  const wall = performance.now() - started;
  holding = false;
  assert.ok(heldMs >= 40, `the turns given away were held ${heldMs.toFixed(1)} ms`);
  assert.ok(busy.ms >= 30, `busy ${busy.ms.toFixed(1)} ms, at least the 30 ms the steps take`);
  assert.ok(busy.ms <= wall - heldMs + 2, `busy ${busy.ms.toFixed(1)} ms of ${wall.toFixed(1)} ms, ${heldMs.toFixed(1)} ms held by others`);
});
