/** The HTTP plumbing every route shares: JSON answers, a bounded body, the path, the bearer key. */
import * as http from 'node:http';
import { HttpError } from './body';

export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendRaw(res: http.ServerResponse, status: number, contentType: string, body: Buffer | string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Bytes written in one go at most: one writev of a 2 MB answer held the event loop for tens of milliseconds. */
const PIECE_BYTES = 256 * 1024;

/** A JSON answer already serialized (on a worker), written in pieces with a turn of the event loop between them. */
export async function sendJsonBytes(res: http.ServerResponse, bytes: Uint8Array): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length });
  for (let at = 0; at < bytes.length && !res.destroyed; at += PIECE_BYTES) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    res.write(bytes.subarray(at, at + PIECE_BYTES));
  }
  res.end();
}

export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The body as a JSON object, or a 400 that says what is wrong with it. */
export function jsonObject(text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `Malformed JSON body: ${(error as Error).message}`);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

export function methodNotAllowed(allowed: string): HttpError {
  return new HttpError(405, `Method not allowed: use ${allowed}.`, { allow: allowed });
}

export function decodePath(raw: string): string {
  const path = raw.split('?')[0]!.replace(/\/+$/, '') || '/';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '');
  return match ? match[1]!.trim() : undefined;
}

/** The status and detail of a request Node itself refused before any handler saw it. */
export function clientErrorAnswer(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'The request headers are larger than the server accepts (16 KB).'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'The request was not received in time.'];
  return [400, 'The request is not valid HTTP.'];
}

/** Errors Node answers itself (malformed HTTP, headers over 16 KB, a client too slow to send) carry a JSON detail too. */
export function answerClientErrors(server: http.Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy();
    const [status, detail] = clientErrorAnswer(error.code);
    const text = JSON.stringify({ detail });
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  });
}
