/**
 * The Structure Runs list in the Explorer: one entry per run of this workspace, newest first, with
 * its input, kind, start time, duration and state; open, cancel, run again, reveal the input, save
 * the raw answer as JSON, remove.
 */
import * as vscode from 'vscode';
import type { RunStore } from './store';
import { Disposable } from '../platform/disposable';
import type { ResultViews } from '../webviews/results/feature';
import { saveResult } from '../webviews/results/saveResult';
import { isAppKind, kindLabel, type RunRecord } from '../core/runs/run';
import { notify } from '../platform/notify';
import { isParameterKind } from '../core/runs/parameters';
import { runsTestDriver } from './testDriver';
import { hostLocale } from '../platform/locale';

/** What the list asks of whoever runs a kind: cancel a run, run it again (relax and MD: with the options form too). */
export interface RunControl {
  cancel(runId: string): void;
  again(runId: string): unknown;
  againWithOptions(runId: string): unknown;
}

const ICONS: Record<RunRecord['state'], vscode.ThemeIcon> = {
  running: new vscode.ThemeIcon('sync~spin'),
  done: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  cancelled: new vscode.ThemeIcon('circle-slash'),
};

export function duration(ms: number | undefined): string {
  if (ms === undefined) return '';
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}

/** "done · 1.2 s · 21:03" */
export function runDescription(run: RunRecord): string {
  const when = new Date(run.startedAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return [run.state, duration(run.durationMs), when].filter(Boolean).join(' · ');
}

export class RunsTree extends Disposable implements vscode.TreeDataProvider<RunRecord> {
  private readonly changed = this.register(new vscode.EventEmitter<RunRecord | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly store: RunStore,
    private readonly runs: RunControl,
    private readonly views: ResultViews,
    testMode: boolean,
  ) {
    super();
    if (TEST_HOOKS && testMode) this.register(runsTestDriver(store, this));
    this.register(store.onDidChange(() => this.changed.fire(undefined)));
    const command = (name: string, action: (run: RunRecord) => unknown) =>
      this.register(
        vscode.commands.registerCommand(`tokenLens.runs.${name}`, (run?: RunRecord) => run && action(this.store.get(run.id) ?? run)),
      );
    command('open', (run) => this.views.show(run, false));
    command('cancel', (run) => this.runs.cancel(run.id));
    command('again', (run) => this.runs.again(run.id));
    command('againWithOptions', (run) => this.runs.againWithOptions(run.id));
    command('reveal', (run) => revealInput(run));
    command('save', (run) => saveResult(run));
    command('remove', (run) => this.store.remove((r) => r.id === run.id && r.state !== 'running'));
    this.register(vscode.commands.registerCommand('tokenLens.runs.clear', () => this.store.remove((r) => r.state !== 'running')));
  }

  getTreeItem(run: RunRecord): vscode.TreeItem {
    const item = new vscode.TreeItem(`${kindLabel(run.kind, hostLocale().t)} · ${run.inputName}`);
    item.id = run.id;
    item.description = runDescription(run);
    item.iconPath = ICONS[run.state];
    // ".options": a relax or MD run that has ended, which Run Again with Options… can send again.
    const options = isParameterKind(run.kind) && run.state !== 'running' ? '.options' : '';
    item.contextValue = `run.${run.state}${run.response ? '.answered' : ''}${options}`;
    item.tooltip = new vscode.MarkdownString().appendText(
      vscode.l10n.t(
        '{0} of {1}\n\nStarted {2}',
        kindLabel(run.kind, hostLocale().t),
        run.inputUri,
        new Date(run.startedAt).toLocaleString(),
      ) + `${run.durationMs !== undefined ? vscode.l10n.t(', took {0}', duration(run.durationMs)) : ''}\n\n${run.error ?? run.state}`,
    );
    item.command = { command: 'tokenLens.runs.open', title: vscode.l10n.t('Open Result'), arguments: [run] };
    return item;
  }

  getChildren(element?: RunRecord): RunRecord[] {
    return element ? [] : [...this.store.all];
  }
}

async function revealInput(run: RunRecord): Promise<void> {
  // An application run without a data file: its request is the input.
  if (isAppKind(run.kind) && vscode.Uri.parse(run.inputUri).scheme === 'untitled') {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'json', content: run.inputText }));
    return;
  }
  try {
    await vscode.window.showTextDocument(vscode.Uri.parse(run.inputUri), { preview: false });
  } catch {
    const document = await vscode.workspace.openTextDocument({ language: isAppKind(run.kind) ? 'json' : 'poscar', content: run.inputText });
    await vscode.window.showTextDocument(document);
    void notify.info(vscode.l10n.t('{0} is no longer where it was; this is the text that was sent.', run.inputName));
  }
}
