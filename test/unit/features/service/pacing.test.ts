import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AbortedError, Pacer, RetryPolicy, parseRetryAfter, type Clock } from '../../../../src/features/service/pacing';
import { ServiceError, kindForStatus } from '../../../../src/core/service/errors';
import { redact } from '../../../../src/core/service/redact';

/** A clock that only moves when a sleeper needs it to: sleeping advances time to the wake-up. */
class FakeClock implements Clock {
  time = 0;
  sleeps: number[] = [];
  now(): number {
    return this.time;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new AbortedError();
    this.sleeps.push(ms);
    this.time += ms;
    await Promise.resolve();
  }
}

test('pacer: at most `limit` starts in any window, per key', async () => {
  const clock = new FakeClock();
  const pacer = new Pacer({ limit: 100, windowMs: 60_000, marginMs: 0, clock });
  const starts: number[] = [];
  for (let i = 0; i < 250; i++) {
    await pacer.acquire('key-a');
    starts.push(clock.now());
  }
  for (let i = 100; i < starts.length; i++) {
    assert.ok(starts[i]! - starts[i - 100]! >= 60_000, `request ${i} started ${starts[i]! - starts[i - 100]!} ms after request ${i - 100}`);
  }
  assert.equal(starts[99], 0);
  assert.equal(starts[100], 60_000);
  assert.equal(starts[200], 120_000);
});

test('pacer: keys are paced independently', async () => {
  const clock = new FakeClock();
  const pacer = new Pacer({ limit: 2, windowMs: 1000, marginMs: 0, clock });
  await pacer.acquire('a');
  await pacer.acquire('a');
  await pacer.acquire('b');
  assert.equal(clock.now(), 0);
  assert.equal(pacer.delayFor('a'), 1000);
  assert.equal(pacer.delayFor('b'), 0);
});

test('pacer: concurrent acquires are served in order and never exceed the limit', async () => {
  const clock = new FakeClock();
  const pacer = new Pacer({ limit: 3, windowMs: 1000, marginMs: 0, clock });
  const order: number[] = [];
  await Promise.all(Array.from({ length: 7 }, (_, i) => pacer.acquire('k').then(() => order.push(i))));
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6]);
  assert.equal(clock.now(), 2000);
});

test('pacer: the margin spaces windows a little further', async () => {
  const clock = new FakeClock();
  const pacer = new Pacer({ limit: 1, windowMs: 1000, marginMs: 50, clock });
  await pacer.acquire('k');
  await pacer.acquire('k');
  assert.equal(clock.now(), 1050);
});

test('pacer: default is 100 per minute with a margin of at most one second', () => {
  const pacer = new Pacer();
  assert.equal(pacer.limit, 100);
  assert.equal(pacer.windowMs, 60_000);
  assert.equal(pacer.marginMs, 1000);
});

test('pacer: pause blocks a key until the given time', async () => {
  const clock = new FakeClock();
  const pacer = new Pacer({ limit: 10, windowMs: 1000, clock });
  pacer.pause('k', 5000);
  await pacer.acquire('k');
  assert.equal(clock.now(), 5000);
});

test('pacer: an aborted waiter takes no slot and does not block the queue', async () => {
  const pacer = new Pacer({ limit: 1, windowMs: 200, marginMs: 0 });
  await pacer.acquire('k');
  const controller = new AbortController();
  const waiting = pacer.acquire('k', controller.signal);
  controller.abort();
  await assert.rejects(waiting, AbortedError);
  const started = Date.now();
  await pacer.acquire('k');
  assert.ok(Date.now() - started < 400);
  assert.equal(pacer.inWindow('k'), 1);
});

test('pacer: a waiter queued behind others leaves at once when aborted', async () => {
  const pacer = new Pacer({ limit: 1, windowMs: 1500, marginMs: 0 });
  await pacer.acquire('k');
  const first = pacer.acquire('k'); // waits 1.5 s for a slot
  const controller = new AbortController();
  const second = pacer.acquire('k', controller.signal); // queued behind `first`
  const started = Date.now();
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(second, AbortedError);
  assert.ok(Date.now() - started < 500);
  first.catch(() => undefined);
});

test('pacer holds only a digest of the key', () => {
  const pacer = new Pacer();
  void pacer.acquire('super-secret-key-123');
  const dump = JSON.stringify([...(pacer as unknown as { starts: Map<string, number[]> }).starts.keys()]);
  assert.ok(!dump.includes('super-secret-key-123'));
});

test('Retry-After: seconds, an HTTP date, or nothing', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('7', now), 7000);
  assert.equal(parseRetryAfter('0', now), 0);
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now), 30_000);
  assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now), 0);
  assert.equal(parseRetryAfter(undefined, now), undefined);
  assert.equal(parseRetryAfter('soon', now), undefined);
});

const err = (kind: ServiceError['kind'], status?: number, retryAfterMs?: number, code?: string): ServiceError =>
  new ServiceError({
    kind,
    method: 'POST',
    path: '/x',
    ...(status ? { status } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(code ? { cause: Object.assign(new Error(code), { code }) } : {}),
  });

test('retry policy: what is retried and what is not', () => {
  const policy = new RetryPolicy({ maxRetries: 3, baseDelayMs: 100, random: () => 1 });
  assert.equal(policy.delayBeforeRetry(err('rateLimited', 429, 2000), 0), 2000);
  assert.equal(policy.delayBeforeRetry(err('rateLimited', 429), 0), 100);
  for (const status of [502, 503, 504]) assert.equal(policy.delayBeforeRetry(err('server', status), 1), 200);
  assert.equal(policy.delayBeforeRetry(err('network', undefined, undefined, 'ECONNRESET'), 2), 400);
  assert.equal(policy.delayBeforeRetry(err('network', undefined, undefined, 'UND_ERR_SOCKET'), 0), 100);
  for (const e of [
    err('badRequest', 400),
    err('unauthorized', 401),
    err('notFound', 404),
    err('server', 500),
    err('notImplemented', 501),
    err('timeout'),
    err('cancelled'),
    err('malformedResponse', 200),
    err('network', undefined, undefined, 'ECONNREFUSED'),
    err('config'),
  ]) {
    assert.equal(policy.delayBeforeRetry(e, 0), undefined, `${e.kind} ${e.status ?? ''} must not be retried`);
  }
  assert.equal(policy.delayBeforeRetry(err('server', 503), 3), undefined, 'bounded by maxRetries');
});

test('retry policy: exponential backoff with jitter, capped', () => {
  const low = new RetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 0 });
  const high = new RetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 1 });
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((n) => low.backoff(n)),
    [50, 100, 200, 400, 500],
  );
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((n) => high.backoff(n)),
    [100, 200, 400, 800, 1000],
  );
});

test('status kinds', () => {
  assert.equal(kindForStatus(400), 'badRequest');
  assert.equal(kindForStatus(422), 'badRequest');
  assert.equal(kindForStatus(401), 'unauthorized');
  assert.equal(kindForStatus(403), 'unauthorized');
  assert.equal(kindForStatus(404), 'notFound');
  assert.equal(kindForStatus(429), 'rateLimited');
  assert.equal(kindForStatus(500), 'server');
  assert.equal(kindForStatus(501), 'notImplemented');
  assert.equal(kindForStatus(503), 'server');
});

test('redact removes the key and anything after Bearer', () => {
  assert.equal(redact('key abcd1234 here', 'abcd1234'), 'key *** here');
  assert.equal(redact('{"authorization":"Bearer xyz"}', undefined), '{"authorization":"Bearer ***"}');
  assert.equal(redact('no secrets', 'abcd1234'), 'no secrets');
});
