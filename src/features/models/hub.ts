/**
 * Downloads a repository's tokenizer.json from a Hugging Face hub (or a mirror), once, on the user's
 * action. No `vscode` here: the unit tests run it against a stand-in hub on 127.0.0.1.
 *
 * - The access token goes only to the hub's own origin: redirects are followed by hand, and a
 *   redirect elsewhere (the hub sends LFS files to a CDN with a signed URL) goes without it.
 * - Integrity: the bytes must add up to Content-Length (a cut body is refused), and when the hub names
 *   the file's sha256 (X-Linked-Etag on its redirect, or an ETag of 64 hex digits) the bytes must hash to it.
 * - A size cap before and while reading; cancellation through an AbortSignal.
 * Every failure is a HubError whose message says what happened and what to do.
 */
import { createHash } from 'node:crypto';
import { substitute, type Translate } from '../../core/util/locale';

export type HubErrorKind = 'gated' | 'notFound' | 'status' | 'tooBig' | 'truncated' | 'checksum' | 'network' | 'cancelled' | 'invalid';

export class HubError extends Error {
  constructor(
    readonly kind: HubErrorKind,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'HubError';
  }
}

export interface DownloadOptions {
  /** e.g. https://huggingface.co (no trailing slash needed). */
  endpoint: string;
  /** owner/name */
  repo: string;
  /** The file in the repository: tokenizer.json by default (tokenizer_config.json, chat_template.jinja). */
  file?: string;
  /** Sent as Authorization: Bearer, to the endpoint's origin only. */
  token?: string;
  maxBytes: number;
  signal?: AbortSignal;
  onProgress?(received: number, total: number | undefined): void;
  /** Defaults to the global fetch (Node's). */
  fetch?: typeof fetch;
  /** Words the errors (the host's vscode.l10n.t; English by default). */
  t?: Translate;
}

export interface Downloaded {
  bytes: Uint8Array;
  sha256: string;
  /** The sha256 the hub named, when it named one (then it equals sha256). */
  expectedSha256?: string;
  /** The hub's commit of the repository, when it says (X-Repo-Commit). */
  commit?: string;
  url: string;
}

const MAX_REDIRECTS = 5;
const SHA256 = /^[0-9a-f]{64}$/;

export function tokenizerUrl(endpoint: string, repo: string, file = 'tokenizer.json'): string {
  return `${endpoint.replace(/\/+$/, '')}/${repo}/resolve/main/${file}`;
}

const fileOf = (options: DownloadOptions): string => options.file ?? 'tokenizer.json';
const tOf = (options: DownloadOptions): Translate => options.t ?? substitute;

const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** "sha256" of an ETag or X-Linked-Etag value (quotes and a weak W/ taken off), if it is one. */
export function etagSha256(value: string | null): string | undefined {
  const tag = value
    ?.trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
  return tag && SHA256.test(tag) ? tag : undefined;
}

/** Fetches {endpoint}/{repo}/resolve/main/{file} (tokenizer.json by default), checked as the module comment says. */
export async function downloadTokenizerJson(options: DownloadOptions): Promise<Downloaded> {
  const { repo, signal } = options;
  const { response, expectedSha256, commit, url } = await follow(options);
  const total = contentLength(response);
  if (total !== undefined && total > options.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new HubError(
      'tooBig',
      tOf(options)(
        'The {0} of {1} is {2}, more than the {3} allowed.',
        fileOf(options),
        repo,
        megabytes(total),
        megabytes(options.maxBytes),
      ),
    );
  }
  const bytes = await readBody(response, total, options);
  if (signal?.aborted) throw cancelled(tOf(options));
  if (total !== undefined && bytes.length !== total) throw truncated(options, bytes.length, total);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (expectedSha256 && expectedSha256 !== sha256) {
    throw new HubError(
      'checksum',
      tOf(options)(
        "The {0} of {1} does not match the hub's checksum (sha256 {2}, the download has {3}). Nothing was saved; try again, or check the hub address (tokenLens.models.hubEndpoint).",
        fileOf(options),
        repo,
        expectedSha256,
        sha256,
      ),
    );
  }
  return { bytes, sha256, url, ...(expectedSha256 ? { expectedSha256 } : {}), ...(commit ? { commit } : {}) };
}

interface Followed {
  response: Response;
  expectedSha256: string | undefined;
  commit: string | undefined;
  url: string;
}

/** Requests the file, following redirects by hand so the token never leaves the hub's origin. */
async function follow(options: DownloadOptions): Promise<Followed> {
  const { repo, token, signal } = options;
  const doFetch = options.fetch ?? fetch;
  let url = tokenizerUrl(options.endpoint, repo, fileOf(options));
  const hubOrigin = new URL(url).origin;
  let expectedSha256: string | undefined;
  let commit: string | undefined;
  for (let hop = 0; ; hop++) {
    // identity: Content-Length and the hub's sha256 are then both of the bytes that arrive.
    const headers: Record<string, string> = { accept: 'application/json, */*', 'accept-encoding': 'identity' };
    if (token && new URL(url).origin === hubOrigin) headers.authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await doFetch(url, { headers, redirect: 'manual', ...(signal ? { signal } : {}) });
    } catch (error) {
      if (signal?.aborted) throw cancelled(tOf(options));
      throw new HubError('network', tOf(options)('Could not reach {0}: {1}.', new URL(url).origin, causeOf(error)), error);
    }
    expectedSha256 ??= etagSha256(response.headers.get('x-linked-etag'));
    commit ??= response.headers.get('x-repo-commit') ?? undefined;
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS)
        throw new HubError('status', tOf(options)('The hub redirected the download of {0} more than {1} times.', repo, MAX_REDIRECTS));
      url = new URL(location, url).toString();
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw statusError(response.status, options);
    }
    expectedSha256 ??= etagSha256(response.headers.get('etag'));
    return { response, expectedSha256, commit, url };
  }
}

function statusError(status: number, options: DownloadOptions): HubError {
  const { repo, endpoint, token } = options;
  const t = tOf(options);
  const page = `${endpoint.replace(/\/+$/, '')}/${repo}`;
  if (status === 401 || status === 403) {
    return new HubError(
      'gated',
      token
        ? t(
            'The hub refused your access token for {0} (HTTP {1}): the repository is gated or private. Accept its license at {2} with the account the token belongs to, or set another token (Token Lens: Set Hugging Face Access Token).',
            repo,
            status,
            page,
          )
        : t(
            '{0} is gated or private (HTTP {1}): accept its license at {2}, then set a Hugging Face access token (Token Lens: Set Hugging Face Access Token) and add it again.',
            repo,
            status,
            page,
          ),
    );
  }
  if (status === 404) return new HubError('notFound', t('No {0} in {1} (HTTP 404 from {2}).', fileOf(options), repo, new URL(page).origin));
  return new HubError('status', t('The hub answered HTTP {0} for the {1} of {2}. Try again later.', status, fileOf(options), repo));
}

/** The length of the body as it arrives; unknown when a server compressed it anyway (fetch inflates it). */
function contentLength(response: Response): number | undefined {
  const encoding = response.headers.get('content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') return undefined;
  const value = response.headers.get('content-length');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value);
}

/** The body, refused past maxBytes; a connection closed early is a truncated download. */
async function readBody(response: Response, total: number | undefined, options: DownloadOptions): Promise<Uint8Array> {
  const { repo, maxBytes, signal } = options;
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.length;
      if (received > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new HubError(
          'tooBig',
          tOf(options)('The {0} of {1} is larger than the {2} allowed.', fileOf(options), repo, megabytes(maxBytes)),
        );
      }
      chunks.push(value);
      options.onProgress?.(received, total);
    }
  } catch (error) {
    if (error instanceof HubError) throw error;
    if (signal?.aborted) throw cancelled(tOf(options));
    if (total !== undefined) throw truncated(options, received, total);
    throw new HubError(
      'network',
      tOf(options)('The download of the {0} of {1} failed: {2}.', fileOf(options), repo, causeOf(error)),
      error,
    );
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function truncated(options: DownloadOptions, received: number, total: number): HubError {
  return new HubError(
    'truncated',
    tOf(options)(
      'The download of the {0} of {1} was cut short: {2} of {3} bytes arrived. Nothing was saved; try again.',
      fileOf(options),
      options.repo,
      received.toLocaleString('en-US'),
      total.toLocaleString('en-US'),
    ),
  );
}

export const cancelled = (t: Translate = substitute): HubError => new HubError('cancelled', t('The download was cancelled.'));

/** Node's fetch says "fetch failed" and keeps the reason (ECONNREFUSED, a DNS failure) in its cause. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
  return cause ? `${message(error)} (${message(cause)})` : message(error);
}
