import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isSoftwareRenderer } from '../../src/webviews/pages/structure/renderer';
import type { StructureReport } from '../../src/webviews/structure/protocol';
import {
  activateExtension,
  closeAllEditors,
  openDocument,
  openWorkspaceFile,
  patience,
  REPO_ROOT,
  screenshot,
  screenshotsSupported,
  waitFor,
} from './util';

const TEST = 'tokenLens.structure.test';
const report = (action = 'report', arg: Record<string, unknown> = {}) =>
  vscode.commands.executeCommand<StructureReport | undefined>(TEST, action, arg);

async function reportWhere(check: (r: StructureReport) => boolean, what: string, timeoutMs = 40_000): Promise<StructureReport> {
  let last: StructureReport | undefined;
  await waitFor(
    async () => {
      last = await report();
      return last && check(last);
    },
    timeoutMs,
    () => `${what}; last report: ${JSON.stringify(last)}`,
    100,
  );
  return last!;
}

const diagnosticsOf = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'POSCAR');
/** Waits until the document's POSCAR problems are on these (0-based) lines; returns them. */
async function problems(uri: vscode.Uri, lines: number[]): Promise<vscode.Diagnostic[]> {
  const now = () =>
    diagnosticsOf(uri)
      .map((d) => d.range.start.line)
      .sort((a, b) => a - b)
      .join();
  await waitFor(
    () => now() === [...lines].sort((a, b) => a - b).join(),
    3000,
    () => `problems on lines ${lines}; got ${describe(diagnosticsOf(uri))}`,
  );
  return diagnosticsOf(uri);
}
const describe = (ds: vscode.Diagnostic[]) =>
  ds
    .map(
      (d) => `${d.range.start.line + 1}:${d.range.start.character} ${vscode.DiagnosticSeverity[d.severity]} ${String(d.code)} ${d.message}`,
    )
    .join('\n');

async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  // As the hover shows it: Markdown escapes and non-breaking spaces read as the characters they stand for.
  return hovers
    .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
    .join('\n')
    .replace(/&nbsp;/g, ' ')
    .replace(/\\(.)/g, '$1');
}

const GOOD = `Cu fcc
3.615
0 0.5 0.5
0.5 0 0.5
0.5 0.5 0
Cu
1
Direct
0 0 0
`;

suite('POSCAR', () => {
  suiteSetup(async () => {
    await activateExtension();
  });

  teardown(async () => {
    await vscode.commands.executeCommand(TEST, 'closeAll');
    await closeAllEditors();
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
  });

  test('POSCAR, CONTCAR and *.vasp files open in the poscar language; other files do not', async () => {
    for (const name of ['POSCAR', 'Si.vasp', 'CONTCAR.relax', 'POSCAR_broken']) {
      const editor = await openWorkspaceFile(name);
      assert.equal(editor.document.languageId, 'poscar', name);
    }
    assert.notEqual((await openWorkspaceFile('prompt.md')).document.languageId, 'poscar');
    // Names as pymatgen, phonopy and people write them: the word anywhere in the name.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-names-'));
    for (const name of ['SrTiO3_POSCAR', 'CONTCAR_relaxed', 'Si.POSCAR.vasp', 'POSCAR-001']) {
      fs.writeFileSync(path.join(dir, name), fs.readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'workspace', 'Si.vasp')));
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(dir, name)));
      assert.equal(document.languageId, 'poscar', name);
    }
  });

  test('valid fixtures have no problems; a broken file shows each problem on its line, live while typing', async () => {
    for (const name of ['POSCAR', 'Si.vasp', 'NaCl.vasp', 'GaAs.vasp', 'CONTCAR.relax']) {
      const editor = await openWorkspaceFile(name);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(describe(diagnosticsOf(editor.document.uri)), '', name);
    }
    const editor = await openDocument(GOOD.replace('0.5 0.5 0\n', '0.5 0.5 zero\n'), 'poscar');
    const uri = editor.document.uri;
    const [lattice] = await problems(uri, [4]);
    assert.equal(lattice!.range.start.line, 4, describe([lattice!]));
    assert.equal(lattice!.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(lattice!.message, "Line 5: the third lattice vector must hold three numbers (found 'zero')");
    assert.equal(editor.document.getText(lattice!.range), 'zero');

    // Typing: the fix clears it, a new mistake shows once typing pauses.
    await editor.edit((e) => e.replace(lattice!.range, '0'));
    await waitFor(
      () => diagnosticsOf(uri).length === 0,
      3000,
      () => `no problems after the fix; got ${describe(diagnosticsOf(uri))}`,
    );
    await editor.edit((e) => e.replace(new vscode.Range(6, 0, 6, 1), 'one'));
    const [counts] = await problems(uri, [6]);
    assert.equal(counts!.range.start.line, 6);
    assert.equal(counts!.message, "Line 7: the counts line must hold positive whole numbers, one per species (found 'one')");
    assert.equal(editor.document.getText(counts!.range), 'one');

    // Warnings: no species line (VASP 4) and two atoms 0.2 Å apart across the cell boundary.
    const warned = await openDocument('cell\n1.0\n10 0 0\n0 10 0\n0 0 10\n2\nDirect\n0.01 0 0\n0.99 0 0\n', 'poscar');
    const warnings = await problems(warned.document.uri, [5, 8]);
    assert.ok(
      warnings.every((d) => d.severity === vscode.DiagnosticSeverity.Warning),
      describe(warnings),
    );
    assert.match(warnings.find((d) => d.range.start.line === 8)!.message, /^Line 9: this X1 atom is 0\.200 Å from the X1 atom on line 8/);
    assert.match(warnings.find((d) => d.range.start.line === 5)!.message, /^Line 6: no element names line/);
  });

  test("the Problems panel lists a broken POSCAR's errors", async () => {
    const editor = await openWorkspaceFile('POSCAR_broken');
    const ds = await problems(editor.document.uri, [6]);
    assert.ok(
      ds.some((d) => d.range.start.line === 6 && d.severity === vscode.DiagnosticSeverity.Error && /'two'/.test(d.message)),
      describe(ds),
    );
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await new Promise((resolve) => setTimeout(resolve, 800));
    await screenshot('poscar-problems');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });

  test('hover on the comment, species and counts lines; CodeLens with the summary and Show Structure', async () => {
    const editor = await openWorkspaceFile('NaCl.vasp');
    const uri = editor.document.uri;
    const summary = await hoverText(uri, new vscode.Position(0, 3));
    for (const part of [
      'NaCl',
      'Na4Cl4',
      '8 atoms',
      '179.41 Å³',
      '2.164 g/cm³',
      '5.6400 5.6400 5.6400 Å',
      '90.00°',
      'Cartesian coordinates',
    ]) {
      assert.ok(summary.includes(part), `hover has ${part}: ${summary}`);
    }
    assert.ok((await hoverText(uri, new vscode.Position(6, 5))).includes('8 atoms'), 'counts line hover');
    const cl = await hoverText(uri, new vscode.Position(5, 9));
    assert.match(cl, /Cl.*chlorine, Z = 17/s);
    assert.equal(await hoverText(uri, new vscode.Position(9, 3)), '', 'no hover on a coordinate line');

    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10);
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.match(
      titles.at(-1)!,
      /^Na4Cl4 · 8 atoms · 179\.41 Å³ · 2\.164 g\/cm³ · a b c 5\.6400 5\.6400 5\.6400 Å · α β γ 90\.00° 90\.00° 90\.00°$/,
    );
    assert.ok(lenses.every((l) => l.range.start.line === 0));
    const show = lenses.find((l) => l.command?.command === 'tokenLens.showStructure');
    assert.ok(show, titles.join(' | '));
    assert.equal(String(show.command!.arguments![0]), String(uri));
    assert.equal(titles.indexOf(show.command!.title), 0, 'the actions come first, where a narrow column still shows them');
  });

  test("Outline symbols and folding follow the file's parts", async () => {
    const editor = await openWorkspaceFile('CONTCAR.relax');
    const uri = editor.document.uri;
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri);
    assert.deepEqual(
      symbols.map((s) => s.name),
      ['Comment', 'Lattice', 'Species and counts', 'Sites', 'Velocities'],
    );
    const sites = symbols.find((s) => s.name === 'Sites')!;
    assert.deepEqual(
      sites.children.map((c) => [c.name, c.detail, c.range.start.line, c.range.end.line]),
      [['Si', '2 sites', 8, 9]],
    );
    const velocities = symbols.find((s) => s.name === 'Velocities')!;
    assert.deepEqual([velocities.range.start.line, velocities.range.end.line], [11, 12]);
    const lattice = symbols.find((s) => s.name === 'Lattice')!;
    assert.deepEqual([lattice.range.start.line, lattice.range.end.line], [1, 4]);
    const folds = await vscode.commands.executeCommand<vscode.FoldingRange[]>('vscode.executeFoldingRangeProvider', uri);
    const spans = folds.map((f) => `${f.start}-${f.end}`);
    assert.ok(spans.includes('7-9'), `the coordinate block folds: ${spans}`);
    assert.ok(spans.includes('11-12'), `the velocity block folds: ${spans}`);
  });

  test('Show Structure: the cell in 3D beside the editor, with cell, bonds, legend and summary', async function () {
    this.timeout(patience(60_000)); // software WebGL in a loaded machine draws slowly
    const editor = await openWorkspaceFile('NaCl.vasp');
    await vscode.commands.executeCommand('tokenLens.showStructure');
    const r = await reportWhere((x) => x.atoms > 0, 'the first render');
    assert.equal(vscode.window.activeTextEditor?.document, editor.document, 'the editor keeps focus');
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Structure: NaCl.vasp');
    assert.ok(tab, 'a Structure: NaCl.vasp tab');
    assert.equal(tab.group.viewColumn, vscode.ViewColumn.Two);
    // 8 sites, plus the images on the faces, edges and corners of the cube: the 27-atom rock-salt block.
    assert.equal(r.atoms, 27);
    assert.ok(r.bonds >= 54, `Na-Cl bonds drawn: ${r.bonds}`);
    assert.equal(r.legend.replace(/\s+/g, ' ').trim(), 'Na 4 Cl 4');
    assert.match(r.title, /^NaCl\.vasp — Na4Cl4$/);
    assert.match(r.summary, /8 atoms · 179\.41 Å³/);
    const { painted } = (await report('report', { paint: true }))!;
    assert.ok(painted > 0.02, `the canvas shows the structure (${(painted * 100).toFixed(1)} % painted)`);
    assert.equal(r.note, '');
    // Antialiasing only on a GPU: software WebGL draws each antialiased frame several times slower.
    assert.ok(r.renderer, 'the WebGL renderer is named');
    assert.equal(r.antialias, !isSoftwareRenderer(r.renderer), `antialias ${r.antialias} with ${r.renderer}`);
    if (screenshotsSupported()) assert.equal(r.antialias, false, `the headless Chromium draws in software: ${r.renderer}`);
    const hovered = await report('hover', { atom: 0 });
    assert.match(hovered!.hover, /^Na 1 \(line 9\) {2}\(0\.000, 0\.000, 0\.000\) Å$/);
    // Click two atoms for a distance, a third for the angle at the middle one: Na–Cl a/2, Cl–Na–Cl 90°.
    await report('pick', { atom: 4 });
    assert.match((await report('pick', { atom: 0 }))!.measurement, /^Cl 5 \(line 13\) – Na 1 \(line 9\): 2\.8200 Å$/);
    const angled = (await report('pick', { atom: 5 }))!;
    assert.match(
      angled.measurement,
      /^Cl 5 \(line 13\) – Na 1 \(line 9\) – Cl 6 \(line 14\): 90\.00° \(at Na 1 \(line 9\); 2\.8200 Å and 2\.8200 Å\)$/,
    );
    await screenshot('structure-measure-angle');
    assert.equal((await report('pick', {}))!.measurement, '', 'cleared');
    for (const [theme, kind] of [
      ['Default Dark Modern', 'dark'],
      ['Default Light Modern', 'light'],
      ['Default High Contrast', 'high-contrast'],
    ]) {
      await vscode.workspace.getConfiguration('workbench').update('colorTheme', theme, vscode.ConfigurationTarget.Global);
      await reportWhere((x) => x.theme === kind, `the ${kind} theme`);
      await screenshot(`structure-${kind}`);
    }
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
  });

  test('the view follows edits, keeps the last valid structure while the file has errors, and repeats the cell', async function () {
    this.timeout(patience(60_000)); // software WebGL in a loaded machine draws slowly
    const editor = await openDocument(GOOD, 'poscar');
    await vscode.commands.executeCommand('tokenLens.showStructure', editor.document.uri);
    const first = await reportWhere((x) => x.atoms > 0, 'the first render');
    assert.equal(first.atoms, 8, 'one site at the origin, drawn at the eight corners of the cell');
    assert.match(
      first.summary,
      /^Cu · 1 atom · 11\.81 Å³ · 8\.935 g\/cm³ · a b c 2\.5562 2\.5562 2\.5562 Å · α β γ 60\.00° 60\.00° 60\.00°$/,
    );

    await editor.edit((e) => e.replace(new vscode.Range(1, 0, 1, 5), '4.0'));
    await reportWhere((x) => /a b c 2\.8284/.test(x.summary), 'the new lattice constant');

    await editor.edit((e) => e.replace(new vscode.Range(6, 0, 6, 1), 'x'));
    const broken = await reportWhere((x) => x.note !== '', 'the note about errors');
    assert.match(broken.note, /has 1 error \(Line 7: .*'x'.*\): showing the last valid structure\./);
    assert.equal(broken.atoms, 8, 'the last valid structure stays');

    await editor.edit((e) => e.replace(new vscode.Range(6, 0, 6, 1), '1'));
    await reportWhere((x) => x.note === '', 'the note gone after the fix');

    const repeated = await report('setRepeat', { repeat: [2, 2, 2] });
    assert.deepEqual(repeated!.repeat, [2, 2, 2]);
    assert.equal(repeated!.atoms, 27, '2×2×2 copies with the far faces: 3×3×3 lattice points');
  });

  test('Export PNG writes the picture; the view comes back after a reload with its options', async function () {
    this.timeout(patience(60_000)); // software WebGL in a loaded machine draws slowly
    const editor = await openWorkspaceFile('Si.vasp');
    await vscode.commands.executeCommand('tokenLens.showStructure');
    await reportWhere((x) => x.atoms > 0, 'the first render', 45_000);
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'token-lens-png-')), 'si.png');
    await report('exportPng', { target: vscode.Uri.file(target).toString() });
    await waitFor(() => fs.existsSync(target) && fs.statSync(target).size > 1000, 5000, 'the PNG file');
    assert.deepEqual([...fs.readFileSync(target).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

    await vscode.commands.executeCommand(TEST, 'closeAll');
    const restored = await vscode.commands.executeCommand<string[]>(TEST, 'restore', {
      uri: editor.document.uri.toString(),
      options: { repeat: [2, 1, 1], bonds: false, cell: true },
    });
    assert.deepEqual(restored, [editor.document.uri.toString()]);
    const r = await reportWhere((x) => x.atoms > 0, 'the restored view');
    assert.deepEqual(r.repeat, [2, 1, 1]);
    // Hostile persisted state is ignored, never trusted.
    await vscode.commands.executeCommand(TEST, 'closeAll');
    assert.deepEqual(await vscode.commands.executeCommand(TEST, 'restore', { uri: 42, options: '<img>' }), []);
  });

  test('Generate KPOINTS (Line Mode): the open POSCAR’s Setyawan-Curtarolo path in a new editor; a broken file gets none', async () => {
    const source = await openWorkspaceFile('Si.vasp');
    const made = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('tokenLens.generateKpoints', { density: 10 });
    assert.ok(made?.isUntitled, 'a new untitled document');
    assert.equal(vscode.window.activeTextEditor?.document, made, 'shown');
    const lines = made.getText().split('\n');
    // The conventional cubic cell of diamond Si: its metric alone says CUB, moyo's space group 227 says FCC (the
    // primitive lattice's path), and the comment line says where the lattice type came from.
    assert.match(lines[0]!, /^FCC k-path of Setyawan & Curtarolo \(2010\); space group 227; /);
    assert.deepEqual(lines.slice(2, 4), ['Line-mode', 'Reciprocal']);
    assert.ok(Number(lines[1]) >= 2);
    assert.ok(lines.some((l) => l.endsWith('! \\Gamma')) && lines.some((l) => l.endsWith('! K')), 'labels as pymatgen writes them');
    assert.equal(source.document.isDirty, false, 'the POSCAR is untouched');
    await openWorkspaceFile('POSCAR_broken');
    assert.equal(
      await vscode.commands.executeCommand('tokenLens.generateKpoints', { density: 10 }),
      undefined,
      'nothing for a broken file',
    );
  });

  test('Show Structure without a POSCAR explains itself', async () => {
    await openDocument('just text', 'plaintext');
    assert.equal(await vscode.commands.executeCommand('tokenLens.showStructure'), undefined);
    assert.deepEqual(await vscode.commands.executeCommand(TEST, 'open'), []);
  });
});
