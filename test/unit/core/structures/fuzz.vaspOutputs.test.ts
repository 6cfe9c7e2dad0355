/**
 * readOutcar and VasprunReader are total and near-linear on text no one here wrote: seeded mutations
 * (fast-check) of the samples written here (test/support/vaspSamples.ts) and of small real files from Debian's
 * pymatgen-test-files (pymatgen's test files, MIT; read where the package puts them: relaxation/OUTCAR,
 * relaxation/vasprun.xml, OUTCAR.etest1.gz, vasprun.xml.etest1.gz, vasprun.xml.indirect.gz; the real-file cases
 * skip loudly without the package), random text and markup, and hostile shapes (deep nesting, endless tags and
 * comments, a million lines). Invariants: no throw, every diagnostic inside the document, no NaN or Infinity
 * in a frame or the outcome, time linear in the size.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { readOutcar } from '../../../../src/core/structures/outcar/index';
import type { StructureFile } from '../../../../src/core/structures/types';
import { readVasprun, VasprunReader } from '../../../../src/core/structures/vasprun/index';
import { sampleOutcar, sampleSteps, sampleVasprun } from '../../../support/vaspSamples';
import { linearRatio } from '../../../support/linearity';
import { HOSTILE_VALUES, lineMutation, mutateLines, type LineMutation } from '../../../support/lineMutations';

const SEED = 20261127;
const ROOT = '/usr/share/doc/pymatgen-test-files/examples/test_files';
const MISSING = "pymatgen's test files not installed: apt-get install pymatgen-test-files";
const real = (name: string) => {
  const bytes = readFileSync(join(ROOT, name));
  return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('latin1');
};
const HAVE_REAL = existsSync(ROOT);

const OUTCARS = [sampleOutcar({ steps: sampleSteps(3) }), ...(HAVE_REAL ? ['relaxation/OUTCAR', 'OUTCAR.etest1.gz'].map(real) : [])];
const VASPRUNS = [
  sampleVasprun({
    steps: sampleSteps(3),
    efermi: 1,
    eigenvalues: [
      [
        [
          [0, 1],
          [2, 0],
        ],
      ],
      [
        [
          [0.5, 1],
          [1.5, 0],
        ],
      ],
    ],
    selective: ['T T T', 'F F F', 'T F T'],
  }),
  ...(HAVE_REAL ? ['relaxation/vasprun.xml', 'vasprun.xml.etest1.gz', 'vasprun.xml.indirect.gz'].map(real) : []),
];

/** HOSTILE_VALUES and the OUTCAR and vasprun readers' own: Fortran overflow, markup, line ends and the keys the readers look for. */
const HOSTILE = [
  ...HOSTILE_VALUES,
  '*********',
  '<',
  '>',
  '</',
  '/>',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<?',
  '?>',
  '"',
  "'",
  '&amp;',
  '&',
  '\r',
  '\r\n',
  'POSITION',
  'TOTAL-FORCE',
  'FREE ENERGIE OF THE ION-ELECTRON SYSTEM',
  'direct lattice vectors',
  'in kB',
  'TOTEN',
  'ions per type =',
  '<calculation>',
  '</calculation>',
  '<structure>',
  '<varray name="positions" >',
  '<set comment="spin 2">',
  '<eigenvalues>',
  '<r>',
  '<v>',
  '<i name="efermi">',
  '</modeling>',
];

const mutation = lineMutation(HOSTILE, { insert: true });
const mutate = (text: string, ms: readonly LineMutation[]): string => mutateLines(text, ms, /(\s+|<|>)/);

const finite = (values: unknown[], what: string) =>
  values.forEach((v) => assert.ok(typeof v !== 'number' || Number.isFinite(v), `${what}: ${String(v)}`));

function check(text: string, file: StructureFile): void {
  const lengths = text.split(/\r\n|\r|\n/).map((l) => l.length);
  for (const d of file.diagnostics) {
    const r = d.range;
    assert.ok(r.line >= 0 && r.line < lengths.length, `${d.code}: line ${r.line} of ${lengths.length}`);
    assert.ok(
      r.start >= 0 && r.start <= r.end && r.end <= lengths[r.line]!,
      `${d.code}: columns ${r.start}-${r.end} on a line of ${lengths[r.line]}`,
    );
    assert.match(d.message, new RegExp(`^Line ${r.line + 1}: `));
  }
  for (const frame of file.frames) {
    assert.equal(frame.species.length, frame.positions.length);
    finite(
      [
        ...(frame.lattice ?? []).flat(),
        ...frame.positions.flat(),
        ...(frame.forces ?? []).flat(),
        ...(frame.stress ?? []).flat(),
        frame.energy,
        frame.freeEnergy,
      ],
      frame.title,
    );
    if (frame.forces) assert.equal(frame.forces.length, frame.positions.length);
    if (frame.free) assert.equal(frame.free.length, frame.positions.length);
  }
  const o = file.outcome;
  if (o) finite([o.ediffg, o.fermi, o.bandGap?.gap, o.bandGap?.cbm, o.bandGap?.vbm], 'outcome');
}

test('fuzz: mutated OUTCARs never throw, keep every problem inside the document and every number finite', (t) => {
  if (!HAVE_REAL) t.diagnostic(`only the samples written here: ${MISSING}`);
  fc.assert(
    fc.property(fc.constantFrom(...OUTCARS), fc.array(mutation, { minLength: 1, maxLength: 6 }), (text, ms) => {
      const mutated = mutate(text, ms);
      check(mutated, readOutcar(mutated));
    }),
    { seed: SEED, numRuns: 400 },
  );
});

test('fuzz: mutated vasprun.xml never throws, in one push or in random slices, with the same result', (t) => {
  if (!HAVE_REAL) t.diagnostic(`only the samples written here: ${MISSING}`);
  fc.assert(
    fc.property(
      fc.constantFrom(...VASPRUNS),
      fc.array(mutation, { minLength: 1, maxLength: 6 }),
      fc.array(fc.nat(), { maxLength: 8 }),
      (text, ms, cuts) => {
        const mutated = mutate(text, ms);
        const whole = readVasprun(mutated);
        check(mutated, whole);
        const reader = new VasprunReader();
        let from = 0;
        for (const cut of [...new Set(cuts.map((c) => c % (mutated.length + 1)))].sort((a, b) => a - b)) {
          reader.push(mutated.slice(from, cut));
          from = cut;
        }
        reader.push(mutated.slice(from));
        assert.deepEqual(reader.finish(), whole);
      },
    ),
    { seed: SEED, numRuns: 400 },
  );
});

test('fuzz: random text and random markup never throw', () => {
  const markup = fc
    .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 8 }), fc.constantFrom('<a>', '</a>', '<b x="1">', '<c/>', '\n')), {
      maxLength: 200,
    })
    .map((parts) => parts.join(''));
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 2000 }), fc.string({ unit: 'binary', maxLength: 500 }), markup), (text) => {
      check(text, readOutcar(text));
      check(text, readVasprun(text));
    }),
    { seed: SEED, numRuns: 1500 },
  );
});

test('hostile shapes are read in time linear in their size (8× the size: well under 8² the time)', async () => {
  const shapes: [string, (n: number) => string, (text: string) => StructureFile][] = [
    ['vasprun: deep nesting', (n) => `<modeling>${'<a>'.repeat(n)}`, readVasprun],
    ['vasprun: a tag that never ends', (n) => `<modeling><a b="${'x'.repeat(n)}`, readVasprun],
    ['vasprun: a comment that never ends', (n) => `<modeling><!--${'-'.repeat(n)}`, readVasprun],
    ['vasprun: stray end tags', (n) => `<modeling>${'</x>'.repeat(n)}`, readVasprun],
    ['vasprun: one long value', (n) => `<modeling><atominfo><array name="atoms"><set><rc><c>${'x'.repeat(n)}`, readVasprun],
    ['vasprun: lone carriage returns', (n) => `<modeling>${'\r<a>'.repeat(n)}`, readVasprun],
    ['OUTCAR: lines of dashes', (n) => ` POSITION  TOTAL-FORCE\n${'-'.repeat(20)}\n${'1 2 3 4 5 6\n'.repeat(n / 10)}`, readOutcar],
    [
      'OUTCAR: energy blocks without positions',
      (n) => '  FREE ENERGIE OF THE ION-ELECTRON SYSTEM\n  free  energy   TOTEN  = 1 eV\n Iteration\n'.repeat(n / 60),
      readOutcar,
    ],
  ];
  for (const [name, make, read] of shapes) {
    // Sizes where V8's own string search is past its short-text strategy (indexOf('-->') on 100k characters is
    // 20× faster per character than on 400k) and the processor's cache: 8× the size, linear is 8×, quadratic 64×.
    const [small, large] = [make(400_000), make(3_200_000)];
    const { ratio, message } = await linearRatio({ what: `${name}: 8× the size`, run: read, small, large, limit: 32 });
    assert.ok(ratio < 32, message);
  }
});

test('a vasprun.xml of many steps pushed in small slices takes time linear in its size', async () => {
  const sliced = (text: string) => {
    const reader = new VasprunReader();
    for (let i = 0; i < text.length; i += 997) reader.push(text.slice(i, i + 997));
    reader.finish();
  };
  const [small, large] = [sampleVasprun({ steps: sampleSteps(100) }), sampleVasprun({ steps: sampleSteps(1600) })];
  const { ratio, message } = await linearRatio({ what: '16× the steps', run: sliced, small, large, limit: 64 });
  assert.ok(ratio < 64, message);
});

test("a vasprun.xml tag's attributes are read in time linear in the tag's length", async () => {
  // Long names with an '=' and no value: an unanchored attribute regex retried the name from each of its characters.
  const tags = (length: number) => `<modeling><atominfo>${`<array ${'a'.repeat(length)}=></array>`.repeat(200)}</atominfo></modeling>`;
  const { ratio, message } = await linearRatio({ what: '8× the tag', run: readVasprun, small: tags(400), large: tags(3200), limit: 32 });
  assert.ok(ratio < 32, message);
});
