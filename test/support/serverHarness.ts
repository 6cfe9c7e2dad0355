/** A reference server for one test file: started before its tests, closed after, and a POST with the key. */
import { after, before } from 'node:test';
import { performance } from 'node:perf_hooks';
import { createServer, type ReferenceServer } from '../../src/server/http/app';

export interface Answer {
  status: number;
  body: any;
  arrived: number;
}

export function referenceServer(key: string): {
  post(path: string, body: unknown, signal?: AbortSignal): Promise<Answer>;
  server(): ReferenceServer;
} {
  let server: ReferenceServer;
  let url = '';
  before(async () => {
    server = createServer({ apiKey: key, ratePerMinute: 100_000 });
    url = await server.listen(0);
  });
  after(() => server.close());
  return {
    server: () => server,
    async post(path, body, signal) {
      const response = await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });
      return { status: response.status, body: await response.json(), arrived: performance.now() };
    },
  };
}
