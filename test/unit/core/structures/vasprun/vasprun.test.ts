/**
 * VasprunReader / readVasprun on vasprun.xml texts written here (test/support/vaspSamples.ts): the values read,
 * the band gap worked by hand the way pymatgen's eigenvalue_band_properties defines it, every diagnostic on
 * its tag, and the property the editor relies on: any cutting of the text into slices gives the same
 * StructureFile as one push.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fracToCart } from '../../../../../src/core/poscar/structure';
import type { Mat3, Vec3 } from '../../../../../src/core/poscar/types';
import { MAX_DEPTH, MAX_VALUE, readVasprun, VasprunReader } from '../../../../../src/core/structures/vasprun/index';
import { MAX_TAG, XmlTokenizer } from '../../../../../src/core/structures/vasprun/xml';
import { covered, onlyDiagnostic } from '../../../../support/readerDiagnostics';
import { sampleSteps, sampleVasprun, SI_O2_LATTICE } from '../../../../support/vaspSamples';

const only = (text: string, code: string) => onlyDiagnostic(readVasprun, text, code);

/** Spin up and down, two k-points each: worked by hand below. */
const SPIN_EIGENVALUES = [
  [
    [
      [-5, 1],
      [1, 1],
      [3, 0],
    ],
    [
      [-4, 1],
      [1.5, 1],
      [2.5, 0],
    ],
  ],
  [
    [
      [-5, 1],
      [0.5, 1],
      [2, 0],
    ],
    [
      [-4, 1],
      [1.2, 1],
      [4, 0],
    ],
  ],
];

test('vasprun.xml: every step with structure, forces, stress and the energies ASE and pymatgen report', () => {
  const steps = sampleSteps(3);
  const text = sampleVasprun({ steps, efermi: 1.75, eigenvalues: SPIN_EIGENVALUES });
  const file = readVasprun(text);
  assert.deepEqual(file.diagnostics, []);
  assert.equal(file.format, 'vasprun');
  assert.equal(file.frames.length, 3, 'finalpos equals the last step: not repeated');
  file.frames.forEach((frame, s) => {
    const step = steps[s]!;
    assert.deepEqual(frame.lattice, SI_O2_LATTICE);
    assert.deepEqual(frame.species, ['Si', 'O', 'O']);
    assert.deepEqual(
      frame.positions,
      step.positions.map((p) => fracToCart(SI_O2_LATTICE as Mat3, p.map((x) => Number(x.toFixed(8))) as Vec3)),
    );
    assert.deepEqual(
      frame.forces,
      step.forces.map((p) => p.map((x) => Number(x.toFixed(8)))),
    );
    const [xx, yy, zz, xy, yz, zx] = step.stress.map((x) => Number(x.toFixed(8)));
    assert.deepEqual(frame.stress, [
      [xx, xy, zx],
      [xy, yy, yz],
      [zx, yz, zz],
    ]);
    // e_fr_energy + (e_0_energy - e_fr_energy) of the last electronic step: the step's own e_0_energy (0) is VASP's bug.
    assert.ok(Math.abs(frame.energy! - step.sigma0) < 1e-9, `${frame.energy} vs ${step.sigma0}`);
    assert.equal(frame.freeEnergy, Number(step.toten.toFixed(8)));
    assert.equal(frame.title, `step ${s + 1}`);
    assert.equal(frame.free, undefined);
  });
  assert.deepEqual(file.outcome, {
    ediffg: -0.02,
    converged: true,
    fermi: 1.75,
    // Overall: VBM 1.5 (spin up, k-point 2), CBM 2.0 (spin down, k-point 1): 0.5 eV, indirect.
    // Up: 1.5 and 2.5 at k-point 2: 1.0 eV direct. Down: 1.2 (k-point 2) and 2.0 (k-point 1): 0.8 eV indirect.
    bandGap: {
      gap: 0.5,
      direct: false,
      cbm: 2,
      vbm: 1.5,
      spins: [
        { gap: 1, direct: true, cbm: 2.5, vbm: 1.5 },
        { gap: 0.8, direct: false, cbm: 2, vbm: 1.2 },
      ],
    },
  });
  assert.deepEqual(
    file.outline.map((e) => e.name),
    ['step 1', 'step 2', 'step 3'],
  );
});

test('vasprun.xml: a metal (occupied states above empty ones) has gap 0, as pymatgen', () => {
  const file = readVasprun(
    sampleVasprun({
      eigenvalues: [
        [
          [
            [0, 1],
            [2, 0.5],
            [1, 0],
            [3, 0],
          ],
        ],
      ],
    }),
  );
  assert.deepEqual(file.outcome?.bandGap, { gap: 0, direct: true, cbm: 1, vbm: 2 });
});

test('vasprun.xml: the last <eigenvalues> block wins, and one with no empty state gives no gap', () => {
  const full = readVasprun(
    sampleVasprun({
      eigenvalues: [
        [
          [
            [0, 1],
            [1, 1],
          ],
        ],
      ],
    }),
  );
  assert.equal(full.outcome?.bandGap, undefined);
});

test('vasprun.xml: selective dynamics from the initial structure apply to every step', () => {
  const file = readVasprun(sampleVasprun({ selective: ['T T T', 'F F F', 'T F T'] }));
  assert.deepEqual(file.diagnostics, []);
  assert.equal(file.frames.length, 2);
  for (const frame of file.frames)
    assert.deepEqual(frame.free, [
      [true, true, true],
      [false, false, false],
      [true, false, true],
    ]);
});

test('vasprun.xml: NSW steps done is not converged (pymatgen converged_ionic); a truncated file is not either', () => {
  assert.equal(readVasprun(sampleVasprun({ nsw: 2 })).outcome?.converged, false);
  assert.equal(readVasprun(sampleVasprun({ nsw: 3 })).outcome?.converged, true);
  assert.equal(readVasprun(sampleVasprun({ nsw: 1, steps: sampleSteps(1) })).outcome?.converged, true);
});

test('vasprun.xml: a running job gives its complete steps and a warning', () => {
  const text = sampleVasprun({ steps: sampleSteps(3) });
  const cut = text.slice(0, text.lastIndexOf('<varray name="forces"'));
  const { file, d } = only(cut, 'vasprun-truncated');
  assert.equal(file.frames.length, 2);
  assert.equal(d.severity, 'warning');
  assert.match(d.message, /ends inside this calculation \(step 3\).*2 complete steps shown/);
  assert.equal(covered(cut, d.range), '<calculation>');
  assert.equal(file.outcome?.converged, false);
  // Between steps: the end of <modeling> is missing.
  const between = text.slice(0, text.indexOf('<structure name="finalpos"'));
  const { file: done } = only(between, 'vasprun-truncated');
  assert.equal(done.frames.length, 3);
});

test('vasprun.xml: with no complete step, the initial structure; with none, the final one', () => {
  const text = sampleVasprun();
  const early = readVasprun(text.slice(0, text.indexOf('<calculation>')));
  assert.deepEqual(
    early.frames.map((f) => f.title),
    ['initial structure'],
  );
  const noSteps = text.replace(/<calculation>[^]*<\/calculation>\n/, '').replace(/<structure name="initialpos"[^]*?<\/structure>\n/, '');
  assert.deepEqual(
    readVasprun(noSteps).frames.map((f) => f.title),
    ['final structure'],
  );
});

test('vasprun.xml: comments, CDATA, processing instructions, entities and CRLF are read through', () => {
  const text = sampleVasprun({ efermi: 2 })
    .replace('<atominfo>', '<atominfo><![CDATA[ <rc><c>Xx</c></rc> ]]><?pi <c>Yy</c> ?>')
    .replace('<dos>', '<dos attr="a &amp; b > c" other=\'x\'><!-- <i name="efermi"> 99 </i> -->')
    .replace(/\n/g, '\r\n');
  const file = readVasprun(text);
  assert.deepEqual(file.diagnostics, []);
  assert.equal(file.outcome?.fermi, 2);
  assert.deepEqual(file.frames[0]!.species, ['Si', 'O', 'O']);
});

/** Cuts the text at the given places (sorted, deduplicated) and pushes the pieces. */
function pushed(text: string, cuts: number[]) {
  const reader = new VasprunReader();
  let from = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    reader.push(text.slice(from, cut));
    from = cut;
  }
  reader.push(text.slice(from));
  return reader.finish();
}

test('vasprun.xml property: any slicing gives the same StructureFile as one push', () => {
  const texts = [
    sampleVasprun({ steps: sampleSteps(2), efermi: 1.75, eigenvalues: SPIN_EIGENVALUES, selective: ['T T T', 'F F F', 'T F T'] }),
    sampleVasprun({ steps: sampleSteps(2) })
      .replace('<atominfo>', '<atominfo><!-- x --><![CDATA[ y ]]><?z ?>')
      .replace(/\n/g, '\r\n'),
    sampleVasprun({ steps: sampleSteps(2) }).replace(/\n/g, '\r'),
    // Broken ones: diagnostics must agree too.
    sampleVasprun().slice(0, 3000),
    sampleVasprun().replace('</crystal>', '</crystal></bogus>').replace('<v>', '<v>***'),
    `<modeling><!-- unfinished ${'x'.repeat(50)}`,
    `<modeling><a b="${'y'.repeat(MAX_TAG + 10)}">`,
  ];
  for (const text of texts) {
    const whole = readVasprun(text);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 40 }), (cuts) =>
        assert.deepEqual(pushed(text, cuts), whole),
      ),
      { seed: 2711, numRuns: 150 },
    );
    // Every single character a slice of its own: the worst cutting.
    assert.deepEqual(
      pushed(
        text,
        Array.from({ length: text.length }, (_, i) => i),
      ),
      whole,
    );
  }
});

test('vasprun.xml diagnostics: each on its tag', async (t) => {
  await t.test('vasprun-no-structure: not vasprun.xml', () => {
    const { d } = only('hello world', 'vasprun-no-structure');
    assert.equal(d.severity, 'error');
    assert.match(d.message, /not a vasprun\.xml/);
  });
  await t.test('vasprun-deep', () => {
    const text = `<modeling>${'<a>'.repeat(MAX_DEPTH + 5)}${'</a>'.repeat(MAX_DEPTH + 5)}</modeling>`;
    const { token } = only(text, 'vasprun-deep');
    assert.equal(token, '<a>');
  });
  await t.test('vasprun-unknown-element', () => {
    const { token, file } = only(sampleVasprun({ species: ['Si', 'Qq', 'O'] }), 'vasprun-unknown-element');
    assert.equal(token, '<c>');
    assert.deepEqual(file.frames[0]!.species, ['Si', 'X', 'O']);
  });
  await t.test("vasprun-unknown-element: VASP's cut names read as pymatgen does", () => {
    const file = readVasprun(sampleVasprun({ species: ['X', 'r', 'O'] }));
    assert.deepEqual(file.frames[0]!.species, ['Xe', 'Zr', 'O']);
  });
  await t.test("vasprun-bad-number: an ionic step's energy", () => {
    const text = sampleVasprun().replace(/(<energy>\n {3}<i name="e_fr_energy">) +-20\.50000000/, '$1  ****************');
    const { token, file } = only(text, 'vasprun-bad-number');
    assert.equal(token, '<i name="e_fr_energy">');
    assert.equal(file.frames[0]!.freeEnergy, undefined);
  });
  await t.test('vasprun-stray-end-tag', () => {
    const { token } = only(sampleVasprun().replace('</atominfo>', '</atominfo></stray>'), 'vasprun-stray-end-tag');
    assert.equal(token, '</stray>');
  });
  await t.test('vasprun-unclosed', () => {
    const { token, file } = only(sampleVasprun().replace('</atominfo>', '<open></atominfo>'), 'vasprun-unclosed');
    assert.equal(token, '</atominfo>');
    assert.equal(file.frames.length, 2);
  });
  await t.test('vasprun-long-value', () => {
    const text = sampleVasprun().replace('<c>O ', `<c>O ${' '.repeat(MAX_VALUE)}`);
    only(text, 'vasprun-long-value');
  });
  await t.test('vasprun-long-tag', () => {
    const { d } = only(sampleVasprun().replace('<atominfo>', `<atominfo x="${'y'.repeat(MAX_TAG)}">`), 'vasprun-long-tag');
    assert.equal(d.severity, 'error');
  });
  await t.test('vasprun-unfinished-markup', () => {
    const text = `${sampleVasprun()}<!-- a comment never closed`;
    const { token } = only(text, 'vasprun-unfinished-markup');
    assert.equal(token, '<');
  });
  await t.test('vasprun-bad-row', () => {
    const text = sampleVasprun().replace(/(<varray name="forces" >\n +<v>)[^<]*/, '$1   0.1  *******  0.2 ');
    const { token, file } = only(text, 'vasprun-bad-row');
    assert.equal(token, '<v>');
    assert.equal(file.frames[0]!.forces, undefined);
    assert.ok(file.frames[1]!.forces);
  });
  await t.test('vasprun-bad-lattice', () => {
    const text = sampleVasprun().replace(/(<calculation>[^]*?<varray name="basis" >\n)[^\n]*\n/, '$1');
    const { token, file } = only(text, 'vasprun-bad-lattice');
    assert.equal(token, '<varray name="basis" >');
    assert.deepEqual(
      file.frames.map((f) => f.title),
      ['step 2'],
    );
  });
  await t.test('vasprun-no-positions', () => {
    const text = sampleVasprun().replace(/(<calculation>[^]*?)<varray name="positions" >[^]*?<\/varray>/, '$1');
    const { token } = only(text, 'vasprun-no-positions');
    assert.equal(token, '<structure>');
  });
  await t.test('vasprun-atom-count', () => {
    const text = sampleVasprun().replace(/(<calculation>[^]*?<varray name="positions" >\n)/, '$1   <v>  0.5 0.5 0.5 </v>\n');
    const { token, file } = only(text, 'vasprun-atom-count');
    assert.equal(token, '<varray name="positions" >');
    assert.deepEqual(
      file.frames.map((f) => f.title),
      ['step 2'],
    );
  });
  await t.test('vasprun-no-atominfo', () => {
    const { file } = only(sampleVasprun().replace(/<atominfo>[^]*<\/atominfo>/, ''), 'vasprun-no-atominfo');
    assert.deepEqual(file.frames[0]!.species, ['X', 'X', 'X']);
  });
  await t.test('vasprun-bad-eigenvalue', () => {
    const text = sampleVasprun({
      eigenvalues: [
        [
          [
            [0, 1],
            [2, 0],
          ],
        ],
      ],
    }).replace(/<r>[^<]*<\/r>/, '<r> ****** 1.0 </r>');
    const { token, file } = only(text, 'vasprun-bad-eigenvalue');
    assert.equal(token, '<r>');
    assert.deepEqual(file.outcome?.bandGap, undefined, 'no occupied state left');
  });
  await t.test('more-problems: at most MAX_DIAGNOSTICS are listed', () => {
    const file = readVasprun(`<modeling>${'</x>\n'.repeat(1200)}</modeling>`);
    assert.equal(file.diagnostics.length, 1001);
    assert.equal(file.diagnostics[1000]!.code, 'more-problems');
  });
});

test('VasprunReader: after finish, push is ignored and finish gives the same result', () => {
  const reader = new VasprunReader();
  reader.push(sampleVasprun());
  const first = reader.finish();
  reader.push('<calculation>');
  assert.equal(reader.finish(), first);
  assert.equal(first.frames.length, 2);
});

test('the XML tokenizer reads a tag\'s attributes when asked: quoted either way, the last of a repeated name, none without "="', () => {
  const seen: [string, string | undefined, string | undefined, boolean][] = [];
  const tokenizer = new XmlTokenizer({
    open: (name, attributes, _at, selfClosing) => seen.push([name, attributes.get('name'), attributes.get('comment'), selfClosing]),
    close: () => undefined,
    text: () => undefined,
    wantsText: false,
    problem: () => undefined,
  });
  tokenizer.push(`<a name="x" comment='spin 1'><i name="e" name = 'f'/><v>1 2 3</v><set comment="a>b" /><r\nname="y"></r></a>`);
  assert.deepEqual(seen, [
    ['a', 'x', 'spin 1', false],
    ['i', 'f', undefined, true],
    ['v', undefined, undefined, false],
    ['set', undefined, 'a>b', true],
    ['r', 'y', undefined, false],
  ]);
});
