import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkVsix, type VsixEntry, type VsixExpectations } from '../../test/package/vsixRules';

const exp: VsixExpectations = { rankFiles: ['cl100k_base', 'r50k_base'], icon: 'media/icon.png', maxBytes: 1_000_000 };
const bytes = (seed: string, size = 2048) => Buffer.alloc(size, seed);

function good(): VsixEntry[] {
  return [
    ['[Content_Types].xml', 'a'], ['extension.vsixmanifest', 'b'], ['extension/package.json', 'c'],
    ['extension/readme.md', 'd'], ['extension/changelog.md', 'e'], ['extension/LICENSE.txt', 'f'],
    ['extension/dist/extension.js', 'g'], ['extension/dist/ranks/cl100k_base.js', 'h'], ['extension/dist/ranks/r50k_base.js', 'i'],
    ['extension/media/icon.png', 'j'], ['extension/media/inspector.css', 'k'], ['extension/media/build/inspector.js', 'l'],
    ['extension/media/languages/poscar.tmLanguage.json', 'm'], ['extension/package.nls.json', 'n'],
  ].map(([name, seed]) => ({ name: name!, data: bytes(seed!) }));
}

const problemsWith = (extra: VsixEntry[], base = good()) => checkVsix([...base, ...extra], exp, 500_000);

test('a package with only what the extension runs passes', () => {
  assert.deepEqual(checkVsix(good(), exp, 500_000), []);
});

test('what must never ship fails with its reason', () => {
  const cases: [string, RegExp][] = [
    ['extension/dist/extension.js.map', /source map/],
    ['extension/media/build/inspector.js.map', /source map/],
    ['extension/out/test/unit/engine.test.js', /tests/],
    ['extension/src/extension.ts', /src/],
    ['extension/dist/server/main.js', /reference server/],
    ['extension/dist/cli.js', /command-line tool/],
    ['extension/test/fixtures/workspace/POSCAR', /tests|fixtures/],
    ['extension/.vscode-test/code-server/x.js', /\.vscode-test/],
    ['extension/node_modules/undici/index.js', /node_modules/],
    ['extension/.vscode/launch.json', /repository metadata/],
    ['extension/token-lens.vsix', /nested/],
  ];
  for (const [name, reason] of cases) {
    const problems = problemsWith([{ name, data: bytes('z', 10) }]);
    assert.equal(problems.length, 1, `${name}: ${problems.join('; ')}`);
    assert.match(problems[0]!, reason, name);
    assert.ok(problems[0]!.startsWith(name));
  }
});

test('anything not on the allow-list is unexpected', () => {
  for (const name of ['extension/notes.txt', 'extension/media/screenshots/inspector.png', 'extension/media/icon.svg', 'extension/dist/other.js']) {
    const problems = problemsWith([{ name, data: bytes('z', 10) }]);
    assert.deepEqual(problems.map((p) => p.includes('unexpected file')), [true], name);
  }
});

test('a rank file the loader does not read, or the same bytes twice, fails', () => {
  const dup = { name: 'extension/dist/ranks/gpt2.js', data: bytes('i') }; // same bytes as r50k_base.js
  const problems = problemsWith([dup]);
  assert.ok(problems.some((p) => /gpt2\.js: unexpected/.test(p)), problems.join('; '));
  assert.ok(problems.some((p) => /gpt2\.js: same content as extension\/dist\/ranks\/r50k_base\.js/.test(p)), problems.join('; '));
});

test('missing pieces, a missing icon, a development bundle and an oversized package fail', () => {
  const withoutRanks = good().filter((e) => !e.name.endsWith('r50k_base.js'));
  assert.deepEqual(checkVsix(withoutRanks, exp, 500_000), ['extension/dist/ranks/r50k_base.js: missing']);

  const noIcon = good().filter((e) => !e.name.endsWith('icon.png'));
  assert.ok(checkVsix(noIcon, { ...exp, icon: undefined }, 1).includes('package.json has no icon'));

  const dev = good().map((e) => (e.name.endsWith('extension.js') ? { ...e, data: Buffer.from('x();\n//# sourceMappingURL=extension.js.map\n') } : e));
  assert.deepEqual(checkVsix(dev, exp, 1).map((p) => /development build/.test(p)), [true]);

  assert.deepEqual(checkVsix(good(), exp, 1_000_001), ['the .vsix is 1000001 bytes, over the budget of 1000000']);
});
