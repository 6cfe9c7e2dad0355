/**
 * The powder pattern view across a real window reload: Powder Pattern of This Structure on a POSCAR file, the window
 * reloaded (a new extension host), and the view must be back, computed again from the file (the pattern is not
 * stored anywhere: the page keeps only the id, which names the file).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ResultReport } from '../../src/webviews/results/protocol';
import { activateExtension, patience, screenshot, sleep, waitFor } from '../suite/util';
import { acrossReload } from './reload';

const TEST = 'tokenLens.xrd.test';

suite('The powder pattern view across a window reload', () => {
  test('shown, the window reloaded: the view is back with the same peaks, computed again from the file', async function () {
    this.timeout(patience(180_000));
    await acrossReload(this, 'xrd', showPattern, afterReload);
  });
});

async function pattern(): Promise<ResultReport> {
  return waitFor(
    async () => {
      const report = await vscode.commands.executeCommand<ResultReport | undefined>(TEST, 'report');
      return report?.state === 'done' && report.plots.length > 0 ? report : undefined;
    },
    90_000,
    'the pattern view',
  );
}

/** The first run: the pattern of NaCl.vasp shown; returns the file's URI. */
async function showPattern(): Promise<string> {
  await activateExtension();
  const folder = vscode.workspace.workspaceFolders![0]!.uri;
  const uri = vscode.Uri.joinPath(folder, 'NaCl.vasp');
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  await vscode.commands.executeCommand('tokenLens.powderPattern');
  assert.match((await pattern()).headline, /^\d+ peaks/);
  await sleep(1000); // the page keeps its state ({ runId }) once it has shown the run
  return uri.toString();
}

async function afterReload(uri: string): Promise<void> {
  await activateExtension();
  try {
    await waitFor(
      async () => ((await vscode.commands.executeCommand<string[] | undefined>(TEST, 'open')) ?? []).includes(uri),
      60_000,
      'the pattern view to come back',
    );
    const report = await pattern();
    assert.match(report.headline, /^\d+ peaks/);
    assert.ok(
      report.tables[0]!.rows.some((row) => / \| 200 \| 6$/.test(row)),
      'NaCl 200, multiplicity 6',
    );
    await sleep(500);
    await screenshot('powder-pattern-after-reload');
  } finally {
    await vscode.commands.executeCommand(TEST, 'closeAll');
  }
}
