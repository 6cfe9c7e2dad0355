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
      `The ${fileOf(options)} of ${repo} is ${megabytes(total)}, more than the ${megabytes(options.maxBytes)} allowed.`,
    );
  }
  const bytes = await readBody(response, total, options);
  if (signal?.aborted) throw cancelled();
  if (total !== undefined && bytes.length !== total) throw truncated(options, bytes.length, total);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (expectedSha256 && expectedSha256 !== sha256) {
    throw new HubError(
      'checksum',
      `The ${fileOf(options)} of ${repo} does not match the hub's checksum (sha256 ${expectedSha256}, the download has ${sha256}). Nothing was saved; try again, or check the hub address (tokenLens.models.hubEndpoint).`,
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
      if (signal?.aborted) throw cancelled();
      throw new HubError('network', `Could not reach ${new URL(url).origin}: ${causeOf(error)}.`, error);
    }
    expectedSha256 ??= etagSha256(response.headers.get('x-linked-etag'));
    commit ??= response.headers.get('x-repo-commit') ?? undefined;
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS)
        throw new HubError('status', `The hub redirected the download of ${repo} more than ${MAX_REDIRECTS} times.`);
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
  const page = `${endpoint.replace(/\/+$/, '')}/${repo}`;
  if (status === 401 || status === 403) {
    return new HubError(
      'gated',
      token
        ? `The hub refused your access token for ${repo} (HTTP ${status}): the repository is gated or private. Accept its license at ${page} with the account the token belongs to, or set another token (Token Lens: Set Hugging Face Access Token).`
        : `${repo} is gated or private (HTTP ${status}): accept its license at ${page}, then set a Hugging Face access token (Token Lens: Set Hugging Face Access Token) and add it again.`,
    );
  }
  if (status === 404) return new HubError('notFound', `No ${fileOf(options)} in ${repo} (HTTP 404 from ${new URL(page).origin}).`);
  return new HubError('status', `The hub answered HTTP ${status} for the ${fileOf(options)} of ${repo}. Try again later.`);
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
        throw new HubError('tooBig', `The ${fileOf(options)} of ${repo} is larger than the ${megabytes(maxBytes)} allowed.`);
      }
      chunks.push(value);
      options.onProgress?.(received, total);
    }
  } catch (error) {
    if (error instanceof HubError) throw error;
    if (signal?.aborted) throw cancelled();
    if (total !== undefined) throw truncated(options, received, total);
    throw new HubError('network', `The download of the ${fileOf(options)} of ${repo} failed: ${causeOf(error)}.`, error);
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
    `The download of the ${fileOf(options)} of ${options.repo} was cut short: ${received.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} bytes arrived. Nothing was saved; try again.`,
  );
}

const cancelled = (): HubError => new HubError('cancelled', 'The download was cancelled.');

/** Node's fetch says "fetch failed" and keeps the reason (ECONNREFUSED, a DNS failure) in its cause. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
  return cause ? `${message(error)} (${message(cause)})` : message(error);
}
