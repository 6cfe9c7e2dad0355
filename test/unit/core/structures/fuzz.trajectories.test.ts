/**
 * readXyz and readXdatcar are total and near-linear, on text no one here wrote: seeded mutations
 * (fast-check) of small hand-written samples and of the real files in Debian's pymatgen-test-files (every
 * XDATCAR* and *.xyz under /usr/share/doc/pymatgen-test-files/examples/test_files below 50 kB, MIT, read
 * where the package puts them), random text, and hostile counts. Invariants: no throw, every diagnostic and
 * outline entry inside the document, every number finite, one species per position, and a read time that
 * grows linearly with the frames.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { readXdatcar } from '../../../../src/core/structures/xdatcar/index';
import type { OutlineEntry, StructureFile } from '../../../../src/core/structures/types';
import { readXyz, writeExtxyz } from '../../../../src/core/structures/xyz/index';
import { HOSTILE_VALUES, lineMutation, mutateLines, randomLines, type LineMutation } from '../../../support/lineMutations';
import { linearRatio } from '../../../support/linearity';

const SEED = 20261127;
const PYMATGEN_FILES = '/usr/share/doc/pymatgen-test-files/examples/test_files';

const XYZ_SAMPLES = [
  '3\nwater\nO 0 0 0.119\nH 0 0.763 -0.477\nH 0 -0.763 -0.477\n',
  '2\nLattice="4 0 0 0 4 0 0 0 4" Properties=species:S:1:pos:R:3:forces:R:3 energy=-3.5 stress="1 0 0 0 1 0 0 0 1" pbc="T T F"\nNa 0 0 0 0.1 0 0\nCl 2 2 2 -0.1 0 0\n1\n{a} b="c d"\n8 0 0 0\n',
];
const XDATCAR_SAMPLES = [
  'LiO\n1.0\n4 0 0\n0 4 0\n0 0 4\nLi O\n2 1\nDirect configuration= 1\n0 0 0\n0.5 0.5 0.5\n0.25 0.25 0.25\nDirect configuration= 2\n0 0 0.01\n0.5 0.5 0.5\n0.25 0.25 0.25\n',
  'v\n1.0\n4 0 0\n0 4 0\n0 0 4\nSi\n1\nDirect configuration= 1\n0 0 0\nv\n1.0\n4.1 0 0\n0 4 0\n0 0 4\nSi\n1\nDirect configuration= 2\n0 0 0\n',
  'Li O\n1.0\n4 0 0\n0 4 0\n0 0 4\n2 1\n\n0 0 0\n0.5 0.5 0.5\n0.25 0.25 0.25\n\n0 0 0\n0.5 0.5 0.5\n0.25 0.25 0.25\n',
];

function realFiles(): { xyz: string[]; xdatcar: string[] } {
  const out = { xyz: [] as string[], xdatcar: [] as string[] };
  if (!existsSync(PYMATGEN_FILES)) return out;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.size < 50_000 && /XDATCAR/.test(name)) out.xdatcar.push(readFileSync(path, 'utf8'));
      else if (stat.size < 50_000 && name.endsWith('.xyz')) out.xyz.push(readFileSync(path, 'utf8'));
    }
  };
  walk(PYMATGEN_FILES);
  return out;
}

/** HOSTILE_VALUES and the XYZ and XDATCAR readers' own: an 11-digit count, quotes and braces, broken extended-XYZ keys, an empty line. */
const HOSTILE = [
  ...HOSTILE_VALUES,
  '99999999999',
  '"',
  '{',
  '}',
  '=',
  '\\',
  'Lattice="1 2',
  'pbc=',
  'Properties=pos:R:3',
  'Properties=species:S:1:pos:R:999999',
  'stress="1e308 0 0 0 0 0 0 0 0"',
  'Direct configuration=',
  'X',
  '',
];

const mutation = lineMutation(HOSTILE);
const mutate = (text: string, ms: readonly LineMutation[]): string => mutateLines(text, ms, /(\s+|=|")/);

function check(text: string, read: (t: string) => StructureFile): StructureFile {
  const r = read(text);
  const lengths = text.split(/\r\n|\r|\n/).map((l) => l.length);
  for (const d of r.diagnostics) {
    const { line, start, end } = d.range;
    assert.ok(
      line >= 0 && line < lengths.length && start >= 0 && start <= end && end <= lengths[line]!,
      `${d.code} at ${line}:${start}-${end}`,
    );
    assert.ok(d.message.startsWith(`Line ${line + 1}: `), d.message);
  }
  const inside = (entries: OutlineEntry[]): void =>
    entries.forEach((e) => {
      assert.ok(e.lines.first >= 0 && e.lines.first <= e.lines.last && e.lines.last < lengths.length, `${e.name}`);
      inside(e.children ?? []);
    });
  inside(r.outline);
  for (const f of r.frames) {
    assert.equal(f.species.length, f.positions.length);
    const numbers = [
      ...(f.lattice?.flat() ?? []),
      ...f.positions.flat(),
      ...(f.forces?.flat() ?? []),
      ...(f.stress?.flat() ?? []),
      f.energy ?? 0,
    ];
    assert.ok(numbers.every(Number.isFinite), 'finite');
    if (f.forces) assert.equal(f.forces.length, f.positions.length);
  }
  return r;
}

test('fuzz: mutated XYZ and extended XYZ files never throw and keep the invariants', () => {
  const samples = [...XYZ_SAMPLES, ...realFiles().xyz];
  fc.assert(
    fc.property(fc.constantFrom(...samples), fc.array(mutation, { minLength: 1, maxLength: 6 }), (text, ms) => {
      const r = check(mutate(text, ms), readXyz);
      // What the reader kept, written and read again, is the same frames.
      const again = readXyz(writeExtxyz(r.frames));
      assert.equal(again.frames.length, r.frames.length);
    }),
    { seed: SEED, numRuns: 2500 },
  );
});

test('fuzz: mutated XDATCARs never throw and keep the invariants', () => {
  const samples = [...XDATCAR_SAMPLES, ...realFiles().xdatcar];
  fc.assert(
    fc.property(fc.constantFrom(...samples), fc.array(mutation, { minLength: 1, maxLength: 6 }), (text, ms) => {
      check(mutate(text, ms), readXdatcar);
    }),
    { seed: SEED, numRuns: 2500 },
  );
});

test('every sample truncated at every character reads within the invariants', () => {
  for (const text of XYZ_SAMPLES) for (let k = 0; k <= text.length; k++) check(text.slice(0, k), readXyz);
  for (const text of XDATCAR_SAMPLES) for (let k = 0; k <= text.length; k++) check(text.slice(0, k), readXdatcar);
});

test('random text and random lines of numbers: never a throw', () => {
  fc.assert(
    fc.property(randomLines(HOSTILE), (text) => {
      check(text, readXyz);
      check(text, readXdatcar);
    }),
    { seed: SEED, numRuns: 2000 },
  );
});

test('hostile counts and lines: a clear error, no hang, no huge allocation', () => {
  // CPU time, which a machine busy with the editor lane does not stretch.
  const started = process.cpuUsage();
  const xd = check('h\n1\n1 0 0\n0 1 0\n0 0 1\nH He\n999999999999999 1\nDirect configuration= 1\n0 0 0\n', readXdatcar);
  assert.deepEqual(
    xd.diagnostics.map((d) => d.code),
    ['xdatcar-too-many-atoms'],
  );
  const xyz = check(`1000000\n${'{'.repeat(100_000)}\n${'H 0 0 0\n'.repeat(10)}`, readXyz);
  assert.deepEqual(
    xyz.diagnostics.map((d) => d.code),
    ['xyz-truncated'],
  );
  check(`3\nProperties=${'a:R:1:'.repeat(20_000)}pos:R:3\n`, readXyz);
  check('1\n\n' + '1\n'.repeat(200_000), readXyz);
  check('1\n1\n1 0 0\n0 1 0\n0 0 1\nH\n1\n' + '\n'.repeat(100_000) + '1e308 0 0\n', readXdatcar);
  const { user, system } = process.cpuUsage(started);
  assert.ok((user + system) / 1000 < 20_000, `${((user + system) / 1000).toFixed(0)} ms of CPU`);
});

test('the read time grows linearly with the frames (10× the frames, well under 30× the CPU time)', async () => {
  const frame = (k: number) =>
    `4\nLattice="5 0 0 0 5 0 0 0 5" Properties=species:S:1:pos:R:3:forces:R:3 energy=${-k}\n${'Si 0.1 0.2 0.3 0 0 0\n'.repeat(4)}`;
  const frames = (n: number) => Array.from({ length: n }, (_, k) => frame(k)).join('');
  const header = 'md\n1\n5 0 0\n0 5 0\n0 0 5\nSi\n4\n';
  const block = (k: number) => `Direct configuration= ${k + 1}\n${'0.1 0.2 0.3\n'.repeat(4)}`;
  const fixed = (n: number) => header + Array.from({ length: n }, (_, k) => block(k)).join('');
  const variable = (n: number) => Array.from({ length: n }, (_, k) => header + block(k)).join('');
  const readers = [
    ['extxyz', readXyz, frames],
    ['XDATCAR', readXdatcar, fixed],
    ['variable-cell XDATCAR', readXdatcar, variable],
  ] as const;
  for (const [what, run, make] of readers) {
    const { ratio, message } = await linearRatio({
      what: `${what}: 10× the frames`,
      run,
      small: make(1000),
      large: make(10_000),
      limit: 30,
    });
    assert.ok(ratio < 30, message);
  }
});
