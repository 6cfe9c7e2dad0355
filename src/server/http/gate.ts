/** Who may call a POST route, and how often: the bearer key (spec 3), slowed-down guesses, the rate limit (spec 8). */
import type * as http from 'node:http';
import { HttpError } from './body';
import { bearer } from './respond';

/**
 * Wrong API keys slow their sender down: each failure from one address doubles the wait before the
 * next 401 (100 ms, 200 ms, … at most 5 s); a right key clears it. At most 10,000 addresses are kept.
 */
export class KeyGuesses {
  private readonly failures = new Map<string, number>();

  async failed(client: string): Promise<void> {
    const count = (this.failures.get(client) ?? 0) + 1;
    this.failures.delete(client);
    if (this.failures.size >= 10_000) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(client, count);
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 100 * 2 ** Math.min(count - 1, 6))));
  }

  succeeded(client: string): void {
    this.failures.delete(client);
  }
}

/** A sliding window of request times per key. */
export class RateWindows {
  private readonly windows = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts a request; the seconds to wait when it is over the limit (and not counted). */
  overLimit(key: string): number | undefined {
    const t = this.now();
    let starts = this.windows.get(key);
    if (!starts) this.windows.set(key, (starts = []));
    while (starts.length && starts[0]! <= t - this.windowMs) starts.shift();
    if (starts.length >= this.limit) return Math.max(1, Math.ceil((starts[0]! + this.windowMs - t) / 1000));
    starts.push(t);
    return undefined;
  }
}

/** Decision: authentication comes before the rate limit, which comes before reading the body. */
export async function admit(req: http.IncomingMessage, apiKey: string, guesses: KeyGuesses, rates: RateWindows): Promise<void> {
  const key = bearer(req.headers.authorization);
  if (key === undefined)
    throw new HttpError(401, 'Not authenticated: send the header "Authorization: Bearer <API key>".', { 'www-authenticate': 'Bearer' });
  const client = req.socket.remoteAddress ?? '';
  if (key !== apiKey) {
    await guesses.failed(client);
    throw new HttpError(401, 'Invalid API key.', { 'www-authenticate': 'Bearer' });
  }
  guesses.succeeded(client);
  const wait = rates.overLimit(key);
  if (wait !== undefined) {
    throw new HttpError(429, `Rate limit exceeded: at most ${rates.limit} requests per minute per API key. Retry in ${wait} s.`, {
      'retry-after': String(wait),
    });
  }
}
