/** Client-side pacing (never more than N requests per window per key) and the retry policy. Pure. */
import { createHash } from 'node:crypto';
import { ServiceError } from '../../core/service/errors';

export interface Clock {
  now(): number;
  /** Resolves after ms, rejects with the signal's reason (or an AbortError) as soon as the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export class AbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortError';
  }
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new AbortedError());
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(new AbortedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export interface PacerOptions {
  /** Requests allowed in any window (spec 8: 100). */
  limit?: number;
  /** Window length in ms (spec 8: one minute). */
  windowMs?: number;
  clock?: Clock;
  /**
   * Extra spacing added to the window, because the service counts a request when it arrives, a little after
   * we count it when it leaves. Default 2% of the window (1.2 s of a minute), at most 1 s.
   */
  marginMs?: number;
}

/**
 * A sliding-window pacer: at most `limit` requests start in any `windowMs`, per key. Keys are kept only as
 * a SHA-256 digest, so the pacer never holds the API key itself. `acquire` waits (cancellably) for a slot;
 * `pause` blocks a key until a time the service named (a 429's Retry-After).
 */
export class Pacer {
  readonly limit: number;
  readonly windowMs: number;
  readonly marginMs: number;
  private readonly clock: Clock;
  private readonly starts = new Map<string, number[]>();
  private readonly pausedUntil = new Map<string, number>();
  /** Per key, the tail of the queue: acquires are served in order. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(options: PacerOptions = {}) {
    this.limit = Math.max(1, options.limit ?? 100);
    this.windowMs = Math.max(1, options.windowMs ?? 60_000);
    this.clock = options.clock ?? systemClock;
    this.marginMs = Math.max(0, options.marginMs ?? Math.min(1000, this.windowMs * 0.02));
  }

  static keyId(apiKey: string | undefined): string {
    return createHash('sha256')
      .update(apiKey ?? '')
      .digest('hex')
      .slice(0, 16);
  }

  /** How long a request for this key would wait now (0 when a slot is free). */
  delayFor(apiKey: string | undefined): number {
    return this.delayForId(Pacer.keyId(apiKey), this.clock.now());
  }

  private delayForId(id: string, now: number): number {
    const starts = this.prune(id, now);
    let wait = 0;
    if (starts.length >= this.limit) wait = starts[starts.length - this.limit]! + this.windowMs + this.marginMs - now;
    const paused = this.pausedUntil.get(id);
    if (paused !== undefined) {
      if (paused > now) wait = Math.max(wait, paused - now);
      else this.pausedUntil.delete(id);
    }
    return Math.max(0, wait);
  }

  private prune(id: string, now: number): number[] {
    let starts = this.starts.get(id);
    if (!starts) {
      starts = [];
      this.starts.set(id, starts);
    }
    while (starts.length && starts[0]! <= now - this.windowMs - this.marginMs) starts.shift();
    return starts;
  }

  /** Waits for a slot and takes it. Rejects with AbortedError when the signal aborts while waiting. */
  acquire(apiKey: string | undefined, signal?: AbortSignal): Promise<number> {
    const id = Pacer.keyId(apiKey);
    const previous = this.queues.get(id) ?? Promise.resolve();
    let waited = 0;
    const mine = untilAborted(previous, signal).then(async () => {
      for (;;) {
        if (signal?.aborted) throw new AbortedError();
        const now = this.clock.now();
        const wait = this.delayForId(id, now);
        if (wait <= 0) {
          this.prune(id, now).push(now);
          return;
        }
        waited += wait;
        await this.clock.sleep(wait, signal);
      }
    });
    // The queue continues after a cancelled waiter; the cancelled one took no slot.
    const tail = mine.catch(() => undefined);
    this.queues.set(id, tail);
    void tail.then(() => {
      if (this.queues.get(id) === tail) this.queues.delete(id);
    });
    return mine.then(() => waited);
  }

  /** Blocks new requests for this key until `untilMs` (epoch ms). */
  pause(apiKey: string | undefined, untilMs: number): void {
    const id = Pacer.keyId(apiKey);
    this.pausedUntil.set(id, Math.max(untilMs, this.pausedUntil.get(id) ?? 0));
  }

  /** Requests started for this key in the current window. */
  inWindow(apiKey: string | undefined): number {
    return this.prune(Pacer.keyId(apiKey), this.clock.now()).length;
  }
}

/** Resolves with `promise`, or rejects with AbortedError as soon as the signal aborts (a queued waiter leaves at once). */
function untilAborted(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new AbortedError());
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(new AbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** One Retry-After value (RFC 9110 10.2.3): delay-seconds (digits only) or an HTTP-date; ms from `now`. */
function retryAfterValue(text: string, now: number): number | undefined {
  const value = text.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  if (!/[a-z]/i.test(value)) return undefined; // "1.5", "-3": neither form
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Parses Retry-After: ms from `now`, or undefined when absent or unreadable. A header sent twice (undici
 * gives both, or a list "1, 7") counts by its first valid value; an HTTP-date has a comma of its own
 * ("Sun, 06 Nov 1994 08:49:37 GMT"), so a whole value is tried before its comma-separated parts.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  for (const raw of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
    const whole = retryAfterValue(raw, now);
    if (whole !== undefined) return whole;
    for (const part of raw.split(',')) {
      const first = retryAfterValue(part, now);
      if (first !== undefined) return first;
    }
  }
  return undefined;
}

export interface RetryPolicyOptions {
  maxRetries?: number;
  /** First backoff, doubled each retry. */
  baseDelayMs?: number;
  /** Ceiling of one backoff, and of one Retry-After wait. */
  maxDelayMs?: number;
  random?: () => number;
}

export class RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  private readonly random: () => number;

  constructor(options: RetryPolicyOptions = {}) {
    this.maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 3));
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 60_000;
    this.random = options.random ?? Math.random;
  }

  /** Exponential backoff with jitter: between half and all of base * 2^attempt, capped. attempt counts from 0. */
  backoff(attempt: number): number {
    const full = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** attempt);
    return Math.round(full / 2 + (this.random() * full) / 2);
  }

  /**
   * The wait before retry number attempt+1, or undefined when this error must not be retried:
   * 429 (Retry-After, else backoff), 502/503/504, and dropped connections are retried; nothing else is
   * (other 4xx, 500, 501, timeouts, refused connections, malformed answers, cancellation).
   */
  delayBeforeRetry(error: ServiceError, attempt: number): number | undefined {
    if (attempt >= this.maxRetries) return undefined;
    if (error.kind === 'rateLimited') {
      if (error.retryAfterMs !== undefined) {
        // A wait longer than our ceiling is not worth blocking on: give up and tell the user.
        if (error.retryAfterMs > this.maxDelayMs) return undefined;
        // A date already past (or "0") still waits the usual backoff: never a burst of retries.
        return Math.max(error.retryAfterMs, this.backoff(attempt));
      }
      return this.backoff(attempt);
    }
    if (error.kind === 'server' && (error.status === 502 || error.status === 503 || error.status === 504)) {
      return this.backoff(attempt);
    }
    if (error.kind === 'network' && isDropped(error)) return this.backoff(attempt);
    return undefined;
  }
}

/** A connection that was made and then lost, as opposed to one that was never made. */
export function isDropped(error: ServiceError): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  const code = cause?.code;
  return (
    code !== 'ECONNREFUSED' &&
    code !== 'ENOTFOUND' &&
    code !== 'EAI_AGAIN' &&
    code !== 'CERT_HAS_EXPIRED' &&
    code !== 'UND_ERR_CONNECT_TIMEOUT' &&
    !(code ?? '').startsWith('ERR_TLS') &&
    !(code ?? '').includes('CERT')
  );
}
