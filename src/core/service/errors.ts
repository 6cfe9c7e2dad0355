/** Typed errors of the service client. Pure: no `vscode` import. */
import { substitute, type Translate } from '../util/locale';

export type ServiceErrorKind =
  | 'badRequest' // 400, 413, 422: the request was wrong; retrying the same request will not help
  | 'unauthorized' // 401, 403: missing, wrong or expired API key
  | 'notFound' // 404
  | 'rateLimited' // 429 (after the allowed retries)
  | 'server' // 5xx
  | 'notImplemented' // 501: the service (or the reference server) does not offer this operation
  | 'timeout' // no complete answer within the timeout
  | 'cancelled' // the caller aborted
  | 'network' // connection refused, dropped, DNS failure, TLS failure
  | 'malformedResponse' // the answer could not be read as what it claims to be
  | 'config'; // the client was not given what it needs (no base URL, no key): nothing was sent

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  method: string;
  path: string;
  status?: number;
  /** The service's own `detail`, already redacted. */
  detail?: string;
  retries?: number;
  /** For rateLimited: how long the service asked us to wait, when it said. */
  retryAfterMs?: number;
  cause?: unknown;
}

const STATUS_NAMES: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusName(status: number): string {
  return STATUS_NAMES[status] ?? 'HTTP error';
}

/** Which kind a non-2xx status is. */
export function kindForStatus(status: number): ServiceErrorKind {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'notFound';
  if (status === 429) return 'rateLimited';
  if (status === 501) return 'notImplemented';
  if (status >= 500) return 'server';
  return 'badRequest';
}

/**
 * Each kind's summary as whole messages, [with the service's detail, without]: {0} the status with its HTTP name,
 * {1} "METHOD /path", {2} the detail. What the service said, and the same for a provider's endpoint (exact counts).
 */
type Summaries = Record<ServiceErrorKind | 'unreadableNoStatus', readonly [string, string]>;

const SERVICE_MESSAGES: Summaries = {
  badRequest: ['The service rejected the request ({0}): {2}', 'The service rejected the request ({0})'],
  unauthorized: ['The service did not accept the API key ({0}): {2}', 'The service did not accept the API key ({0})'],
  notFound: ['The service has no such resource ({0}, {1}): {2}', 'The service has no such resource ({0}, {1})'],
  rateLimited: ['The service is limiting the request rate ({0}): {2}', 'The service is limiting the request rate ({0})'],
  notImplemented: ['The service does not offer this operation ({0}, {1}): {2}', 'The service does not offer this operation ({0}, {1})'],
  server: ['The service failed to answer ({0}, {1}): {2}', 'The service failed to answer ({0}, {1})'],
  timeout: ['The service did not answer in time ({1}): {2}', 'The service did not answer in time ({1})'],
  cancelled: ['The request was cancelled ({1})', 'The request was cancelled ({1})'],
  network: ['Could not reach the service ({1}): {2}', 'Could not reach the service ({1})'],
  malformedResponse: [
    'The service sent an answer that could not be read ({0}, {1}): {2}',
    'The service sent an answer that could not be read ({0}, {1})',
  ],
  unreadableNoStatus: [
    'The service sent an answer that could not be read ({1}): {2}',
    'The service sent an answer that could not be read ({1})',
  ],
  config: ['The service request was not sent: {2}', 'The service request was not sent'],
};

const ENDPOINT_MESSAGES: Summaries = {
  badRequest: ['The endpoint rejected the request ({0}): {2}', 'The endpoint rejected the request ({0})'],
  unauthorized: ['The endpoint did not accept the API key ({0}): {2}', 'The endpoint did not accept the API key ({0})'],
  notFound: ['The endpoint has no such resource ({0}, {1}): {2}', 'The endpoint has no such resource ({0}, {1})'],
  rateLimited: ['The endpoint is limiting the request rate ({0}): {2}', 'The endpoint is limiting the request rate ({0})'],
  notImplemented: ['The endpoint does not offer this operation ({0}, {1}): {2}', 'The endpoint does not offer this operation ({0}, {1})'],
  server: ['The endpoint failed to answer ({0}, {1}): {2}', 'The endpoint failed to answer ({0}, {1})'],
  timeout: ['The endpoint did not answer in time ({1}): {2}', 'The endpoint did not answer in time ({1})'],
  cancelled: ['The request was cancelled ({1})', 'The request was cancelled ({1})'],
  network: ['Could not reach the endpoint ({1}): {2}', 'Could not reach the endpoint ({1})'],
  malformedResponse: [
    'The endpoint sent an answer that could not be read ({0}, {1}): {2}',
    'The endpoint sent an answer that could not be read ({0}, {1})',
  ],
  unreadableNoStatus: [
    'The endpoint sent an answer that could not be read ({1}): {2}',
    'The endpoint sent an answer that could not be read ({1})',
  ],
  config: ['The endpoint request was not sent: {2}', 'The endpoint request was not sent'],
};

/**
 * What went wrong, in the words of `t` (English for the log and `message`; the extension's locale for what the user
 * reads, failure.ts): the status with its HTTP name, "METHOD /path", then the service's detail. `of` names who
 * answered: the Token Lens service, or a provider's endpoint (exact counts).
 */
export function serviceErrorSummary(init: ServiceErrorInit, t: Translate = substitute, of: 'service' | 'endpoint' = 'service'): string {
  const where = `${init.method} ${init.path}`;
  const status = init.status !== undefined ? `${init.status} ${statusName(init.status)}` : '';
  const kind = init.kind === 'malformedResponse' && !status ? 'unreadableNoStatus' : init.kind;
  const [withDetail, bare] = (of === 'endpoint' ? ENDPOINT_MESSAGES : SERVICE_MESSAGES)[kind];
  return init.detail ? t(withDetail, status, where, init.detail) : t(bare, status, where);
}

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly detail: string | undefined;
  readonly retries: number;
  readonly retryAfterMs: number | undefined;

  constructor(init: ServiceErrorInit) {
    super(serviceErrorSummary(init));
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.detail = init.detail;
    this.retries = init.retries ?? 0;
    this.retryAfterMs = init.retryAfterMs;
    // The cause is kept for logs; the client hands in a redacted copy (redact.ts redactedError), never the error itself.
    if (init.cause !== undefined) (this as { cause?: unknown }).cause = init.cause;
  }

  /** A copy that records how many retries were spent before giving up. */
  withRetries(retries: number): ServiceError {
    return new ServiceError({
      kind: this.kind,
      method: this.method,
      path: this.path,
      status: this.status,
      detail: this.detail,
      retries,
      retryAfterMs: this.retryAfterMs,
      cause: (this as { cause?: unknown }).cause,
    });
  }
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}
