import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { MockAgent } from 'undici';
import { createServer, type ReferenceServer } from '../../../../src/server/http/app';
import {
  MAX_HTML_CHARS,
  ServiceClient,
  stripHtml,
  type ClientOptions,
  type RequestLogEntry,
} from '../../../../src/features/service/client';
import { ServiceError } from '../../../../src/core/service/errors';
import { Pacer } from '../../../../src/features/service/pacing';
import { loadTokenizerSync } from '../../../../src/core/tokenizers/index';
import { failure } from '../../../support/serviceFailure';
import { cpuMs } from '../../../support/linearity';

const KEY = 'tl-test-key-4f9c2a7b1e';
let server: ReferenceServer;
let url: string;

before(async () => {
  server = createServer({ apiKey: KEY, ratePerMinute: 100_000 }); // pacing has its own servers below
  url = await server.listen(0);
});
after(() => server.close());
beforeEach(() => server.faults.clear());

/** A client with its own pacer (tests must not share the process-wide one) and fast backoff. */
function client(options: Partial<ClientOptions> = {}): ServiceClient {
  return new ServiceClient({ baseUrl: url, apiKey: KEY, pacer: new Pacer(), retryBaseDelayMs: 10, retryMaxDelayMs: 5000, ...options });
}

const hits = (path: string): number => server.hits(path);

test('tokenize returns spec 2.2 and agrees with the local engine', async () => {
  const text = 'Hello world, tokenize me! 🤖';
  const result = await client().tokenize({ text, tokenizer: 'cl100k_base' });
  const local = loadTokenizerSync('cl100k_base').tokenize(text);
  assert.deepEqual(result, local);
  assert.equal(result.n_tokens, result.tokens.length);
  assert.equal(result.n_tokens, result.token_ids.length);
});

test('tokenize without a tokenizer uses cl100k_base; an alias is echoed as sent', async () => {
  const plain = await client().tokenize({ text: 'alias check' });
  assert.equal(plain.tokenizer, 'cl100k_base');
  const alias = await client().tokenize({ text: 'alias check', tokenizer: 'model-4' });
  assert.equal(alias.tokenizer, 'model-4');
  assert.deepEqual(alias.token_ids, plain.token_ids);
});

test('a base URL with a trailing slash works', async () => {
  const result = await client({ baseUrl: `${url}/` }).tokenize({ text: 'x', tokenizer: 'character' });
  assert.deepEqual(result.tokens, ['x']);
});

test('400: badRequest with the service detail, not retried', async () => {
  const before = hits('/tokenizer/tokenize');
  const error = await failure(client().tokenize({ text: 'x', tokenizer: 'no-such-tokenizer' }));
  assert.equal(error.kind, 'badRequest');
  assert.equal(error.status, 400);
  assert.match(error.detail ?? '', /Unknown tokenizer "no-such-tokenizer"/);
  assert.match(error.message, /400 Bad Request/);
  assert.match(error.message, /Unknown tokenizer/);
  assert.equal(error.retries, 0);
  assert.equal(hits('/tokenizer/tokenize') - before, 1);
});

test('401: unauthorized for a wrong or missing key, not retried', async () => {
  const before = hits('/tokenizer/tokenize');
  const wrong = await failure(client({ apiKey: 'wrong-key-123' }).tokenize({ text: 'x' }));
  assert.equal(wrong.kind, 'unauthorized');
  assert.equal(wrong.status, 401);
  const missing = await failure(client({ apiKey: undefined }).tokenize({ text: 'x' }));
  assert.equal(missing.kind, 'unauthorized');
  assert.equal(hits('/tokenizer/tokenize') - before, 2);
});

test('404: notFound for unknown ids and paths, not retried', async () => {
  const error = await failure(client().appDetail('materials_explorer', 'JVASP-0'));
  assert.equal(error.kind, 'notFound');
  assert.equal(hits('/materials_explorer/detail/JVASP-0'), 1);
  const path = await failure(client().appCompute('no_such_app', {}));
  assert.equal(path.kind, 'notFound');
  assert.equal(hits('/no_such_app/compute'), 1);
});

test('500: server error with detail, not retried', async () => {
  server.faults.next({ kind: 'throw', message: 'boom in handler', path: '/materials_explorer/search' });
  const before = hits('/materials_explorer/search');
  const error = await failure(client().materialsSearch({ formula: 'Si' }));
  assert.equal(error.kind, 'server');
  assert.equal(error.status, 500);
  assert.match(error.message, /boom in handler/);
  assert.equal(hits('/materials_explorer/search') - before, 1);
});

test('a structure call answers what the reference server computed; a 501 is notImplemented', async () => {
  const poscar = 'Si\n1.0\n5.43 0 0\n0 5.43 0\n0 0 5.43\nSi\n2\nDirect\n0 0 0\n0.25 0.25 0.25\n';
  const answer = await client().relax({ poscar });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.type, 'json');
  const value = (answer.body as { value: { natoms?: unknown; final_poscar?: unknown } }).value;
  assert.equal(value.natoms, 2);
  assert.equal(typeof value.final_poscar, 'string');
  server.faults.next({ kind: 'status', status: 501, detail: 'Not offered here.', path: '/gnn_ff_dynamics/relax' });
  const error = await failure(client().relax({ poscar }));
  assert.equal(error.kind, 'notImplemented');
  assert.equal(error.status, 501);
});

test('503 then success: retried once', async () => {
  server.faults.next({ kind: 'status', status: 503, path: '/tokenizer/tokenize' });
  const before = hits('/tokenizer/tokenize');
  const entries: RequestLogEntry[] = [];
  const result = await client({ log: (e) => entries.push(e) }).tokenize({ text: 'retry me' });
  assert.equal(result.text, 'retry me');
  assert.equal(hits('/tokenizer/tokenize') - before, 2);
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.retries, 1);
  assert.equal(entries[0]!.status, 200);
});

test('502/503/504 retried up to maxRetries, then a server error naming the status', async () => {
  server.faults.next({ kind: 'status', status: 502, path: '/tokenizer/tokenize' });
  server.faults.next({ kind: 'status', status: 504, path: '/tokenizer/tokenize' });
  server.faults.next({ kind: 'status', status: 503, path: '/tokenizer/tokenize' });
  const before = hits('/tokenizer/tokenize');
  const error = await failure(client({ maxRetries: 2 }).tokenize({ text: 'x' }));
  assert.equal(error.kind, 'server');
  assert.equal(error.status, 503);
  assert.equal(error.retries, 2);
  assert.equal(hits('/tokenizer/tokenize') - before, 3);
});

test('maxRetries 0 never retries', async () => {
  server.faults.next({ kind: 'status', status: 503, path: '/tokenizer/tokenize' });
  const error = await failure(client({ maxRetries: 0 }).tokenize({ text: 'x' }));
  assert.equal(error.kind, 'server');
  assert.equal(error.retries, 0);
});

test('429 with Retry-After (seconds) waits that long, then succeeds', async () => {
  server.faults.next({ kind: 'rateLimit', retryAfter: 1, path: '/tokenizer/tokenize' });
  const started = Date.now();
  const result = await client().tokenize({ text: 'patience' });
  const elapsed = Date.now() - started;
  assert.equal(result.text, 'patience');
  assert.ok(elapsed >= 950, `waited only ${elapsed} ms`);
  assert.ok(elapsed < 3000, `waited ${elapsed} ms`);
});

test('429 with Retry-After as an HTTP date', async () => {
  const date = new Date(Date.now() + 1500).toUTCString(); // whole seconds: waits 0.5-1.5 s
  server.faults.next({ kind: 'rateLimit', retryAfter: date, path: '/tokenizer/tokenize' });
  const started = Date.now();
  await client().tokenize({ text: 'dated' });
  assert.ok(Date.now() - started >= 300);
});

test('429 without Retry-After backs off; too many 429s give rateLimited', async () => {
  server.faults.next({ kind: 'rateLimit', path: '/tokenizer/tokenize' }, 3);
  const error = await failure(client({ maxRetries: 2 }).tokenize({ text: 'x' }));
  assert.equal(error.kind, 'rateLimited');
  assert.equal(error.status, 429);
  assert.equal(error.retries, 2);
});

test('a Retry-After longer than the client will wait is not waited for', async () => {
  server.faults.next({ kind: 'rateLimit', retryAfter: 3600, path: '/tokenizer/tokenize' });
  const started = Date.now();
  const error = await failure(client().tokenize({ text: 'x' }));
  assert.equal(error.kind, 'rateLimited');
  assert.equal(error.retryAfterMs, 3_600_000);
  assert.ok(Date.now() - started < 1000);
});

test('dropped connection: retried, then succeeds', async () => {
  server.faults.next({ kind: 'drop', path: '/tokenizer/tokenize' });
  const before = hits('/tokenizer/tokenize');
  const result = await client().tokenize({ text: 'dropped once' });
  assert.equal(result.text, 'dropped once');
  assert.equal(hits('/tokenizer/tokenize') - before, 2);
});

test('dropped connection with no retries left: network error', async () => {
  server.faults.next({ kind: 'drop', path: '/tokenizer/tokenize' }, 2);
  const error = await failure(client({ maxRetries: 1 }).tokenize({ text: 'x' }));
  assert.equal(error.kind, 'network');
  assert.equal(error.retries, 1);
});

test('connection dropped in the middle of the body: network error, retried', async () => {
  server.faults.next({ kind: 'dropAfterHeaders', path: '/tokenizer/tokenize' });
  const result = await client().tokenize({ text: 'half a body' });
  assert.equal(result.text, 'half a body');
});

test('connection refused: network error at once, not retried', async () => {
  const dead = createServer({ apiKey: KEY });
  const deadUrl = await dead.listen(0);
  await dead.close();
  const started = Date.now();
  const error = await failure(client({ baseUrl: deadUrl, retryBaseDelayMs: 1000 }).tokenize({ text: 'x' }));
  assert.equal(error.kind, 'network');
  assert.equal(error.retries, 0);
  assert.match(error.message, /connection refused/);
  assert.ok(Date.now() - started < 900);
});

test('malformed JSON: malformedResponse, not retried', async () => {
  server.faults.next({ kind: 'malformedJson', path: '/tokenizer/tokenize' });
  const before = hits('/tokenizer/tokenize');
  const error = await failure(client().tokenize({ text: 'x' }));
  assert.equal(error.kind, 'malformedResponse');
  assert.match(error.message, /could not be parsed/);
  assert.equal(hits('/tokenizer/tokenize') - before, 1);
});

test('a tokenize answer missing a field: malformedResponse naming it', async () => {
  server.faults.next({
    kind: 'body',
    contentType: 'application/json',
    body: '{"tokenizer":"cl100k_base","text":"x","n_tokens":1,"n_chars":1,"tokens":["x"]}',
    path: '/tokenizer/tokenize',
  });
  const error = await failure(client().tokenize({ text: 'x' }));
  assert.equal(error.kind, 'malformedResponse');
  assert.match(error.message, /token_ids/);
});

test('text responses are strings: GET /{app} HTML page', async () => {
  const html = await client().appPage('pxrd');
  assert.match(html, /<title>Powder diffraction/);
  const raw = await client().request('GET', '/tokenizer');
  assert.equal(raw.body.type, 'text');
  assert.equal(raw.body.type === 'text' && raw.body.contentType.startsWith('text/html'), true);
});

test('image responses are bytes with their content type', async () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
  server.faults.next({ kind: 'body', contentType: 'image/png', body: png.toString('base64'), encoding: 'base64', path: '/pxrd/compute' });
  const response = await client().pxrdCompute({ jid: 'JVASP-1002' });
  assert.equal(response.body.type, 'bytes');
  if (response.body.type !== 'bytes') return;
  assert.equal(response.body.contentType, 'image/png');
  assert.deepEqual(Buffer.from(response.body.bytes), png);
});

test('JSON responses of other endpoints are parsed values', async () => {
  const response = await client().materialsSearch({ elements: ['Ga', 'As'], element_mode: 'all' });
  assert.equal(response.body.type, 'json');
  const value = response.body.type === 'json' ? (response.body.value as { results: Array<{ jid: string }> }) : undefined;
  assert.deepEqual(
    value?.results.map((r) => r.jid),
    ['JVASP-1174'],
  );
});

test('timeout: abandoned after timeoutMs with kind timeout, not retried', async () => {
  server.faults.next({ kind: 'delay', ms: 1500, path: '/tokenizer/tokenize' });
  const before = hits('/tokenizer/tokenize');
  const started = Date.now();
  const error = await failure(client({ timeoutMs: 150 }).tokenize({ text: 'slow' }));
  const elapsed = Date.now() - started;
  assert.equal(error.kind, 'timeout');
  assert.match(error.message, /did not answer in time/);
  assert.ok(elapsed >= 140 && elapsed < 1000, `took ${elapsed} ms`);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(hits('/tokenizer/tokenize') - before <= 1, true);
});

test('cancellation aborts an in-flight request at once', async () => {
  server.faults.next({ kind: 'delay', ms: 3000, path: '/tokenizer/tokenize' });
  const controller = new AbortController();
  const started = Date.now();
  setTimeout(() => controller.abort(), 50);
  const error = await failure(client().tokenize({ text: 'cancel me' }, { signal: controller.signal }));
  const elapsed = Date.now() - started;
  assert.equal(error.kind, 'cancelled');
  assert.ok(elapsed < 500, `took ${elapsed} ms`);
});

test('cancellation during a retry wait stops at once and never retries', async () => {
  server.faults.next({ kind: 'rateLimit', retryAfter: 10, path: '/tokenizer/tokenize' });
  const controller = new AbortController();
  const before = hits('/tokenizer/tokenize');
  const started = Date.now();
  setTimeout(() => controller.abort(), 100);
  const error = await failure(client({ retryMaxDelayMs: 60_000 }).tokenize({ text: 'x' }, { signal: controller.signal }));
  assert.equal(error.kind, 'cancelled');
  assert.ok(Date.now() - started < 600);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(hits('/tokenizer/tokenize') - before, 1);
});

test('an already aborted signal sends nothing', async () => {
  const before = hits('/tokenizer/tokenize');
  const error = await failure(client().tokenize({ text: 'x' }, { signal: AbortSignal.abort() }));
  assert.equal(error.kind, 'cancelled');
  assert.equal(hits('/tokenizer/tokenize'), before);
});

test('the API key never appears in errors or logs, even when the server echoes it', async () => {
  const entries: RequestLogEntry[] = [];
  const c = client({ log: (e) => entries.push(e), logBodies: true });
  server.faults.next({ kind: 'echoHeaders', path: '/tokenizer/tokenize' });
  const echoed = await failure(c.tokenize({ text: `my key is ${KEY}` }));
  server.faults.next({ kind: 'echoHeaders', status: 503, path: '/tokenizer/tokenize' }, 4);
  const echoed503 = await failure(c.tokenize({ text: 'x' }));
  server.faults.next({
    kind: 'body',
    status: 500,
    contentType: 'text/plain',
    body: `Authorization: Bearer ${KEY}`,
    path: '/tokenizer/tokenize',
  });
  const plain = await failure(c.tokenize({ text: 'x' }));
  const wrong = await failure(client({ apiKey: `${KEY}-wrong`, log: (e) => entries.push(e), logBodies: true }).tokenize({ text: 'x' }));
  const dead = await failure(client({ baseUrl: 'http://127.0.0.1:1' }).tokenize({ text: 'x' }));
  assert.match(echoed.detail ?? '', /authorization/i, 'the server did echo the headers');
  for (const error of [echoed, echoed503, plain, wrong, dead]) {
    const everything = [error.message, error.detail ?? '', error.stack ?? '', JSON.stringify(error), String(error)].join('\n');
    assert.ok(!everything.includes(KEY), `key leaked in: ${everything}`);
  }
  assert.ok(entries.length >= 4);
  const logged = JSON.stringify(entries);
  assert.ok(!logged.includes(KEY), `key leaked in the log: ${logged}`);
  assert.match(logged, /\*\*\*/);
});

test('one log entry per request: method, path, status, duration, retries; bodies only with logBodies', async () => {
  const entries: RequestLogEntry[] = [];
  await client({ log: (e) => entries.push(e) }).tokenize({ text: 'logged' });
  await client({ log: (e) => entries.push(e), logBodies: true }).tokenize({ text: 'logged with body' });
  await failure(client({ log: (e) => entries.push(e) }).tokenize({ text: 'x', tokenizer: 'nope' }));
  assert.equal(entries.length, 3);
  const [first, second, third] = entries as [RequestLogEntry, RequestLogEntry, RequestLogEntry];
  assert.equal(first.method, 'POST');
  assert.equal(first.path, '/tokenizer/tokenize');
  assert.equal(first.status, 200);
  assert.equal(first.retries, 0);
  assert.equal(typeof first.durationMs, 'number');
  assert.equal(first.requestBody, undefined);
  assert.equal(first.responseBody, undefined);
  assert.match(second.requestBody ?? '', /logged with body/);
  assert.match(second.responseBody ?? '', /n_tokens/);
  assert.equal(third.status, 400);
  assert.equal(third.error, 'badRequest');
});

test('pacing: a burst over the limit is spread so the server never answers 429', async () => {
  // The margin covers the time between a request leaving and the server counting it: 60 ms of a 400 ms window was
  // once too little on a loaded machine (the server, in this same process, counted a request 60 ms late).
  const paced = createServer({ apiKey: KEY, ratePerMinute: 5, rateWindowMs: 1000 });
  const pacedUrl = await paced.listen(0);
  try {
    const c = client({ baseUrl: pacedUrl, pacer: new Pacer({ limit: 5, windowMs: 1000, marginMs: 300 }), maxRetries: 0 });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => c.tokenize({ text: `n${i}`, tokenizer: 'character' })));
    const elapsed = Date.now() - started;
    assert.equal(results.length, 12);
    assert.ok(elapsed >= 2000, `12 requests at 5 per second took only ${elapsed} ms`);
    assert.equal(paced.requests.filter((r) => r.status === 429).length, 0);
  } finally {
    await paced.close();
  }
});

test('without pacing the same burst is rate limited by the server (the test is meaningful)', async () => {
  const paced = createServer({ apiKey: KEY, ratePerMinute: 5, rateWindowMs: 60_000 });
  const pacedUrl = await paced.listen(0);
  try {
    const c = client({ baseUrl: pacedUrl, pacer: new Pacer({ limit: 1000 }), maxRetries: 0 });
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => c.tokenize({ text: 'x' })));
    const limited = outcomes.filter((o) => o.status === 'rejected' && (o.reason as ServiceError).kind === 'rateLimited');
    assert.equal(limited.length, 3);
  } finally {
    await paced.close();
  }
});

test('config: no base URL sends nothing and says so', async () => {
  const error = await failure(new ServiceClient({ baseUrl: '', pacer: new Pacer() }).tokenize({ text: 'x' }));
  assert.equal(error.kind, 'config');
  assert.match(error.message, /no service URL/);
  const scheme = await failure(new ServiceClient({ baseUrl: 'ftp://x', pacer: new Pacer() }).tokenize({ text: 'x' }));
  assert.equal(scheme.kind, 'config');
});

test('a base URL with a path prefix keeps it', async () => {
  const mock = new MockAgent();
  mock.disableNetConnect();
  mock
    .get('http://svc.test')
    .intercept({ path: '/api/v1/materials_explorer/detail/JVASP-1002', method: 'GET' })
    .reply(200, { jid: 'JVASP-1002' });
  const response = await client({ baseUrl: 'http://svc.test/api/v1/', dispatcher: mock }).appDetail('materials_explorer', 'JVASP-1002');
  assert.deepEqual(response.body, { type: 'json', value: { jid: 'JVASP-1002' } });
  await mock.close();
});

// ---- undici MockAgent: faults that are easier to stage without a server -----------------------------------

function mocked(
  setup: (pool: ReturnType<MockAgent['get']>) => void,
  options: Partial<ClientOptions> = {},
): { c: ServiceClient; mock: MockAgent } {
  const mock = new MockAgent();
  mock.disableNetConnect();
  setup(mock.get('http://svc.test'));
  return { c: client({ baseUrl: 'http://svc.test', dispatcher: mock, ...options }), mock };
}

const OK = { tokenizer: 'character', text: 'ab', n_tokens: 2, n_chars: 2, tokens: ['a', 'b'], token_ids: [97, 98] };

test('MockAgent: 502 then 200 is retried', async () => {
  const { c, mock } = mocked((pool) => {
    pool
      .intercept({ path: '/tokenizer/tokenize', method: 'POST' })
      .reply(502, '<html><title>502 Bad Gateway</title></html>', { headers: { 'content-type': 'text/html' } });
    pool.intercept({ path: '/tokenizer/tokenize', method: 'POST' }).reply(200, OK, { headers: { 'content-type': 'application/json' } });
  });
  const result = await c.tokenize({ text: 'ab', tokenizer: 'character' });
  assert.deepEqual(result, OK);
  await mock.close();
});

test('an HTML error page reads as its title, else its text without tags; only its start is read, in linear time', async () => {
  assert.equal(stripHtml('<html><head><TITLE>502 Bad Gateway</TITLE></head><body>nginx</body></html>'), '502 Bad Gateway');
  assert.equal(stripHtml('<p>Service <b>unavailable</b></p>').replace(/\s+/g, ' '), 'Service unavailable');
  const late = stripHtml(`<p>${'x'.repeat(MAX_HTML_CHARS)}</p><title>late</title>`);
  assert.ok(!late.includes('late') && late.length <= MAX_HTML_CHARS, 'text past the start is not read');
  // `<[^>]+>` over a run of `<` with no `>` scans to the end from each one: quadratic, hours on megabytes.
  for (const hostile of ['<'.repeat(16_000_000), '<title>'.repeat(2_000_000), '<a'.repeat(8_000_000)]) {
    let text = '';
    const ms = await cpuMs(() => (text = stripHtml(hostile)));
    assert.ok(text.length <= MAX_HTML_CHARS);
    assert.ok(ms < 1000, `${hostile.slice(0, 10)}…: ${ms.toFixed(0)} ms of CPU`);
  }
});

test('MockAgent: an error page of megabytes of unclosed tags gives its start as the detail, at once', async () => {
  const { c, mock } = mocked((pool) => {
    pool
      .intercept({ path: '/tokenizer/tokenize', method: 'POST' })
      .reply(400, `<div class="x" ${'<'.repeat(4_000_000)}`, { headers: { 'content-type': 'text/html' } });
  });
  const started = performance.now();
  const error = await failure(c.tokenize({ text: 'x' }));
  assert.equal(error.kind, 'badRequest');
  assert.ok(error.detail?.startsWith('<div class="x" <<<'), error.detail?.slice(0, 40));
  assert.ok(performance.now() - started < 5000);
  await mock.close();
});

test('MockAgent: a socket error is a dropped connection, retried', async () => {
  const { c, mock } = mocked((pool) => {
    pool
      .intercept({ path: '/tokenizer/tokenize', method: 'POST' })
      .replyWithError(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
    pool.intercept({ path: '/tokenizer/tokenize', method: 'POST' }).reply(200, OK, { headers: { 'content-type': 'application/json' } });
  });
  assert.deepEqual(await c.tokenize({ text: 'ab' }), OK);
  await mock.close();
});

test('MockAgent: 422 with a FastAPI-style detail list is a badRequest with readable detail', async () => {
  const { c, mock } = mocked((pool) => {
    pool
      .intercept({ path: '/tokenizer/tokenize', method: 'POST' })
      .reply(422, { detail: [{ loc: ['body', 'text'], msg: 'field required', type: 'value_error.missing' }] });
  });
  const error = await failure(c.tokenize({ text: 'x' }));
  assert.equal(error.kind, 'badRequest');
  assert.equal(error.detail, 'text: field required');
  await mock.close();
});

test('MockAgent: 403 is unauthorized; 418 is a badRequest; neither retried', async () => {
  const { c, mock } = mocked((pool) => {
    pool.intercept({ path: '/tokenizer/tokenize', method: 'POST' }).reply(403, { detail: 'key revoked' });
    pool.intercept({ path: '/tokenizer/tokenize', method: 'POST' }).reply(418, 'teapot', { headers: { 'content-type': 'text/plain' } });
  });
  assert.equal((await failure(c.tokenize({ text: 'x' }))).kind, 'unauthorized');
  const teapot = await failure(c.tokenize({ text: 'x' }));
  assert.equal(teapot.kind, 'badRequest');
  assert.equal(teapot.detail, 'teapot');
  await mock.close();
});

test('MockAgent: JSON without a content type is still parsed; unknown types are bytes', async () => {
  const { c, mock } = mocked((pool) => {
    pool.intercept({ path: '/materials_explorer/search', method: 'POST' }).reply(200, '{"count":0,"results":[]}');
    pool
      .intercept({ path: '/pxrd/compute', method: 'POST' })
      .reply(200, Buffer.from([1, 2, 3]), { headers: { 'content-type': 'application/octet-stream' } });
  });
  assert.deepEqual((await c.materialsSearch({})).body, { type: 'json', value: { count: 0, results: [] } });
  const bytes = (await c.pxrdCompute({ jid: 'x' })).body;
  assert.equal(bytes.type, 'bytes');
  await mock.close();
});
