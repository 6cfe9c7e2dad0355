/**
 * The test drivers (each view's and feature's testDriver.ts, CONTRIBUTING "Test-only code") are in no release bundle:
 * the release bundles, built here as `node esbuild.mjs --production` builds them (in memory), take no code from a
 * driver (esbuild's own record of each output's inputs) and name no test command or report field (their text, as
 * the .vsix check reads it). A development build takes every driver, so the check can fail.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { BuildOptions, BuildResult, Metafile } from 'esbuild';
import { parseRankModule } from '../../../src/core/tokenizers/tiktoken/ranks';
import { TEST_SEAM_TRACES } from '../../package/vsixRules';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');

interface Build {
  bundles(production: boolean): Record<string, BuildOptions>;
  testOnlyCode(metafile: Metafile): string[];
  TEST_ONLY: RegExp;
}

const load = async (): Promise<Build> => (await import(path.join(REPO_ROOT, 'esbuild.mjs'))) as Build;

/** The bundles that carry the repository's code (not the copied libraries), built in memory. */
async function build(production: boolean): Promise<BuildResult<{ metafile: true; write: false }>[]> {
  const esbuild = await import('esbuild');
  const { bundles } = await load();
  const all = bundles(production);
  return Promise.all(
    ['node', 'web', 'pages'].map((name) => esbuild.build({ ...all[name], absWorkingDir: REPO_ROOT, metafile: true, write: false })),
  );
}

/** Every test-only module of src/, as the metafile names it. */
function driverFiles(pattern: RegExp, dir = 'src'): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((item) => {
    const file = `${dir}/${item.name}`;
    return item.isDirectory() ? driverFiles(pattern, file) : pattern.test(file) ? [file] : [];
  });
}

test('the release bundles carry no test driver: no code of one, no test command, no report field', async () => {
  const { testOnlyCode } = await load();
  const results = await build(true);
  assert.deepEqual(
    results.flatMap((r) => testOnlyCode(r.metafile)),
    [],
    'driver code in a release bundle',
  );
  const traces = results
    .flatMap((r) => r.outputFiles)
    .filter((f) => f.path.endsWith('.js'))
    .flatMap((f) => {
      const found = TEST_SEAM_TRACES.exec(f.text);
      return found ? [`${path.relative(REPO_ROOT, f.path)}: ${found[0]}`] : [];
    });
  assert.deepEqual(traces, [], 'test traces in a release bundle');
});

test('a development build takes every driver, so the check above can fail', async () => {
  const { testOnlyCode, TEST_ONLY } = await load();
  const drivers = driverFiles(TEST_ONLY);
  assert.ok(drivers.length >= 12, `the drivers found: ${drivers.join(', ')}`);
  const taken = new Set((await build(false)).flatMap((r) => testOnlyCode(r.metafile)).map((line) => line.split(': ')[1]));
  assert.deepEqual(
    drivers.filter((file) => !taken.has(file)),
    [],
    'drivers no bundle takes (not registered from their feature?)',
  );
});

test('the release build writes rank files the extension reads: each parses as a rank file, as in development', async () => {
  const esbuild = await import('esbuild');
  for (const production of [true, false]) {
    const options = (await load()).bundles(production).ranks;
    const result = await esbuild.build({ ...options, absWorkingDir: REPO_ROOT, write: false });
    assert.ok(result.outputFiles.length >= 4, 'the rank files built');
    for (const file of result.outputFiles) {
      const parsed = parseRankModule(file.text);
      assert.ok(parsed.bpe_ranks.length > 100_000, `${path.basename(file.path)} (production ${production}): its ranks`);
    }
  }
});
