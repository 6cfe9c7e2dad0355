/**
 * The client against a hostile service on 127.0.0.1: command links in every field, endless and huge
 * bodies, resets mid-body, 429s with odd Retry-After values, and the key echoed back in every encoding.
 * What reaches the user (the error's message, the log) never holds a live link, a command or the key;
 * memory stays bounded. Plus property tests of the two helpers that decide it: plainText and redact.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { ServiceClient, type RequestLogEntry } from '../../../../src/features/service/client';
import { inspect } from 'node:util';
import { minimumPiece } from '../../../../src/core/service/redact';
import { keyLeak } from '../../../support/keyLeaks';
import { Pacer, parseRetryAfter } from '../../../../src/features/service/pacing';
import { markdownText, plainText } from '../../../../src/core/util/outsideText';
import { failure } from '../../../support/serviceFailure';
import { withHeartbeat } from '../../../bench/heartbeat';

const KEY = 'tl-9Xq"k3y\\w1th/0dd+ch4rs=é-Zr7P';
const LINK = '[Renew the key](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%22%7D)';
const LIVE_LINK = /\[[^\]]+\]\((command:|https?:|file:)/i;

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let handler: Handler = (_req, res) => res.end();
let server: http.Server;
let url: string;
const hits: string[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

function client(log: RequestLogEntry[] = [], maxResponseBytes?: number): ServiceClient {
  return new ServiceClient({
    baseUrl: url,
    apiKey: KEY,
    pacer: new Pacer(),
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 2000,
    maxRetries: 3,
    logBodies: true,
    log: (entry) => log.push(entry),
    ...(maxResponseBytes ? { maxResponseBytes } : {}),
  });
}

/** Every form of the key a service could echo, and those the reliability pass found leaking. */
const KEY_FORMS = [
  KEY,
  JSON.stringify(KEY).slice(1, -1),
  encodeURIComponent(KEY),
  Buffer.from(KEY).toString('base64'),
  Buffer.from(`Bearer ${KEY}`).toString('base64'),
  `${KEY.slice(0, 12)}\n${KEY.slice(12)}`,
  [...KEY].join('\u200b'),
  Buffer.from(KEY).toString('hex').toUpperCase(),
  [...KEY].reverse().join(''),
];

/** No piece of the key of the minimum length, in any form keyLeaks.ts reads, in `text`. */
function assertNoKey(text: string, where: string): void {
  const leak = keyLeak(text, KEY, minimumPiece(KEY));
  assert.equal(leak, undefined, `${where} holds ${leak} of the key: ${text}`);
}

/** Everything of an error a user or a log can see: its message, util.inspect (stack, fields, cause chain), its JSON. */
const seen = (error: unknown): string => `${(error as Error).message}\n${inspect(error, { depth: 10 })}\n${JSON.stringify(error)}`;

test('a service detail holding a command link reaches the user as text: no live link, no key', async () => {
  for (const status of [400, 401, 404, 422, 500]) {
    handler = (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: `${LINK} $(alert) [x](https://evil.example/) key ${KEY}` }));
    };
    const log: RequestLogEntry[] = [];
    const error = await failure(client(log).tokenize({ text: 'x' }));
    const shown = plainText(error.message);
    assert.doesNotMatch(shown, LIVE_LINK, `${status}: ${shown}`);
    assert.doesNotMatch(shown, /\$\(/, 'no codicon syntax');
    assert.match(shown, /Renew the key/, 'the words are still there');
    assertNoKey(error.message, `${status} message`);
    for (const entry of log) assertNoKey(JSON.stringify(entry), `${status} log`);
  }
});

test('the key echoed in every encoding, cut at every point, is never in an error or a log line', async () => {
  for (const form of KEY_FORMS) {
    for (const cut of [500 - 10, 500 - 3, 500 + 2]) {
      handler = (_req, res) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: `${'x'.repeat(cut)}${form} tail` }));
      };
      const log: RequestLogEntry[] = [];
      const error = await failure(client(log).tokenize({ text: 'x' }));
      assertNoKey(seen(error), `detail cut at ${cut}`);
      for (const entry of log) assertNoKey(JSON.stringify(entry), 'log');
    }
    for (const cut of [0, 70, 78]) {
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"tokens": "${'y'.repeat(cut)}${form}`); // malformed JSON: its excerpt is shown
      };
      const error = await failure(client().tokenize({ text: 'x' }));
      assert.equal(error.kind, 'malformedResponse');
      assertNoKey(seen(error), `malformed excerpt cut at ${cut}`);
    }
  }
});

test('an endless body is cut at the response cap with a clear message; memory stays bounded', async () => {
  handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    res.write('{"a":"');
    pump();
  };
  const before = process.memoryUsage().rss;
  const error = await failure(client([], 4 * 1024 * 1024).tokenize({ text: 'x' }));
  assert.equal(error.kind, 'malformedResponse');
  assert.match(error.message, /larger than 4 MB, the limit set by tokenLens\.service\.maxResponseMegabytes/);
  assert.ok(process.memoryUsage().rss - before < 200 * 1024 * 1024, 'the process did not grow by the endless body');
});

test('a huge answer with a content length is refused the same way; one under the cap is read', async () => {
  const body = JSON.stringify({ detail: 'z'.repeat(3 * 1024 * 1024) });
  handler = (_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  assert.equal((await failure(client([], 1024 * 1024).tokenize({ text: 'x' }))).kind, 'malformedResponse');
  const read = await failure(client([], 8 * 1024 * 1024).tokenize({ text: 'x' }));
  assert.equal(read.kind, 'badRequest');
  assert.ok(read.message.length < 1000, 'the detail shown is cut short');
});

/** The most CPU time the event loop spent without a turn while `work` ran (test/bench/heartbeat.ts). */
const longestStall = async (work: () => Promise<unknown>): Promise<number> => (await withHeartbeat(work)).maxCpuGapMs;

test('a text, bytes or error answer of megabytes is redacted in slices: the editor keeps its turns, the key is still masked', async () => {
  // About 1.5 s of redaction in one go on this machine before the fix; slices of 8 ms after.
  const size = 16 * 1024 * 1024;
  const filler = 'lorem ipsum dolor sit amet, '.repeat(Math.ceil(size / 28)).slice(0, size);
  const cases: [number, string, string][] = [
    [200, 'text/plain', 'text'],
    [200, 'application/octet-stream', 'bytes'],
    [400, 'text/plain', 'error'],
  ];
  for (const [status, type, what] of cases) {
    // The key at both ends: the detail of an error is the start of its body, an answer is the whole.
    const body = Buffer.from(`${KEY} ${filler} ${KEY}`);
    handler = (_req, res) => {
      res.writeHead(status, { 'content-type': type, 'content-length': body.length });
      res.end(body);
    };
    let shown = '';
    const stall = await longestStall(async () => {
      if (status !== 200) {
        shown = (await failure(client([], 64 * 1024 * 1024).tokenize({ text: 'x' }))).message;
        return;
      }
      const answer = (await client([], 64 * 1024 * 1024).relax({ poscar: 'x' })).body;
      shown = answer.type === 'text' ? answer.text : answer.type === 'bytes' ? Buffer.from(answer.bytes).toString('latin1') : '';
    });
    assert.ok(shown.startsWith('***') || shown.includes(': ***'), `${what}: the key at the start is masked`);
    assert.ok(!shown.includes(KEY), `${what}: no key`);
    if (status === 200) assert.ok(shown.endsWith(' ***'), `${what}: the key at the end is masked`);
    assert.ok(stall < 600, `${what}: the event loop went ${Math.round(stall)} ms without a turn`);
  }
});

test('an answer nested a million deep is a malformed answer, not a network error; as an error body, its status decides', async () => {
  const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
  for (const status of [200, 400]) {
    hits.length = 0;
    handler = (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(deep);
    };
    const log: RequestLogEntry[] = [];
    const error = await failure(client(log).request('POST', '/tokenizer/tokenize', { text: 'x' }));
    assert.equal(hits.length, 1, 'not retried');
    if (status === 200) {
      assert.equal(error.kind, 'malformedResponse');
      assert.match(
        error.message,
        /could not be read \(200 OK, POST \/tokenizer\/tokenize\): the answer is nested more than 256 levels deep/,
      );
    } else assert.equal(error.kind, 'badRequest', error.message);
    assert.equal(log[0]!.error, error.kind, 'the log says the same');
  }
  handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`${'['.repeat(256)}1${']'.repeat(256)}`);
  };
  const read = await client().request('POST', '/tokenizer/tokenize', { text: 'x' });
  assert.equal(read.body.type, 'json', '256 levels are read');
});

test('a connection reset in the middle of the body: a network error, retried, no crash', async () => {
  hits.length = 0;
  handler = (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 1000 });
    res.write('{"tokenizer":');
    setTimeout(() => req.socket.destroy(), 5);
  };
  const error = await failure(client().tokenize({ text: 'x' }));
  assert.equal(error.kind, 'network');
  assert.equal(hits.length, 4, 'tried once and retried three times');
});

test('429 with odd Retry-After values: first valid value, a past date or 0 still backs off, never a burst', async () => {
  for (const retryAfter of [['1', '7'], '1, 7', 'Thu, 01 Jan 1970 00:00:00 GMT', '0', 'soon', '-5', '1.5', '99999999999999999999']) {
    hits.length = 0;
    const times: number[] = [];
    handler = (_req, res) => {
      times.push(performance.now());
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter as string });
      res.end('{"detail":"slow down"}');
    };
    const error = await failure(client().tokenize({ text: 'x' }));
    assert.equal(error.kind, 'rateLimited', String(retryAfter));
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    assert.ok(
      gaps.every((g) => g >= 2),
      `${JSON.stringify(retryAfter)}: retries ${gaps.map((g) => g.toFixed(1)).join(', ')} ms apart`,
    );
  }
});

test('Retry-After per RFC 9110: delay-seconds or an HTTP-date, the first valid of several', () => {
  const now = Date.parse('2026-11-24T00:00:00Z');
  assert.equal(parseRetryAfter('7', now), 7000);
  assert.equal(parseRetryAfter('1, 7', now), 1000);
  assert.equal(parseRetryAfter(['x', '3'], now), 3000);
  assert.equal(parseRetryAfter('Tue, 24 Nov 2026 00:00:05 GMT', now), 5000);
  assert.equal(parseRetryAfter('Thu, 01 Jan 1970 00:00:00 GMT', now), 0);
  for (const bad of ['1.5', '-5', '', 'soon', undefined]) assert.equal(parseRetryAfter(bad, now), undefined, String(bad));
});

test('plainText: never a live link, command or icon, and the same words (property)', () => {
  const piece = fc.oneof(
    fc.string(),
    fc.constantFrom('[', ']', '(', ')', '](', '] (', '$(', 'command:', 'https://', 'file:', '\u202e', '\u0000'),
  );
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 20 }).map((p) => p.join('')),
      (text) => {
        const shown = plainText(text, Infinity);
        assert.doesNotMatch(shown, /\]\s*\(/);
        assert.doesNotMatch(shown, /\$\(/);
        // eslint-disable-next-line no-control-regex -- what must be gone
        const gone = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
        assert.equal(shown.replace(/\u200b/g, ''), text.replace(gone, ''));
      },
    ),
    { seed: 17, numRuns: 2000 },
  );
});

test('markdownText: no link, emphasis, code or HTML syntax left unescaped, one line (property)', () => {
  fc.assert(
    fc.property(fc.string(), (text) => {
      const md = markdownText(text, Infinity);
      assert.doesNotMatch(md.replace(/\\\\/g, ''), /(^|[^\\])[[\]<>`*_|]/);
      assert.doesNotMatch(md, /\n/);
    }),
    { seed: 17, numRuns: 2000 },
  );
});

test('a successful answer reaches the views without the key: JSON values and names, text, bytes and headers', async () => {
  const echoed = KEY_FORMS.join(' | ');
  const bodies: [string, string | Buffer][] = [
    ['application/json', JSON.stringify({ species: [KEY_FORMS[6]], [KEY]: { jid: echoed }, energy: -1.5 })],
    ['text/plain', `relaxed: ${echoed}`],
    ['application/octet-stream', Buffer.concat([Buffer.from([0, 255]), Buffer.from(echoed), Buffer.from([1])])],
  ];
  for (const [type, body] of bodies) {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': type, 'x-echo': Buffer.from(KEY).toString('hex') });
      res.end(body);
    };
    const log: RequestLogEntry[] = [];
    const response = await client(log).relax({ poscar: 'x' });
    const answer = response.body;
    const shown =
      answer.type === 'json'
        ? JSON.stringify(answer.value)
        : answer.type === 'text'
          ? answer.text
          : Buffer.from(answer.bytes).toString('latin1');
    assertNoKey(shown, `${type} answer`);
    assertNoKey(JSON.stringify(response.headers), `${type} headers`);
    for (const entry of log) assertNoKey(JSON.stringify(entry), `${type} log`);
    if (answer.type === 'json') assert.equal((answer.value as { energy: number }).energy, -1.5, 'the rest of the answer is kept');
  }
});

test('a broken HTTP answer carrying the key: the error, its cause chain, util.inspect and JSON hold no piece of it', async () => {
  for (const form of KEY_FORMS) {
    handler = (req) => {
      // A header line the HTTP parser refuses: undici's error keeps the bytes it choked on.
      req.socket.end(`HTTP/1.1 200 OK\r\nx-echo: ${form}\u0001\r\n\r\n`);
    };
    const log: RequestLogEntry[] = [];
    const error = await failure(client(log).tokenize({ text: 'x' }));
    assert.equal(error.kind, 'network');
    assertNoKey(seen(error), `${JSON.stringify(form)}: the error`);
    for (const entry of log) assertNoKey(JSON.stringify(entry), 'log');
  }
});
