import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { readZip } from '../../package/checkVsix';
import { checkVsix, type VsixEntry, type VsixExpectations } from '../../package/vsixRules';

const exp: VsixExpectations = { rankFiles: ['cl100k_base', 'r50k_base'], icon: 'media/icon.png', maxBytes: 1_000_000 };
const bytes = (seed: string, size = 2048) => Buffer.alloc(size, seed);

function good(): VsixEntry[] {
  return [
    ['[Content_Types].xml', 'a'],
    ['extension.vsixmanifest', 'b'],
    ['extension/package.json', 'c'],
    ['extension/readme.md', 'd'],
    ['extension/changelog.md', 'e'],
    ['extension/LICENSE.txt', 'f'],
    ['extension/dist/extension.js', 'g'],
    ['extension/dist/ranks/cl100k_base.js', 'h'],
    ['extension/dist/ranks/r50k_base.js', 'i'],
    ['extension/media/icon.png', 'j'],
    ['extension/media/inspector.css', 'k'],
    ['extension/media/build/inspector.js', 'l'],
    ['extension/media/languages/poscar.tmLanguage.json', 'm'],
    ['extension/package.nls.json', 'n'],
    ['extension/dist/web/extension.js', 'o'],
    ['extension/dist/undici.js', 'p'],
    ['extension/dist/server/main.js', 'q'],
    ['extension/dist/server/worker.js', 'r'],
    ['extension/dist/features/chat/renderWorker.js', 's'],
    ['extension/dist/symmetryWorker.js', 'v'],
    ['extension/dist/moyo.js', 't'],
    ['extension/dist/moyo_wasm_bg.wasm', 'u'],
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
    ['extension/dist/web/extension.js.map', /source map/],
    ['extension/out/test/unit/engine.test.js', /tests/],
    ['extension/src/extension.ts', /src/],
    ['extension/dist/server/main.js.map', /source map|reference server/],
    ['extension/dist/server/app.js', /reference server/],
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
  for (const name of [
    'extension/notes.txt',
    'extension/media/screenshots/inspector.png',
    'extension/media/icon.svg',
    'extension/dist/other.js',
    'extension/dist/web/ranks.json',
  ]) {
    const problems = problemsWith([{ name, data: bytes('z', 10) }]);
    assert.deepEqual(
      problems.map((p) => p.includes('unexpected file')),
      [true],
      name,
    );
  }
});

test('a rank file the loader does not read, or the same bytes twice, fails', () => {
  const dup = { name: 'extension/dist/ranks/gpt2.js', data: bytes('i') }; // same bytes as r50k_base.js
  const problems = problemsWith([dup]);
  assert.ok(
    problems.some((p) => /gpt2\.js: unexpected/.test(p)),
    problems.join('; '),
  );
  assert.ok(
    problems.some((p) => /gpt2\.js: same content as extension\/dist\/ranks\/r50k_base\.js/.test(p)),
    problems.join('; '),
  );
});

test('missing pieces, a missing icon, a development bundle and an oversized package fail', () => {
  const withoutRanks = good().filter((e) => !e.name.endsWith('r50k_base.js'));
  assert.deepEqual(checkVsix(withoutRanks, exp, 500_000), ['extension/dist/ranks/r50k_base.js: missing']);

  const noIcon = good().filter((e) => !e.name.endsWith('icon.png'));
  assert.ok(checkVsix(noIcon, { ...exp, icon: undefined }, 1).includes('package.json has no icon'));

  const dev = good().map((e) =>
    e.name === 'extension/dist/extension.js' ? { ...e, data: Buffer.from('x();\n//# sourceMappingURL=extension.js.map\n') } : e,
  );
  assert.deepEqual(
    checkVsix(dev, exp, 1).map((p) => /development build/.test(p)),
    [true],
  );

  assert.deepEqual(checkVsix(good(), exp, 1_000_001), ['the .vsix is 1000001 bytes, over the budget of 1000000']);
});

test("a bundle built with the test hooks (a hidden test command, the page's report) fails", () => {
  for (const trace of ['registerCommand("tokenLens.results.test",', '<body data-test-mode="1">', '{sinceReadyMs:Math.round(t)}']) {
    const built = good().map((e) =>
      e.name === 'extension/dist/extension.js' ? { ...e, data: Buffer.from(`x(${JSON.stringify(trace)});`) } : e,
    );
    assert.deepEqual(
      checkVsix(built, exp, 1).map((p) => /holds test hooks/.test(p)),
      [true],
      trace,
    );
  }
});

/** A little-endian record: [offset, bytes (2 or 4), value] fields in a zeroed buffer. */
function record(size: number, fields: [number, 2 | 4, number][]): Buffer {
  const b = Buffer.alloc(size);
  for (const [at, bytes, value] of fields) {
    if (bytes === 4) b.writeUInt32LE(value, at);
    else b.writeUInt16LE(value, at);
  }
  return b;
}

/** A zip as vsce writes one: local headers, then the central directory, then its end record. */
function zip(files: { name: string; data: Buffer; deflate: boolean }[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const body = f.deflate ? deflateRawSync(f.data) : f.data;
    const name = Buffer.from(f.name);
    const method = f.deflate ? 8 : 0;
    const local = record(30, [
      [0, 4, 0x04034b50],
      [8, 2, method],
      [18, 4, body.length],
      [22, 4, f.data.length],
      [26, 2, name.length],
    ]);
    const dir = record(46, [
      [0, 4, 0x02014b50],
      [10, 2, method],
      [20, 4, body.length],
      [24, 4, f.data.length],
      [28, 2, name.length],
      [42, 4, offset],
    ]);
    locals.push(local, name, body);
    central.push(dir, name);
    offset += local.length + name.length + body.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = record(22, [
    [0, 4, 0x06054b50],
    [8, 2, files.length],
    [10, 2, files.length],
    [12, 4, dirBytes.length],
    [16, 4, offset],
  ]);
  return Buffer.concat([...locals, dirBytes, end]);
}

test('readZip returns every entry with its bytes, stored or deflated', () => {
  const text = Buffer.from('module.exports = 1;\n'.repeat(200));
  const entries = readZip(
    zip([
      { name: 'extension/package.json', data: Buffer.from('{"icon":"media/icon.png"}'), deflate: false },
      { name: 'extension/dist/extension.js', data: text, deflate: true },
    ]),
  );
  assert.deepEqual(
    entries.map((e) => e.name),
    ['extension/package.json', 'extension/dist/extension.js'],
  );
  assert.equal(entries[0]!.data.toString(), '{"icon":"media/icon.png"}');
  assert.ok(entries[1]!.data.equals(text));
  assert.throws(() => readZip(Buffer.from('not a zip')), /not a zip/);
});
