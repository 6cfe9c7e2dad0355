/**
 * Groundwork for a Claude estimate (issue 21; not offered yet): ai-tokenizer's `claude` encoding, a
 * devDependency, converts to a rank file our engine reads (js-tiktoken's format: "! <rank> <base64>..."
 * lines), and our exact BPE then counts and encodes as ai-tokenizer's own tokenizer does on ~1 MB of
 * real text. (Checked by hand, not here, since that package is not installed: these 64,995 ranks, the
 * pattern and the five special tokens equal the claude.json of Anthropic's @anthropic-ai/tokenizer 0.0.4,
 * whose countTokens also NFKC-normalises the text first, which ai-tokenizer's count does not.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BpeTokenizer, tiktokenModel } from '../../src/core/tokenizers/bpeTokenizer';
import { RankTable, type RankFile } from '../../src/core/tokenizers/rankTable';
import { installedCorpus } from '../bench/textgen';

interface AiTokenizerEncoding {
  pat_str: string;
  special_tokens: Record<string, number>;
  stringEncoder: Record<string, number>;
  binaryEncoder: [Record<string, number>, number][];
}
interface AiTokenizer {
  count(text: string): number;
  encode(text: string): number[];
}

/** ai-tokenizer's dual storage (text tokens by string, the rest as bytes) as one rank file: runs of consecutive ranks, one line each. */
function toRankFile(encoding: AiTokenizerEncoding): RankFile {
  const byRank = new Map<number, string>();
  for (const [text, rank] of Object.entries(encoding.stringEncoder)) byRank.set(rank, Buffer.from(text, 'utf8').toString('base64'));
  for (const [bytes, rank] of encoding.binaryEncoder) byRank.set(rank, Buffer.from(Object.values(bytes)).toString('base64'));
  const ranks = [...byRank.keys()].sort((a, b) => a - b);
  const lines: string[] = [];
  for (let i = 0; i < ranks.length;) {
    let j = i;
    while (j + 1 < ranks.length && ranks[j + 1] === ranks[j]! + 1) j++;
    lines.push(
      `! ${ranks[i]} ${ranks
        .slice(i, j + 1)
        .map((r) => byRank.get(r))
        .join(' ')}`,
    );
    i = j + 1;
  }
  return { pat_str: encoding.pat_str, special_tokens: encoding.special_tokens, bpe_ranks: lines.join('\n') };
}

test("ai-tokenizer's claude encoding loads into our rank table and counts as ai-tokenizer does on real text", () => {
  const encoding = require('ai-tokenizer/encoding/claude') as AiTokenizerEncoding;
  const { Tokenizer } = require('ai-tokenizer') as { Tokenizer: new (e: AiTokenizerEncoding) => AiTokenizer };
  const theirs = new Tokenizer(encoding);
  const file = toRankFile(encoding);
  const table = new RankTable(file.bpe_ranks);
  assert.equal(table.size, 64_995, 'ranks 5..64,994 after the five special tokens');
  const info = { name: 'claude (test)', kind: 'cl100k_base', description: 'test' } as const;
  const ours = new BpeTokenizer(info, { specialTokens: 'text' }, table, tiktokenModel(file, 'text'));
  const { text, files } = installedCorpus();
  assert.ok(text.length > 100_000, `corpus of ${files} files`);
  let total = 0;
  for (let at = 0; at < text.length; at += 4096) {
    const chunk = text.slice(at, at + 4096);
    const n = ours.count(chunk);
    assert.equal(n, theirs.count(chunk), `count of chunk at ${at}`);
    if (at % (4096 * 16) === 0) assert.deepEqual(ours.encode(chunk), theirs.encode(chunk), `ids of chunk at ${at}`);
    total += n;
  }
  assert.ok(total > 10_000);
});
