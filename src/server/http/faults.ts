/**
 * Faults a test stages on the reference server: delays, dropped connections, error statuses, malformed or
 * leaky bodies, a throwing handler. Off unless a test switches them on (createServer's `faults`, or FaultQueue).
 */
import type * as http from 'node:http';
import { readBody, send, sendRaw } from './respond';

export type Fault = (
  | { kind: 'delay'; ms: number } // wait, then answer normally
  | { kind: 'drop' } // destroy the socket without answering
  | { kind: 'dropAfterHeaders' } // send headers and part of a body, then destroy the socket
  | { kind: 'status'; status: number; detail?: string; retryAfter?: number | string }
  | { kind: 'malformedJson'; status?: number } // application/json that does not parse
  | { kind: 'rateLimit'; retryAfter?: number | string } // 429, Retry-After as given (seconds or an HTTP date; omitted: none)
  | { kind: 'body'; contentType: string; body: string; encoding?: 'utf8' | 'base64'; status?: number }
  | { kind: 'echoHeaders'; status?: number } // an error whose detail carries every request header (a leaky server)
  | { kind: 'throw'; message?: string } // the handler throws: exercises the 500 path
) & { /** Only requests to this path take the fault. */ path?: string };

/** Faults for the next requests, applied in order; switched on only by the test, never by chance. */
export class FaultQueue {
  private readonly queue: Array<{ fault: Fault; times: number }> = [];

  /** The next `times` matching requests take this fault. */
  next(fault: Fault, times = 1): this {
    this.queue.push({ fault, times: Math.max(1, Math.floor(times)) });
    return this;
  }

  clear(): void {
    this.queue.length = 0;
  }

  get pending(): Fault[] {
    return this.queue.flatMap((entry) => Array<Fault>(entry.times).fill(entry.fault));
  }

  /** Takes the first fault that applies to this path. */
  take(path: string): Fault | undefined {
    const index = this.queue.findIndex((entry) => !entry.fault.path || entry.fault.path === path);
    if (index < 0) return undefined;
    const entry = this.queue[index]!;
    if (--entry.times <= 0) this.queue.splice(index, 1);
    return entry.fault;
  }
}

/** Applies a staged fault to this request; true when it answered (or dropped) the request itself. */
export async function injectFault(fault: Fault, req: http.IncomingMessage, res: http.ServerResponse, limit: number): Promise<boolean> {
  const withRetryAfter = (retryAfter: number | string | undefined): Record<string, string> =>
    retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  switch (fault.kind) {
    case 'delay':
      await new Promise((resolve) => setTimeout(resolve, fault.ms));
      return res.destroyed;
    case 'drop':
      req.socket.destroy();
      return true;
    case 'dropAfterHeaders':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"tokenizer": "cl100k_base", ');
      setTimeout(() => req.socket.destroy(), 20);
      return true;
    case 'status':
      send(res, fault.status, { detail: fault.detail ?? `Injected fault: status ${fault.status}` }, withRetryAfter(fault.retryAfter));
      return true;
    case 'rateLimit':
      send(
        res,
        429,
        { detail: `Rate limit exceeded: at most ${limit} requests per minute per API key.` },
        withRetryAfter(fault.retryAfter),
      );
      return true;
    case 'malformedJson':
      sendRaw(res, fault.status ?? 200, 'application/json', '{"tokenizer": "cl100k_base", "n_tokens": 3,');
      return true;
    case 'body':
      sendRaw(res, fault.status ?? 200, fault.contentType, Buffer.from(fault.body, fault.encoding === 'base64' ? 'base64' : 'utf8'));
      return true;
    case 'echoHeaders':
      send(res, fault.status ?? 400, { detail: `Rejected request with headers ${JSON.stringify(req.headers)}` });
      return true;
    case 'throw':
      return false; // the route throws, below
  }
}

/** GET, POST and DELETE /__faults: a test in another process stages faults. */
export async function faultsEndpoint(
  faults: FaultQueue,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  method: string,
): Promise<void> {
  if (method === 'GET') return send(res, 200, { pending: faults.pending });
  if (method === 'DELETE') {
    faults.clear();
    return send(res, 200, { pending: [] });
  }
  if (method !== 'POST') return send(res, 405, { detail: 'Use GET, POST or DELETE on /__faults.' }, { allow: 'GET, POST, DELETE' });
  try {
    const parsed = JSON.parse(await readBody(req)) as { fault?: Fault; times?: number } & Fault;
    const fault = parsed.fault ?? parsed;
    if (!fault || typeof fault.kind !== 'string')
      return send(res, 400, { detail: 'Send {"kind": ..., "path"?: ...} or {"fault": {...}, "times": n}.' });
    faults.next(fault, parsed.times ?? 1);
    return send(res, 200, { pending: faults.pending });
  } catch (error) {
    return send(res, 400, { detail: `Malformed fault: ${(error as Error).message}` });
  }
}
