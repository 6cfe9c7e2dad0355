import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  apiKeySecretName,
  isLoopbackHost,
  isUnencryptedRemote,
  LEGACY_API_KEY_SECRET,
  normalizeApiKey,
  serviceOrigin,
  urlSource,
  validateServiceUrl,
} from '../../../../src/core/service/origin';

test('an origin is spelled one way: case, default port, path, trailing slash and IDN do not make another', () => {
  const same = ['https://Example.ORG/api', 'https://example.org:443/other/path/', 'HTTPS://example.org', ' https://example.org/api?x=1 '];
  for (const url of same) assert.equal(serviceOrigin(url), 'https://example.org', url);
  assert.equal(serviceOrigin('http://example.org:80/api'), 'http://example.org');
  assert.equal(serviceOrigin('https://bücher.example/api'), 'https://xn--bcher-kva.example');
  assert.equal(serviceOrigin('http://[::1]:8000/'), 'http://[::1]:8000');
});

test('scheme and port are part of the origin: a key for one is not a key for the other', () => {
  const origins = new Set(
    ['https://example.org', 'http://example.org', 'https://example.org:8443', 'https://api.example.org'].map((u) => serviceOrigin(u)),
  );
  assert.equal(origins.size, 4);
  assert.notEqual(apiKeySecretName(serviceOrigin('https://example.org')!), apiKeySecretName(serviceOrigin('https://example.org:8443')!));
});

test('a user@host URL names the host, not the user part (no key for a look-alike)', () => {
  assert.equal(serviceOrigin('https://example.org@evil.test/api'), 'https://evil.test');
});

test('what is not an http(s) URL has no origin', () => {
  for (const url of ['', 'example.org', 'ftp://example.org', 'file:///etc/passwd', 'javascript:alert(1)', 'https://']) {
    assert.equal(serviceOrigin(url), undefined, url);
  }
});

test('key names: one per origin, never the old single name', () => {
  assert.equal(apiKeySecretName('https://example.org'), 'tokenLens.apiKey:https://example.org');
  assert.notEqual(apiKeySecretName('https://example.org'), LEGACY_API_KEY_SECRET);
});

test('loopback: localhost, *.localhost, all of 127.0.0.0/8 and ::1; nothing else', () => {
  for (const host of ['localhost', 'LOCALHOST', 'api.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1'])
    assert.equal(isLoopbackHost(host), true, host);
  for (const host of [
    'localhost.example.org',
    '127.0.0.1.example.org',
    '128.0.0.1',
    '192.168.1.10',
    '10.0.0.1',
    '0.0.0.0',
    'example.org',
    '127.0.0.256',
    '[::2]',
  ]) {
    assert.equal(isLoopbackHost(host), false, host);
  }
});

test('the http warning rule: plain http to another machine only', () => {
  assert.equal(isUnencryptedRemote('http://192.168.1.10:8000'), true);
  assert.equal(isUnencryptedRemote('http://example.org/api'), true);
  assert.equal(isUnencryptedRemote('HTTP://Example.org'), true);
  assert.equal(isUnencryptedRemote('http://localhost.example.org'), true);
  assert.equal(isUnencryptedRemote('https://example.org'), false);
  assert.equal(isUnencryptedRemote('http://127.0.0.1:8000'), false);
  assert.equal(isUnencryptedRemote('http://localhost:3000/api'), false);
  assert.equal(isUnencryptedRemote('http://[::1]:8000'), false);
  assert.equal(isUnencryptedRemote('not a url'), false);
});

test('a pasted key loses surrounding space and a "Bearer " prefix; nothing usable is undefined', () => {
  assert.equal(normalizeApiKey('  Bearer abc123 \n'), 'abc123');
  assert.equal(normalizeApiKey('bearer   abc'), 'abc');
  assert.equal(normalizeApiKey('   '), undefined);
  assert.equal(normalizeApiKey(undefined), undefined);
});

test("whose URL is in effect: a workspace value that differs from the user one is the workspace's", () => {
  assert.equal(urlSource(undefined), 'default');
  assert.equal(urlSource({}), 'default');
  assert.equal(urlSource({ globalValue: 'https://mine.example' }), 'user');
  assert.equal(urlSource({ globalValue: 'https://mine.example', workspaceValue: 'https://theirs.example' }), 'workspace');
  assert.equal(urlSource({ workspaceValue: 'https://theirs.example' }), 'workspace');
  assert.equal(urlSource({ globalValue: 'https://mine.example', workspaceFolderValue: 'https://theirs.example' }), 'workspace');
  assert.equal(
    urlSource({ globalValue: 'https://mine.example/', workspaceValue: ' https://mine.example ' }),
    'user',
    'the same URL repeated by a workspace',
  );
  assert.equal(urlSource({ globalValue: 'https://mine.example', workspaceValue: '' }), 'user', 'an empty workspace value does not apply');
});

test('a typed base URL: accepted with a path and around spaces; refused with a reason when empty, not a URL, not http(s), or carrying a query, a fragment or credentials', () => {
  for (const ok of ['https://example.org/api', '  http://127.0.0.1:8000  ', 'https://[::1]:9000/v1/', 'https://xn--bcher-kva.example/'])
    assert.equal(validateServiceUrl(ok), undefined, ok);
  const refused: [string, RegExp][] = [
    ['', /Enter the base URL/],
    ['   ', /Enter the base URL/],
    ['example.org/api', /not a URL/],
    ['ftp://example.org', /must start with https:\/\//],
    ['javascript:alert(1)', /must start with https:\/\//],
    ['https://example.org/api?key=1', /without \?query or #fragment/],
    ['https://example.org/#top', /without \?query or #fragment/],
    ['https://user:secret@example.org', /credentials/],
  ];
  for (const [url, reason] of refused) assert.match(validateServiceUrl(url) ?? '', reason, url);
});
