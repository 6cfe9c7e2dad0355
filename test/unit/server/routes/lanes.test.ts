/**
 * The reference server stays responsive: every request runs on a worker thread of its lane (routes/index.ts), so a
 * small request is answered while another client's long one runs. Structural, not timed to the millisecond: the
 * small answer comes first, in well under the long one's time.
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { laneOf, QUICK_BODY_CHARS } from '../../../../src/server/routes/index';
import { poscarText, primitiveSi } from '../../../support/physicsFixtures';
import { referenceServer, type Answer } from '../../../support/serverHarness';

const { post } = referenceServer('lanes-test-key');

/** 50,000 CJK ideographs, the longest text a tokenize may carry, and the slowest kind to tokenize. */
const CJK = Array.from({ length: 50_000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20_000))).join('');

/** The long request sent first and under way, then the small one: when each answered, from when each was sent. */
async function smallDuringLong(
  long: () => Promise<Answer>,
  small: () => Promise<Answer>,
): Promise<{ long: Answer; small: Answer; longMs: number; smallMs: number }> {
  const started = performance.now();
  const pending = long();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const sent = performance.now();
  const quick = await small();
  const slow = await pending;
  return { long: slow, small: quick, longMs: slow.arrived - started, smallMs: quick.arrived - sent };
}

function assertAnsweredFirst(run: Awaited<ReturnType<typeof smallDuringLong>>): void {
  assert.equal(run.long.status, 200, JSON.stringify(run.long.body).slice(0, 200));
  assert.equal(run.small.status, 200, JSON.stringify(run.small.body).slice(0, 200));
  assert.ok(run.small.arrived < run.long.arrived, 'the small answer came first');
  assert.ok(run.smallMs < run.longMs / 2, `small after ${run.smallMs.toFixed(0)} ms, long after ${run.longMs.toFixed(0)} ms`);
}

test('a small tokenize is answered while a 50,000-character CJK tokenize runs', async () => {
  // Each lane's worker started, with cl100k_base loaded: what is measured is the waiting, not a first load.
  await Promise.all([post('/tokenizer/tokenize', { text: CJK.slice(0, 5000) }), post('/tokenizer/tokenize', { text: 'warm' })]);
  const run = await smallDuringLong(
    () => post('/tokenizer/tokenize', { text: CJK }),
    () => post('/tokenizer/tokenize', { text: 'while the long text is read' }),
  );
  assertAnsweredFirst(run);
  assert.equal(run.long.body.n_chars, 50_000);
  assert.deepEqual(run.small.body.tokens.join(''), 'while the long text is read');
});

test('a search and a small tokenize are answered while a large band structure runs', async () => {
  let search: Answer | undefined;
  const run = await smallDuringLong(
    () => post('/tightbinding/compute', { poscar: poscarText(primitiveSi()), kpath_density: 1000 }),
    async () => {
      search = await post('/materials_explorer/search', { formula: 'Si' });
      return post('/tokenizer/tokenize', { text: 'between the k-points' });
    },
  );
  assertAnsweredFirst(run);
  assert.ok(run.long.body.kpoints.length > 1000, `${run.long.body.kpoints.length} k-points`);
  assert.equal(search!.status, 200);
  assert.equal(search!.body.results[0].jid, 'JVASP-1002');
  assert.deepEqual(run.small.body.tokens.join(''), 'between the k-points');
});

test('lanes: structure calculations on their own workers; VQE and large bodies on the bulk ones; the rest quick', () => {
  for (const route of ['gnn_ff_dynamics/relax', 'gnn_ff_dynamics/md', 'gnn_ff_dynamics/compute', 'tightbinding/compute'])
    assert.equal(laneOf(route, 100), 'compute', route);
  assert.equal(laneOf('quantum/vqe', 30), 'bulk');
  assert.equal(laneOf('tokenizer/tokenize', QUICK_BODY_CHARS + 1), 'bulk');
  assert.equal(laneOf('tokenizer/tokenize', QUICK_BODY_CHARS), 'quick');
  assert.equal(laneOf('tightbinding/search', 30), 'quick');
});
