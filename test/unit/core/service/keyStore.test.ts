import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyStore, type Secrets } from '../../../../src/core/service/keyStore';
import { LEGACY_API_KEY_SECRET, legacyKeyOrigin } from '../../../../src/core/service/origin';

/** SecretStorage as a Map, so the test sees every name the store writes. */
function memorySecrets(initial: Record<string, string> = {}): Secrets & { map: Map<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    map,
    get: async (key) => map.get(key),
    store: async (key, value) => void map.set(key, value),
    delete: async (key) => void map.delete(key),
  };
}

test("keys are kept per origin: one origin never reads another's", async () => {
  const secrets = memorySecrets();
  const keys = new KeyStore(secrets);
  await keys.set('https://a.example', '  Bearer key-a ');
  await keys.set('https://b.example:8443', 'key-b');
  assert.equal(await keys.get('https://a.example'), 'key-a');
  assert.equal(await keys.get('https://b.example:8443'), 'key-b');
  assert.equal(await keys.get('https://b.example'), undefined, 'another port is another origin');
  assert.deepEqual([...secrets.map.keys()].sort(), ['tokenLens.apiKey:https://a.example', 'tokenLens.apiKey:https://b.example:8443']);
  await keys.delete('https://a.example');
  assert.equal(await keys.get('https://a.example'), undefined);
  assert.equal(await keys.get('https://b.example:8443'), 'key-b', "deleting one origin's key keeps the others");
  await assert.rejects(keys.set('https://a.example', '   '), /empty API key/);
});

test('the old single key moves to the given origin and its old name is gone', async () => {
  const secrets = memorySecrets({ [LEGACY_API_KEY_SECRET]: 'old-key' });
  const keys = new KeyStore(secrets);
  assert.equal(await keys.adoptLegacyKey('https://mine.example'), true);
  assert.equal(await keys.get('https://mine.example'), 'old-key');
  assert.equal(secrets.map.has(LEGACY_API_KEY_SECRET), false);
  assert.equal(await keys.adoptLegacyKey('https://other.example'), false, 'moved once: a later origin gets nothing');
  assert.equal(await keys.get('https://other.example'), undefined);
});

test('an origin that already has a key keeps it; the old key is dropped rather than left for the next service', async () => {
  const secrets = memorySecrets({ [LEGACY_API_KEY_SECRET]: 'old-key', 'tokenLens.apiKey:https://mine.example': 'new-key' });
  const keys = new KeyStore(secrets);
  assert.equal(await keys.adoptLegacyKey('https://mine.example'), true);
  assert.equal(await keys.get('https://mine.example'), 'new-key');
  assert.equal(secrets.map.has(LEGACY_API_KEY_SECRET), false);
});

test('no old key: nothing happens', async () => {
  const secrets = memorySecrets();
  assert.equal(await new KeyStore(secrets).adoptLegacyKey('https://mine.example'), false);
  assert.equal(secrets.map.size, 0);
});

test("the old key goes to the user's own URL only, never to a workspace's", () => {
  assert.equal(legacyKeyOrigin({ globalValue: 'https://Mine.example/api/' }), 'https://mine.example');
  assert.equal(legacyKeyOrigin({ globalValue: 'https://mine.example', workspaceValue: 'https://theirs.example' }), 'https://mine.example');
  assert.equal(legacyKeyOrigin({ workspaceValue: 'https://theirs.example' }), undefined, 'only a workspace URL: the key waits');
  assert.equal(legacyKeyOrigin({ workspaceFolderValue: 'https://theirs.example' }), undefined);
  assert.equal(legacyKeyOrigin({ globalValue: 'not a url' }), undefined);
  assert.equal(legacyKeyOrigin(undefined), undefined);
});
