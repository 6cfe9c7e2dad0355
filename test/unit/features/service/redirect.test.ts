import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceClient } from '../../../../src/features/service/client';
import { ServiceError } from '../../../../src/core/service/errors';
import { Pacer } from '../../../../src/features/service/pacing';

function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

for (const status of [301, 302, 307, 308]) {
  test(`a ${status} redirect to another origin is not followed: the key never reaches it`, async () => {
    const elsewhere: string[] = [];
    const other = await listen((req, res) => {
      elsewhere.push(String(req.headers.authorization ?? ''));
      res.end('{}');
    });
    const service = await listen((_req, res) => {
      res.writeHead(status, { location: `${other.url}/tokenizer/tokenize` });
      res.end();
    });
    try {
      const client = new ServiceClient({ baseUrl: service.url, apiKey: 'redirect-key-1', pacer: new Pacer(), maxRetries: 0 });
      await assert.rejects(
        client.tokenize({ text: 'x' }),
        (error: unknown) => error instanceof ServiceError && error.status === status && !error.message.includes('redirect-key-1'),
      );
      assert.deepEqual(elsewhere, []);
    } finally {
      other.server.close();
      service.server.close();
      other.server.closeAllConnections();
      service.server.closeAllConnections();
    }
  });
}
