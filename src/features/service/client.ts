/**
 * The service client (spec sections 4, 5, 7, 8). Pure: no `vscode` import, so it runs in unit tests, the CLI
 * and the extension alike. One shared undici Agent keeps connections alive across clients; one shared Pacer
 * keeps every client of one key under the service's rate limit.
 */
import type { Agent, Dispatcher } from 'undici';
import type { TokenizeResult } from '../../core/tokenizers/types';
import type { ResponseBody, ServiceResponse } from '../../core/service/response';
import { ServiceError, kindForStatus, type ServiceErrorKind } from '../../core/service/errors';
import { redact, redactBytesSliced, redactedError, redactJson, redactor, redactSliced, type Redactor } from '../../core/service/redact';
import { MAX_ANSWER_DEPTH } from '../../core/service/limits';
import { ENGLISH, type Locale, type Translate } from '../../core/util/locale';
import { JsonDepthError, JsonSyntaxError, parseJsonSliced } from '../../core/util/slicedJson';
import { AbortedError, Pacer, RetryPolicy, parseRetryAfter, systemClock, type Clock } from './pacing';

type Undici = typeof import('undici');
let undici: Undici | undefined;
/** undici is read and evaluated on the first request, not at activation: the build keeps it in its own file (esbuild.mjs). */
const lib = (): Undici => (undici ??= require('undici') as Undici);

/** One entry per request (after its retries), for the output channel. Never holds the key. */
export interface RequestLogEntry {
  method: string;
  path: string;
  /** The last HTTP status seen, if any answer arrived. */
  status?: number;
  /** Set when the request failed. */
  error?: ServiceErrorKind;
  /** The user-facing message of the failure. */
  message?: string;
  durationMs: number;
  retries: number;
  /** Time spent waiting for the client-side rate limit. */
  pacedMs: number;
  /** Only with logBodies: the request body, redacted and cut to 4,000 characters. */
  requestBody?: string;
  /** Only with logBodies: the response body (or a description of it), redacted and cut to 4,000 characters. */
  responseBody?: string;
}

export interface ClientOptions {
  /** e.g. http://127.0.0.1:8000 or https://example.org/api (a path prefix is kept). */
  baseUrl: string;
  apiKey?: string;
  /** Per attempt. Default 120 s. */
  timeoutMs?: number;
  /** Default 3. */
  maxRetries?: number;
  logBodies?: boolean;
  /** The largest answer read, in bytes; a larger one is cut off as it arrives. Default 64 MiB. */
  maxResponseBytes?: number;
  log?: (entry: RequestLogEntry) => void;
  /** Defaults to one shared keep-alive Agent. Tests pass an undici MockAgent. */
  dispatcher?: Dispatcher;
  /** Defaults to one shared pacer at 100 requests/minute per key. */
  pacer?: Pacer;
  /** How the key is sent; `authorization: Bearer <key>` by default (a provider's own header otherwise). */
  authHeaders?: (key: string) => Record<string, string>;
  clock?: Clock;
  /** Backoff tuning (tests make it small). */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  random?: () => number;
  /** The wording of the client's own reasons (the extension's locale; English by default, as the CLI and tests want). */
  locale?: Locale;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
}

// Request bodies of spec 4.1 and 4.3. Fields the spec leaves open are decided by the reference server.
export interface TokenizeRequest {
  text: string;
  tokenizer?: string;
}
export interface MaterialsSearchRequest {
  formula?: string;
  elements?: string[];
  element_mode?: 'all' | 'any' | 'exact' | string;
  bandgap_min?: number;
  bandgap_max?: number;
}
export interface PoscarRequest {
  poscar: string;
}
/** Relax's optional fields, as agapi names them (core/runs/parameters.ts): absent is the service's default. */
export interface RelaxRequest extends PoscarRequest {
  /** eV/Å */
  fmax?: number;
  steps?: number;
  optimizer?: string;
  /** The cell too. */
  relax_cell?: boolean;
}
/** MD's optional fields, as agapi names them: absent is the service's default. */
export interface MdRequest extends PoscarRequest {
  /** K */
  temperature?: number;
  /** fs */
  timestep?: number;
  steps?: number;
  /** A trajectory frame kept every so many steps. */
  interval?: number;
  /** nve (constant energy) or nvt (a thermostat). */
  ensemble?: string;
}
export interface TightbindingRequest {
  poscar: string;
  kpath_density?: number;
}
export interface PxrdComputeRequest {
  jid: string;
  wavelength?: number;
}
type JsonObject = Record<string, unknown>;

let sharedAgent: Agent | undefined;
let sharedPacer: Pacer | undefined;

/** The one keep-alive connection pool every client shares. */
function getSharedAgent(): Agent {
  sharedAgent ??= new (lib().Agent)({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 8 });
  return sharedAgent;
}

/** The one pacer every client shares, so two clients of one key together stay under 100/minute. */
function getSharedPacer(): Pacer {
  sharedPacer ??= new Pacer();
  return sharedPacer;
}

const APP_NAME = /^[A-Za-z0-9_-]+$/;
const LOG_BODY_LIMIT = 4000;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export class ServiceClient {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly logBodies: boolean;
  private readonly maxResponseBytes: number;
  private readonly log: ((entry: RequestLogEntry) => void) | undefined;
  private readonly dispatcher: Dispatcher;
  private readonly pacer: Pacer;
  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly authHeaders: (key: string) => Record<string, string>;
  private readonly locale: Locale;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.trim().replace(/\/+$/, '');
    this.apiKey = options.apiKey || undefined;
    this.timeoutMs = Math.max(1, options.timeoutMs ?? 120_000);
    this.logBodies = options.logBodies ?? false;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.log = options.log;
    this.dispatcher = options.dispatcher ?? getSharedAgent();
    this.pacer = options.pacer ?? getSharedPacer();
    this.clock = options.clock ?? systemClock;
    this.authHeaders = options.authHeaders ?? ((key) => ({ authorization: `Bearer ${key}` }));
    this.locale = options.locale ?? ENGLISH;
    this.retry = new RetryPolicy({
      maxRetries: options.maxRetries,
      baseDelayMs: options.retryBaseDelayMs,
      maxDelayMs: options.retryMaxDelayMs,
      random: options.random,
    });
  }

  // ---- spec 4.1 -------------------------------------------------------------------------------------------

  /** POST /tokenizer/tokenize. Checks the answer has every field of spec 2.2. */
  async tokenize(body: TokenizeRequest, options?: CallOptions): Promise<TokenizeResult> {
    const path = '/tokenizer/tokenize';
    const response = await this.request('POST', path, body, options);
    return checkTokenizeResult(response, path, this.locale.t);
  }

  // ---- spec 4.3 -------------------------------------------------------------------------------------------

  materialsSearch(body: MaterialsSearchRequest, options?: CallOptions): Promise<ServiceResponse> {
    return this.request('POST', '/materials_explorer/search', body, options);
  }
  relax(body: RelaxRequest, options?: CallOptions): Promise<ServiceResponse> {
    return this.request('POST', '/gnn_ff_dynamics/relax', body, options);
  }
  singlePoint(body: PoscarRequest, options?: CallOptions): Promise<ServiceResponse> {
    return this.request('POST', '/gnn_ff_dynamics/single_point', body, options);
  }
  md(body: MdRequest, options?: CallOptions): Promise<ServiceResponse> {
    return this.request('POST', '/gnn_ff_dynamics/md', body, options);
  }
  tightbindingCompute(body: TightbindingRequest, options?: CallOptions): Promise<ServiceResponse> {
    return this.request('POST', '/tightbinding/compute', body, options);
  }
  pxrdCompute(body: PxrdComputeRequest, options?: CallOptions): Promise<ServiceResponse> {
    return this.request('POST', '/pxrd/compute', body, options);
  }

  // ---- spec 4.2, the common pattern -----------------------------------------------------------------------

  appCompute(app: string, body: JsonObject, options?: CallOptions): Promise<ServiceResponse> {
    return this.request('POST', `/${this.appSegment(app)}/compute`, body, options);
  }
  appDetail(app: string, id: string, options?: CallOptions): Promise<ServiceResponse> {
    return this.request('GET', `/${this.appSegment(app)}/detail/${encodeURIComponent(id)}`, undefined, options);
  }
  /** GET /{app}: the application's HTML page, as text. */
  async appPage(app: string, options?: CallOptions): Promise<string> {
    const path = `/${this.appSegment(app)}`;
    const response = await this.request('GET', path, undefined, options);
    if (response.body.type === 'text') return response.body.text;
    if (response.body.type === 'bytes') return new TextDecoder().decode(response.body.bytes);
    throw new ServiceError({
      kind: 'malformedResponse',
      method: 'GET',
      path,
      status: response.status,
      detail: this.locale.t('expected an HTML page, got JSON'),
    });
  }

  // ---- the one request path -------------------------------------------------------------------------------

  /**
   * Sends one request with pacing, timeout, cancellation and retries. Resolves with any 2xx answer;
   * rejects with a ServiceError for everything else.
   */
  async request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    options: CallOptions = {},
  ): Promise<ServiceResponse> {
    const started = this.clock.now();
    const signal = options.signal;
    const timeoutMs = Math.max(1, options.timeoutMs ?? this.timeoutMs);
    const requestText = body === undefined ? undefined : JSON.stringify(body);
    let retries = 0;
    let pacedMs = 0;
    let lastStatus: number | undefined;
    const finish = (entry: Partial<RequestLogEntry>): void => {
      if (!this.log) return;
      const out: RequestLogEntry = {
        method,
        path,
        durationMs: Math.round(this.clock.now() - started),
        retries,
        pacedMs,
        ...entry,
      };
      if (lastStatus !== undefined && out.status === undefined) out.status = lastStatus;
      if (this.logBodies && requestText !== undefined) out.requestBody = this.cut(requestText);
      try {
        this.log(out);
      } catch {
        // a failing logger must not fail the request
      }
    };

    try {
      const unusable = this.urlProblem();
      if (unusable) throw new ServiceError({ kind: 'config', method, path, detail: unusable });
      for (let attempt = 0; ; attempt++) {
        if (signal?.aborted) throw cancelled(method, path);
        try {
          pacedMs += await this.pacer.acquire(this.apiKey, signal);
        } catch (error) {
          if (error instanceof AbortedError || signal?.aborted) throw cancelled(method, path);
          throw error;
        }
        try {
          const response = await this.attempt(method, path, requestText, signal, timeoutMs);
          response.retries = retries;
          response.durationMs = Math.round(this.clock.now() - started);
          finish({ status: response.status, ...(this.logBodies ? { responseBody: this.describe(response.body) } : {}) });
          return response;
        } catch (error) {
          const failure = error instanceof ServiceError ? error : this.classify(error, method, path, signal, false);
          if (failure.status !== undefined) lastStatus = failure.status;
          const delay = this.retry.delayBeforeRetry(failure, attempt);
          if (delay === undefined || failure.kind === 'cancelled') throw failure.withRetries(retries);
          retries++;
          if (failure.kind === 'rateLimited') {
            // Everyone using this key waits, not just this request: the pacer holds the key until then.
            this.pacer.pause(this.apiKey, this.clock.now() + delay);
          } else {
            try {
              await this.clock.sleep(delay, signal);
            } catch {
              throw cancelled(method, path, retries);
            }
          }
        }
      }
    } catch (error) {
      const failure = error instanceof ServiceError ? error : this.classify(error, method, path, signal, false);
      finish({ error: failure.kind, message: failure.message, ...(failure.status !== undefined ? { status: failure.status } : {}) });
      throw failure;
    }
  }

  private async attempt(
    method: string,
    path: string,
    requestText: string | undefined,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<ServiceResponse> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error('timeout')), timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
    const headers: Record<string, string> = {
      accept: 'application/json, text/*;q=0.9, */*;q=0.8',
      'user-agent': 'token-lens',
    };
    if (requestText !== undefined) headers['content-type'] = 'application/json';
    if (this.apiKey) Object.assign(headers, this.authHeaders(this.apiKey));
    let status: number | undefined;
    try {
      const response = await lib().request(this.baseUrl + path, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: requestText,
        signal: combined,
        dispatcher: this.dispatcher,
        headersTimeout: timeoutMs + 1000,
        bodyTimeout: timeoutMs + 1000,
      });
      status = response.statusCode;
      const responseHeaders = flattenHeaders(response.headers, redactor(this.apiKey));
      const bytes = await readCapped(response.body, this.maxResponseBytes);
      if (!bytes) {
        const mb = Math.round(this.maxResponseBytes / 1048576);
        throw new ServiceError({
          kind: 'malformedResponse',
          method,
          path,
          status,
          detail: this.locale.t(
            'the answer is larger than {0} MB, the limit set by tokenLens.service.maxResponseMegabytes; it was not read further',
            this.locale.number(mb),
          ),
        });
      }
      const contentType = responseHeaders['content-type'] ?? '';
      if (status >= 200 && status < 300) {
        return {
          status,
          headers: responseHeaders,
          body: await this.parseBody(bytes, contentType, method, path, status),
          retries: 0,
          durationMs: 0,
        };
      }
      const kind = kindForStatus(status);
      const detail = await this.errorDetail(bytes, contentType);
      const retryAfterMs = kind === 'rateLimited' ? parseRetryAfter(responseHeaders['retry-after'], this.clock.now()) : undefined;
      throw new ServiceError({
        kind,
        method,
        path,
        status,
        ...(detail ? { detail } : {}),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      });
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      throw this.classify(error, method, path, signal, timeout.signal.aborted, status, timeoutMs);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Why no request can go to the base URL, if it cannot. */
  private urlProblem(): string | undefined {
    if (!this.baseUrl) return this.locale.t('no service URL is set');
    return /^https?:\/\//i.test(this.baseUrl) ? undefined : this.locale.t('the service URL must start with http:// or https://');
  }

  private appSegment(app: string): string {
    if (!APP_NAME.test(app))
      throw new ServiceError({
        kind: 'config',
        method: 'POST',
        path: `/${app}`,
        detail: this.locale.t('"{0}" is not an application name', app),
      });
    return app;
  }

  private classify(
    error: unknown,
    method: string,
    path: string,
    signal: AbortSignal | undefined,
    timedOut: boolean,
    status?: number,
    timeoutMs = this.timeoutMs,
  ): ServiceError {
    if (signal?.aborted) return cancelled(method, path);
    const code = (error as { code?: string } | undefined)?.code;
    if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      const cause = redactedError(error, this.apiKey);
      return new ServiceError({
        kind: 'timeout',
        method,
        path,
        detail: this.locale.t('no answer after {0}', formatSeconds(timeoutMs)),
        cause,
      });
    }
    const message = redact(error instanceof Error ? error.message : String(error), this.apiKey);
    const reason =
      code === 'ECONNREFUSED'
        ? `: nothing is listening at ${this.origin()} (connection refused)`
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? `: the host name of ${this.origin()} could not be resolved`
          : status !== undefined
            ? `: the connection was lost while reading the answer (${message})`
            : `: ${message}${code ? ` (${code})` : ''}`;
    return new ServiceError({
      kind: 'network',
      method,
      path,
      ...(status !== undefined ? { status } : {}),
      detail: reason.replace(/^: /, ''),
      cause: redactedError(error, this.apiKey),
    });
  }

  private origin(): string {
    try {
      return new URL(this.baseUrl).origin;
    } catch {
      return 'the service URL';
    }
  }

  private async parseBody(bytes: Uint8Array, contentType: string, method: string, path: string, status: number): Promise<ResponseBody> {
    const type = contentType.split(';')[0]!.trim().toLowerCase();
    const isJson = type === 'application/json' || type.endsWith('+json');
    if (isJson || (type === '' && bytes.length > 0 && looksLikeJson(bytes))) {
      const text = new TextDecoder().decode(bytes);
      try {
        return { type: 'json', value: text.trim() === '' ? null : await redactJson(await readJson(text), this.apiKey) };
      } catch (error) {
        throw new ServiceError({ kind: 'malformedResponse', method, path, status, detail: this.unreadable(error, text) });
      }
    }
    if (type.startsWith('text/') || type === 'application/xml' || type === 'application/javascript') {
      return { type: 'text', text: await redactSliced(new TextDecoder().decode(bytes), this.apiKey), contentType };
    }
    return { type: 'bytes', bytes: await redactBytesSliced(bytes, this.apiKey), contentType: contentType || 'application/octet-stream' };
  }

  /** Why a JSON answer could not be read. The excerpt is redacted before it is cut, and the whole again after JSON-escaping. */
  private unreadable(error: unknown, text: string): string {
    if (error instanceof JsonDepthError)
      return `the answer is nested more than ${error.maxDepth} levels deep (a service's answers are a few levels deep), so it was not read`;
    const where = error instanceof JsonSyntaxError ? ` at position ${error.position}` : '';
    const start = JSON.stringify(redact(text.slice(0, 4096), this.apiKey).slice(0, 80));
    return redact(`the JSON body could not be parsed${where}; it starts with ${start}`, this.apiKey);
  }

  /** The service's `detail` (spec 2.3), or the best readable substitute, redacted. */
  private async errorDetail(bytes: Uint8Array, contentType: string): Promise<string | undefined> {
    const text = new TextDecoder().decode(bytes).trim();
    if (!text) return undefined;
    let detail: string | undefined;
    if (contentType.includes('json') || looksLikeJson(bytes)) {
      try {
        detail = detailOf(await readJson(text));
      } catch {
        // not JSON after all: fall through to text
      }
    }
    if (detail === undefined) {
      detail = contentType.includes('html') ? stripHtml(text) : text;
    }
    // Redacted whole (in slices) before it is cut: a cut could split the key and leave part of it. The redaction
    // skips white space inside the key, so collapsing it afterwards joins no piece of the key; only the start, all
    // that is shown, is collapsed (one replace over megabytes of short words held the editor for seconds).
    detail = (await redactSliced(detail, this.apiKey)).slice(0, 65_536).replace(/\s+/g, ' ').trim();
    if (detail.length > 500) detail = `${detail.slice(0, 500)}…`;
    return detail || undefined;
  }

  private describe(body: ResponseBody): string {
    // The body was redacted whole, in slices, when it was read (parseBody): only a window past what the log
    // keeps is read again, not megabytes in one go.
    if (body.type === 'json') return this.cut(JSON.stringify(body.value), true);
    if (body.type === 'text') return this.cut(body.text, true);
    return `<${body.bytes.length} bytes of ${body.contentType}>`;
  }

  private cut(text: string, redactedWhole = false): string {
    const window = redactedWhole && text.length > 2 * LOG_BODY_LIMIT;
    const safe = redact(window ? text.slice(0, 2 * LOG_BODY_LIMIT) : text, this.apiKey);
    const length = window ? text.length : safe.length;
    return length > LOG_BODY_LIMIT ? `${safe.slice(0, LOG_BODY_LIMIT)}… (${length} characters)` : safe;
  }
}

/** JSON.parse's value, read in slices (a 64 MB answer never blocks the editor), refused past MAX_ANSWER_DEPTH. */
function readJson(text: string): Promise<unknown> {
  return parseJsonSliced(text, MAX_ANSWER_DEPTH);
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

function cancelled(method: string, path: string, retries = 0): ServiceError {
  return new ServiceError({ kind: 'cancelled', method, path, retries });
}

/** The whole body, or undefined (the connection dropped) as soon as it passes `limit` bytes. */
async function readCapped(body: Dispatcher.ResponseData['body'], limit: number): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > limit) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>, safe: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[safe.text(name.toLowerCase())] = safe.text(Array.isArray(value) ? value.join(', ') : value);
  }
  return out;
}

function looksLikeJson(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    return byte === 0x7b || byte === 0x5b; // { or [
  }
  return false;
}

/** Reads spec 2.3's detail, and the shapes other frameworks use (FastAPI's 422 list, message, error). */
function detailOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  const detail = record.detail ?? record.message ?? record.error;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((item) => {
        if (item && typeof item === 'object') {
          const entry = item as { loc?: unknown; msg?: unknown };
          const loc = Array.isArray(entry.loc) ? entry.loc.filter((part) => part !== 'body').join('.') : '';
          return `${loc ? `${loc}: ` : ''}${typeof entry.msg === 'string' ? entry.msg : JSON.stringify(item)}`;
        }
        return String(item);
      })
      .join('; ');
  }
  if (detail !== undefined) return JSON.stringify(detail);
  return undefined;
}

/** How much of an HTML error page stripHtml reads: its title is near the start, and the detail shows 500 characters. */
export const MAX_HTML_CHARS = 65_536;

/**
 * The readable text of an HTML error page: its title, else its text without tags. Only the start is read (a body
 * may be 64 MB), and a tag is `<` to the next `>` with no `<` between, so that a run of `<` is no quadratic scan.
 */
export function stripHtml(html: string): string {
  const head = html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html;
  const title = /<title>([^<]*)<\/title>/i.exec(head)?.[1];
  return (title ?? head.replace(/<[^<>]*>/g, ' ')).trim();
}

/** Spec 2.2, checked field by field, so a wrong answer fails here with a clear message and not later. */
function checkTokenizeResult(response: ServiceResponse, path: string, t: Translate): TokenizeResult {
  const fail = (detail: string): ServiceError =>
    new ServiceError({ kind: 'malformedResponse', method: 'POST', path, status: response.status, detail });
  if (response.body.type !== 'json') throw fail(t('expected JSON, got {0}', response.body.contentType));
  const value = response.body.value as Partial<Record<keyof TokenizeResult, unknown>> | null;
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw fail(t('expected a JSON object'));
  const notString = (field: string) => fail(t('field "{0}" is missing or not a string', field));
  const notInteger = (field: string) => fail(t('field "{0}" is missing or not an integer', field));
  if (typeof value.tokenizer !== 'string') throw notString('tokenizer');
  if (typeof value.text !== 'string') throw notString('text');
  if (typeof value.n_tokens !== 'number' || !Number.isInteger(value.n_tokens)) throw notInteger('n_tokens');
  if (typeof value.n_chars !== 'number' || !Number.isInteger(value.n_chars)) throw notInteger('n_chars');
  if (!Array.isArray(value.tokens) || !value.tokens.every((s) => typeof s === 'string'))
    throw fail(t('field "{0}" is missing or not an array of strings', 'tokens'));
  if (!Array.isArray(value.token_ids) || !value.token_ids.every((n) => typeof n === 'number' && Number.isInteger(n))) {
    throw fail(t('field "{0}" is missing or not an array of integers', 'token_ids'));
  }
  return value as TokenizeResult;
}
