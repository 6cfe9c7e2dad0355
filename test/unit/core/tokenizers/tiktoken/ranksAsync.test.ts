/**
 * The first count of a window builds a rank table (0.5-2.3 MB of base64): loadEncodingAsync reads and decodes it in
 * slices, so the editor keeps its turns meanwhile. A file of its own: a process whose tables are not built yet.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RankTable } from '../../../../../src/core/tokenizers/engine/rankTable';
import {
  getEncodingStats,
  isEncodingLoaded,
  loadEncoding,
  loadEncodingAsync,
  readRankFile,
} from '../../../../../src/core/tokenizers/tiktoken/ranks';
import { runToEnd } from '../../../../../src/core/util/steps';

test('decodeSteps pauses every N tokens and decodes what the whole-file decode does', () => {
  const { bpe_ranks } = readRankFile('r50k_base');
  const steps = RankTable.decodeSteps(bpe_ranks, 1000);
  let pauses = 0;
  let next = steps.next();
  for (; !next.done; next = steps.next()) pauses++;
  const whole = runToEnd(RankTable.decodeSteps(bpe_ranks));
  assert.equal(whole.count, 50256);
  assert.equal(pauses, Math.floor(whole.count / 1000));
  assert.deepEqual(next.value, whole);
});

test('loadEncodingAsync gives the event loop turns while it builds, once for concurrent callers, the same table as a synchronous load', async () => {
  assert.equal(isEncodingLoaded('o200k_base'), false, 'a fresh process');
  let turns = 0;
  const beat = setInterval(() => turns++, 0);
  await Promise.all([loadEncodingAsync('o200k_base'), loadEncodingAsync('o200k_harmony')]);
  clearInterval(beat);
  assert.ok(turns >= 10, `the event loop ran ${turns} times during the build`);
  assert.deepEqual(
    getEncodingStats().map((s) => s.ranks),
    ['o200k_base'],
    'one table for both encodings',
  );
  const built = loadEncoding('o200k_harmony').table;
  assert.equal(built, loadEncoding('o200k_base').table);
  const direct = new RankTable(readRankFile('o200k_base').bpe_ranks);
  assert.equal(built.size, direct.size);
  for (let rank = 0; rank < direct.size; rank++) {
    const bytes = direct.bytesOf(rank);
    if (!bytes) continue;
    assert.deepEqual(built.bytesOf(rank), bytes, `rank ${rank}`);
    assert.equal(built.get(bytes, 0, bytes.length), rank, `rank ${rank} found by its bytes`);
  }
});
