/**
 * The powder pattern view across a real window reload: Powder Pattern of This Structure on a POSCAR file, the window
 * reloaded (a new extension host), and the view must be back, computed again from the file (the pattern is not
 * stored anywhere: the page keeps only the id, which names the file).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ResultReport } from '../../src/webviews/results/protocol';
import { activateExtension, screenshot, screenshotsSupported, sleep, waitFor } from '../suite/util';

const TEST = 'tokenLens.xrd.test';

interface BeforeReload {
  pid: number;
  uri: string;
}

suite('The powder pattern view across a window reload', () => {
  test('shown, the window reloaded: the view is back with the same peaks, computed again from the file', async function () {
    const runDir = process.env.TOKEN_LENS_RUN_DIR;
    if (!runDir || !screenshotsSupported()) {
      console.warn('SKIPPED LOUDLY: only the headless runner survives a window reload (TOKEN_LENS_RUN_DIR).');
      this.skip();
    }
    this.timeout(180_000);
    const marker = path.join(runDir, 'xrd-reload.json');
    if (fs.existsSync(marker)) await afterReload(JSON.parse(fs.readFileSync(marker, 'utf8')) as BeforeReload);
    else await showThenReload(marker);
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

async function showThenReload(marker: string): Promise<never> {
  await activateExtension();
  const folder = vscode.workspace.workspaceFolders![0]!.uri;
  const uri = vscode.Uri.joinPath(folder, 'NaCl.vasp');
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  await vscode.commands.executeCommand('tokenLens.powderPattern');
  assert.match((await pattern()).headline, /^\d+ peaks/);
  await sleep(1000); // the page keeps its state ({ runId }) once it has shown the run
  fs.writeFileSync(marker, JSON.stringify({ pid: process.pid, uri: uri.toString() } satisfies BeforeReload));
  await vscode.commands.executeCommand('workbench.action.reloadWindow');
  await sleep(60_000);
  throw new Error('The window did not reload: this extension host still runs 60 s later.');
}

async function afterReload(before: BeforeReload): Promise<void> {
  assert.notEqual(process.pid, before.pid, 'a new extension host: the window did reload');
  await activateExtension();
  try {
    await waitFor(
      async () => ((await vscode.commands.executeCommand<string[] | undefined>(TEST, 'open')) ?? []).includes(before.uri),
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
