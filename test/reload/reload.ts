/**
 * A test across a real window reload: its first pass does `before`; once every test of the pass has done its `before`,
 * the window reloads, once for all of them (a reload costs a new extension host, about 10 s); the pass after that
 * reload (a new extension host) checks each with its `after`. The runner reports the last pass. What a pass keeps for
 * the next is a marker file per test in TOKEN_LENS_RUN_DIR (the headless runner's folder of this run).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { patience, screenshotsSupported, sleep } from '../suite/util';

interface Marker<T> {
  pid: number;
  saved?: T;
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
      await after(marker.saved as T);
      fs.writeFileSync(file, JSON.stringify({ ...marker, outcome: '' }));
    } catch (error) {
      fs.writeFileSync(file, JSON.stringify({ ...marker, outcome: error instanceof Error ? error.message : String(error) }));
      throw error;
    }
    return;
  }
  let saved: T;
  try {
    saved = await before();
  } catch (error) {
    // Failed before any reload: the later pass repeats this outcome rather than starting over.
    fs.writeFileSync(file, JSON.stringify({ pid: process.pid, outcome: error instanceof Error ? error.message : String(error) }));
    throw error;
  }
  fs.writeFileSync(file, JSON.stringify({ pid: process.pid, saved } satisfies Marker<T>));
  context.test!.title += ' (its first half: checked after the reload)';
  reloadPending = true;
}

let reloadPending = false;

// After the last test of a pass whose tests saved something to check: one reload for all of them.
suiteTeardown(async function () {
  if (!reloadPending) return;
  this.timeout(patience(90_000));
  await vscode.commands.executeCommand('workbench.action.reloadWindow');
  await sleep(60_000);
  throw new Error('The window did not reload: this extension host still runs 60 s later.');
});
