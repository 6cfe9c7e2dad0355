import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { readRankFile, shippedRankFiles } from '../../../../../src/core/tokenizers/tiktoken/ranks';
import { ALL_ENCODINGS, ENCODING_NAMES } from '../../../../../src/core/tokenizers/registry';
import { RankTable, type RankFile } from '../../../../../src/core/tokenizers/engine/rankTable';
import { gptTokenizerHarmonySpecials } from '../../../../support/tiktokenOracle';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..', '..', '..');

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

test('the package ships one rank file per distinct table, and the build copies or writes exactly those', async () => {
  const shipped = shippedRankFiles(ALL_ENCODINGS);
  assert.deepEqual(shipped, ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base', 'claude']);
  const { RANK_FILES, GENERATED_RANK_FILES } = (await import(path.join(REPO_ROOT, 'esbuild.mjs'))) as {
    RANK_FILES: string[];
    GENERATED_RANK_FILES: Record<string, unknown>;
  };
  assert.deepEqual([...RANK_FILES, ...Object.keys(GENERATED_RANK_FILES)].sort(), [...shipped].sort());
});

test("claude reads the rank file the build writes: ai-tokenizer's claude encoding, rank for rank, with its pattern and special tokens", () => {
  const encoding = require('ai-tokenizer/encoding/claude') as {
    pat_str: string;
    special_tokens: Record<string, number>;
    stringEncoder: Record<string, number>;
    binaryEncoder: [Uint8Array, number][];
  };
  const file = readRankFile('claude');
  assert.equal(file.pat_str, encoding.pat_str);
  assert.deepEqual(file.special_tokens, encoding.special_tokens);
  const table = new RankTable(file.bpe_ranks);
  assert.equal(table.size, 64_995, 'ranks 5..64,999 after the five special tokens');
  const tokens: [Buffer, number][] = [
    ...Object.entries(encoding.stringEncoder).map(([text, rank]): [Buffer, number] => [Buffer.from(text, 'utf8'), rank]),
    ...encoding.binaryEncoder.map(([bytes, rank]): [Buffer, number] => [Buffer.from(bytes), rank]),
  ];
  assert.equal(tokens.length, table.size);
  const wrong = tokens.filter(
    ([bytes, rank]) => !bytes.equals(table.bytesOf(rank) ?? Buffer.alloc(0)) || table.get(bytes, 0, bytes.length) !== rank,
  );
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} ranks differ`);
});
