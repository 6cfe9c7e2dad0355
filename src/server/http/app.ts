/**
 * The reference server: a faithful local implementation of the service's REST interface
 * (/work/shared/spec/rest-interface.md), for tests, demos and offline work. Pure node:http, no `vscode`.
 * Where the spec is silent, the decisions are listed in docs/service.md (and in the comments below).
 * The routes are in routes/, one module per application; faults.ts, gate.ts and respond.ts hold the plumbing.
 */
import * as http from 'node:http';
import * as os from 'node:os';
import type { AddressInfo } from 'node:net';
import { APPS } from '../../core/applications/catalog';
import { TOKENIZER_NAMES, findTokenizer } from '../../core/tokenizers/index';
import { HttpError } from './body';
import type { JobOutcome } from './compute';
import { faultsEndpoint, FaultQueue, injectFault, type Fault } from './faults';
import { admit, KeyGuesses, RateWindows } from './gate';
import { findMaterial } from '../materials';
import { materialView } from '../routes/materials';
import { appPage, indexPage, unique } from './pages';
import { JobTimeout, WorkerLanes } from './pool';
import { answerClientErrors, decodePath, methodNotAllowed, readBody, send, sendJsonBytes, sendRaw } from './respond';
import { laneOf, ROUTES } from '../routes/index';

export { APPS, FaultQueue, type Fault };
export { MAX_BODY_BYTES } from './respond';

export interface ServerOptions {
  apiKey: string;
  /** Requests per window per key; default 100 (spec 8). */
  ratePerMinute?: number;
  /** Window length, default 60,000 ms; tests shorten it. */
  rateWindowMs?: number;
  /** Serve POST/GET/DELETE /__faults, so a test in another process can stage faults. Default false. */
  faults?: boolean;
  now?: () => number;
  /**
   * Worker threads for the structure calculations, and as many for the bulk lane (routes/index.ts); default one
   * per core but one, at least one, at most four. The quick lane has one.
   */
  workers?: number;
  /** How long one request may run on its worker before it is stopped with a 504; default 300,000 ms. */
  computeBudgetMs?: number;
}

export interface ServerLogEntry {
  method: string;
  path: string;
  status: number;
  fault?: Fault['kind'];
}

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

/** What one server shares between its requests. */
interface Context {
  options: ServerOptions;
  faults: FaultQueue;
  requests: ServerLogEntry[];
  lanes: WorkerLanes;
  guesses: KeyGuesses;
  rates: RateWindows;
}

export function createServer(options: ServerOptions): ReferenceServer {
  if (!options.apiKey) throw new Error('createServer needs an apiKey');
  const workers = options.workers ?? defaultWorkers();
  const lanes = new WorkerLanes({ quick: 1, bulk: workers, compute: workers }, options.computeBudgetMs ?? 300_000);
  const context: Context = {
    options,
    faults: new FaultQueue(),
    requests: [],
    lanes,
    guesses: new KeyGuesses(),
    rates: new RateWindows(
      Math.max(1, options.ratePerMinute ?? 100),
      Math.max(1, options.rateWindowMs ?? 60_000),
      options.now ?? (() => Date.now()),
    ),
  };
  const server = http.createServer((req, res) => {
    void handle(context, req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { detail: `Internal server error: ${(error as Error).message}` });
    });
  });
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  answerClientErrors(server);
  return served(server, context);
}

/** The handle a test or the CLI holds: listen, close, and what arrived. */
function served(server: http.Server, context: Context): ReferenceServer {
  let url = '';
  return {
    http: server,
    faults: context.faults,
    requests: context.requests,
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
      await context.lanes.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    hits(path: string) {
      return context.requests.filter((r) => r.path === path).length;
    },
  };
}

async function handle(context: Context, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const path = decodePath(req.url ?? '/');
  // Logged on arrival; the status is filled in when the answer is sent (0: none was, e.g. a dropped socket).
  const entry: ServerLogEntry = { method, path, status: 0 };
  context.requests.push(entry);
  res.on('finish', () => {
    entry.status = res.statusCode;
  });
  if (path === '/__faults') {
    if (!context.options.faults) return send(res, 404, { detail: `Not found: ${path}` });
    return faultsEndpoint(context.faults, req, res, method);
  }
  const fault = context.faults.take(path);
  if (fault) {
    entry.fault = fault.kind;
    if (await injectFault(fault, req, res, context.rates.limit)) return;
  }
  try {
    const result = await route(context, req, method, path, fault?.kind === 'throw' ? (fault.message ?? 'injected failure') : undefined);
    if (result instanceof Uint8Array) return await sendJsonBytes(res, result);
    if (typeof result === 'object' && result && 'html' in result)
      return sendRaw(res, 200, 'text/html; charset=utf-8', (result as { html: string }).html);
    return send(res, 200, result);
  } catch (error) {
    if (error instanceof HttpError) return send(res, error.status, { detail: error.detail }, error.headers);
    // Decision: a handler that throws answers 500 with the error's message as detail.
    return send(res, 500, { detail: `Internal server error: ${(error as Error).message}` });
  }
}

async function route(
  context: Context,
  req: http.IncomingMessage,
  method: string,
  path: string,
  throwMessage: string | undefined,
): Promise<unknown> {
  const segments = path.split('/').filter(Boolean);
  const get = (answer: () => unknown, fails = false): unknown => {
    if (method !== 'GET') throw methodNotAllowed('GET');
    if (fails && throwMessage) throw new Error(throwMessage); // a staged 'throw' fault reaches the detail route, not the pages
    return answer();
  };
  if (segments.length === 0) return get(() => ({ html: indexPage() }));
  const app = APPS.find((a) => a.name === segments[0]);
  if (!app) throw new HttpError(404, `Not found: ${path}. Applications: ${APPS.map((a) => a.name).join(', ')}.`);
  if (segments.length === 1) return get(() => ({ html: appPage(app) }));
  if (segments[1] === 'detail' && segments.length === 3) return get(() => detail(app.name, segments[2]!), true);
  if (segments.length !== 2) throw new HttpError(404, `Not found: ${path}`);
  const key = `${app.name}/${segments[1]}`;
  if (!ROUTES[key])
    throw new HttpError(
      404,
      `Not found: ${path}. ${app.name} offers: ${['search', 'compute', ...app.operations]
        .filter(unique)
        .map((o) => `POST /${app.name}/${o}`)
        .join(', ')}, GET /${app.name}/detail/{id}.`,
    );
  if (method !== 'POST') throw methodNotAllowed('POST');
  await admit(req, context.options.apiKey, context.guesses, context.rates);
  const body = await readBody(req);
  const disconnected = new AbortController();
  const abort = (): void => disconnected.abort();
  req.socket.once('close', abort);
  try {
    const job = { route: key, body, ...(throwMessage ? { fail: throwMessage } : {}) };
    return answerOf(await context.lanes.run(job, laneOf(key, body.length), disconnected.signal));
  } catch (error) {
    if (error instanceof JobTimeout)
      throw new HttpError(
        504,
        `The calculation ran ${error.message}, the reference server's budget, and was stopped: try fewer atoms or steps.`,
      );
    throw error;
  } finally {
    req.socket.off('close', abort);
  }
}

/** A worker's answer as the bytes to send, or its error as the HttpError to answer with. */
function answerOf(outcome: JobOutcome): Uint8Array {
  if (outcome.ok) return outcome.json;
  throw new HttpError(outcome.status, outcome.detail, outcome.headers);
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

/** One worker per core but one (the event loop's), at least one, at most four. */
function defaultWorkers(): number {
  return Math.min(4, Math.max(1, os.availableParallelism() - 1));
}
