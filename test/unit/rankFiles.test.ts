import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { readRankFile, shippedRankFiles } from '../../src/core/tokenizers/load';
import { ENCODING_NAMES } from '../../src/core/tokenizers/registry';
import type { RankFile } from '../../src/core/tokenizers/rankTable';
import { gptTokenizerHarmonySpecials } from './tiktokenOracle';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

function original(name: string): RankFile {
  const loaded = require(`js-tiktoken/ranks/${name}`) as RankFile | { default: RankFile };
  return 'default' in loaded ? loaded.default : loaded;
}

test('every encoding reads exactly its own js-tiktoken rank file, aliases of a shared file included', () => {
  for (const name of ENCODING_NAMES) {
    const read = readRankFile(name);
    // js-tiktoken has no o200k_harmony: it is o200k_base's file with its own special tokens (gpt-tokenizer's list).
    const own = name === 'o200k_harmony' ? { ...original('o200k_base'), special_tokens: gptTokenizerHarmonySpecials() } : original(name);
    assert.equal(read.pat_str, own.pat_str, `${name}: pattern`);
    assert.deepEqual(read.special_tokens, own.special_tokens, `${name}: special tokens`);
    assert.ok(read.bpe_ranks === own.bpe_ranks, `${name}: ranks`);
  }
});

test('the package ships one rank file per distinct table, and the build copies exactly those', async () => {
  const shipped = shippedRankFiles(ENCODING_NAMES);
  assert.deepEqual(shipped, ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base']);
  const { RANK_FILES } = (await import(path.join(REPO_ROOT, 'esbuild.mjs'))) as { RANK_FILES: string[] };
  assert.deepEqual([...RANK_FILES].sort(), [...shipped].sort());
});
