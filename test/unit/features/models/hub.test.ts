/**
 * Add Model Tokenizer's download (src/features/models/hub.ts, store.ts) against a stand-in hub on
 * 127.0.0.1 (standInHub.ts): redirects to a CDN without the token, Content-Length and sha256 checks,
 * gated, missing, truncated and corrupted files, the size cap, cancellation, and a cache that holds
 * either a whole checked file or nothing.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { downloadTokenizerJson, etagSha256, HubError, tokenizerUrl, type HubErrorKind } from '../../../../src/features/models/hub';
import {
  cachedModelFile,
  installFromHub,
  MAX_TOKENIZER_BYTES,
  nameForFile,
  readCachedModels,
  readChatConfig,
  readTokenizerFile,
  removeCachedModel,
} from '../../../../src/features/models/store';
import { isRepoId } from '../../../../src/features/models/catalog';
import { loadHuggingFaceTokenizer, loadTokenizer, registerModel } from '../../../../src/core/tokenizers/index';
import { DIRECT_TEMPLATE, HUB_TOKEN, MODEL_REPOS, modelBytes, startStandInHub, type StandInHub } from '../../../support/standInHub';
import { countConversation, parseConversation, templateFormat } from '../../../../src/core/chat/index';

let hub: StandInHub;
before(async () => {
  hub = await startStandInHub();
});
after(() => hub.close());

const tempDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-models-'));
/** Every file under dir, relative: a failed install must leave none. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

const options = (repo: string, extra: Partial<Parameters<typeof downloadTokenizerJson>[0]> = {}) => ({
  endpoint: hub.endpoint,
  repo: `test-org/${repo}`,
  maxBytes: MAX_TOKENIZER_BYTES,
  ...extra,
});

async function failsWith(promise: Promise<unknown>, kind: HubErrorKind, message: RegExp): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof HubError, `a HubError, got ${String(e)}`);
    assert.equal(e.kind, kind, e.message);
    assert.match(e.message, message);
    assert.doesNotMatch(e.message, new RegExp(HUB_TOKEN), 'the token is never in a message');
    return true;
  });
}

test('every model file arrives whole through the redirect, checked against the sha256 the hub names; the CDN never sees the token', async () => {
  for (const model of MODEL_REPOS) {
    const seenBefore = hub.seen.length;
    const progress: number[] = [];
    const got = await downloadTokenizerJson(options(model, { token: HUB_TOKEN, onProgress: (n) => progress.push(n) }));
    const expected = modelBytes(model);
    assert.equal(got.sha256, expected.sha256, model);
    assert.equal(got.expectedSha256, expected.sha256, `${model}: the hub named the sha256`);
    assert.ok(Buffer.from(got.bytes).equals(expected.bytes), model);
    assert.equal(got.commit, '0123456789abcdef0123456789abcdef01234567');
    assert.equal(progress.at(-1), expected.bytes.length);
    const seen = hub.seen.slice(seenBefore);
    assert.deepEqual(
      seen.map((s) => [s.server, s.authorization]),
      [
        ['hub', `Bearer ${HUB_TOKEN}`],
        ['cdn', undefined],
      ],
      `${model}: the token goes to the hub only`,
    );
  }
});

test('a file the hub serves itself is checked against its ETag', async () => {
  const got = await downloadTokenizerJson(options('direct'));
  assert.equal(got.expectedSha256, modelBytes('llama3').sha256);
  assert.equal(etagSha256('W/"ABC"'), undefined, 'a git sha1 or a short tag is no sha256');
  assert.equal(etagSha256(`"${'A'.repeat(64)}"`), 'a'.repeat(64));
  assert.equal(tokenizerUrl('https://hf.example/', 'a/b'), 'https://hf.example/a/b/resolve/main/tokenizer.json');
});

test('a mirror that compresses the file anyway: the inflated bytes are checked against the sha256, not the compressed length', async () => {
  const got = await downloadTokenizerJson(options('gzipped'));
  const expected = modelBytes('llama3');
  assert.equal(got.sha256, expected.sha256);
  assert.ok(Buffer.from(got.bytes).equals(expected.bytes));
  const seen = hub.seen.at(-1)!;
  assert.equal(seen.path, '/test-org/gzipped/resolve/main/tokenizer.json');
});

test('a gated repository: without a token the message says how to set one; with the token it downloads', async () => {
  await failsWith(
    downloadTokenizerJson(options('gated')),
    'gated',
    /test-org\/gated is gated or private \(HTTP 401\).*Set Hugging Face Access Token/,
  );
  await failsWith(downloadTokenizerJson(options('gated', { token: 'hf_wrong' })), 'gated', /refused your access token for test-org\/gated/);
  const got = await downloadTokenizerJson(options('gated', { token: HUB_TOKEN }));
  assert.equal(got.sha256, modelBytes('llama3').sha256);
});

test('missing, truncated, corrupted, oversized, cancelled and unreachable downloads each say what happened and leave the cache empty', async () => {
  const cache = tempDir();
  const install = (repo: string, extra = {}) => installFromHub(cache, options(repo, extra));
  await failsWith(
    install('missing'),
    'notFound',
    /^No tokenizer\.json in test-org\/missing \(HTTP 404 from http:\/\/127\.0\.0\.1:\d+\)\.$/,
  );
  const size = modelBytes('llama3').bytes.length;
  await failsWith(
    install('truncated'),
    'truncated',
    new RegExp(`cut short: [\\d,]+ of ${size.toLocaleString('en-US')} bytes arrived\\. Nothing was saved`),
  );
  await failsWith(install('bad-checksum'), 'checksum', /does not match the hub's checksum \(sha256 f{64}, the download has [0-9a-f]{64}\)/);
  await failsWith(
    install('not-a-tokenizer'),
    'invalid',
    /test-org\/not-a-tokenizer cannot be used: tokenizer\.json: tokenizer\.json\.model must be an object/,
  );
  await failsWith(install('llama3', { maxBytes: 1_000_000 }), 'tooBig', /is 8\.7 MB, more than the 1\.0 MB allowed/);
  const controller = new AbortController();
  const cancelled = install('gemma3', { signal: controller.signal, onProgress: () => controller.abort() });
  await failsWith(cancelled, 'cancelled', /cancelled/);
  const closed = await startStandInHub();
  await closed.close();
  await failsWith(
    installFromHub(cache, { ...options('llama3'), endpoint: closed.endpoint }),
    'network',
    /^Could not reach http:\/\/127\.0\.0\.1:\d+: /,
  );
  assert.deepEqual(filesUnder(cache), [], 'no file, whole or partial');
});

test('an installed model is cached with its metadata, listed again from the cache, counts exactly, and can be removed', async () => {
  const cache = tempDir();
  const { prepared, ...model } = await installFromHub(cache, options('qwen3'), { family: 'Qwen 3', contextWindow: 32_768 });
  assert.deepEqual(filesUnder(cache).sort(), ['model.json', 'tokenizer.json', 'tokenizer_config.json']);
  const file = cachedModelFile(cache, 'test-org/qwen3');
  assert.ok(fs.readFileSync(file).equals(modelBytes('qwen3').bytes));
  assert.ok(
    fs.readFileSync(path.join(path.dirname(file), 'tokenizer_config.json')).equals(modelBytes('qwen3', 'tokenizer_config.json').bytes),
  );
  assert.deepEqual(model.chatFiles, ['tokenizer_config.json']);
  const listed = readCachedModels(cache);
  assert.deepEqual(listed, [model]);
  assert.equal(listed[0]!.family, 'Qwen 3');
  assert.equal(listed[0]!.contextWindow, 32_768);
  assert.equal(listed[0]!.sha256, modelBytes('qwen3').sha256);
  // Offline: the hub is not asked again, the cached file is what counts.
  const seen = hub.seen.length;
  const remove = registerModel({ name: model.name, description: 'test', source: file, load: () => readTokenizerFile(file) });
  try {
    const text = 'Qwen3 counts 中文 and emoji 🎉 exactly.';
    const ours = await loadTokenizer('test-org/qwen3');
    const reference = loadHuggingFaceTokenizer(fs.readFileSync(file, 'utf8'));
    assert.deepEqual(ours.encode(text), reference.encode(text));
    assert.deepEqual(prepared.tokenizer().encode(text), reference.encode(text), 'the model built to check the download is the same');
  } finally {
    remove();
  }
  assert.equal(hub.seen.length, seen);
  await removeCachedModel(cache, 'test-org/qwen3');
  assert.deepEqual(readCachedModels(cache), []);
});

test('a damaged cache entry is skipped with a message, the others are listed', async () => {
  const cache = tempDir();
  await installFromHub(cache, options('deepseek_v3'));
  fs.mkdirSync(path.join(cache, 'models', 'x--broken'), { recursive: true });
  fs.writeFileSync(path.join(cache, 'models', 'x--broken', 'model.json'), '{');
  const problems: string[] = [];
  assert.deepEqual(
    readCachedModels(cache, (m) => problems.push(m)).map((m) => m.repo),
    ['test-org/deepseek_v3'],
  );
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /skipped the cached model in .*x--broken/);
});

test('a local tokenizer.json: read with a size cap and clear messages; named after its folder', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'tokenizer.json');
  fs.writeFileSync(file, '{"model": {}}');
  assert.equal(await readTokenizerFile(file), '{"model": {}}');
  await assert.rejects(
    readTokenizerFile(file, 5),
    new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is 0\\.0 MB, more than the 0 MB`),
  );
  await assert.rejects(readTokenizerFile(path.join(dir, 'nope.json')), /cannot read .*nope\.json \(ENOENT\)/);
  await assert.rejects(readTokenizerFile(dir), /cannot read .* \(not a file\)/);
  assert.equal(
    nameForFile('/m/Llama-3.1-8B/tokenizer.json', () => false),
    'Llama-3.1-8B',
  );
  assert.equal(
    nameForFile('/m/qwen.json', () => false),
    'qwen',
  );
  assert.equal(
    nameForFile('/m/cl100k_base/tokenizer.json', (n) => n === 'cl100k_base'),
    '/m/cl100k_base/tokenizer.json',
  );
  assert.ok(isRepoId('meta-llama/Llama-3.1-8B-Instruct'));
  for (const bad of ['llama', 'a/b/c', '../x', 'a/..', 'a b/c', '/a', 'a/', 'https://huggingface.co/a/b']) assert.ok(!isRepoId(bad), bad);
});

test('chat files: a cached model reads its template offline from the cache; one with only chat_template.jinja has that; one with neither counts text alone', async () => {
  const cache = tempDir();
  await installFromHub(cache, options('llama3'));
  await installFromHub(cache, options('direct'));
  await installFromHub(cache, options('gptoss'));
  const seen = hub.seen.length;
  const llama = await readChatConfig(cachedModelFile(cache, 'test-org/llama3'));
  assert.equal(llama.specialTokens.bos_token, '<|begin_of_text|>');
  const tokenizer = loadHuggingFaceTokenizer(modelBytes('llama3').bytes.toString('utf8'), { specialTokens: 'special' });
  const conversation = parseConversation([{ role: 'user', content: 'What is the capital of France?' }]);
  const count = await countConversation(conversation, { tokenizer, format: templateFormat(llama) }, { addGenerationPrompt: true });
  assert.equal(count.total, 17);
  assert.equal(
    count.format,
    `chat template from ${path.join(path.dirname(cachedModelFile(cache, 'test-org/llama3')), 'tokenizer_config.json')}`,
  );
  const direct = await readChatConfig(cachedModelFile(cache, 'test-org/direct'));
  assert.equal(direct.templates?.templates, DIRECT_TEMPLATE);
  assert.match(direct.templates.source, /chat_template\.jinja$/);
  // gpt-oss's tokenizer_config.json has no chat_template: no template, the text alone.
  assert.equal((await readChatConfig(cachedModelFile(cache, 'test-org/gptoss'))).templates, undefined);
  assert.equal(hub.seen.length, seen, 'read from the cache, not the hub');
});

test('chat files beside a local tokenizer.json: read with a size cap; a broken tokenizer_config.json names the file', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'tokenizer.json');
  fs.writeFileSync(file, '{}');
  assert.deepEqual(await readChatConfig(file), { specialTokens: {} });
  fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), '{"chat_template": 42}');
  await assert.rejects(
    readChatConfig(file),
    /"chat_template" in .*tokenizer_config\.json is neither a string nor a list of \{name, template\}/,
  );
  fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), '{"chat_template": "{{ messages }}"}');
  await assert.rejects(readChatConfig(file, 10), /tokenizer_config\.json is 0\.0 MB, more than the 0 MB allowed/);
});
