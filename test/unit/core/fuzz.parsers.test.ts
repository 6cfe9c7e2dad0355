/**
 * The POSCAR and diffraction-data parsers are total and near-linear, on text no one here wrote:
 * seeded mutations (fast-check) of the fixtures and of ASE's own POSCARs (when python3-ase is there),
 * and the hostile cases found by fuzzing. Invariants: no throw, every diagnostic inside the document,
 * no NaN or Infinity in a structure or its summary, and a parse time that grows linearly with the atoms.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseDiffraction } from '../../../src/core/diffraction/parse';
import { parsePoscar, summarize } from '../../../src/core/poscar/index';
import { aseStructures } from '../../support/aseOracle';
import { linearRatio } from '../../support/linearity';
import { LAYOUTS, layoutPoscar } from '../../support/poscarLayouts';
import { HOSTILE_VALUES, lineMutation, mutateLines, randomLines, type LineMutation } from '../../support/lineMutations';

const FIXTURES = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures');
const read = (dir: string, name: string) => readFileSync(join(FIXTURES, dir, name), 'utf8');
const POSCARS = [
  ...readdirSync(join(FIXTURES, 'poscar')).map((name) => read('poscar', name)),
  ...['POSCAR', 'POSCAR_broken', 'CONTCAR.relax', 'GaAs.vasp', 'NaCl.vasp', 'Si.vasp'].map((name) => read('workspace', name)),
];
const XY = readdirSync(join(FIXTURES, 'diffraction')).map((name) => read('diffraction', name));
const SEED = 20261124;

const lineLengths = (text: string) => text.split(/\r\n|\r|\n/).map((l) => l.length);

function assertInside(text: string, ranges: { line: number; start: number; end: number }[]): void {
  const lengths = lineLengths(text);
  for (const r of ranges) {
    assert.ok(r.line >= 0 && r.line < lengths.length, `line ${r.line} of ${lengths.length}`);
    assert.ok(r.start >= 0 && r.start <= r.end && r.end <= lengths[r.line]!, `columns ${r.start}-${r.end} on a line of ${lengths[r.line]}`);
  }
}

const finite = (values: unknown[], what: string) =>
  values.forEach((v) => assert.ok(typeof v !== 'number' || Number.isFinite(v), `${what}: ${String(v)}`));

function checkPoscar(text: string): void {
  const { poscar, diagnostics } = parsePoscar(text);
  assertInside(
    text,
    diagnostics.map((d) => d.range),
  );
  if (!poscar) return;
  finite(poscar.lattice.flat(), 'lattice');
  for (const site of poscar.sites) finite([...site.frac, ...site.cart], `site on line ${site.line + 1}`);
  finite(Object.values(summarize(poscar)), 'summary');
}

function checkDiffraction(text: string): void {
  const { points, diagnostics } = parseDiffraction(text);
  assertInside(text, diagnostics);
  for (const p of points) finite([p.angle, p.intensity], `point on line ${p.line + 1}`);
}

/** HOSTILE_VALUES and the POSCAR and diffraction parsers' own: separators, flags and keywords, a bare exponent. */
const HOSTILE = [
  ...HOSTILE_VALUES,
  '1e200',
  '1e-100',
  '-1e-300',
  ',',
  ';',
  ',,;;',
  'T',
  '.FALSE.',
  'Direct',
  'Cartesian',
  'Selective',
  '-',
  'e5',
];

const mutation = lineMutation(HOSTILE);
const mutate = (text: string, ms: readonly LineMutation[]): string => mutateLines(text, ms, /(\s+|,|;)/);

test('fuzz: mutated POSCARs never throw, keep every problem inside the document and every number finite', () => {
  fc.assert(
    fc.property(fc.constantFrom(...POSCARS), fc.array(mutation, { minLength: 1, maxLength: 6 }), (text, ms) =>
      checkPoscar(mutate(text, ms)),
    ),
    { seed: SEED, numRuns: 3000 },
  );
});

test('fuzz: mutated diffraction files never throw, keep every problem inside the document and every number finite', () => {
  fc.assert(
    fc.property(fc.constantFrom(...XY), fc.array(mutation, { minLength: 1, maxLength: 6 }), (text, ms) =>
      checkDiffraction(mutate(text, ms)),
    ),
    { seed: SEED, numRuns: 1500 },
  );
});

test('every fixture truncated at every character parses within the invariants', () => {
  for (const text of POSCARS) for (let k = 0; k <= text.length; k++) checkPoscar(text.slice(0, k));
  for (const text of XY.filter((t) => t.length < 2000)) for (let k = 0; k <= text.length; k++) checkDiffraction(text.slice(0, k));
});

test('random text, random lines of numbers: never a throw', () => {
  fc.assert(
    fc.property(randomLines(HOSTILE), (text) => {
      checkPoscar(text);
      checkDiffraction(text);
    }),
    { seed: SEED, numRuns: 2000 },
  );
});

test("ASE's POSCARs (bulk crystals, molecules, surfaces written by ase.io.write) parse with no error, mutated ones within the invariants", (t) => {
  const structures = aseStructures();
  if (!structures)
    return t.skip('SKIPPED LOUDLY: python3-ase is not installed (apt-get install python3-ase), so the POSCARs ASE writes were not fuzzed');
  for (const s of structures) {
    const { poscar, diagnostics } = parsePoscar(s.poscar);
    assert.deepEqual(
      diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
      [],
      s.name,
    );
    assert.equal(poscar!.sites.length, s.atoms, s.name);
  }
  fc.assert(
    fc.property(fc.constantFrom(...structures.map((s) => s.poscar)), fc.array(mutation, { minLength: 1, maxLength: 4 }), (text, ms) =>
      checkPoscar(mutate(text, ms)),
    ),
    { seed: SEED, numRuns: 1500 },
  );
});

test('the hostile cases found by fuzzing: errors on their line, never a hang', () => {
  const base = ['hostile', '1.0', '5 0 0', '0 5 0', '0 0 5', 'Si', '2', 'Direct', '0 0 0', '0.5 0.5 0.5'];
  const withLines = (edits: Record<number, string>) => base.map((l, i) => edits[i] ?? l).join('\n');
  const codes = (text: string) =>
    parsePoscar(text)
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => `${d.range.line + 1}:${d.code}`);
  assert.deepEqual(codes(withLines({ 2: '1e200 0 0', 3: '0 1e-100 0', 4: '0 0 1e-100' })), ['3:lattice-overflow']);
  assert.deepEqual(codes(withLines({ 1: '-1e-300' })), ['3:lattice-singular']);
  assert.deepEqual(codes(withLines({ 3: '0 1e-5 0' })), ['3:lattice-thin']);
  assert.deepEqual(codes(withLines({ 8: '1e308 0 0' })), ['9:coordinates-too-large']);
  assert.deepEqual(codes(withLines({ 7: 'Cartesian', 9: '1e308 1e308 1e308' })), ['10:coordinates-too-large']);
  for (const line of [',', ',,;;', ' , ; ']) {
    // a line starting with ';' is a comment
    const { diagnostics } = parseDiffraction(`28.4 100\n${line}\n47.3 55\n`);
    assert.deepEqual(
      diagnostics.map((d) => [d.line, d.code]),
      [[1, 'not-two-numbers']],
      JSON.stringify(line),
    );
  }
});

test('200,000 bad lines give at most 1,001 problems, the last one counting the rest', () => {
  const poscar = parsePoscar(['x', '1', '3 0 0', '0 3 0', '0 0 3', 'Si', '200000', 'Direct', ...Array(200_000).fill('a b c')].join('\n'));
  assert.equal(poscar.diagnostics.length, 1001);
  assert.match(poscar.diagnostics.at(-1)!.message, /and 199000 more problems not shown/);
  const xy = parseDiffraction(Array(200_000).fill(',').join('\n'));
  assert.equal(xy.diagnostics.length, 1001);
});

test('parse time grows linearly with the atoms in every layout (16× the atoms: well under 16² the time)', async () => {
  for (const layout of LAYOUTS) {
    const [small, large] = [layoutPoscar(layout, 2_000), layoutPoscar(layout, 32_000)];
    // Linear is 16×, quadratic 256×; 64× leaves room for caches and garbage collection.
    const { ratio, message } = await linearRatio({ what: `${layout}: 16× the atoms`, run: parsePoscar, small, large, limit: 64 });
    assert.ok(ratio < 64, message);
  }
});
