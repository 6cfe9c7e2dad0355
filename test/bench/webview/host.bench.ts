/**
 * What every window pays: activate()'s time, and the extension host's CPU after typing stops in a
 * 500,000-character document with the status bar counting (and comparing encodings in its tooltip),
 * against the same typing with the status bar switched off (the host's own baseline: other
 * extensions, the document's garbage). Prints `[host-bench]` lines that `npm run bench` collects; the
 * goals are judged there.
 */
import * as vscode from 'vscode';
import type { TokenLensTestApi } from '../../../src/api';
import { inspectorText } from '../textgen';
import { activateExtension, closeAllEditors, openDocument, sleep, waitFor } from '../../suite/util';

const SIZE = 500_000;
const TYPED = 'typing a few words ';
const IDLE_MS = 10_000;
/** The count and the tooltip's comparison after the last keystroke have settled by then. */
const SETTLE_MS = 1_000;

/** CPU time (user + system) of this process, the extension host, in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

interface Window {
  settleCpuMs: number;
  idleCpuMs: number;
  idleMs: number;
  comparisonsWhileSettling: number;
  comparisonsWhileIdle: number;
}

/** Types TYPED into `editor` like a fast typist, then measures the host's CPU while nothing happens. */
async function typeThenIdle(api: TokenLensTestApi, editor: vscode.TextEditor): Promise<Window> {
  for (const ch of TYPED) {
    const at = editor.selection.active;
    await editor.edit((edit) => edit.insert(at, ch));
    await sleep(80);
  }
  const typedAt = Date.now();
  const comparisons0 = api.comparisons;
  const cpu0 = cpuMs();
  await sleep(SETTLE_MS);
  const comparisons1 = api.comparisons;
  const cpu1 = cpuMs();
  await sleep(IDLE_MS - SETTLE_MS);
  const cpu2 = cpuMs();
  return {
    settleCpuMs: cpu1 - cpu0,
    idleCpuMs: cpu2 - cpu1,
    idleMs: Date.now() - typedAt - SETTLE_MS,
    comparisonsWhileSettling: comparisons1 - comparisons0,
    comparisonsWhileIdle: api.comparisons - comparisons1,
  };
}

suite('Extension host benchmark', () => {
  test(`activation, and idle CPU for ${IDLE_MS / 1000} s after typing stops in a ${SIZE.toLocaleString('en-US')}-character document`, async function () {
    this.timeout(300_000);
    const api = await activateExtension<TokenLensTestApi>();
    const materialsAtActivation = api.materialsStartedBy ?? null; // a prompt writer's window: no POSCAR open
    const settings = vscode.workspace.getConfiguration('tokenLens');
    const editor = await openDocument(inspectorText(SIZE), 'plaintext');
    editor.selection = new vscode.Selection(40, 0, 40, 0);
    try {
      await settings.update('statusBar.enabled', false, vscode.ConfigurationTarget.Global);
      const baseline = await typeThenIdle(api, editor);
      await settings.update('statusBar.enabled', undefined, vscode.ConfigurationTarget.Global);
      await waitFor(
        () => api.statusBar.tooltip.includes('| gpt2 |'),
        120_000,
        () => `the tooltip comparison; it shows ${api.statusBar.tooltip}`,
        100,
      );
      const measured = await typeThenIdle(api, editor);
      const result = {
        activationMs: api.activationMs,
        loadMs: api.loadMs,
        evaluationMs: api.evaluationMs,
        hostWaitMs: api.hostWaitMs,
        materialsAtActivation,
        chars: editor.document.getText().length,
        typed: TYPED.length,
        ...measured,
        baselineSettleCpuMs: baseline.settleCpuMs,
        baselineIdleCpuMs: baseline.idleCpuMs,
        tooltipComplete: api.statusBar.tooltip.includes('| gpt2 |'),
      };
      console.log(`[host-bench] result ${JSON.stringify(result)}`);
    } finally {
      await settings.update('statusBar.enabled', undefined, vscode.ConfigurationTarget.Global);
      await closeAllEditors();
    }
  });
});
