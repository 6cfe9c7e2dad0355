/**
 * The reference server: a faithful local implementation of the service's REST interface
 * (/work/shared/spec/rest-interface.md), for tests, demos and offline work. Pure node:http, no `vscode`.
 * Where the spec is silent, the decisions are listed in the README (and in the comments below).
 */
import * as http from 'node:http';
import * as os from 'node:os';
import type { AddressInfo } from 'node:net';
import { TOKENIZER_NAMES, findTokenizer } from '../core/tokenizers/index';
import { WorkerPool } from './pool';
import { APPS } from '../core/applications/catalog';
import { HttpError, type Json } from './body';
import { findMaterial, materialView } from './materials';
import { routes } from './routes';

export { APPS };

export const MAX_BODY_BYTES = 2 * 1024 * 1024;

// ---- faults ---------------------------------------------------------------------------------------------

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

// ---- the server -----------------------------------------------------------------------------------------

export interface ServerOptions {
  apiKey: string;
  /** Requests per window per key; default 100 (spec 8). */
  ratePerMinute?: number;
  /** Window length, default 60,000 ms; tests shorten it. */
  rateWindowMs?: number;
  /** Serve POST/GET/DELETE /__faults, so a test in another process can stage faults. Default false. */
  faults?: boolean;
  now?: () => number;
  /** Worker threads for the structure calculations; default one per core but one, at least one, at most four. */
  workers?: number;
  /** How long one calculation may run before it is stopped with a 504; default 300,000 ms. */
  computeBudgetMs?: number;
}

export interface ServerLogEntry { method: string; path: string; status: number; fault?: Fault['kind'] }

export interface ReferenceServer {
  readonly http: http.Server;
  readonly faults: FaultQueue;
  /** Every request received (including /__faults), in order of arrival. */
  readonly requests: ServerLogEntry[];
  /** Base URL once listening, e.g. http://127.0.0.1:53121. */
  readonly url: string;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
  /** How many requests reached this path. */
  hits(path: string): number;
}

export function createServer(options: ServerOptions): ReferenceServer {
  if (!options.apiKey) throw new Error('createServer needs an apiKey');
  const now = options.now ?? (() => Date.now());
  const limit = Math.max(1, options.ratePerMinute ?? 100);
  const windowMs = Math.max(1, options.rateWindowMs ?? 60_000);
  const faults = new FaultQueue();
  const requests: ServerLogEntry[] = [];
  const windows = new Map<string, number[]>();
  let url = '';

  const pool = new WorkerPool(options.workers ?? defaultWorkers(), options.computeBudgetMs ?? 300_000);
  const handlers = routes(pool);

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { detail: `Internal server error: ${(error as Error).message}` });
    });
  });
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  // Errors Node answers itself (malformed HTTP, headers over 16 KB, a client too slow to send) carry a JSON detail too.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy();
    const [status, detail] = clientErrorAnswer(error.code);
    const text = JSON.stringify({ detail });
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
  });
  const guesses = new KeyGuesses();

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  }

  function sendRaw(res: http.ServerResponse, status: number, contentType: string, body: Buffer | string): void {
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new HttpError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes.`);
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Sliding window per key (spec 8). Returns the seconds to wait when over the limit. */
  function overLimit(key: string): number | undefined {
    const t = now();
    let starts = windows.get(key);
    if (!starts) windows.set(key, (starts = []));
    while (starts.length && starts[0]! <= t - windowMs) starts.shift();
    if (starts.length >= limit) return Math.max(1, Math.ceil((starts[0]! + windowMs - t) / 1000));
    starts.push(t);
    return undefined;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = decodePath(req.url ?? '/');
    // Logged on arrival; the status is filled in when the answer is sent (0: none was, e.g. a dropped socket).
    const entry: ServerLogEntry = { method, path, status: 0 };
    requests.push(entry);
    res.on('finish', () => {
      entry.status = res.statusCode;
    });

    if (path === '/__faults') {
      if (!options.faults) return send(res, 404, { detail: `Not found: ${path}` });
      return faultsEndpoint(req, res, method);
    }

    const fault = faults.take(path);
    if (fault) entry.fault = fault.kind;
    if (fault) {
      switch (fault.kind) {
        case 'delay':
          await new Promise((resolve) => setTimeout(resolve, fault.ms));
          if (res.destroyed) return;
          break;
        case 'drop':
          req.socket.destroy();
          return;
        case 'dropAfterHeaders':
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
          res.write('{"tokenizer": "cl100k_base", ');
          setTimeout(() => req.socket.destroy(), 20);
          return;
        case 'status': {
          const headers: Record<string, string> = {};
          if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
          return send(res, fault.status, { detail: fault.detail ?? `Injected fault: status ${fault.status}` }, headers);
        }
        case 'rateLimit': {
          const headers: Record<string, string> = {};
          if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
          return send(res, 429, { detail: `Rate limit exceeded: at most ${limit} requests per minute per API key.` }, headers);
        }
        case 'malformedJson':
          return sendRaw(res, fault.status ?? 200, 'application/json', '{"tokenizer": "cl100k_base", "n_tokens": 3,');
        case 'body':
          return sendRaw(res, fault.status ?? 200, fault.contentType, Buffer.from(fault.body, fault.encoding === 'base64' ? 'base64' : 'utf8'));
        case 'echoHeaders':
          return send(res, fault.status ?? 400, { detail: `Rejected request with headers ${JSON.stringify(req.headers)}` });
        case 'throw':
          break; // handled inside the route, below
      }
    }

    try {
      const result = await route(req, method, path, fault?.kind === 'throw' ? fault.message ?? 'injected failure' : undefined);
      if (typeof result === 'object' && result && 'html' in result) return sendRaw(res, 200, 'text/html; charset=utf-8', (result as { html: string }).html);
      return send(res, 200, result);
    } catch (error) {
      if (error instanceof HttpError) return send(res, error.status, { detail: error.detail }, error.headers);
      // Decision: a handler that throws answers 500 with the error's message as detail.
      return send(res, 500, { detail: `Internal server error: ${(error as Error).message}` });
    }
  }

  async function route(req: http.IncomingMessage, method: string, path: string, throwMessage: string | undefined): Promise<unknown> {
    const segments = path.split('/').filter(Boolean);
    if (segments.length === 0) {
      if (method !== 'GET') throw methodNotAllowed('GET');
      return { html: indexPage() };
    }
    const app = APPS.find((a) => a.name === segments[0]);
    if (!app) throw new HttpError(404, `Not found: ${path}. Applications: ${APPS.map((a) => a.name).join(', ')}.`);

    if (segments.length === 1) {
      if (method !== 'GET') throw methodNotAllowed('GET');
      return { html: appPage(app) };
    }
    if (segments[1] === 'detail' && segments.length === 3) {
      if (method !== 'GET') throw methodNotAllowed('GET');
      if (throwMessage) throw new Error(throwMessage);
      return detail(app.name, segments[2]!);
    }
    if (segments.length !== 2) throw new HttpError(404, `Not found: ${path}`);
    const handler = handlers[`${app.name}/${segments[1]}`];
    if (!handler) throw new HttpError(404, `Not found: ${path}. ${app.name} offers: ${['search', 'compute', ...app.operations].filter(unique).map((o) => `POST /${app.name}/${o}`).join(', ')}, GET /${app.name}/detail/{id}.`);
    if (method !== 'POST') throw methodNotAllowed('POST');

    // Decision: authentication comes before the rate limit, which comes before reading the body.
    const key = bearer(req.headers.authorization);
    if (key === undefined) throw new HttpError(401, 'Not authenticated: send the header "Authorization: Bearer <API key>".', { 'www-authenticate': 'Bearer' });
    const client = req.socket.remoteAddress ?? '';
    if (key !== options.apiKey) {
      await guesses.failed(client);
      throw new HttpError(401, 'Invalid API key.', { 'www-authenticate': 'Bearer' });
    }
    guesses.succeeded(client);
    const wait = overLimit(key);
    if (wait !== undefined) {
      throw new HttpError(429, `Rate limit exceeded: at most ${limit} requests per minute per API key. Retry in ${wait} s.`, { 'retry-after': String(wait) });
    }

    const text = await readBody(req);
    let body: unknown;
    try {
      body = text.trim() === '' ? {} : JSON.parse(text);
    } catch (error) {
      throw new HttpError(400, `Malformed JSON body: ${(error as Error).message}`);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'The request body must be a JSON object.');
    if (throwMessage) throw new Error(throwMessage);
    const disconnected = new AbortController();
    const abort = (): void => disconnected.abort();
    req.socket.once('close', abort);
    try {
      return await handler(body as Json, disconnected.signal);
    } finally {
      req.socket.off('close', abort);
    }
  }

  function detail(app: string, id: string): unknown {
    if (app === 'tokenizer') {
      const info = findTokenizer(id);
      if (!info) throw new HttpError(404, `No tokenizer "${id}". Tokenizers: ${TOKENIZER_NAMES.join(', ')}.`);
      return { ...info };
    }
    const material = findMaterial(id);
    if (!material) throw new HttpError(404, `No material with id "${id}". Ids look like JVASP-1002; search first to find them.`);
    return materialView(material, true);
  }

  async function faultsEndpoint(req: http.IncomingMessage, res: http.ServerResponse, method: string): Promise<void> {
    if (method === 'GET') return send(res, 200, { pending: faults.pending });
    if (method === 'DELETE') {
      faults.clear();
      return send(res, 200, { pending: [] });
    }
    if (method !== 'POST') return send(res, 405, { detail: 'Use GET, POST or DELETE on /__faults.' }, { allow: 'GET, POST, DELETE' });
    try {
      const parsed = JSON.parse(await readBody(req)) as { fault?: Fault; times?: number } & Fault;
      const fault = (parsed.fault ?? parsed) as Fault;
      if (!fault || typeof fault.kind !== 'string') return send(res, 400, { detail: 'Send {"kind": ..., "path"?: ...} or {"fault": {...}, "times": n}.' });
      faults.next(fault, parsed.times ?? 1);
      return send(res, 200, { pending: faults.pending });
    } catch (error) {
      return send(res, 400, { detail: `Malformed fault: ${(error as Error).message}` });
    }
  }

  const result: ReferenceServer = {
    http: server,
    faults,
    requests,
    get url() {
      return url;
    },
    listen(port = 0, host = '127.0.0.1') {
      return new Promise<string>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          url = `http://${shown}:${address.port}`;
          resolve(url);
        });
      });
    },
    async close() {
      await pool.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    hits(path: string) {
      return requests.filter((r) => r.path === path).length;
    },
  };
  return result;
}

function unique<T>(value: T, index: number, all: T[]): boolean {
  return all.indexOf(value) === index;
}

function methodNotAllowed(allowed: string): HttpError {
  return new HttpError(405, `Method not allowed: use ${allowed}.`, { allow: allowed });
}

function decodePath(raw: string): string {
  const path = raw.split('?')[0]!.replace(/\/+$/, '') || '/';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '');
  return match ? match[1]!.trim() : undefined;
}

/** The status and detail of a request Node itself refused before any handler saw it. */
function clientErrorAnswer(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'The request headers are larger than the server accepts (16 KB).'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'The request was not received in time.'];
  return [400, 'The request is not valid HTTP.'];
}

/**
 * Wrong API keys slow their sender down: each failure from one address doubles the wait before the
 * next 401 (100 ms, 200 ms, … at most 5 s); a right key clears it. At most 10,000 addresses are kept.
 */
class KeyGuesses {
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

/** One worker per core but one (the event loop's), at least one, at most four. */
function defaultWorkers(): number {
  return Math.min(4, Math.max(1, os.availableParallelism() - 1));
}

// ---- HTML -----------------------------------------------------------------------------------------------

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    '<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style>' +
    `</head><body>${body}</body></html>\n`;
}

function indexPage(): string {
  const items = APPS.map((a) => `<li><a href="/${a.name}">${escapeHtml(a.title)}</a> <code>/${a.name}</code></li>`).join('');
  return page('Token Lens reference server', `<h1>Token Lens reference server</h1><p>Applications:</p><ul>${items}</ul>`);
}

function appPage(app: { name: string; title: string; operations: string[] }): string {
  const ops = ['search', 'compute', ...app.operations].filter(unique);
  const endpoints = ops.map((o) => `<li><code>POST /${app.name}/${o}</code></li>`).join('');
  return page(`${app.title} — reference server`,
    `<h1>${escapeHtml(app.title)}</h1><p>Application <code>${app.name}</code> of the Token Lens reference server.</p>` +
    `<ul>${endpoints}<li><code>GET /${app.name}/detail/{id}</code></li></ul>` +
    '<p>POST endpoints need <code>Authorization: Bearer &lt;API key&gt;</code> and a JSON body.</p>');
}
