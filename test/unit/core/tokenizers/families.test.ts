/**
 * The table of tokenizer families (src/core/tokenizers/families.ts) is the only dispatch between them: every family
 * folder has a row and every row a folder, each listed tokenizer belongs to exactly one row, and neither the loader
 * nor the shared engine reaches into a family's folder on its own.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FAMILIES, familyOf } from '../../../../src/core/tokenizers/families';
import { allTokenizers, registerModel } from '../../../../src/core/tokenizers/registry';

const ROOT = join(__dirname, '..', '..', '..', '..', '..');
const TOKENIZERS_DIR = join(ROOT, 'src', 'core', 'tokenizers');
/** The folder every family builds on: not a family. */
const SHARED = 'engine';

const folders = (): string[] =>
  readdirSync(TOKENIZERS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

/** The relative imports of a source file, as written. */
function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map((m) => m[1]!);
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('every folder of src/core/tokenizers/ but the shared engine is a row of FAMILIES, and every row is a folder', () => {
  const rows = FAMILIES.map((f) => f.folder);
  assert.equal(new Set(rows).size, rows.length, 'one row per family');
  assert.deepEqual(
    folders()
      .filter((f) => f !== SHARED)
      .sort(),
    [...rows].sort(),
  );
  for (const family of FAMILIES) assert.ok(family.label.trim(), `${family.folder} has a label`);
});

test('each listed tokenizer belongs to exactly one family, a registered model to the Hugging Face one', () => {
  const unregister = registerModel({
    name: 'family test model',
    description: 'test',
    source: 'nowhere',
    load: () => Promise.reject(new Error('unused')),
  });
  try {
    for (const info of allTokenizers()) {
      const owners = FAMILIES.filter((f) => f.owns(info)).map((f) => f.folder);
      assert.equal(owners.length, 1, `${info.name}: owned by ${owners.join(', ') || 'none'}`);
    }
    const byName = (name: string) => familyOf(allTokenizers().find((t) => t.name === name)!).folder;
    assert.equal(byName('family test model'), 'huggingFace');
    assert.equal(byName('model-4o (o200k)'), 'tiktoken');
    assert.equal(byName('claude (estimate)'), 'estimate');
    assert.equal(byName('whitespace'), 'simple');
  } finally {
    unregister();
  }
});

test('the loader goes through the table, and the shared engine imports no family', () => {
  const loader = importsOf(join(TOKENIZERS_DIR, 'load.ts'));
  assert.deepEqual(
    loader.filter((spec) => folders().some((f) => spec.startsWith(`./${f}/`))),
    [],
    'load.ts imports a family folder: dispatch belongs in families.ts',
  );
  const family = new RegExp(`^(?:\\.\\./)+(${FAMILIES.map((f) => f.folder).join('|')})/`);
  const leaks = sources(join(TOKENIZERS_DIR, SHARED)).flatMap((file) =>
    importsOf(file)
      .filter((spec) => family.test(spec))
      .map((spec) => `${file}: ${spec}`),
  );
  assert.deepEqual(leaks, [], 'engine/ modules importing a family');
});

test('CONTRIBUTING says how to add a family, naming the table and every family folder', () => {
  const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const start = contributing.indexOf('## Adding a tokenizer family');
  assert.ok(start >= 0, 'CONTRIBUTING.md has "## Adding a tokenizer family"');
  const section = contributing.slice(start, contributing.indexOf('\n## ', start + 1));
  assert.match(section, /families\.ts/);
  for (const { folder } of FAMILIES) assert.match(section, new RegExp(`${folder}/`), `the section names ${folder}/`);
});
