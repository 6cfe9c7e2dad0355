/**
 * The reference server: a faithful local implementation of the service's REST interface
 * (/work/shared/spec/rest-interface.md), for tests, demos and offline work. Pure node:http, no `vscode`.
 * Where the spec is silent, the decisions are listed in the README (and in the comments below).
 */
import * as http from 'node:http';
import * as os from 'node:os';
import type { AddressInfo } from 'node:net';
import { countChars, loadTokenizerSync, TOKENIZERS, TOKENIZER_NAMES, UnknownTokenizerError, findTokenizer } from '../core/tokenizers/index';
import {
  balanceReaction, CU_K_ALPHA, DEFAULT_MODEL, ELEMENT_MODES, findMaterial, groundStateEnergy, HEA_ELEMENTS, heaDescriptors,
  matchScore, MATCH_METHOD, materialView, MATERIALS, MODELS, optimadeFilter, parseFormula, parseXrdData, powderPattern,
  searchMaterials, type Material, type SearchQuery,
} from './materials';
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { parsePoscar } from '../core/poscar/index';
import type { Mat3, Vec3 } from '../core/poscar/types';
import { rowTimes } from '../core/poscar/vec';
import { buildInterface, INTERFACE_DEFAULTS, MAX_INTERFACE_ATOMS, type Slab } from './heterostructure';
import { blochHamiltonian, HAMILTONIAN_TYPES, MAX_VQE_QUBITS, pauliTermCount, padToQubits, runVqe } from './quantum';
import { FIELDS, MAX_ATOMS, structureOf, type Field, type Structure } from './physics/answers';
import type { Job, JobOutcome } from './compute';
import { JobTimeout, WorkerPool } from './pool';
import { APPS } from '../core/applications/catalog';
import { own } from '../core/util/own';

export { APPS };

export const MAX_TEXT_CHARS = 50_000;
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

/** Fractional reciprocal coordinates beyond this are a mistake: H(k) is periodic with period 1. */
const MAX_KPOINT = 100;

class HttpError extends Error {
  constructor(readonly status: number, readonly detail: string, readonly headers: Record<string, string> = {}) {
    super(detail);
  }
}

type Json = Record<string, unknown>;
/** May answer with a promise; the signal aborts when the client goes away before the answer. */
type Handler = (body: Json, signal: AbortSignal) => unknown;

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
  const handlers = buildHandlers(pool);

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

// ---- validation -----------------------------------------------------------------------------------------

function str(body: Json, field: string, required: true): string;
function str(body: Json, field: string, required: false): string | undefined;
function str(body: Json, field: string, required: boolean): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) throw new HttpError(400, `Field "${field}" is required (a string).`);
    return undefined;
  }
  if (typeof value !== 'string') throw new HttpError(400, `Field "${field}" must be a string, not ${typeName(value)}.`);
  return value;
}

function num(body: Json, field: string, integer = false): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new HttpError(400, `Field "${field}" must be ${integer ? 'an integer' : 'a number'}, not ${typeName(value)}.`);
  }
  return value;
}

function strings(body: Json, field: string): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new HttpError(400, `Field "${field}" must be an array of strings.`);
  return value as string[];
}

/** A list of formulas: an array of strings, or text such as "Fe2O3 + C" (leading coefficients dropped). */
function formulas(body: Json, field: string): string[] | undefined {
  const value = body[field];
  if (typeof value === 'string') return splitSide(value);
  return strings(body, field);
}

function splitSide(side: string): string[] {
  return side.split('+').map((s) => s.trim().replace(/^\d+\s*(?=[A-Z(])/, '')).filter(Boolean);
}

/** `elements` (2 to 10, distinct) with `fractions` as a parallel list or an object; equimolar without. */
function heaComposition(elements: string[], fractions: unknown): Record<string, number> {
  if (elements.length < 2 || elements.length > 10) throw new HttpError(400, `Field "elements" must hold 2 to 10 element symbols, not ${elements.length}.`);
  if (new Set(elements).size !== elements.length) throw new HttpError(400, 'Field "elements" names an element twice.');
  if (fractions === undefined || fractions === null) return Object.fromEntries(elements.map((e) => [e, 1]));
  const list = Array.isArray(fractions) ? fractions : typeof fractions === 'object' ? elements.map((e) => own(fractions as Record<string, unknown>, e)) : undefined;
  if (!list || list.length !== elements.length) throw new HttpError(400, 'Field "fractions" must give one number per element (a list in the order of "elements", or an object by symbol).');
  return Object.fromEntries(elements.map((e, i) => [e, list[i] as number]));
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

function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

function round(v: number, digits: number): number {
  return Math.round(v * 10 ** digits) / 10 ** digits;
}

function groundStateOf(m: number[][]): number {
  return Math.min(...new EigenvalueDecomposition(new Matrix(m), { assumeSymmetric: true }).realEigenvalues);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
  return typeof value === 'object' ? 'an object' : `${typeof value === 'number' ? 'the number' : typeof value === 'boolean' ? 'the boolean' : 'the string'} ${JSON.stringify(value)}`;
}

function material(body: Json, field: string): Material {
  const jid = str(body, field, true);
  const found = findMaterial(jid);
  if (!found) throw new HttpError(404, `No material with id "${jid}". Known ids: ${MATERIALS.map((m) => m.jid).join(', ')}.`);
  return found;
}

// ---- handlers -------------------------------------------------------------------------------------------

function buildHandlers(pool: WorkerPool): Record<string, Handler> {
  const tokenize: Handler = (body) => {
    const text = str(body, 'text', true);
    const name = str(body, 'tokenizer', false) ?? 'cl100k_base';
    const chars = countChars(text);
    if (chars > MAX_TEXT_CHARS) throw new HttpError(400, `Text is too long: ${chars} characters; the limit is ${MAX_TEXT_CHARS}.`);
    try {
      return loadTokenizerSync(name).tokenize(text);
    } catch (error) {
      if (error instanceof UnknownTokenizerError) throw new HttpError(400, error.message);
      throw error;
    }
  };

  const search: Handler = (body) => {
    const query: SearchQuery = {};
    const formula = str(body, 'formula', false);
    if (formula) {
      try {
        parseFormula(formula);
      } catch (error) {
        throw new HttpError(400, `Field "formula" could not be read: ${(error as Error).message}.`);
      }
      query.formula = formula;
    }
    const elements = strings(body, 'elements');
    if (elements) query.elements = elements;
    const mode = str(body, 'element_mode', false);
    if (mode !== undefined) {
      if (!(ELEMENT_MODES as readonly string[]).includes(mode)) throw new HttpError(400, `Field "element_mode" must be one of ${ELEMENT_MODES.join(', ')}.`);
      query.element_mode = mode;
    }
    const min = num(body, 'bandgap_min');
    const max = num(body, 'bandgap_max');
    if (min !== undefined) query.bandgap_min = min;
    if (max !== undefined) query.bandgap_max = max;
    if (min !== undefined && max !== undefined && min > max) throw new HttpError(400, 'bandgap_min is larger than bandgap_max.');
    const results = searchMaterials(query).map((m) => materialView(m));
    return { count: results.length, results };
  };

  const predict: Handler = (body) => {
    const m = material(body, 'jid');
    const model = str(body, 'model', false) ?? DEFAULT_MODEL;
    const spec = own(MODELS, model);
    if (!spec) throw new HttpError(400, `Unknown model "${model}". Models: ${Object.keys(MODELS).join(', ')}.`);
    return { jid: m.jid, formula: m.formula, model, property: spec.description, prediction: m[spec.field], unit: spec.unit, source: 'tabulated reference value' };
  };

  // Structures: reference calculations (src/server/physics), run in slices so that other requests are answered meanwhile.

  /** The body's POSCAR as the POSCAR core reads it: its first error is a 400, warnings do not block. */
  const readStructure = (body: Json, maxAtoms: number): Structure => {
    const text = str(body, 'poscar', true);
    if (!text.trim()) throw new HttpError(400, 'Field "poscar" is empty: send the structure in POSCAR text format.');
    // Refused before parsing: a POSCAR cannot hold more atoms than lines (twice, with velocities).
    const lines = lineCount(text);
    if (lines > 2 * maxAtoms + 20) throw new HttpError(400, `The POSCAR has ${lines} lines, more than a structure of ${maxAtoms} atoms (the most the reference server computes for this calculation) can have.`);
    const { poscar, diagnostics } = parsePoscar(text);
    const error = diagnostics.find((d) => d.severity === 'error');
    if (error || !poscar) throw new HttpError(400, `The POSCAR is malformed: ${error?.message ?? 'it could not be read'}.`);
    return structureOf(poscar);
  };

  /** A numeric field: its default when absent, a 400 out of range, cut to the maximum where it clamps. */
  const option = (body: Json, name: keyof typeof FIELDS): number => {
    const field: Field = FIELDS[name];
    const value = num(body, name, field.integer) ?? field.default;
    if (field.clamp && value > field.max) return field.max;
    if (value < field.min || value > field.max) {
      throw new HttpError(400, field.clamp ? `Field "${name}" must be at least ${field.min}.` : `Field "${name}" must be between ${field.min} and ${field.max}.`);
    }
    return value;
  };

  /** A calculation on a worker thread; what the reference models refuse (too many atoms, unknown elements, ...) is a 400. */
  const compute = async (job: Job, signal: AbortSignal): Promise<unknown> => {
    let outcome: JobOutcome;
    try {
      outcome = await pool.run(job, signal);
    } catch (error) {
      if (error instanceof JobTimeout) throw new HttpError(504, `The calculation ran ${error.message}, the reference server's budget, and was stopped: try fewer atoms or steps.`);
      throw error;
    }
    if (outcome.ok) return outcome.value;
    if (outcome.input) throw new HttpError(400, outcome.message);
    throw new Error(outcome.message);
  };

  const singlePointHandler: Handler = (body, signal) => compute({ kind: 'singlePoint', structure: readStructure(body, MAX_ATOMS.singlePoint) }, signal);

  const relax: Handler = (body, signal) => {
    const structure = readStructure(body, MAX_ATOMS.relax);
    return compute({ kind: 'relax', structure, options: { fmax: option(body, 'fmax'), maxSteps: option(body, 'max_steps') } }, signal);
  };

  const md: Handler = (body, signal) => {
    const structure = readStructure(body, MAX_ATOMS.md);
    const options = { temperature: option(body, 'temperature'), timestep: option(body, 'timestep'), steps: option(body, 'steps'), seed: option(body, 'seed') };
    return compute({ kind: 'md', structure, options }, signal);
  };

  const tightbinding: Handler = (body, signal) => {
    const structure = readStructure(body, MAX_ATOMS.tightbinding);
    return compute({ kind: 'tightbinding', structure, density: option(body, 'kpath_density') }, signal);
  };

  const pxrd: Handler = (body) => {
    const m = material(body, 'jid');
    const wavelength = num(body, 'wavelength') ?? CU_K_ALPHA;
    if (wavelength <= 0 || wavelength > 5) throw new HttpError(400, 'Field "wavelength" must be between 0 and 5 Å.');
    if (!m.structure) throw new HttpError(501, `The reference server has no structure for ${m.formula} (${m.jid}) to compute a pattern from.`);
    return { jid: m.jid, formula: m.formula, wavelength, two_theta_range: [0, 90], peaks: powderPattern(m.structure, wavelength) };
  };

  const pxrdMatch: Handler = (body) => {
    const formula = str(body, 'formula', false);
    const data = str(body, 'xrd_data', true);
    let measured;
    try {
      measured = parseXrdData(data);
    } catch (error) {
      throw new HttpError(400, `${(error as Error).message}.`);
    }
    let candidates = MATERIALS.filter((m) => m.structure);
    if (formula) {
      try {
        parseFormula(formula);
      } catch (error) {
        throw new HttpError(400, `Field "formula" could not be read: ${(error as Error).message}.`);
      }
      candidates = searchMaterials({ formula }).filter((m) => m.structure);
    }
    const scored = candidates
      .map((m) => ({ material: m, peaks: powderPattern(m.structure!) }))
      .map((c) => ({ ...c, score: matchScore(measured, c.peaks) }))
      .sort((a, b) => b.score - a.score);
    const matches = scored.map((c) => ({ jid: c.material.jid, formula: c.material.formula, score: c.score }));
    // Decision: the best candidate's computed pattern comes along, so a client can overlay it on the measured one.
    const best = scored[0] && { jid: scored[0].material.jid, formula: scored[0].material.formula, peaks: scored[0].peaks };
    return { formula: formula ?? null, n_points: measured.length, matches, best: best ?? null, method: MATCH_METHOD };
  };

  const optimade: Handler = (body) => {
    const filter = str(body, 'filter_string', true);
    let test;
    try {
      test = optimadeFilter(filter);
    } catch (error) {
      throw new HttpError(400, `Filter not understood: ${(error as Error).message}.`);
    }
    const data = MATERIALS.filter(test).map((m) => ({
      id: m.jid,
      type: 'structures',
      attributes: { chemical_formula_reduced: m.formula, elements: [...m.elements].sort(), nelements: m.elements.length, nsites: m.structure?.species.length ?? null },
    }));
    return { data, meta: { data_returned: data.length, data_available: MATERIALS.length, more_data_available: false } };
  };

  /** A structure given as POSCAR text (`poscar_<role>`, `<role>_poscar`) or as a jid (`<role>_jid`, or an alias). */
  const slab = (body: Json, role: 'film' | 'subs', jidFields: string[]): Slab => {
    const poscarField = [`poscar_${role}`, `${role === 'subs' ? 'substrate' : 'film'}_poscar`].find((f) => body[f] !== undefined && body[f] !== null);
    if (poscarField) {
      const structure = readStructure({ poscar: str(body, poscarField, true) }, MAX_INTERFACE_ATOMS).poscar;
      return { name: structure.comment.trim().split(/\s+/)[0] || role, lattice: structure.lattice, species: structure.sites.map((x) => x.species), frac: structure.sites.map((x) => x.frac) };
    }
    const field = jidFields.find((f) => body[f] !== undefined && body[f] !== null);
    if (!field) throw new HttpError(400, `Send the ${role === 'film' ? 'film' : 'substrate'} as "poscar_${role}" (POSCAR text) or "${jidFields[0]}" (a jid such as JVASP-1002).`);
    const m = material(body, field);
    if (!m.structure) throw new HttpError(501, `The reference server has no structure for ${m.formula} (${m.jid}).`);
    return { name: m.formula, lattice: m.structure.lattice as Mat3, species: m.structure.species, frac: m.structure.frac };
  };

  const length = (body: Json, field: string, fallback: number, min: number, max: number): number => {
    const value = num(body, field) ?? fallback;
    if (value < min || value > max) throw new HttpError(400, `Field "${field}" must be between ${min} and ${max} Å.`);
    return value;
  };

  const heterostructure: Handler = (body) => {
    const film = slab(body, 'film', ['film_jid', 'jid1']);
    const subs = slab(body, 'subs', ['subs_jid', 'substrate_jid', 'jid2']);
    const max = num(body, 'max_supercell', true) ?? INTERFACE_DEFAULTS.maxSupercell;
    if (max < 1 || max > 10) throw new HttpError(400, 'Field "max_supercell" must be between 1 and 10.');
    const d = INTERFACE_DEFAULTS;
    try {
      return {
        film: { name: film.name, natoms: film.species.length }, substrate: { name: subs.name, natoms: subs.species.length },
        ...buildInterface(film, subs, {
          filmIndex: str(body, 'film_index', false) ?? d.filmIndex, subsIndex: str(body, 'subs_index', false) ?? d.subsIndex,
          filmThickness: length(body, 'film_thickness', d.filmThickness, 1, 100), subsThickness: length(body, 'subs_thickness', d.subsThickness, 1, 100),
          separation: length(body, 'separation', d.separation, 0.5, 20), vacuum: length(body, 'vacuum', d.vacuum, 0, 100), maxSupercell: max,
        }),
        method: 'reference: slabs along a cell axis, in-plane lengths matched by whole-number supercells, film strained onto the substrate',
      };
    } catch (error) {
      throw new HttpError(400, `${(error as Error).message}.`);
    }
  };

  const vqeMaterial = (body: Json): unknown => {
    const m = material(body, 'jid');
    if (!m.structure) throw new HttpError(501, `The reference server has no structure for ${m.formula} (${m.jid}).`);
    const type = str(body, 'hamiltonian_type', false) ?? 'tight_binding';
    if (!(HAMILTONIAN_TYPES as readonly string[]).includes(type)) throw new HttpError(400, `Field "hamiltonian_type" must be one of ${HAMILTONIAN_TYPES.join(', ')}.`);
    const k = body.kpoint ?? [0, 0, 0];
    if (!Array.isArray(k) || k.length !== 3 || !k.every((x) => typeof x === 'number' && Math.abs(x) <= MAX_KPOINT)) throw new HttpError(400, `Field "kpoint" must be three numbers from -${MAX_KPOINT} to ${MAX_KPOINT} (fractional coordinates of the reciprocal lattice), e.g. [0, 0, 0].`);
    const reps = num(body, 'reps', true) ?? 2;
    if (reps < 1 || reps > 6) throw new HttpError(400, 'Field "reps" must be between 1 and 6.');
    const lattice = m.structure.lattice as Mat3;
    const positions = m.structure.frac.map((f) => rowTimes(f, lattice));
    const real = blochHamiltonian(lattice, m.structure.species, positions, k as Vec3);
    const { matrix, qubits } = padToQubits(real);
    if (qubits > MAX_VQE_QUBITS) throw new HttpError(400, `${m.formula} needs ${qubits} qubits; the reference server simulates at most ${MAX_VQE_QUBITS}.`);
    const exact = groundStateOf(real);
    const result = runVqe(matrix, qubits, reps);
    return {
      jid: m.jid, formula: m.formula, kpoint: k, hamiltonian_type: type,
      vqe_energy: round(result.energy, 8), classical_energy: round(exact, 8), energy_difference: round(result.energy - exact, 8), energy_unit: 'eV',
      converged: result.converged, iterations: result.iterations, energy_history: result.history.map((e) => round(e, 8)),
      circuit: { n_qubits: qubits, ansatz: 'RY layers with a CNOT ladder', reps, n_parameters: result.parameters, depth: result.depth, n_cnot: result.cnots, n_pauli_terms: pauliTermCount(matrix, qubits) },
      optimizer: 'Rotosolve', method: 'state-vector simulation of the s-orbital tight-binding H(k) of the band-structure endpoint; classical energy by exact diagonalization',
    };
  };

  const vqe: Handler = (body) => {
    if (body.hamiltonian === undefined && body.jid !== undefined) return vqeMaterial(body);
    const terms = body.hamiltonian;
    if (!Array.isArray(terms) || terms.length === 0) throw new HttpError(400, 'Send "jid" (a material, with optional "kpoint" and "hamiltonian_type") or "hamiltonian": an array of {"pauli": "XZ", "coefficient": 0.5} terms.');
    let n = -1;
    const checked = terms.map((term, i) => {
      const t = term as { pauli?: unknown; coefficient?: unknown };
      if (typeof t?.pauli !== 'string' || !/^[IXYZ]{1,4}$/.test(t.pauli)) throw new HttpError(400, `hamiltonian[${i}].pauli must be a string of I, X, Y, Z of length 1 to 4.`);
      if (typeof t.coefficient !== 'number' || !Number.isFinite(t.coefficient)) throw new HttpError(400, `hamiltonian[${i}].coefficient must be a number.`);
      if (n >= 0 && t.pauli.length !== n) throw new HttpError(400, 'Every Pauli string in "hamiltonian" must have the same length.');
      n = t.pauli.length;
      return { pauli: t.pauli, coefficient: t.coefficient };
    });
    const ansatz = str(body, 'ansatz', false) ?? 'exact';
    const { energy, n_qubits } = groundStateEnergy(checked);
    return { energy, n_qubits, ansatz, method: 'exact diagonalization (the reference server does not run a variational circuit)', converged: true };
  };

  const balance: Handler = (body) => {
    let reactants = formulas(body, 'reactants');
    let products = formulas(body, 'products');
    const equation = str(body, 'equation', false);
    if (equation && !reactants && !products) {
      const sides = equation.split(/->|=>|→|=/);
      if (sides.length !== 2) throw new HttpError(400, 'Field "equation" must look like "H2 + O2 -> H2O".');
      [reactants, products] = sides.map(splitSide);
    }
    if (!reactants?.length || !products?.length) throw new HttpError(400, 'Send "reactants" and "products" (arrays of formulas), or "equation" such as "H2 + O2 -> H2O".');
    try {
      const coefficients = balanceReaction(reactants, products!);
      const side = (names: string[], c: number[]): string => names.map((s, i) => `${c[i] === 1 ? '' : `${c[i]} `}${s}`).join(' + ');
      return { reactants, products, coefficients, balanced: `${side(reactants, coefficients.reactants)} -> ${side(products!, coefficients.products)}` };
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw new HttpError(400, `${(error as Error).message}.`);
    }
  };

  const hea: Handler = (body) => {
    let composition = body.composition as Record<string, unknown> | undefined;
    const elements = strings(body, 'elements');
    if (composition === undefined && elements) composition = heaComposition(elements, body.fractions);
    if (!composition || typeof composition !== 'object' || Array.isArray(composition) || Object.keys(composition).length === 0) {
      throw new HttpError(400, 'Send "elements" (2 to 10 symbols) with optional "fractions", or "composition" (an object such as {"Fe": 1, "Co": 1, "Ni": 1}).');
    }
    for (const [el, amount] of Object.entries(composition)) {
      if (!own(HEA_ELEMENTS, el)) throw new HttpError(400, `Element "${el}" is not known to the reference server. Known: ${Object.keys(HEA_ELEMENTS).join(', ')}.`);
      if (typeof amount !== 'number' || !(amount > 0)) throw new HttpError(400, `The amount of ${el} must be a positive number.`);
    }
    const descriptors = heaDescriptors(composition as Record<string, number>);
    const formula = Object.entries(descriptors.fractions).map(([el, c]) => `${el}${round(c, 4)}`).join('');
    return { composition: descriptors.fractions, formula, ...descriptors };
  };

  const tokenizerSearch: Handler = (body) => {
    const query = (str(body, 'query', false) ?? '').toLowerCase();
    const results = TOKENIZERS.filter((t) => !query || t.name.toLowerCase().includes(query) || t.kind.includes(query) || t.description.toLowerCase().includes(query)).map((t) => ({ ...t }));
    return { count: results.length, results };
  };

  return {
    'tokenizer/tokenize': tokenize,
    'tokenizer/compute': tokenize,
    'tokenizer/search': tokenizerSearch,
    'materials_explorer/search': search,
    'materials_explorer/compute': search,
    'gnn_predictor/search': search,
    'gnn_predictor/predict': predict,
    'gnn_predictor/compute': predict,
    'gnn_ff_dynamics/search': search,
    'gnn_ff_dynamics/relax': relax,
    'gnn_ff_dynamics/single_point': singlePointHandler,
    'gnn_ff_dynamics/md': md,
    'gnn_ff_dynamics/compute': singlePointHandler,
    'tightbinding/search': search,
    'tightbinding/compute': tightbinding,
    'pxrd/search': search,
    'pxrd/compute': pxrd,
    'pxrd/match': pxrdMatch,
    'heterostructure/search': search,
    'heterostructure/generate': heterostructure,
    'heterostructure/compute': heterostructure,
    'quantum/search': search,
    'quantum/vqe': vqe,
    'quantum/compute': vqe,
    'reaction_network/search': search,
    'reaction_network/balance': balance,
    'reaction_network/compute': balance,
    'hea/search': search,
    'hea/compute': hea,
    'optimade_explorer/search': search,
    'optimade_explorer/query': optimade,
    'optimade_explorer/compute': optimade,
  };
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
