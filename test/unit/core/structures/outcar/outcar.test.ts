/**
 * readOutcar on OUTCARs written here (test/support/vaspSamples.ts): every value read, every diagnostic on its
 * line and token, and a property: an OUTCAR cut anywhere (a running job) gives the complete steps of the
 * whole file, in order and equal, never more.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readOutcar } from '../../../../../src/core/structures/outcar/index';
import { codes, lineOf, onlyDiagnostic } from '../../../../support/readerDiagnostics';
import { sampleOutcar, sampleSteps, SI_O2_LATTICE } from '../../../../support/vaspSamples';

const only = (text: string, code: string) => onlyDiagnostic(readOutcar, text, code);

test('OUTCAR: every step with lattice, positions, forces, stress and both energies', () => {
  const steps = sampleSteps(3);
  const text = sampleOutcar({ steps });
  const file = readOutcar(text);
  assert.deepEqual(codes(file), []);
  assert.equal(file.format, 'outcar');
  assert.equal(file.frames.length, 3);
  file.frames.forEach((frame, s) => {
    assert.deepEqual(frame.lattice, SI_O2_LATTICE);
    assert.deepEqual(frame.pbc, [true, true, true]);
    assert.deepEqual(frame.species, ['Si', 'O', 'O']);
    assert.deepEqual(
      frame.positions,
      steps[s]!.positions.map((p) => p.map((x) => Number(x.toFixed(5)))),
    );
    assert.deepEqual(
      frame.forces,
      steps[s]!.forces.map((p) => p.map((x) => Number(x.toFixed(6)))),
    );
    // energy(sigma->0), as ASE and pymatgen; TOTEN kept as the free energy.
    assert.equal(frame.energy, Number(steps[s]!.sigma0.toFixed(8)));
    assert.equal(frame.freeEnergy, Number(steps[s]!.toten.toFixed(8)));
    const [xx, yy, zz, xy, yz, zx] = steps[s]!.stress.map((x) => Number(x.toFixed(5)));
    assert.deepEqual(frame.stress, [
      [xx, xy, zx],
      [xy, yy, yz],
      [zx, yz, zz],
    ]);
    assert.equal(frame.title, `step ${s + 1}`);
    assert.equal(frame.free, undefined, 'OUTCAR has no selective dynamics');
    assert.match(lineOf(text, frame.lines.last), /energy\(sigma->0\)/);
  });
  assert.deepEqual(file.outcome, { ediffg: -0.02, fermi: 7.1, converged: true });
  assert.equal(file.outline.length, 3);
  assert.equal(file.outline[0]!.kind, 'step');
  // Step 1's largest force is on atom 1: |(0.3, -0.4, 0)| = 0.5.
  assert.equal(file.outline[0]!.detail, 'E = -20.450000 eV, max |F| = 0.5000 eV/Å');
});

test('OUTCAR: a cell that changes (ISIF=3) is read per step', () => {
  const steps = sampleSteps(2);
  steps[1]!.lattice = [
    [5.1, 0, 0],
    [0, 6.1, 0],
    [0.5, 0, 7.1],
  ];
  const file = readOutcar(sampleOutcar({ steps }));
  assert.deepEqual(file.frames[0]!.lattice, SI_O2_LATTICE);
  assert.deepEqual(file.frames[1]!.lattice, steps[1]!.lattice);
});

test('OUTCAR: converged follows "reached required accuracy"; a single point that finished is converged; MD has no target', () => {
  assert.equal(readOutcar(sampleOutcar({ reached: false })).outcome?.converged, false);
  assert.equal(readOutcar(sampleOutcar({ reached: false, ibrion: -1, nsw: 0, steps: sampleSteps(1) })).outcome?.converged, true);
  assert.equal(readOutcar(sampleOutcar({ reached: false, ibrion: 0 })).outcome?.converged, undefined);
  assert.equal(readOutcar(sampleOutcar({ ediffg: '0.1E-03' })).outcome?.ediffg, 1e-4);
});

test('OUTCAR: species from the POTCAR: lines when there is no TITEL, and the suffixes dropped', () => {
  const text = sampleOutcar({ titel: ['PAW_PBE Fe_pv 02Aug2007', 'PAW_GGA H1.25 07Sep2000'] })
    .split('\n')
    .filter((l) => !l.includes('TITEL'))
    .join('\n');
  assert.deepEqual(readOutcar(text).frames[0]!.species, ['Fe', 'H', 'H']);
});

test('OUTCAR diagnostics: each on its line', async (t) => {
  await t.test('outcar-no-steps: not an OUTCAR', () => {
    const { d, file } = only('hello\nworld\n', 'outcar-no-steps');
    assert.equal(d.severity, 'error');
    assert.equal(file.frames.length, 0);
  });
  await t.test('outcar-truncated: a running job', () => {
    const text = sampleOutcar({ steps: sampleSteps(3) });
    const cut = text.slice(0, text.lastIndexOf('POSITION'));
    const { file, d } = only(cut, 'outcar-truncated');
    assert.equal(file.frames.length, 2);
    assert.match(d.message, /ends inside ionic step 3 .* 2 complete steps shown/);
    assert.equal(file.outcome?.converged, false);
  });
  await t.test('outcar-unfinished: stopped between steps', () => {
    const { file } = only(sampleOutcar({ reached: false, finished: false }).replace(/\n$/, ''), 'outcar-unfinished');
    assert.equal(file.frames.length, 2);
  });
  await t.test('outcar-unknown-element', () => {
    const { token, file } = only(sampleOutcar({ titel: ['PAW_PBE Si 05Jan2001', 'PAW_PBE Qq 08Apr2002'] }), 'outcar-unknown-element');
    assert.equal(token.trim(), 'PAW_PBE Qq 08Apr2002');
    assert.deepEqual(file.frames[0]!.species, ['Si', 'X', 'X']);
  });
  await t.test('outcar-no-species', () => {
    const { file } = only(sampleOutcar({ noPotcar: true }), 'outcar-no-species');
    assert.deepEqual(file.frames[0]!.species, ['X', 'X', 'X']);
  });
  await t.test('outcar-species-count', () => {
    only(sampleOutcar({ counts: '1 1 1' }), 'outcar-species-count');
  });
  await t.test('outcar-no-counts', () => {
    const text = sampleOutcar().replace(/.*ions per type.*\n/, '');
    const { file } = only(text, 'outcar-no-counts');
    assert.equal(file.frames.length, 2, 'NIONS still gives the atom count');
  });
  await t.test('outcar-bad-lattice', () => {
    const text = sampleOutcar().replace('  0.000000000  6.000000000', '  0.000000000  *************');
    const { token, d } = only(text, 'outcar-bad-lattice');
    assert.equal(token, '*************');
    assert.equal(d.severity, 'error');
  });
  await t.test('outcar-bad-stress: VASP prints stars for an overflow', () => {
    const text = sampleOutcar().replace(/in kB( +-9\.90000)/, (m, g: string) => m.replace(g, '  ***********'));
    const { token, file } = only(text, 'outcar-bad-stress');
    assert.equal(token, '***********');
    assert.equal(file.frames[0]!.stress, undefined);
    assert.ok(file.frames[1]!.stress);
  });
  await t.test('outcar-bad-position', () => {
    const text = sampleOutcar().replace('     1.50000      1.50000', '     1.50000      *******');
    const { token, file } = only(text, 'outcar-bad-position');
    assert.equal(token, '*******');
    assert.equal(file.frames.length, 1, 'the step with the bad row is left out');
  });
  await t.test('outcar-atom-count', () => {
    const text = sampleOutcar().replace(/\n +3\.00000 +3\.00000 +3\.00000 [^\n]*/, '');
    const { line, file } = only(text, 'outcar-atom-count');
    assert.match(line, /POSITION/);
    assert.equal(file.frames.length, 1);
  });
  await t.test('outcar-bad-energy', () => {
    const text = sampleOutcar().replace(/(free {2}energy {3}TOTEN {2}= +)-20\.50000000/, '$1***********');
    const { file, token } = only(text, 'outcar-bad-energy');
    assert.equal(token, '***********');
    assert.equal(file.frames[0]!.freeEnergy, undefined);
    assert.equal(file.frames[0]!.energy, -20.45, 'sigma->0 is still read');
  });
  await t.test('outcar-step-without-positions', () => {
    const text = sampleOutcar().replace(/ POSITION[^]*?total drift:[^\n]*\n/, '');
    const { line, file } = only(text, 'outcar-step-without-positions');
    assert.match(line, /FREE ENERGIE/);
    assert.equal(file.frames.length, 1);
  });
});

test('OUTCAR: the energy block before the positions (VASP 5 single points) still makes a step', () => {
  const text = sampleOutcar({ steps: sampleSteps(1) });
  const position = text.slice(text.indexOf(' POSITION'), text.indexOf('    total drift'));
  const energy = text.slice(text.indexOf('  FREE ENERGIE'), text.indexOf(' E-fermi'));
  const swapped = text.replace(position, '').replace(energy, `${energy}\n${position}`);
  const file = readOutcar(swapped);
  assert.deepEqual(codes(file), []);
  assert.equal(file.frames.length, 1);
  assert.equal(file.frames[0]!.energy, -20.45);
});

test('OUTCAR: Windows line ends give the same steps', () => {
  const text = sampleOutcar();
  assert.deepEqual(readOutcar(text.replace(/\n/g, '\r\n')).frames, readOutcar(text).frames);
});

test('OUTCAR: long runs are grouped in the outline', () => {
  const file = readOutcar(sampleOutcar({ steps: sampleSteps(250) }));
  assert.equal(file.frames.length, 250);
  assert.deepEqual(
    file.outline.map((e) => [e.name, e.kind, e.children?.length]),
    [
      ['steps 1–100', 'section', 100],
      ['steps 101–200', 'section', 100],
      ['steps 201–250', 'section', 50],
    ],
  );
});

test('OUTCAR property: cut anywhere, the complete steps are those of the whole file', () => {
  const text = sampleOutcar({ steps: sampleSteps(4) });
  const whole = readOutcar(text);
  fc.assert(
    fc.property(fc.integer({ min: 0, max: text.length }), (cut) => {
      const part = readOutcar(text.slice(0, cut));
      assert.ok(part.frames.length <= whole.frames.length);
      // A frame cut inside its last line can differ only in that number; all before it are equal.
      part.frames.slice(0, -1).forEach((frame, i) => assert.deepEqual(frame, whole.frames[i]));
      if (cut < text.length && part.frames.length < whole.frames.length)
        assert.ok(part.diagnostics.some((d) => d.severity !== 'error' || d.code === 'outcar-no-steps'));
    }),
    { seed: 2811, numRuns: 300 },
  );
});
