/**
 * test/unit mirrors src/ (CONTRIBUTING, "Test"): a module's tests are in the folder of test/unit that has the path of
 * the module's folder under src/, tests of the repository as a whole are in test/unit/repo/, and what tests share
 * is in test/support/. A test in a folder src/ does not have, a helper in test/unit, or a test in test/support
 * (which `node --test out/test/unit/` never runs) fails here.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { test } from 'node:test';

const ROOT = join(__dirname, '..', '..', '..', '..');
/** The one folder of test/unit that src/ does not have. */
const REPO_FOLDER = 'repo';

/** Every file and folder below `dir` (relative to the repository), as paths relative to `dir`; folders end in `/`. */
function walk(dir: string, below = ''): string[] {
  return readdirSync(join(ROOT, dir, below), { withFileTypes: true }).flatMap((item) => {
    const path = `${below}${item.name}`;
    return item.isDirectory() ? [`${path}/`, ...walk(dir, `${path}/`)] : [path];
  });
}

const files = (dir: string): string[] => walk(dir).filter((path) => !path.endsWith('/'));
const folders = (dir: string): Set<string> =>
  new Set(['.', ...walk(dir).flatMap((path) => (path.endsWith('/') ? [path.slice(0, -1)] : []))]);

/** What breaks the map, one line a file: `unit` is test/unit's files, `support` test/support's, `src` src/'s folders. */
function mapProblems(unit: readonly string[], support: readonly string[], src: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const file of unit) {
    const folder = posix.dirname(file);
    if (!file.endsWith('.test.ts')) problems.push(`test/unit/${file}: not a test; what tests share belongs in test/support/`);
    else if (!src.has(folder) && folder !== REPO_FOLDER && !folder.startsWith(`${REPO_FOLDER}/`))
      problems.push(
        `test/unit/${file}: src/${folder}/ does not exist (test/unit mirrors src/; whole-repository tests go in test/unit/repo/)`,
      );
  }
  for (const file of support)
    if (file.endsWith('.test.ts')) problems.push(`test/support/${file}: a test, which node --test out/test/unit/ never runs`);
  return problems;
}

test('every unit test is in the folder of test/unit that mirrors its src/ folder, and test/unit holds only tests', () => {
  assert.deepEqual(mapProblems(files('test/unit'), files('test/support'), folders('src')), []);
});

test('the check reports a test without a src/ folder, a helper in test/unit and a test in test/support', () => {
  const src = new Set(['.', 'core', 'core/poscar', 'server', 'server/physics']);
  const unit = [
    'cli.test.ts',
    'core/poscar/poscar.test.ts',
    'server/physics/eam.test.ts',
    'repo/docs.test.ts',
    'physics/eam.test.ts',
    'core/poscar/poscarSamples.ts',
    'poscarSamples.ts',
  ];
  assert.deepEqual(mapProblems(unit, ['python.ts', 'grammar.test.ts'], src), [
    'test/unit/physics/eam.test.ts: src/physics/ does not exist (test/unit mirrors src/; whole-repository tests go in test/unit/repo/)',
    'test/unit/core/poscar/poscarSamples.ts: not a test; what tests share belongs in test/support/',
    'test/unit/poscarSamples.ts: not a test; what tests share belongs in test/support/',
    'test/support/grammar.test.ts: a test, which node --test out/test/unit/ never runs',
  ]);
});
