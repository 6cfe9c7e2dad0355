import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_RUNS, RunStore, type Storage } from '../../../src/runs/store';
import { resultFileName, type RunRecord } from '../../../src/core/runs/run';

function memory(): Storage & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: <T>(key: string) => (data.has(key) ? (JSON.parse(JSON.stringify(data.get(key))) as T) : undefined),
    update: async (key, value) => void data.set(key, value),
  };
}

const run = (id: string, extra: Partial<RunRecord> = {}): RunRecord => ({
  id,
  kind: 'relax',
  inputUri: 'file:///w/POSCAR',
  inputName: 'POSCAR',
  inputText: 'Si\n1\n',
  startedAt: 1_700_000_000_000,
  state: 'done',
  ...extra,
});

test('runs survive a reload: answers of every body type come back as they were, a running one as cancelled', () => {
  const storage = memory();
  const store = new RunStore(storage);
  store.put(
    run('a', {
      durationMs: 1200,
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: { type: 'json', value: { energy_eV: -5.4 } } },
    }),
  );
  store.put(
    run('b', {
      kind: 'tightbinding',
      response: {
        status: 200,
        headers: {},
        body: { type: 'bytes', bytes: Uint8Array.of(0x89, 0x50, 0x4e, 0x47), contentType: 'image/png' },
      },
    }),
  );
  store.put(run('c', { state: 'running' }));
  const reloaded = new RunStore(storage);
  assert.deepEqual(
    reloaded.all.map((r) => [r.id, r.state]),
    [
      ['c', 'cancelled'],
      ['b', 'done'],
      ['a', 'done'],
    ],
  );
  assert.deepEqual(reloaded.get('a')!.response!.body, { type: 'json', value: { energy_eV: -5.4 } });
  const png = reloaded.get('b')!.response!.body;
  assert.equal(png.type, 'bytes');
  assert.deepEqual(png.type === 'bytes' && [...png.bytes], [0x89, 0x50, 0x4e, 0x47]);
  assert.equal(reloaded.get('c')!.error, 'The window was reloaded while it ran.');
});

test('a run keeps the parameters its request carried across a reload; stored junk among them is dropped', () => {
  const storage = memory();
  const store = new RunStore(storage);
  store.put(run('a', { params: { fmax: 0.02, steps: 50 } }));
  store.put(run('b', { kind: 'md', params: {} }));
  store.put(run('c'));
  const stored = storage.data.get([...storage.data.keys()][0]!) as Record<string, unknown>[];
  stored.push({ ...run('d', { kind: 'md' }), params: JSON.parse('{"steps":"many","ensemble":"nvt","poscar":"x","__proto__":{"fmax":1}}') });
  const reloaded = new RunStore(storage);
  assert.deepEqual(reloaded.get('a')!.params, { fmax: 0.02, steps: 50 });
  assert.deepEqual(reloaded.get('b')!.params, {});
  assert.equal(reloaded.get('c')!.params, undefined, 'recorded before parameters were kept');
  assert.deepEqual(reloaded.get('d')?.params, { ensemble: 'nvt' });
});

test('the list keeps the newest runs; replacing a run keeps its place; listeners hear each change', () => {
  const store = new RunStore(memory());
  const heard: (string | undefined)[] = [];
  store.onDidChange((r) => heard.push(r?.id));
  for (let i = 0; i < MAX_RUNS + 5; i++) store.put(run(`r${i}`));
  assert.equal(store.all.length, MAX_RUNS);
  assert.equal(store.all[0]!.id, `r${MAX_RUNS + 4}`);
  store.put(run('r10', { state: 'failed' }));
  assert.equal(
    store.all.findIndex((r) => r.id === 'r10'),
    MAX_RUNS + 4 - 10,
  );
  store.remove((r) => r.state === 'failed');
  assert.equal(store.get('r10'), undefined);
  assert.equal(heard.length, MAX_RUNS + 5 + 2);
  assert.equal(heard.at(-1), undefined, 'a removal changes the list as a whole');
});

test('whatever else is in workspace storage is dropped, never trusted', () => {
  const storage = memory();
  storage.data.set('tokenLens.runs', [
    null,
    42,
    { id: 'x' },
    run('ok'),
    { ...run('bad-kind'), kind: 'rm -rf' },
    { ...run('bad-body'), response: { status: 200, headers: {}, body: { type: 'exe' } } },
  ]);
  const store = new RunStore(storage);
  assert.deepEqual(
    store.all.map((r) => r.id),
    ['ok', 'bad-body'],
  );
  assert.equal(store.get('bad-body')!.response, undefined);
});

test('Save Result As… proposes a file named for the run, structure and application runs alike, safe on every file system', () => {
  const at = new Date(2026, 10, 24, 14, 5).getTime();
  assert.equal(resultFileName({ kind: 'relax', inputName: 'Si.vasp', startedAt: at }), 'Si.vasp-relax-2026-11-24-1405.json');
  assert.equal(resultFileName({ kind: 'search', inputName: 'Fe2O3', startedAt: at }), 'search-Fe2O3-2026-11-24-1405.json');
  assert.equal(
    resultFileName({ kind: 'optimade', inputName: 'elements HAS "Si" AND nelements<3', startedAt: at }),
    'optimade-elements_HAS_Si_AND_nelements_3-2026-11-24-1405.json',
  );
  const hostile = resultFileName({ kind: 'pxrdMatch', inputName: `../../${'x'.repeat(500)}/\u0000:*?<>|`, startedAt: at });
  assert.match(hostile, /^[\p{L}\p{N}._+-]+$/u);
  assert.ok(hostile.length <= 120 && hostile.endsWith('-2026-11-24-1405.json'), hostile);
});
