/**
 * Exact counts from Anthropic's and Google's counting endpoints, against stand-in servers on 127.0.0.1 that
 * speak the documented shapes (docs.anthropic.com "Token counting": POST /v1/messages/count_tokens, x-api-key,
 * anthropic-version, answer {input_tokens}; ai.google.dev "Count tokens": POST /v1beta/models/{model}:countTokens,
 * x-goog-api-key, answer {totalTokens}). No network: every request here goes to this machine.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { ANTHROPIC, contentKey, GEMINI, providerForEstimate } from '../../../../src/core/providers/providers';
import { parseConversation } from '../../../../src/core/chat/index';
import { ExactCounts, ProviderCountError } from '../../../../src/features/providers/exactCounts';
import { Pacer } from '../../../../src/features/service/pacing';

const KEY = 'sk-ant-test-0123456789abcdef';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** A stand-in whose next answers are queued per test; every request is recorded. */
function standIn(): {
  url: () => string;
  seen: Seen[];
  next: ((req: http.IncomingMessage, res: http.ServerResponse) => void)[];
  server: http.Server;
} {
  const seen: Seen[] = [];
  const next: ((req: http.IncomingMessage, res: http.ServerResponse) => void)[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: body ? JSON.parse(body) : undefined });
      const answer = next.shift() ?? ((_q, r) => r.writeHead(500).end());
      answer(req, res);
    });
  });
  return { url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, next, server };
}

const json =
  (status: number, value: unknown, headers: Record<string, string> = {}) =>
  (_req: http.IncomingMessage, res: http.ServerResponse) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));

const stand = standIn();
const other = standIn();
before(async () => {
  await new Promise<void>((resolve) => stand.server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => other.server.listen(0, '127.0.0.1', resolve));
});
after(() => {
  stand.server.close();
  other.server.close();
});

const counts = () => new ExactCounts({ pacer: new Pacer(), retryBaseDelayMs: 10, retryMaxDelayMs: 3000 });

const conversation = parseConversation({
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: 'Hi.' },
    { role: 'tool', content: '{"ok": true}', tool_call_id: 'c1' },
  ],
  tools: [
    {
      type: 'function',
      function: { name: 'lookup', description: 'Look it up', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
    },
  ],
});

test("Anthropic: the documented request (key in x-api-key, the version header, system apart, two roles, tools in Anthropic's shape); the answer read; asked once", async () => {
  const exact = counts();
  stand.next.push(json(200, { input_tokens: 42 }));
  const request = { provider: ANTHROPIC, endpoint: stand.url(), model: 'claude-test', key: KEY, input: { conversation } };
  const count = await exact.count(request, () => 1234);
  assert.deepEqual(count, { tokens: 42, provider: 'anthropic', model: 'claude-test', origin: stand.url(), at: 1234 });
  const seen = stand.seen.at(-1)!;
  assert.equal(seen.method, 'POST');
  assert.equal(seen.url, '/v1/messages/count_tokens');
  assert.equal(seen.headers['x-api-key'], KEY);
  assert.equal(seen.headers['anthropic-version'], '2023-06-01');
  assert.equal(seen.headers.authorization, undefined, 'no bearer header: the key goes only where the provider reads it');
  assert.deepEqual(seen.body, {
    model: 'claude-test',
    system: 'Be brief.',
    messages: [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi.' },
      { role: 'user', content: '{"ok": true}' },
    ],
    tools: [{ name: 'lookup', description: 'Look it up', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
  });
  const before = stand.seen.length;
  assert.deepEqual(await exact.count(request), count, 'the same text is not sent again');
  assert.equal(stand.seen.length, before);
  assert.deepEqual(exact.lookup(ANTHROPIC, stand.url(), 'claude-test', { conversation }), count);
  assert.equal(exact.lookup(ANTHROPIC, stand.url(), 'claude-other', { conversation }), undefined, 'kept per model');
});

test('Gemini: the documented request (key in x-goog-api-key, never in the URL; a system instruction inside generateContentRequest); totalTokens read', async () => {
  stand.next.push(json(200, { totalTokens: 17 }), json(200, { totalTokens: 5, promptTokensDetails: [] }));
  const exact = counts();
  const withSystem = await exact.count({
    provider: GEMINI,
    endpoint: stand.url(),
    model: 'gemini-test',
    key: KEY,
    input: { conversation },
  });
  assert.equal(withSystem.tokens, 17);
  let seen = stand.seen.at(-1)!;
  assert.equal(seen.url, '/v1beta/models/gemini-test:countTokens');
  assert.equal(seen.headers['x-goog-api-key'], KEY);
  assert.ok(!seen.url.includes(KEY));
  assert.deepEqual(seen.body, {
    generateContentRequest: {
      model: 'models/gemini-test',
      contents: [
        { role: 'user', parts: [{ text: 'Hello' }] },
        { role: 'model', parts: [{ text: 'Hi.' }] },
        { role: 'user', parts: [{ text: '{"ok": true}' }] },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
    },
  });
  assert.equal((await exact.count({ provider: GEMINI, endpoint: stand.url(), model: 'a/b?c', key: KEY, input: { text: 'Hi' } })).tokens, 5);
  seen = stand.seen.at(-1)!;
  assert.equal(seen.url, '/v1beta/models/a%2Fb%3Fc:countTokens', 'a model name cannot change the path');
  assert.deepEqual(seen.body, { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
});

test('a wrong key (401 echoing it), a count-less answer and a redirect: clear messages naming the provider, never the key, nothing sent elsewhere', async () => {
  const exact = counts();
  const input = { text: 'some text' };
  stand.next.push(json(401, { error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` } }));
  const unauthorized = await exact
    .count({ provider: ANTHROPIC, endpoint: stand.url(), model: 'm', key: KEY, input })
    .catch((e: unknown) => e);
  assert.ok(unauthorized instanceof ProviderCountError);
  assert.equal(unauthorized.kind, 'unauthorized');
  assert.match(unauthorized.message, /^Anthropic: The endpoint did not accept the API key \(401 Unauthorized\)/);
  assert.ok(!unauthorized.message.includes(KEY) && !unauthorized.message.includes('0123456789abcdef'), unauthorized.message);

  stand.next.push(json(200, { tokens: 3 }));
  const malformed = await exact.count({ provider: GEMINI, endpoint: stand.url(), model: 'm', key: KEY, input }).catch((e: unknown) => e);
  assert.ok(malformed instanceof ProviderCountError);
  assert.match(malformed.message, /^Google \(Gemini\): the answer holds no token count/);

  stand.next.push((_req, res) => res.writeHead(307, { location: `${other.url()}/v1/messages/count_tokens` }).end());
  const redirected = await exact
    .count({ provider: ANTHROPIC, endpoint: stand.url(), model: 'r', key: KEY, input })
    .catch((e: unknown) => e);
  assert.ok(redirected instanceof ProviderCountError, String(redirected));
  assert.equal(other.seen.length, 0, 'the key never reaches another host');
});

test('429 with Retry-After is honoured, then the count arrives; a dropped connection is a network failure', async () => {
  const exact = counts();
  stand.next.push(json(429, { error: 'slow down' }, { 'retry-after': '1' }), json(200, { input_tokens: 9 }));
  const started = Date.now();
  const count = await exact.count({ provider: ANTHROPIC, endpoint: stand.url(), model: 'rl', key: KEY, input: { text: 'limited' } });
  assert.equal(count.tokens, 9);
  assert.ok(Date.now() - started >= 900, `waited ${Date.now() - started} ms, as Retry-After said`);

  for (let i = 0; i < 3; i++) stand.next.push((req) => req.socket.destroy());
  const dropped = await exact
    .count({ provider: GEMINI, endpoint: stand.url(), model: 'd', key: KEY, input: { text: 'dropped' } })
    .catch((e: unknown) => e);
  assert.ok(dropped instanceof ProviderCountError);
  assert.equal(dropped.kind, 'network');
  assert.match(dropped.message, /^Google \(Gemini\): Could not reach the endpoint/);
});

test('the estimate each provider replaces, and a content key that tells texts apart', () => {
  assert.equal(providerForEstimate('claude (estimate)'), ANTHROPIC);
  assert.equal(providerForEstimate('gemini (estimate)'), GEMINI);
  assert.equal(providerForEstimate('cl100k_base'), undefined);
  assert.equal(contentKey(['a', 'b']), contentKey(['a', 'b']));
  assert.notEqual(contentKey(['ab']), contentKey(['a', 'b']));
  assert.notEqual(contentKey(['text', 'x']), contentKey(['text', 'y']));
});
