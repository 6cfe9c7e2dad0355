/**
 * A test across a real window reload: its first pass does `before` and reloads the window; the pass after that
 * reload (a new extension host) checks with `after`. Several such tests each reload once, so the suite runs once
 * more per test: a test already checked repeats its outcome on the later passes (the runner reports the last). What a pass keeps for the next is a marker file
 * in TOKEN_LENS_RUN_DIR (the headless runner's folder of this run).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { screenshotsSupported, sleep } from '../suite/util';

interface Marker<T> {
  pid: number;
  saved: T;
  /** Once checked: '' when it passed, else the failure. */
  outcome?: string;
}

export async function acrossReload<T>(
  context: Mocha.Context,
  name: string,
  before: () => Promise<T>,
  after: (saved: T) => Promise<void>,
): Promise<void> {
  const runDir = process.env.TOKEN_LENS_RUN_DIR;
  if (!runDir || !screenshotsSupported()) {
    console.warn('SKIPPED LOUDLY: only the headless runner survives a window reload (TOKEN_LENS_RUN_DIR).');
    return context.skip();
  }
  const file = path.join(runDir, `${name}-reload.json`);
  const marker = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Marker<T>) : undefined;
  // Checked on an earlier pass, and another test reloaded since: that pass's outcome, for the last pass's report.
  if (marker?.outcome !== undefined) {
    if (marker.outcome) throw new Error(`On the pass after its reload: ${marker.outcome}`);
    return;
  }
  if (marker) {
    if (marker.pid === process.pid) throw new Error('The window did not reload: the same extension host runs the check.');
    try {
      await after(marker.saved);
      fs.writeFileSync(file, JSON.stringify({ ...marker, outcome: '' }));
    } catch (error) {
      fs.writeFileSync(file, JSON.stringify({ ...marker, outcome: error instanceof Error ? error.message : String(error) }));
      throw error;
    }
    return;
  }
  const saved = await before();
  fs.writeFileSync(file, JSON.stringify({ pid: process.pid, saved } satisfies Marker<T>));
  await vscode.commands.executeCommand('workbench.action.reloadWindow');
  await sleep(60_000);
  throw new Error('The window did not reload: this extension host still runs 60 s later.');
}
