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
 * What went wrong, in the words of `t` (English for the log and `message`; the extension's locale for what the user
 * reads, failure.ts): the status with its HTTP name, "METHOD /path", then the service's detail.
 */
export function serviceErrorSummary(init: ServiceErrorInit, t: Translate = substitute): string {
  const where = `${init.method} ${init.path}`;
  const status = init.status !== undefined ? `${init.status} ${statusName(init.status)}` : '';
  const d = init.detail;
  switch (init.kind) {
    case 'badRequest':
      return d ? t('The service rejected the request ({0}): {1}', status, d) : t('The service rejected the request ({0})', status);
    case 'unauthorized':
      return d
        ? t('The service did not accept the API key ({0}): {1}', status, d)
        : t('The service did not accept the API key ({0})', status);
    case 'notFound':
      return d
        ? t('The service has no such resource ({0}, {1}): {2}', status, where, d)
        : t('The service has no such resource ({0}, {1})', status, where);
    case 'rateLimited':
      return d
        ? t('The service is limiting the request rate ({0}): {1}', status, d)
        : t('The service is limiting the request rate ({0})', status);
    case 'notImplemented':
      return d
        ? t('The service does not offer this operation ({0}, {1}): {2}', status, where, d)
        : t('The service does not offer this operation ({0}, {1})', status, where);
    case 'server':
      return d
        ? t('The service failed to answer ({0}, {1}): {2}', status, where, d)
        : t('The service failed to answer ({0}, {1})', status, where);
    case 'timeout':
      return d ? t('The service did not answer in time ({0}): {1}', where, d) : t('The service did not answer in time ({0})', where);
    case 'cancelled':
      return t('The request was cancelled ({0})', where);
    case 'network':
      return d ? t('Could not reach the service ({0}): {1}', where, d) : t('Could not reach the service ({0})', where);
    case 'malformedResponse':
      return unreadable(status, where, d, t);
    case 'config':
      return d ? t('The service request was not sent: {0}', d) : t('The service request was not sent');
  }
}

function unreadable(status: string, where: string, d: string | undefined, t: Translate): string {
  if (status && d) return t('The service sent an answer that could not be read ({0}, {1}): {2}', status, where, d);
  if (status) return t('The service sent an answer that could not be read ({0}, {1})', status, where);
  if (d) return t('The service sent an answer that could not be read ({0}): {1}', where, d);
  return t('The service sent an answer that could not be read ({0})', where);
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
