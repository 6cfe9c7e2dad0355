/**
 * docs/bench.md as `npm run bench` writes it (test/bench/benchDoc.ts): a run on top, the older runs it measured again
 * in full gone, the ones it measured in part kept with a note, and the file that is committed is in that form.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { addRun, fromRuns, INTRO, normalize, parseBlocks, type BenchRun } from '../../bench/benchDoc';

const run = (sections: string[], when: string, output = [`measured ${sections.join('+')} at ${when}`]): BenchRun => ({
  sections,
  when,
  about: [`- Command: \`npm run bench -- --only=${sections.join(',')}\``],
  output,
});

test('a run goes on top, with its sections, what it printed and the intro above it', () => {
  const doc = fromRuns([run(['poscar'], 'day 1')]);
  assert.ok(doc.startsWith(`${INTRO.join('\n')}\n`));
  assert.match(
    doc,
    /<!-- bench-run sections="poscar" -->\n## poscar: day 1\n\n- Command: `npm run bench -- --only=poscar`\n\n```text\nmeasured poscar at day 1\n```\n<!-- \/bench-run -->/,
  );
});

test('a run replaces the older runs it measured again in full, and notes the ones it measured in part', () => {
  const doc = fromRuns([run(['poscar', 'server'], 'day 1'), run(['xrd'], 'day 2'), run(['poscar', 'xrd'], 'day 3')]);
  assert.deepEqual(
    parseBlocks(doc).map((b) => b.sections),
    [
      ['poscar', 'xrd'],
      ['poscar', 'server'],
    ],
    'day 2 (xrd only) is gone; day 1 stays for server',
  );
  assert.match(doc, /## poscar, server: day 1\n\n> Re-measured by a newer run above: poscar\n/);
  assert.ok(!doc.includes('day 2'));
});

test('the note follows the file as runs are added, and a full run leaves only itself', () => {
  let doc = fromRuns([run(['poscar', 'server'], 'day 1'), run(['poscar'], 'day 2')]);
  doc = addRun(doc, run(['server'], 'day 3'));
  assert.deepEqual(
    parseBlocks(doc).map((b) => b.sections),
    [['server'], ['poscar']],
  );
  assert.ok(!doc.includes('Re-measured'), 'no block is partly superseded any more');
  doc = addRun(doc, run(['load', 'count', 'poscar', 'server'], 'day 4'));
  assert.equal(parseBlocks(doc).length, 1);
});

test('output holding a Markdown fence is fenced with tildes, so the block stays whole', () => {
  const doc = fromRuns([run(['views'], 'day 1', ['```', 'inside'])]);
  assert.match(doc, /~~~~text\n```\ninside\n~~~~\n/);
  assert.equal(parseBlocks(addRun(doc, run(['xrd'], 'day 2'))).length, 2);
});

test('the committed docs/bench.md is in the form the bench writes, so the next run keeps what it does not re-measure', () => {
  const doc = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'bench.md'), 'utf8');
  assert.ok(parseBlocks(doc).length > 0, 'docs/bench.md has runs');
  assert.equal(normalize(doc), doc, 'docs/bench.md differs from what the bench would write back');
});
