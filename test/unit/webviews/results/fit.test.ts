/**
 * Result views degrade, never blank: every text field of every result kind, taken from the page's shape
 * itself (a field added later is covered without a line here), sent over its limit; the page still gets the
 * rest, the field shortened with "…" or dropped, and a note that says so. Plus real answers with a long
 * species name, a long band label, a long energy unit and a jid too long to ask for.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { conforms, example, fit, text, textPaths } from '../../../../src/core/util/shape';
import { fitShowMessage, isToResultPage, TO_RESULT_PAGE, type ShowMessage } from '../../../../src/webviews/results/protocol';
import { inputStructure } from '../../../../src/webviews/results/poscarText';
import { resultView, runInfo } from '../../../../src/webviews/results/view';
import { RUN_KINDS, type RunRecord } from '../../../../src/core/runs/run';
import type { AppModel } from '../../../../src/webviews/results/apps/model';
import type { BandsModel } from '../../../../src/webviews/results/model';

type Json = Record<string, unknown>;

/** The value at "view.model.species[0]", and a setter for it. */
function at(root: unknown, path: string): { get: () => unknown; set: (v: unknown) => void } {
  const keys = path.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== '');
  const parent = keys.slice(0, -1).reduce<unknown>((v, k) => (v as Json)[k], root) as Json;
  const last = keys.at(-1)!;
  return { get: () => parent[last], set: (v) => (parent[last] = v) };
}

/** Every text leaf of the show message, per result kind: each a path, its limit, and whether a cut one is allowed. */
const leaves = textPaths(TO_RESULT_PAGE).filter((leaf) => leaf.option[0] === 'show' && leaf.path !== 'note');

test('the page’s shape lists text fields of every result kind, run info and view alike', () => {
  for (const kind of RUN_KINDS)
    assert.ok(
      leaves.some((l) => l.option[1] === kind && l.path.startsWith('view.model.')),
      kind,
    );
  for (const path of [
    'run.title',
    'run.error',
    'view.model.species[0]',
    'view.model.method',
    'view.elements[0]',
    'view.model.ticks[0].label',
  ])
    assert.ok(
      leaves.some((l) => l.path === path),
      path,
    );
});

test('each text field of each result kind over its limit: the rest is shown, the field shortened or dropped, and the note says so', () => {
  let shortened = 0;
  let dropped = 0;
  for (const leaf of leaves) {
    const where = `${leaf.option.join('/')} ${leaf.path}`;
    const base = example(TO_RESULT_PAGE, leaf.option) as ShowMessage;
    assert.ok(conforms(TO_RESULT_PAGE, base), `${where}: the example itself fits`);
    const message = structuredClone(base);
    const long = `${leaf.shape.example ?? ''}${'y'.repeat(leaf.shape.max + 1)}`;
    at(message, leaf.path).set(long);
    assert.equal(isToResultPage(message), false, `${where}: the page would refuse it`);
    const fitted = fitShowMessage(message);
    if (leaf.path === 'run.id') {
      assert.equal(fitted, undefined, 'a run id is the extension’s own; it is never shortened into another run’s');
      continue;
    }
    assert.ok(fitted, `${where}: something is shown`);
    assert.ok(isToResultPage(fitted), `${where}: the page takes it`);
    const name = leaf.path.replace(/^view\.model\./, '').replace(/^view\./, '');
    const parent = name.replace(/(\.[^.[]+|\[\d+\])$/, '');
    if (leaf.shape.cut) {
      shortened++;
      const value = at(fitted, leaf.path).get() as string;
      assert.equal(value, `${long.slice(0, leaf.shape.max - 1)}…`, `${where}: shortened and marked`);
      assert.equal(
        fitted.note,
        `1 value was shortened to fit the view: ${name} (${long.length.toLocaleString('en-US')} characters).`,
        where,
      );
      at(fitted, leaf.path).set(at(base, leaf.path).get());
      assert.deepEqual({ ...fitted, note: undefined }, { ...base, note: undefined }, `${where}: the rest is as it was`);
    } else {
      dropped++;
      assert.match(fitted.note ?? '', /^1 item was dropped to fit the view: dropped: /, where);
      const gone = fitted.note!.slice(fitted.note!.indexOf('dropped: ') + 9, -1);
      assert.ok(gone === name || gone === parent, `${where}: "${gone}" is the field or what holds it`);
      // What was dropped is all that changed.
      const expected = structuredClone(base);
      const path = gone === name ? leaf.path : leaf.path.replace(/(\.[^.[]+|\[\d+\])$/, '');
      const holder = at(expected, path);
      if (/\[\d+\]$/.test(path))
        (at(expected, path.replace(/\[\d+\]$/, '')).get() as unknown[]).splice(Number(/\[(\d+)\]$/.exec(path)![1]), 1);
      else holder.set(undefined);
      assert.deepEqual(
        JSON.parse(JSON.stringify({ ...fitted, note: undefined })),
        JSON.parse(JSON.stringify({ ...expected, note: undefined })),
      );
    }
  }
  assert.ok(shortened > 50 && dropped >= 5, `${shortened} shortened, ${dropped} dropped`);
});

const DIR = join(__dirname, '..', '..', '..', '..', '..', 'test', 'fixtures', 'results');
const fixture = (name: string): Json => JSON.parse(readFileSync(join(DIR, name), 'utf8')) as Json;
const INPUT = readFileSync(join(DIR, 'POSCAR.Si8'), 'utf8');

function shown(kind: RunRecord['kind'], value: unknown, inputText = INPUT): ShowMessage {
  const run: RunRecord = {
    id: 'r1',
    kind,
    inputUri: 'file:///w/POSCAR',
    inputName: 'POSCAR',
    inputText,
    startedAt: 1_700_000_000_000,
    durationMs: 1500,
    state: 'done',
    response: { status: 200, headers: {}, body: { type: 'json', value } },
  };
  const message: ShowMessage = { type: 'show', seq: 1, run: runInfo(run), view: resultView(run, inputStructure(inputText)) };
  return fitShowMessage(JSON.parse(JSON.stringify(message)) as ShowMessage)!;
}

test('real answers: a 300-character species, a 150-character band label, an energy unit of 5,000 characters', () => {
  const single = fixture('singlePoint.reference.json');
  single.species = (single.species as string[]).map((s, i) => (i === 0 ? `${s}${'x'.repeat(300)}` : s));
  single.energy_unit = 'e'.repeat(5000);
  const a = shown('singlePoint', single);
  assert.ok(isToResultPage(a));
  assert.equal(a.view!.model.kind, 'singlePoint');
  assert.equal(a.view!.model.species![0]!.length, 100);
  assert.match(a.view!.model.species![0]!, /^Six+…$/);
  assert.equal(a.view!.model.species!.length, (single.species as string[]).length, 'every other species is there');
  assert.ok((a.view!.model as { energy?: number }).energy !== undefined, 'the energy is still shown');
  assert.match(a.note!, /^\d+ values? (was|were) shortened to fit the view: .*species\[0\] \(302 characters\)/);

  const bands = fixture('bands.reference.json');
  const labelled = JSON.stringify(bands).replace(/"label":"G"/g, `"label":"${'Γ'.repeat(150)}"`);
  assert.notEqual(labelled, JSON.stringify(bands));
  const b = shown('tightbinding', JSON.parse(labelled));
  assert.ok(isToResultPage(b));
  const ticks = (b.view!.model as BandsModel).ticks;
  assert.equal(ticks.length, (shown('tightbinding', bands).view!.model as BandsModel).ticks.length, 'every tick is there');
  assert.equal(ticks[0]!.label, `${'Γ'.repeat(99)}…`);
  assert.match(b.note!, /ticks\[0\]\.label \(150 characters\)/);
});

test('an application table whose jid is too long to ask for: the row stays, not clickable, and the note says so', () => {
  const jid = `JVASP-${'9'.repeat(300)}`;
  const answer = {
    results: [
      { jid, formula: 'Si', bandgap: 1.1 },
      { jid: 'JVASP-1002', formula: 'Si', bandgap: 0.6 },
    ],
  };
  const message = shown('search', answer, JSON.stringify({ formula: 'Si' }));
  assert.ok(isToResultPage(message));
  const rows = (message.view!.model as AppModel).tables.flatMap((t) => t.rows);
  assert.equal(rows.length, 2, 'both rows are shown');
  assert.equal(rows.filter((r) => r.detail !== undefined).length, 1, 'the row with the long jid is not clickable');
  assert.match(message.note!, /dropped: tables\[0\]\.rows\[0\]\.detail/);
});

test('a text cut at its limit never ends in half of a surrogate pair: no U+FFFD in the view', () => {
  for (let emojiAt = 0; emojiAt < 12; emojiAt++) {
    const value = `${'a'.repeat(emojiAt)}😀${'b'.repeat(12)}`;
    const cut = fit(text(8), value)!.value as string;
    assert.ok(cut.length <= 8 && cut.endsWith('…'), JSON.stringify(cut));
    assert.ok(
      !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(cut),
      `a lone surrogate in ${JSON.stringify(cut)}`,
    );
    assert.ok(value.startsWith(cut.slice(0, -1)), 'a prefix of the text');
  }
});
