/**
 * The one registration of materials formats (core/structures): the table against package.json, the format
 * a file name or content claims, the POSCAR adapter both ways, the summary (Hill formulas), what a run
 * sends from any structure (and what it refuses), the 3D view's data and the relaxation summary of a file,
 * and `node dist/cli.js structure`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parsePoscar } from '../../../../src/core/poscar/index';
import { FORMATS, formatEntry, readStructure, STRUCTURE_FORMATS } from '../../../../src/core/structures/formats';
import {
  detectFormat,
  FORMAT_LANGUAGES,
  formatOfContent,
  formatOfName,
  MATERIALS_LANGUAGES,
  STRUCTURE_LANGUAGE_IDS,
} from '../../../../src/core/structures/languages';
import { boxMolecule, frameToPoscarText, poscarStructureFile, refusalToRun } from '../../../../src/core/structures/poscar';
import { structureReport } from '../../../../src/core/structures/report';
import { isRefusal, runPoscar } from '../../../../src/core/structures/runInput';
import { readStructureBytes } from '../../../../src/core/structures/sliced';
import { fileLine, hillFormula, maxForce } from '../../../../src/core/structures/summary';
import type { StructureFile, StructureFrame } from '../../../../src/core/structures/types';
import { fileStructureData, playedFrames } from '../../../../src/webviews/structure/fileData';
import { relaxationRecord } from '../../../../src/webviews/results/relaxationFile';

const root = join(__dirname, '..', '..', '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const REAL = '/usr/share/doc/pymatgen-test-files/examples/test_files';
const real = (name: string): string | undefined => {
  const path = join(REAL, name);
  if (existsSync(path)) return path;
  console.warn(`SKIPPED: ${path} is missing (Debian's pymatgen-test-files package); the test on it did not run`);
  return undefined;
};

const NACL = ['NaCl', '5.64', '1 0 0', '0 1 0', '0 0 1', 'Na Cl', '1 1', 'Direct', '0 0 0', '0.5 0.5 0.5', ''].join('\n');

function frame(over: Partial<StructureFrame> = {}): StructureFrame {
  return {
    lattice: [
      [4, 0, 0],
      [0, 4, 0],
      [0, 0, 4],
    ],
    pbc: [true, true, true],
    species: ['O', 'H', 'H'],
    positions: [
      [1, 1, 1],
      [1.9, 1, 1],
      [1, 1.9, 1],
    ],
    title: 'water',
    lines: { first: 0, last: 4 },
    ...over,
  };
}

test('package.json contributes exactly the table: each language, its names, patterns and extensions, and its activation', () => {
  const languages = new Map<string, Record<string, string[] | undefined>>(
    manifest.contributes.languages.map((l: { id: string }) => [l.id, l]),
  );
  for (const f of FORMAT_LANGUAGES) {
    const l = languages.get(f.languageId);
    assert.ok(l, `package.json declares the language ${f.languageId}`);
    assert.deepEqual(l.filenames ?? [], [...f.filenames], `${f.id} filenames`);
    assert.deepEqual(l.filenamePatterns ?? [], [...f.filenamePatterns], `${f.id} filenamePatterns`);
    assert.deepEqual(l.extensions ?? [], [...f.extensions], `${f.id} extensions`);
    assert.ok(manifest.activationEvents.includes(`onLanguage:${f.languageId}`), `${f.id} activates the extension`);
  }
  assert.deepEqual([...MATERIALS_LANGUAGES].sort(), [...languages.keys()].sort(), 'no language outside the table');
  // The structure commands' menus show for the table's structure languages through one context, set from the table.
  assert.deepEqual(
    STRUCTURE_LANGUAGE_IDS,
    FORMAT_LANGUAGES.filter((f) => f.kind === 'structure').map((f) => f.languageId),
  );
  const entries = Object.entries(manifest.contributes.menus as Record<string, { command: string; when?: string }[]>).flatMap(
    ([menu, list]) => list.map((m) => ({ menu, ...m })),
  );
  const relax = entries.filter((m) => m.command === 'tokenLens.relax');
  assert.ok(relax.length >= 3);
  for (const m of relax) assert.match(m.when ?? '', /^(editor|resource)LangId in tokenLens\.structureLanguages$/, m.menu);
  // No menu lists the structure languages itself: such a list would miss the next format.
  const listing = entries.filter((m) => STRUCTURE_LANGUAGE_IDS.filter((id) => new RegExp(`\\b${id}\\b`).test(m.when ?? '')).length > 2);
  assert.deepEqual(listing, [], 'menus that list the structure languages instead of tokenLens.structureLanguages');
});

test('every structure language of the table has its reader registered, and every entry its language', () => {
  for (const f of FORMAT_LANGUAGES) {
    const entry = formatEntry(f.id);
    assert.ok(entry, `${f.id} is registered`);
    assert.equal(!!entry.structure, f.kind === 'structure', `${f.id}: a structure format has the shared model, a data format none`);
  }
  assert.equal(FORMATS.length, FORMAT_LANGUAGES.length);
  assert.ok(STRUCTURE_FORMATS.every((f) => f.language.kind === 'structure'));
});

test('a file name claims a format as VS Code decides a language: exact name, then pattern, then extension', () => {
  const cases: [string, string | undefined][] = [
    ['POSCAR', 'poscar'],
    ['/a/b/CONTCAR', 'poscar'],
    ['Si.vasp', 'poscar'],
    ['POSCAR.relaxed', 'poscar'],
    ['Fe.cif', 'cif'],
    ['Fe.MCIF', 'cif'],
    ['water.xyz', 'xyz'],
    ['md.extxyz', 'xyz'],
    ['XDATCAR', 'xdatcar'],
    ['XDATCAR_4', 'xdatcar'],
    ['run.xdatcar', 'xdatcar'],
    ['OUTCAR', 'outcar'],
    ['OUTCAR.relax', 'outcar'],
    ['vasprun.xml', 'vasprun'],
    ['vasprun_relax.xml', 'vasprun'],
    ['pattern.xy', 'diffraction'],
    ['notes.txt', undefined],
    ['vasprun.xml.Al', undefined],
  ];
  for (const [name, id] of cases) assert.equal(formatOfName(name)?.id, id, name);
});

test('a file whose name says nothing: its content, else POSCAR', () => {
  assert.equal(formatOfContent('<?xml version="1.0" encoding="ISO-8859-1"?>\n<modeling>\n <generator>')?.id, 'vasprun');
  assert.equal(formatOfContent(' vasp.6.3.0 18Jan22 (build Feb 08 2022) complex\n executed on')?.id, 'outcar');
  assert.equal(formatOfContent('data_Fe\n_cell_length_a 2.87\n')?.id, 'cif');
  assert.equal(formatOfContent('3\nwater\nO 0 0 0\nH 0.9 0 0\nH 0 0.9 0\n')?.id, 'xyz');
  assert.equal(formatOfContent('Si\n1\n5.4 0 0\n0 5.4 0\n0 0 5.4\nSi\n1\nDirect configuration=     1\n0 0 0\n')?.id, 'xdatcar');
  assert.equal(formatOfContent(NACL), undefined);
  assert.equal(detectFormat('structure.txt', NACL).id, 'poscar');
  assert.equal(detectFormat('-', '3\nwater\nO 0 0 0\nH 0.9 0 0\nH 0 0.9 0\n').id, 'xyz');
});

test('Hill formulas: C, H, then alphabetical; without carbon every element alphabetical; reduced unless full', () => {
  assert.equal(hillFormula(['O', 'H', 'H']), 'H2O');
  assert.equal(hillFormula(['H', 'C', 'O', 'H', 'H', 'H']), 'CH4O');
  assert.equal(hillFormula(['Na', 'Cl', 'Na', 'Cl']), 'ClNa');
  assert.equal(hillFormula(['Na', 'Cl', 'Na', 'Cl'], true), 'Cl2Na2');
  assert.equal(hillFormula(['Si', 'O', 'O', 'Si', 'O', 'O']), 'O2Si');
  assert.equal(hillFormula(['Fe', 'Fe', 'O', 'O', 'O']), 'Fe2O3');
  assert.equal(hillFormula(['X1', 'X1']), '(X1)');
  assert.equal(hillFormula([]), '');
});

test('POSCAR joins the table through its adapter: one frame with Cartesian positions, its problems as they are', () => {
  const file = readStructure('poscar', NACL)!;
  assert.equal(file.format, 'poscar');
  assert.equal(file.frames.length, 1);
  assert.deepEqual(file.frames[0]!.species, ['Na', 'Cl']);
  assert.deepEqual(file.frames[0]!.positions[1], [2.82, 2.82, 2.82]);
  assert.equal(fileLine(file, 'POSCAR').split(' · ')[0], 'ClNa');
  const broken = poscarStructureFile(parsePoscar('just a line\n'));
  assert.equal(broken.frames.length, 0);
  assert.ok(broken.diagnostics.some((d) => d.severity === 'error'));
});

test('a frame written as POSCAR reads back as the same atoms in the same order, selective dynamics kept', () => {
  const f = frame({
    free: [
      [true, true, true],
      [false, false, true],
      [true, false, true],
    ],
  });
  const back = readStructure('poscar', frameToPoscarText(f))!;
  assert.deepEqual(
    back.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  assert.deepEqual(back.frames[0]!.species, f.species);
  back.frames[0]!.positions.forEach((p, i) => p.forEach((x, k) => assert.ok(Math.abs(x - f.positions[i]![k]!) < 1e-10)));
  assert.deepEqual(back.frames[0]!.free, f.free);
  // Interleaved species stay in order, as runs of one element (as ASE writes them).
  const mixed = frame({ species: ['O', 'H', 'O'] });
  assert.match(frameToPoscarText(mixed), /\nO H O\n1 1 1\n/);
});

test('a molecule is boxed with vacuum for a POSCAR, every atom inside', () => {
  const { lattice, positions } = boxMolecule(
    [
      [-1, 0, 0],
      [1, 0, 0],
    ],
    10,
  );
  assert.deepEqual(lattice, [
    [22, 0, 0],
    [0, 20, 0],
    [0, 0, 20],
  ]);
  assert.deepEqual(positions, [
    [10, 10, 10],
    [12, 10, 10],
  ]);
  const text = frameToPoscarText(frame({ lattice: null, pbc: [false, false, false] }));
  assert.match(text.split('\n')[0]!, /a molecule in a box with 10 Å of vacuum/);
  assert.equal(readStructure('poscar', text)!.diagnostics.filter((d) => d.severity === 'error').length, 0);
});

test('what a run sends: a POSCAR as it is, any other format one frame converted; partial occupancy and errors refused', () => {
  assert.deepEqual(runPoscar('poscar', NACL, 'NaCl.vasp'), { text: NACL });
  const broken = runPoscar('poscar', 'x\n', 'POSCAR');
  assert.ok(isRefusal(broken) && /has \d+ errors?, so Token Lens did not send it/.test(broken.refuse));
  const notStructure = runPoscar('diffraction', '10 1\n', 'a.xy');
  assert.ok(isRefusal(notStructure) && /not a structure file/.test(notStructure.refuse));
  const disordered = frame({ occupancy: [1, 0.5, 0.5], labels: ['O1', 'H1', 'H2'] });
  const why = refusalToRun(disordered, 'disorder.cif')!;
  assert.match(why, /partial occupancy \(2 sites, the first H1 at 0\.5\)/);
  assert.match(why, /needs one atom on every site/);
  assert.match(why, /ordered model/);
  assert.equal(refusalToRun(frame({ occupancy: [1, 1, 1] }), 'x'), undefined);
});

test('the 3D view plays every frame of one set of atoms, thins a huge trajectory evenly, and boxes a molecule', () => {
  const frames = [0, 1, 2].map((i) =>
    frame({ title: `step ${i + 1}`, energy: -10 - i, positions: frame().positions.map((p) => [p[0] + 0.1 * i, p[1], p[2]]) }),
  );
  const data = fileStructureData({ format: 'xyz', frames, diagnostics: [], outline: [] }, 'Extended XYZ');
  assert.ok(typeof data !== 'string');
  assert.equal(data.frames?.length, 3);
  assert.equal(data.frames[2]!.caption, 'step 3 · -12.0000 eV');
  assert.equal(data.frames[2]!.source, 2);
  assert.match(data.summary, /3 frames · E -10\.0000 → -12\.0000 eV/);
  assert.deepEqual(playedFrames(10, 1, 3 * 4), [0, 3, 6, 9]);
  assert.deepEqual(playedFrames(3, 100), [0, 1, 2]);
  const molecule = fileStructureData(
    { format: 'xyz', frames: [frame({ lattice: null, pbc: [false, false, false] })], diagnostics: [], outline: [] },
    'XYZ',
  );
  assert.ok(typeof molecule !== 'string' && molecule.molecule === true);
  assert.ok(
    molecule.frac.every((x) => x > 0 && x < 1),
    'every atom inside its box',
  );
  assert.equal(fileStructureData({ format: 'xyz', frames: [], diagnostics: [], outline: [] }, 'XYZ'), 'no structure could be read');
});

test('the relaxation summary of a file: energy and largest free force per step, the target |EDIFFG|, convergence', () => {
  const steps = [0.5, 0.1, 0.01].map((f, i) =>
    frame({
      energy: -5 - i,
      forces: [
        [f, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ],
      free: [
        [true, true, true],
        [true, true, true],
        [true, true, true],
      ],
      title: `step ${i + 1}`,
    }),
  );
  const file: StructureFile = {
    format: 'outcar',
    frames: steps,
    diagnostics: [],
    outline: [],
    outcome: { ediffg: -0.02, converged: true },
  };
  const record = relaxationRecord('file:///w/OUTCAR', 'OUTCAR', file, 'OUTCAR', 0);
  assert.ok(typeof record !== 'string');
  assert.equal(record.kind, 'relax');
  const answer = (record.response!.body as { value: Record<string, unknown> }).value;
  assert.deepEqual(answer.energies, [-5, -6, -7]);
  assert.deepEqual(answer.forces_max, [0.5, 0.1, 0.01]);
  assert.equal(answer.fmax, 0.02);
  assert.equal(answer.converged, true);
  assert.equal(parsePoscar(record.inputText).diagnostics.filter((d) => d.severity === 'error').length, 0);
  // A fixed component does not count, as in VASP's test.
  assert.equal(maxForce({ forces: [[3, 0, 4]], free: [[false, true, true]] }), 4);
  assert.match(String(relaxationRecord('u', 'OUTCAR', { ...file, frames: [frame()] }, 'OUTCAR')), /no ionic step/);
});

test('structureReport: format, frames with natoms, Hill formula, lattice and energy, diagnostics 1-based', () => {
  const report = structureReport('NaCl.vasp', readStructure('poscar', NACL)!, 'last');
  assert.deepEqual(report.frames[0]!.formula, 'ClNa');
  assert.equal(report.frames[0]!.natoms, 2);
  assert.ok(Math.abs(report.frames[0]!.lattice!.volume - 5.64 ** 3) < 1e-9);
  assert.equal(report.frames[0]!.energy, undefined);
  const molecule = structureReport('m', { format: 'xyz', frames: [frame({ lattice: null, energy: -1.5 })], diagnostics: [], outline: [] });
  assert.equal(molecule.frames[0]!.lattice, null);
  assert.equal(molecule.frames[0]!.energy, -1.5);
});

const cli = join(root, 'out', 'src', 'cli.js');
const runCli = (args: string[], input?: string) => spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8' });
const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

test('cli structure: one JSON line per file in order, format by name then content, exit 1 on errors, 2 on usage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'token-lens-structure-'));
  const nacl = join(dir, 'rocksalt.txt');
  writeFileSync(nacl, NACL);
  const broken = join(dir, 'POSCAR');
  writeFileSync(broken, 'only a comment\n1.0\n');
  const ok = runCli(['structure', nacl]);
  assert.equal(ok.status, 0, ok.stderr);
  const [report] = lines(ok.stdout);
  assert.deepEqual(Object.keys(report), ['file', 'format', 'frames', 'diagnostics']);
  assert.equal(report.format, 'poscar');
  assert.deepEqual(report.frames[0].formula, 'ClNa');
  const both = runCli(['structure', nacl, broken]);
  assert.equal(both.status, 1);
  const reports = lines(both.stdout);
  assert.deepEqual(
    reports.map((r) => r.file),
    [nacl, broken],
  );
  assert.ok(reports[1].diagnostics.some((d: { severity: string; line: number }) => d.severity === 'error' && d.line >= 1));
  const stdin = runCli(['structure', '--frames', 'first'], NACL);
  assert.equal(stdin.status, 0, stdin.stderr);
  assert.equal(lines(stdin.stdout)[0].file, '-');
  const bad = runCli(['structure', '--frames', 'middle', nacl]);
  assert.equal(bad.status, 2);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /--frames is "first", "last" or "all", not "middle"/);
  const missing = runCli(['structure', nacl, join(dir, 'nope.cif')]);
  assert.equal(missing.status, 2);
  assert.equal(missing.stdout, '', 'nothing printed when a file cannot be read');
  assert.match(missing.stderr, /Cannot read .*nope\.cif: ENOENT/);
});

test('cli structure on real VASP outputs: OUTCAR steps with energies, vasprun.xml streamed, --frames first|last|all', () => {
  const outcar = real('OUTCAR');
  const vasprun = real('vasprun.xml');
  if (!outcar || !vasprun) return;
  const all = lines(runCli(['structure', outcar]).stdout)[0];
  assert.equal(all.format, 'outcar');
  assert.ok(all.frames.length > 1, 'every ionic step');
  assert.ok(
    all.frames.every((f: { energy?: number; natoms: number }) => typeof f.energy === 'number' && f.natoms === all.frames[0].natoms),
  );
  const last = lines(runCli(['structure', '--frames', 'last', outcar]).stdout)[0];
  assert.deepEqual(last.frames, [all.frames[all.frames.length - 1]]);
  const first = lines(runCli(['structure', '--frames=first', outcar]).stdout)[0];
  assert.deepEqual(first.frames, [all.frames[0]]);
  const run = runCli(['structure', '--frames', 'last', vasprun]);
  const streamed = lines(run.stdout)[0];
  assert.equal(streamed.format, 'vasprun');
  assert.equal(streamed.frames[0].formula, 'Fe4LiO16P4');
  // Streamed in slices or read whole, the same model.
  const whole = structureReport(vasprun, readStructure('vasprun', readFileSync(vasprun, 'utf8'))!, 'last');
  assert.deepEqual(streamed, { ...whole, file: vasprun });
});

test('a file read from its bytes in slices equals the file read whole (vasprun.xml through its streaming reader)', async () => {
  const vasprun = real('vasprun.xml');
  if (!vasprun) return;
  const bytes = readFileSync(vasprun);
  let calls = 0;
  const sliced = await readStructureBytes('vasprun', bytes, () => calls++);
  assert.ok(calls >= 1);
  assert.deepEqual(sliced, readStructure('vasprun', bytes.toString('utf8')));
  assert.equal(await readStructureBytes('vasprun', bytes, undefined, () => true), undefined, 'cancelled');
  const poscar = await readStructureBytes('poscar', new TextEncoder().encode(NACL));
  assert.deepEqual(poscar, readStructure('poscar', NACL));
});
