/**
 * Every registered structure format in the editor: problems, Outline, CodeLens, the 3D view with its
 * trajectory player, conversion to POSCAR / extended XYZ, the relaxation summary of a real OUTCAR, and a
 * Relax of a CIF on the built-in service (the POSCAR sent kept with the run); a disordered CIF refused.
 * Fixtures are written here; the OUTCAR is Debian's pymatgen-test-files one (skipped loudly without it).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StructureReport } from '../../src/webviews/structure/protocol';
import { parsePoscar } from '../../src/core/poscar/index';
import {
  activateExtension,
  closeAllEditors,
  patience,
  screenshot,
  screenshotsSupported,
  shownCount,
  sleep,
  TOASTS,
  ui,
  waitFor,
} from './util';
import { FORMAT_LANGUAGES } from '../../src/core/structures/languages';
import { resultReport, type Outcome } from './runs';
import type { ResultReport } from '../../src/webviews/results/protocol';

/** A result page's report once it is done with every plot's axes drawn: a loaded machine can take a minute to start it. */
async function drawnReport(id: string, what: string): Promise<ResultReport> {
  let last: ResultReport | undefined;
  const drawn = (r: ResultReport | undefined): r is ResultReport =>
    r?.state === 'done' && r.plots.length > 0 && r.plots.every((p) => p.yTicks.length > 0);
  await waitFor(
    async () => drawn((last = await resultReport(id))),
    60_000,
    () => `${what} with its axes drawn; last report: ${JSON.stringify(last)}`,
    300,
  );
  return last!;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-formats-'));
const write = (name: string, text: string): vscode.Uri => {
  fs.writeFileSync(path.join(dir, name), text);
  return vscode.Uri.file(path.join(dir, name));
};

const CIF = `data_NaCl
_cell_length_a 5.64
_cell_length_b 5.64
_cell_length_c 5.64
_cell_angle_alpha 90
_cell_angle_beta 90
_cell_angle_gamma 90
_symmetry_space_group_name_H-M 'P 1'
loop_
_atom_site_label
_atom_site_type_symbol
_atom_site_fract_x
_atom_site_fract_y
_atom_site_fract_z
Na1 Na 0 0 0
Cl1 Cl 0.5 0.5 0.5
`;
const DISORDERED = CIF.replace('_atom_site_fract_z', '_atom_site_fract_z\n_atom_site_occupancy')
  .replace('Na1 Na 0 0 0', 'Na1 Na 0 0 0 0.5')
  .replace('Cl1 Cl 0.5 0.5 0.5', 'Cl1 Cl 0.5 0.5 0.5 1');
const XDATCAR = ['Si2', '1.0', '5.43 0 0', '0 5.43 0', '0 0 5.43', 'Si', '2']
  .concat(...[0, 1, 2].map((i) => [`Direct configuration=     ${i + 1}`, `0.0${i} 0 0`, '0.25 0.25 0.25']))
  .join('\n');
const OUTCAR = '/usr/share/doc/pymatgen-test-files/examples/test_files/OUTCAR';
const LI_SI_XDATCAR = '/usr/share/doc/pymatgen-test-files/examples/test_files/Traj_XDATCAR';

const view = (action: string, args: object = {}) =>
  vscode.commands.executeCommand<StructureReport | undefined>('tokenLens.structure.test', action, args);

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  let titles: string[] = [];
  await waitFor(
    async () => {
      const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 20)) ?? [];
      titles = lenses.map((l) => l.command?.title ?? '');
      return titles.some((t) => / atoms? · /.test(t));
    },
    30_000,
    () => `a summary lens; got ${JSON.stringify(titles)}`,
  );
  return titles;
}

suite('Structure formats: every registered format in the editor', () => {
  suiteSetup(async function () {
    this.timeout(patience(30_000));
    await activateExtension();
  });

  teardown(async function () {
    this.timeout(patience(60_000));
    await view('closeAll');
    await vscode.commands.executeCommand('tokenLens.results.test', 'closeAll');
    await closeAllEditors();
  });

  test('a CIF: no problems, its block in the Outline, the summary lens, the 3D view; Convert to POSCAR reads back', async function () {
    this.timeout(patience(150_000));
    const uri = write('NaCl.cif', CIF);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.languageId, 'cif');
    await vscode.window.showTextDocument(document);
    await sleep(500);
    assert.deepEqual(
      vscode.languages.getDiagnostics(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error),
      [],
    );
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri);
    assert.ok(
      symbols?.some((s) => /NaCl/.test(s.name)),
      JSON.stringify(symbols?.map((s) => s.name)),
    );
    const titles = await lensTitles(uri);
    assert.ok(
      titles.some((t) => t.startsWith('ClNa · 2 atoms · a b c 5.6400')),
      JSON.stringify(titles),
    );
    await vscode.commands.executeCommand('tokenLens.showStructure', uri);
    const shown = await waitFor(
      async () => ((await view('report', { uri: uri.toString() }))?.atoms ?? 0) > 0 && view('report', { uri: uri.toString() }),
      90_000,
      'the 3D view',
    );
    assert.ok(shown);
    const converted = await vscode.commands.executeCommand<string>('tokenLens.convertToPoscar', { uri });
    const poscar = vscode.workspace.textDocuments.find((d) => d.uri.toString() === converted)!;
    assert.equal(poscar.languageId, 'poscar');
    const back = parsePoscar(poscar.getText());
    assert.deepEqual(
      back.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    assert.deepEqual(back.poscar!.species, ['Na', 'Cl']);
  });

  test('an XDATCAR plays in the 3D view; Convert writes the frame the player shows, or every frame as extended XYZ', async function () {
    this.timeout(patience(150_000));
    const uri = write('XDATCAR', XDATCAR);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.languageId, 'xdatcar');
    await vscode.window.showTextDocument(document);
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri);
    assert.ok((symbols?.length ?? 0) >= 1);
    assert.ok((await lensTitles(uri)).some((t) => /3 frames/.test(t)));
    await vscode.commands.executeCommand('tokenLens.showStructure', uri);
    const key = uri.toString();
    let first: StructureReport | undefined;
    await waitFor(
      async () => ((first = await view('setFrame', { uri: key, frame: 0, paint: true }))?.painted ?? 0) > 0.005,
      90_000,
      () => `a drawn frame: ${JSON.stringify(first)}`,
      200,
    );
    assert.equal(first!.frames, 3);
    // The legend gives the space group of the frame shown (spglib 2.0: R-3m, then C2/m once an atom moved).
    const symmetryOf = async (frame: number, expected: RegExp) => {
      let report: StructureReport | undefined;
      await waitFor(
        async () => expected.test((report = await view('report', { uri: key }))?.symmetry ?? ''),
        60_000,
        () => `frame ${frame + 1}'s space group ${expected}; the legend says "${report?.symmetry}"`,
        200,
      );
      return report!;
    };
    await symmetryOf(0, /^R-3m \(166\) · trigonal · hR · symprec/);
    await view('pause', { uri: key });
    const last = (await view('setFrame', { uri: key, frame: 2 }))!;
    assert.match(last.caption, /\(3 of 3\)$/);
    assert.notDeepEqual(last.firstAtom, first!.firstAtom, 'the atoms move');
    assert.equal((await symmetryOf(2, /^C2\/m \(12\) · monoclinic/)).caption, last.caption);
    await screenshot('xdatcar-player');
    // The frame shown (3) is the one converted.
    const converted = await vscode.commands.executeCommand<string>('tokenLens.convertToPoscar', uri);
    const text = vscode.workspace.textDocuments.find((d) => d.uri.toString() === converted)!.getText();
    assert.match(text.split('\n')[8]!, /^\s*0\.02000/, text);
    const xyz = await vscode.commands.executeCommand<string>('tokenLens.convertToExtxyz', { uri, frame: 'all' });
    const extxyz = vscode.workspace.textDocuments.find((d) => d.uri.toString() === xyz)!;
    assert.equal(extxyz.languageId, 'xyz');
    assert.equal(extxyz.getText().match(/Lattice="/g)?.length, 3);
  });

  test('the relaxation summary of an OUTCAR: energy and largest force per ionic step, in the result view', async function () {
    this.timeout(patience(90_000));
    if (!fs.existsSync(OUTCAR)) {
      console.warn(`SKIPPED: ${OUTCAR} is missing (Debian's pymatgen-test-files); the relaxation summary was not tested`);
      return this.skip();
    }
    const uri = write('OUTCAR', fs.readFileSync(OUTCAR, 'utf8'));
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.languageId, 'outcar');
    await vscode.window.showTextDocument(document);
    const id = await vscode.commands.executeCommand<string>('tokenLens.relaxationSummary', uri);
    const shown = await drawnReport(id, 'the relaxation summary');
    assert.equal(shown.kind, 'relax');
    assert.ok(
      shown.plots.some((p) => p.points > 1),
      JSON.stringify(shown.plots),
    );
    // Read from the file, not answered by a service: its name, no HTTP status.
    assert.match(shown.status, /^OUTCAR · read from file at /);
    assert.doesNotMatch(shown.status, /HTTP/);
    // This OUTCAR's energy barely moves (−34.007x eV): every energy tick must still read differently from its neighbour.
    const energy = shown.plots.find((p) => p.title === 'Energy per step')!;
    assert.ok(
      energy.yTicks.every((t, i) => i === 0 || t !== energy.yTicks[i - 1]),
      energy.yTicks.join(' | '),
    );
    await screenshot('relaxation-summary');
  });

  test("a file's words in a lens title are text: an icon name like $(alert) shows as typed, not as an icon", async function () {
    this.timeout(patience(60_000));
    const spoof = '$(alert)Update_required';
    const xdatcar = write('XDATCAR_spoof', XDATCAR.replace(/^Si$/m, spoof).replace('Si2', spoof));
    const poscar = write('POSCAR_spoof.vasp', `${spoof}\n1.0\n5.43 0 0\n0 5.43 0\n0 0 5.43\n${spoof}\n1\nDirect\n0 0 0\n`);
    for (const uri of [xdatcar, poscar]) {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const titles = await lensTitles(uri);
      const summary = titles.find((t) => t.includes('Update_required'));
      assert.ok(summary, `${path.basename(uri.fsPath)}: the file's word is in a lens: ${JSON.stringify(titles)}`);
      assert.doesNotMatch(summary, /\$\(/, 'no icon syntax reaches the title');
      assert.match(summary, /\$\u200b\(alert\)/, 'the word shows as typed, with an invisible break');
    }
  });

  test('a structure file over the 50 MB the editor syncs: the limit message, and nothing hangs', async function () {
    this.timeout(patience(150_000));
    if (!screenshotsSupported()) return this.skip();
    const atoms = ' 0.12345678 0.23456789 0.34567890\n'.repeat(1_600_000); // 56 MB
    const big = write('XDATCAR_big', `Si\n1.0\n5.43 0 0\n0 5.43 0\n0 0 5.43\nSi\n1600000\nDirect configuration= 1\n${atoms}`);
    assert.ok(fs.statSync(big.fsPath).size > 50 * 1024 * 1024);
    const outcome = await Promise.race([
      vscode.commands.executeCommand('tokenLens.convertToPoscar', big).then(() => 'returned'),
      sleep(60_000).then(() => 'hung'),
    ]);
    assert.equal(outcome, 'returned');
    const shown = await waitFor(
      async () => {
        const text = await ui({ op: 'read', selector: TOASTS });
        return text?.includes('XDATCAR_big could not be opened') ? text : undefined;
      },
      30_000,
      'the message that the file could not be opened',
    );
    assert.match(shown, /50\s?MB/i, shown);
    // Still answering: a small file gets its lens.
    const small = write('XDATCAR', XDATCAR);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(small));
    assert.ok((await lensTitles(small)).some((t) => /3 frames/.test(t)));
    fs.rmSync(big.fsPath, { force: true });
  });

  test('Trajectory Analysis of an XDATCAR: g(r) and the MSD with D of its frames, in the result view', async function () {
    this.timeout(patience(90_000));
    if (!fs.existsSync(LI_SI_XDATCAR)) {
      console.warn(`SKIPPED LOUDLY: ${LI_SI_XDATCAR} is missing (Debian's pymatgen-test-files); Trajectory Analysis was not tested`);
      return this.skip();
    }
    const uri = write('XDATCAR_LiSi', fs.readFileSync(LI_SI_XDATCAR, 'utf8'));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, 'xdatcar');
    await vscode.window.showTextDocument(document);
    assert.ok(
      (await lensTitles(uri)).some((t) => /Trajectory Analysis/.test(t)),
      'the lens offers it',
    );
    const id = await vscode.commands.executeCommand<string>('tokenLens.trajectoryAnalysis', uri);
    const shown = await drawnReport(id, 'the trajectory analysis');
    assert.equal(shown.kind, 'md');
    assert.deepEqual(
      shown.plots.map((p) => p.title.replace(/: D = .*/, ': D')),
      ['Radial distribution function (20 frames averaged)', 'Mean squared displacement: D'],
    );
    assert.match(shown.plots[1]!.title, /D = \d\.\d\de[-+]\d+ Å²\/frame/);
    assert.equal(shown.plots[1]!.points, 100, 'a lag per frame');
    await screenshot('trajectory-analysis');
  });

  test('Relax of a CIF on the built-in service sends it as POSCAR, kept with the run; partial occupancy is refused', async function () {
    this.timeout(patience(120_000));
    const settings = vscode.workspace.getConfiguration('tokenLens');
    try {
      const used = await vscode.commands.executeCommand<{ status: string; message: string }>('tokenLens.useBuiltinService');
      assert.equal(used.status, 'ok', used.message);
      const uri = write('Si-NaCl.cif', CIF);
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const outcome = await vscode.commands.executeCommand<Outcome>('tokenLens.relax', { uri, show: false });
      assert.equal(outcome.status, 'ok', outcome.message?.text);
      const item = (await vscode.commands.executeCommand<{ id: string; label: string }[]>('tokenLens.runs.test', 'items')).find(
        (i) => i.id === outcome.runId,
      );
      assert.match(item!.label, /NaCl\.cif/);
      // Open Structure Sent: the POSCAR the run sent, converted from the CIF.
      const sent = await vscode.commands.executeCommand<string>('tokenLens.runs.openSent', { id: outcome.runId });
      const sentDocument = vscode.workspace.textDocuments.find((d) => d.uri.toString() === sent)!;
      assert.equal(sentDocument.languageId, 'poscar');
      const sentPoscar = parsePoscar(sentDocument.getText()).poscar!;
      assert.deepEqual(sentPoscar.species, ['Na', 'Cl']);
      assert.equal(sentPoscar.sites.length, 2);
      const disordered = write('disordered.cif', DISORDERED);
      const refused = await vscode.commands.executeCommand<Outcome>('tokenLens.relax', { uri: disordered, show: false });
      assert.equal(refused.status, 'invalid');
      assert.match(refused.message!.text, /partial occupancy .* needs one atom on every site/);
    } finally {
      await settings.update('service.builtin', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test("every structure format's editor has the structure commands in its title bar, a data format's has none", async function () {
    if (!screenshotsSupported()) this.skip(); // reads the window through the headless runner
    this.timeout(patience(60_000));
    // The button's label is the command's title; the menus show through the context the table sets (features/structures/menus.ts).
    const button = '.editor-actions [aria-label^="Show Structure"]';
    for (const f of FORMAT_LANGUAGES) {
      // A name VS Code gives the format's language: the table's own name, pattern or extension.
      const name = f.filenames[0] ?? f.filenamePatterns[0]?.replace(/\*/g, '') ?? `sample${f.extensions[0]}`;
      const doc = await vscode.workspace.openTextDocument(write(name, ''));
      await vscode.window.showTextDocument(doc, { preview: false });
      assert.equal(doc.languageId, f.languageId, name);
      const expected = f.kind === 'structure' ? 1 : 0;
      await waitFor(async () => (await shownCount(button)) === expected, 10_000, `${name}: ${expected} Show Structure button`);
    }
  });
});
