/**
 * test/support/linearity.ts, the one linear-time check of the unit tests, must still fail a quadratic algorithm
 * while it forgives a linear one a disturbed measurement: checked here on a deliberately quadratic loop, a linear
 * one, and a linear one slowed in its first measurement as the other test lane slows it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FLOOR_MS, linearRatio } from '../../support/linearity';

/** Where the loops leave their sums, so that the compiler cannot drop them. */
let sink = 0;

function linear(n: number): void {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += (i * 7) % 13;
  sink += sum;
}

function quadratic(n: number): void {
  let sum = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) sum += (i ^ j) & 1;
  sink += sum;
}

test('a quadratic loop fails: 8× the size takes about 64× the time, over the limit of 32× in all three measurements', async () => {
  const result = await linearRatio({ what: '8× the size', run: quadratic, small: 2_000, large: 16_000, limit: 32 });
  assert.ok(result.ratio >= 32, result.message);
  assert.ok(result.smallMs > 2 * FLOOR_MS, `the small run is timed well over the floor: ${result.message}`);
  assert.equal(result.attempts, 3, 'measured again, up to three times, before it fails');
  assert.match(
    result.message,
    /^8× the size took \d+\.\d× the CPU time \(\d+\.\d ms, then \d+\.\d ms; linear stays under 32×\), the least of 3 measurements$/,
  );
  assert.ok(sink > 0);
});

test('a linear loop passes: 8× the size takes about 8× the time', async () => {
  const result = await linearRatio({ what: '8× the size', run: linear, small: 1_000_000, large: 8_000_000, limit: 32 });
  assert.ok(result.ratio < 32, result.message);
  assert.ok(result.ratio > 2, `the large run was timed: ${result.message}`);
  assert.ok(result.largeMs > result.smallMs, result.message);
});

test('a linear loop slowed through one whole measurement (the other lane) passes on the next; every run of it is timed', async () => {
  let runs = 0;
  const disturbed = (n: number) => {
    runs++;
    // The warm-up takes 2 runs and a measurement up to 2 × 7: runs 3 to 16 are the first; its large runs take 9× as
    // long, which keeps it over the limit to its end. The second stops once plainly linear: after 2 × 2 runs.
    const disturbedLarge = runs > 2 && runs <= 16 && n > 1_000_000;
    for (let k = 0; k < (disturbedLarge ? 9 : 1); k++) linear(n);
  };
  const result = await linearRatio({ what: '8× the size', run: disturbed, small: 1_000_000, large: 8_000_000, limit: 32 });
  assert.ok(result.ratio < 32, result.message);
  assert.equal(result.attempts, 2, result.message);
  assert.equal(runs, 2 + 2 * 7 + 2 * 2);
});

test('a plainly linear loop is measured less than seven times, a quadratic one seven times in each of its three measurements', async () => {
  const counted = (loop: (n: number) => void) => {
    const sizes: number[] = [];
    return { sizes, run: (n: number) => (sizes.push(n), loop(n)) };
  };
  const fast = counted(linear);
  await linearRatio({ what: '8× the size', run: fast.run, small: 1_000_000, large: 8_000_000, limit: 32 });
  assert.ok(
    fast.sizes.length < 2 + 2 * 7,
    `stopped before seven pairs (at once, two, when the machine is quiet): ${fast.sizes.length} runs`,
  );
  const slow = counted(quadratic);
  await linearRatio({ what: '8× the size', run: slow.run, small: 2_000, large: 16_000, limit: 32 });
  assert.equal(slow.sizes.length, 2 + 3 * 2 * 7, 'never under the limit: every run of every measurement');
});

test('a small time under FLOOR_MS counts as FLOOR_MS: a reader that stops at once is not infinitely superlinear', async () => {
  const result = await linearRatio({ what: 'nothing', run: () => undefined, small: 0, large: 1, limit: 2 });
  assert.ok(result.ratio < 1, result.message);
});

test('asynchronous runs are awaited inside the measurement', async () => {
  const result = await linearRatio({
    what: '8× the size',
    run: async (n: number) => {
      await Promise.resolve();
      quadratic(n);
    },
    small: 2_000,
    large: 16_000,
    limit: 32,
    runs: 3,
  });
  assert.ok(result.ratio >= 32, result.message);
});
