/** The built-in local service: the reference server as a child process on 127.0.0.1, started on demand, gone on dispose. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { LocalService } from '../../../../src/features/service/localService';

const SCRIPT = join(__dirname, '..', '..', '..', '..', 'src', 'server', 'main.js');
const KEY = 'tl-local-test-key-0123456789';

const tokenize = (url: string, key: string) =>
  fetch(`${url}/tokenizer/tokenize`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: '{"text":"local","tokenizer":"character"}',
  });

test('starts on 127.0.0.1 with the key it was given, answers, and is gone after dispose', async () => {
  const lines: string[] = [];
  const service = new LocalService({ script: SCRIPT, key: KEY, log: (l) => lines.push(l) });
  try {
    const url = await service.url();
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await service.url(), url, 'started once');
    assert.equal((await tokenize(url, KEY)).status, 200);
    assert.equal((await tokenize(url, 'another-key')).status, 401);
    assert.ok(!lines.join('\n').includes(KEY), 'the key is not logged');
    service.dispose();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await assert.rejects(tokenize(url, KEY), 'nothing listens after dispose');
    assert.equal(service.running, false);
  } finally {
    service.dispose();
  }
});

test('the port of last time is reused when free, and another one taken when it is not', async () => {
  const first = new LocalService({ script: SCRIPT, key: KEY });
  try {
    const url = await first.url();
    const port = Number(new URL(url).port);
    const second = new LocalService({ script: SCRIPT, key: KEY, port });
    try {
      const other = await second.url();
      assert.notEqual(other, url, 'the taken port was not fought over');
      assert.equal((await tokenize(other, KEY)).status, 200);
    } finally {
      second.dispose();
    }
    first.dispose();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const again = new LocalService({ script: SCRIPT, key: KEY, port });
    try {
      assert.equal(await again.url(), url, 'the same origin once the port is free');
    } finally {
      again.dispose();
    }
  } finally {
    first.dispose();
  }
});
