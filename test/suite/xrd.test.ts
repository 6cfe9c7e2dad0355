import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as os from 'node:os';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { ResultReport } from '../../src/webviews/results/protocol';
import { activateExtension, closeAllEditors, openWorkspaceFile, patience, screenshot, waitFor } from './util';

const TEST = 'tokenLens.xrd.test';
const SCAN = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'diffraction', 'NaCl_scan.csv.xy');

suite('Powder pattern', () => {
  suiteSetup(async () => {
    await activateExtension();
  });

  teardown(async () => {
    await vscode.commands.executeCommand(TEST, 'closeAll');
    await closeAllEditors();
  });

  test('Powder Pattern of This Structure: NaCl computed here, over the open NaCl scan with a score; Export Pattern… writes .xy', async function () {
    this.timeout(patience(120_000)); // the first materials command loads the materials side
    const scan = await vscode.workspace.openTextDocument(SCAN);
    await vscode.window.showTextDocument(scan, { preview: false });
    const editor = await openWorkspaceFile('NaCl.vasp');
    await vscode.commands.executeCommand('tokenLens.powderPattern');
    let report: ResultReport | undefined;
    await waitFor(
      async () => {
        report = await vscode.commands.executeCommand<ResultReport | undefined>(TEST, 'report');
        return report?.state === 'done' && report.plots.length > 0;
      },
      90_000,
      'the pattern view',
    );
    assert.match(report!.headline, /^\d+ peaks/);
    assert.deepEqual(
      report!.plots.map((p) => [p.title, p.series]),
      [['Computed pattern over the measured one', 2]],
    );
    assert.ok(
      report!.tables[0]!.rows.some((row) => / \| 200 \| 6$/.test(row)),
      report!.tables[0]!.rows.slice(0, 3).join('\n'),
    );
    assert.deepEqual(report!.warnings, []);
    await screenshot('powder-pattern-over-scan');

    const target = vscode.Uri.file(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'xrd-')), 'NaCl.xy'));
    await vscode.commands.executeCommand('tokenLens.exportPattern', editor.document.uri, target);
    const written = fs.readFileSync(target.fsPath, 'utf8');
    assert.match(written, /^# NaCl\.vasp: computed powder pattern, wavelength 1\.54056 Å/);
    assert.match(written, /\n31\.\d{4} 100\.0000\n/, 'NaCl 200 at 31.7°, the strongest');
  });

  test('After a reload the pattern view is computed again from its file; a file that is gone is a message, not a blank view', async function () {
    this.timeout(patience(120_000));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xrd-restore-'));
    const file = path.join(dir, 'NaCl.vasp');
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.copyFileSync(path.join(folder, 'NaCl.vasp'), file);
    const uri = vscode.Uri.file(file).toString();
    // What the result views' serializer does with the state a pattern page kept ({ runId }).
    await vscode.commands.executeCommand('tokenLens.results.test', 'restore', { runId: `xrd:${uri}` });
    assert.deepEqual(await vscode.commands.executeCommand(TEST, 'open'), [uri]);
    const report = await waitFor(
      async () => {
        const r = await vscode.commands.executeCommand<ResultReport | undefined>(TEST, 'report');
        return r?.state === 'done' && r.plots.length > 0 ? r : undefined;
      },
      90_000,
      'the restored pattern view',
    );
    assert.match(report.headline, /^\d+ peaks/);
    assert.ok(report.tables[0]!.rows.some((row) => / \| 200 \| 6$/.test(row)));

    await vscode.commands.executeCommand(TEST, 'closeAll');
    fs.rmSync(dir, { recursive: true });
    const webviews = () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview).length;
    const before = webviews();
    await vscode.commands.executeCommand('tokenLens.results.test', 'restore', { runId: `xrd:${uri}` });
    assert.deepEqual(await vscode.commands.executeCommand(TEST, 'open'), [], 'no view for a file that is gone');
    // At most as many as before: a view closeAll was still closing when they were counted may close meanwhile.
    await waitFor(() => webviews() <= before, 10_000, 'the page the serializer was given to be closed');
  });
});
